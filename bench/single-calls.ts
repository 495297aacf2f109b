// `npm run bench:singles`: single add and has calls of this build against an
// earlier build of the library (BloomFilter under each scheme, and the
// counting, cuckoo and binary fuse filters), to show that a change to the
// engine made no single call slower. BLOOMWASM_BASELINE names the earlier build's dist/
// folder (for example a clone checked out at an older commit, after
// `npm run build` there). Both builds are loaded the same way, from their
// dist/index.node.js, each in a fresh process of its own, the two taking
// turns, under Node 24 (build/runtimes) and this Node; the parent writes the
// "singles" section of docs/BENCHMARKS.md.
//
// Env: BLOOMWASM_BASELINE (required), BENCH_QUICK=1 (10^4 items, 1 process
// each, report to build/bench/), BENCH_ROUNDS (timed rounds, default 7),
// BENCH_REPEAT (processes per build and runtime, default 3), SINGLES_CHILD
// (in a child: the dist folder it measures).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { shortKeys, urls, type ItemSet } from './data.js';
import { documentPath, writeSection } from './document.js';
import { commitOf, describeMachine, measureInterleaved, nodeRuntimes, settingsFromEnv, type Context, type Spec } from './harness.js';
import { formatDate, formatMachine, formatNs } from './format.js';
import type { Row } from './results.js';

const quick = process.env.BENCH_QUICK === '1';
/**
 * Items per set. 2 × 10^5 at m = 10n is a 250 KB filter, which stays in
 * cache: a single call's own cost (the crossing, the string, the hash) is
 * what a change to the engine can make slower, and a cache miss per probe
 * would hide it.
 */
const N = quick ? 10_000 : 200_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 2 : 7));
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? (quick ? 1 : 3)));
const BLOCK = 1000;
/** The schemes, each with its k: sbbf sets 8 bits in one block. */
const SCHEMES = [['xxh64', 7], ['sbbf', 8], ['bytesum', 7], ['poly', 7]] as const;

interface Filter {
  add(item: string): boolean;
  has(item: string): boolean;
  clear(): void;
}
interface Library {
  BloomFilter: new (bits: number, hashes: number, options?: { scheme?: string }) => Filter;
  CountingBloomFilter: new (bits: number, hashes: number) => Filter;
  CuckooFilter: { forCapacity(n: number, p: number): Filter };
  BinaryFuseFilter: { from(items: readonly string[]): { has(item: string): boolean } };
}

/** Measures the build in `dist`, in this (child) process. */
async function measureChild(dist: string): Promise<Row[]> {
  const { BloomFilter, CountingBloomFilter, CuckooFilter, BinaryFuseFilter } = (await import(pathToFileURL(join(dist, 'index.node.js')).href)) as Library;
  const sets: [string, ItemSet, ItemSet][] = [
    ['URLs of 64-70 characters', urls(N, 1, 'p'), urls(N, 2, 'q')],
    ['keys of 8-16 bytes', shortKeys(N, 3, 'p'), shortKeys(N, 4, 'q')],
  ];
  const rows: Row[] = [];
  const ctx: Context = { settings: settingsFromEnv(), results: { rows } as unknown as Context['results'], log: () => {} };
  const loop = (f: (s: string) => boolean, set: string[]) => (from: number, block: number) => {
    let yes = 0;
    for (let i = from; i < from + block; i++) if (f(set[i])) yes++;
    return yes;
  };
  const specs: Spec[] = [];
  for (const [items, present, absent] of sets) {
    for (const [scheme, k] of SCHEMES) {
      const workload = `${items}, ${scheme}`;
      // sbbf takes whole 256-bit blocks.
      const m = Math.ceil((10 * N) / 256) * 256;
      const full = new BloomFilter(m, k, { scheme });
      for (const s of present.strings) full.add(s);
      const adding = new BloomFilter(m, k, { scheme });
      const contestant = 'single calls';
      specs.push(
        { workload, op: 'add', contestant, block: BLOCK, total: N, reset: () => adding.clear(), run: loop((s) => adding.add(s), present.strings) },
        { workload, op: 'has present', contestant, block: BLOCK, total: N, run: loop((s) => full.has(s), present.strings) },
        { workload, op: 'has absent', contestant, block: BLOCK, total: N, run: loop((s) => full.has(s), absent.strings) },
      );
    }
    // The other families' single calls go through the same boundary: a
    // counting filter's has, a cuckoo filter's add and has, and a binary
    // fuse filter's has, at the same n.
    const contestant = 'single calls';
    const counting = new CountingBloomFilter(10 * N, 7);
    for (const s of present.strings) counting.add(s);
    const cuckoo = CuckooFilter.forCapacity(N, 0.001);
    for (const s of present.strings) cuckoo.add(s);
    const cuckooAdding = CuckooFilter.forCapacity(N, 0.001);
    const fuse = BinaryFuseFilter.from(present.strings);
    specs.push(
      { workload: `${items}, counting`, op: 'has present', contestant, block: BLOCK, total: N, run: loop((s) => counting.has(s), present.strings) },
      { workload: `${items}, counting`, op: 'has absent', contestant, block: BLOCK, total: N, run: loop((s) => counting.has(s), absent.strings) },
      { workload: `${items}, cuckoo`, op: 'add', contestant, block: BLOCK, total: N, reset: () => cuckooAdding.clear(), run: loop((s) => cuckooAdding.add(s), present.strings) },
      { workload: `${items}, cuckoo`, op: 'has present', contestant, block: BLOCK, total: N, run: loop((s) => cuckoo.has(s), present.strings) },
      { workload: `${items}, cuckoo`, op: 'has absent', contestant, block: BLOCK, total: N, run: loop((s) => cuckoo.has(s), absent.strings) },
      { workload: `${items}, binary fuse`, op: 'has present', contestant, block: BLOCK, total: N, run: loop((s) => fuse.has(s), present.strings) },
      { workload: `${items}, binary fuse`, op: 'has absent', contestant, block: BLOCK, total: N, run: loop((s) => fuse.has(s), absent.strings) },
    );
  }
  measureInterleaved(ctx, specs, ROUNDS);
  return rows;
}

if (process.env.SINGLES_CHILD !== undefined) {
  const rows = await measureChild(process.env.SINGLES_CHILD);
  process.stdout.write('\n@@' + JSON.stringify(rows) + '\n');
  process.exit(0);
}

const baseline = process.env.BLOOMWASM_BASELINE;
if (baseline === undefined || !existsSync(join(baseline, 'index.node.js'))) {
  console.error('BLOOMWASM_BASELINE must name the dist/ folder of an earlier build (it holds index.node.js)');
  process.exit(2);
}
const builds = [['this build', join(process.cwd(), 'dist')], ['baseline', baseline as string]] as const;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const started = new Date();
/** Per runtime: the rows of each build, each row the median of its processes. */
const measured: { runtime: string; rows: Map<string, Row[]> }[] = [];
for (const runtime of nodeRuntimes()) {
  const runs = new Map<string, Row[][]>(builds.map(([name]) => [name, []]));
  for (let r = 0; r < REPEAT; r++) {
    // The builds take turns, so that a busy stretch of a shared machine falls on both.
    for (const [name, dist] of builds) {
      console.log(`${runtime.name}: ${name}, in a process of its own (${r + 1} of ${REPEAT})`);
      const done = spawnSync(runtime.path, [process.argv[1]], { env: { ...process.env, SINGLES_CHILD: dist }, encoding: 'utf8', maxBuffer: 1 << 26 });
      if (done.status !== 0) throw new Error(`${name} on ${runtime.name} failed: ${done.stderr}`);
      const line = done.stdout.split('\n').find((l) => l.startsWith('@@'))!;
      runs.get(name)!.push(JSON.parse(line.slice(2)) as Row[]);
    }
  }
  const rows = new Map<string, Row[]>();
  for (const [name, got] of runs) rows.set(name, got[0].map((row, i) => ({ ...row, nsPerOp: median(got.map((g) => g[i].nsPerOp)) })));
  measured.push({ runtime: runtime.name, rows });
}

function render(): string {
  const m = describeMachine();
  const lines = ['## Single calls against an earlier build (`npm run bench:singles`)', ''];
  lines.push(`Run of ${formatDate(started.toISOString())} on ${formatMachine(m)}${quick ? ' (quick run: figures not meaningful)' : ''}. ` +
    `The baseline is the build of commit ${commitOf(builds[1][1])}; this build is of ${commitOf(builds[0][1])}. n = ${N.toLocaleString('en')} items, m = 10n; each build in a fresh process of its own, the two taking turns, ${REPEAT} processes each; ` +
    `median ns per call over ${ROUNDS} interleaved rounds of every item (blocks of ${BLOCK}), and of those the median of the processes. ` +
    'The last column is this build\'s time as a multiple of the baseline\'s: above 1.05 is a regression.', '');
  for (const { runtime, rows } of measured) {
    lines.push(`### ${runtime}`, '', '| items, scheme | operation | baseline | this build | ratio |', '|---|---|---:|---:|---:|');
    const ours = rows.get('this build')!;
    const theirs = rows.get('baseline')!;
    ours.forEach((row, i) => {
      lines.push(`| ${row.workload} | ${row.op} | ${formatNs(theirs[i].nsPerOp)} | ${formatNs(row.nsPerOp)} | ${(row.nsPerOp / theirs[i].nsPerOp).toFixed(2)} |`);
    });
    const ratios = ours.map((row, i) => row.nsPerOp / theirs[i].nsPerOp);
    lines.push('', `Median ratio ${median(ratios).toFixed(2)}, worst ${Math.max(...ratios).toFixed(2)}.`, '');
  }
  return lines.join('\n');
}

const body = render();
const document = documentPath(quick);
writeSection(document, 'singles', body);
console.log(body);
console.log(`wrote ${document}`);
