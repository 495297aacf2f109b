// `npm run bench:cuckoo`: the CuckooFilter at p = 0.001 on 10^5 URLs against
// bloom-filters' CuckooFilter, the split-block BloomFilter (sbbf) at the same
// rate, and, for size, BloomFilter and CountingBloomFilter. Each contestant
// runs in a process of its own (a user's process holds one filter library),
// under Node 24 and Node 20; the parent writes the "cuckoo" section of
// docs/BENCHMARKS.md.
//
// Env: BENCH_QUICK=1 (10^4 URLs and 2 rounds, report to build/bench/),
// BENCH_ROUNDS (timed rounds per operation, default 7; each row keeps the
// median), CUCKOO_CHILD (in a child: the contestant it measures).

import { spawnSync } from 'node:child_process';
import BloomFilters from 'bloom-filters';
// The entry a Node user gets from `import 'bloomwasm'` (package.json's node condition): its batches of
// strings are written into wasm memory with Buffer#write, where other runtimes use encodeInto.
import { BloomFilter, CountingBloomFilter, CuckooFilter } from '../src/index.node.js';
import { urls } from './data.js';
import { documentPath, writeSection } from './document.js';
import { blocksOf, describeMachine, measureInterleaved, nodeRuntimes, packedBlocks, settingsFromEnv, type Context, type Spec } from './harness.js';
import { formatDate, formatMachine, formatNs, formatRatio } from './format.js';
import type { Row } from './results.js';

const P = 0.001;
const quick = process.env.BENCH_QUICK === '1';
const N = quick ? 10_000 : 100_000;
/** bloom-filters' CuckooFilter takes about 16 µs an add: it is timed on a tenth of the items. */
const PEER_N = N / 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 2 : 7));
const BLOCK = 1000;

const CONTESTANTS = ['CuckooFilter', 'bloom-filters CuckooFilter', 'sbbf BloomFilter'] as const;
type Contestant = (typeof CONTESTANTS)[number];

/** What one child measured. */
interface ChildResult {
  contestant: Contestant;
  runtime: string;
  rows: Row[];
  /** Items added that has() then denied, and the rate over the absent set. */
  falseNegatives?: number;
  falsePositiveRate?: number;
  added?: number;
}

/** Measures one contestant, in this (child) process. */
function measureChild(contestant: Contestant): ChildResult {
  const present = urls(N, 1, 'p');
  const absent = urls(N, 2, 'q');
  const rows: Row[] = [];
  const ctx: Context = { settings: settingsFromEnv(), results: { rows } as unknown as Context['results'], log: () => {} };
  const workload = `cuckoo, ${N} URLs, p = ${P}`;
  const loop = (f: (s: string) => unknown, set: string[]) => (from: number, block: number) => {
    let yes = 0;
    for (let i = from; i < from + block; i++) if (f(set[i])) yes++;
    return yes;
  };
  const specs: Spec[] = [];
  const result: ChildResult = { contestant, runtime: `Node ${process.versions.node}`, rows };
  if (contestant === 'CuckooFilter') {
    const full = CuckooFilter.forCapacity(N, P);
    full.addMany(present.strings);
    const adding = CuckooFilter.forCapacity(N, P);
    const removing = CuckooFilter.forCapacity(N, P);
    const presentBlocks = blocksOf(present.strings, BLOCK);
    const absentBlocks = blocksOf(absent.strings, BLOCK);
    const absentPacked = packedBlocks(absent.packed, BLOCK);
    const presentPacked = packedBlocks(present.packed, BLOCK);
    specs.push(
      { workload, op: 'add', contestant, block: BLOCK, total: N, reset: () => adding.clear(), run: loop((s) => adding.add(s), present.strings) },
      { workload, op: 'has present', contestant, block: BLOCK, total: N, run: loop((s) => full.has(s), present.strings) },
      { workload, op: 'has absent', contestant, block: BLOCK, total: N, run: loop((s) => full.has(s), absent.strings) },
      { workload, op: 'has present', contestant: 'CuckooFilter hasMany', block: BLOCK, total: N, run: (from) => full.hasMany(presentBlocks[from / BLOCK])[0] },
      { workload, op: 'has absent', contestant: 'CuckooFilter hasMany', block: BLOCK, total: N, run: (from) => full.hasMany(absentBlocks[from / BLOCK])[0] },
      { workload, op: 'has present', contestant: 'CuckooFilter hasMany packed', block: BLOCK, total: N, run: (from) => full.hasMany(presentPacked[from / BLOCK])[0] },
      { workload, op: 'has absent', contestant: 'CuckooFilter hasMany packed', block: BLOCK, total: N, run: (from) => full.hasMany(absentPacked[from / BLOCK])[0] },
      { workload, op: 'remove', contestant, block: BLOCK, total: N, reset: () => {
        removing.clear();
        removing.addMany(present.strings);
      }, run: loop((s) => removing.remove(s), present.strings) },
    );
    result.added = full.size;
    result.falseNegatives = present.strings.filter((s) => !full.has(s)).length;
    const more = urls(10 * N, 3, 'r').strings;
    result.falsePositiveRate = more.filter((s) => full.has(s)).length / more.length;
  } else if (contestant === 'bloom-filters CuckooFilter') {
    const full = BloomFilters.CuckooFilter.create(N, P);
    let added = 0;
    for (const s of present.strings) if (full.add(s)) added++;
    result.added = added;
    result.falseNegatives = present.strings.filter((s) => !full.has(s)).length;
    result.falsePositiveRate = absent.strings.filter((s) => full.has(s)).length / absent.strings.length;
    const timed = BloomFilters.CuckooFilter.create(N, P);
    for (let i = 0; i < PEER_N; i++) timed.add(present.strings[i]);
    let adding = BloomFilters.CuckooFilter.create(N, P);
    const note = `timed on the first ${PEER_N} items, in a filter sized for ${N}`;
    specs.push(
      { workload, op: 'add', contestant, block: 100, total: PEER_N, reset: () => (adding = BloomFilters.CuckooFilter.create(N, P)), run: loop((s) => adding.add(s), present.strings), note },
      { workload, op: 'has present', contestant, block: 100, total: PEER_N, run: loop((s) => timed.has(s), present.strings), note },
      { workload, op: 'has absent', contestant, block: 100, total: PEER_N, run: loop((s) => timed.has(s), absent.strings), note },
    );
  } else {
    const full = BloomFilter.forCapacity(N, P, { scheme: 'sbbf' });
    full.addMany(present.strings);
    specs.push(
      { workload, op: 'has present', contestant, block: BLOCK, total: N, run: loop((s) => full.has(s), present.strings) },
      { workload, op: 'has absent', contestant, block: BLOCK, total: N, run: loop((s) => full.has(s), absent.strings) },
    );
  }
  measureInterleaved(ctx, specs, ROUNDS);
  return result;
}

if (process.env.CUCKOO_CHILD !== undefined) {
  const out = measureChild(process.env.CUCKOO_CHILD as Contestant);
  process.stdout.write('\n@@' + JSON.stringify(out) + '\n');
  process.exit(0);
}

/** Children per contestant and runtime (BENCH_REPEAT, default 3): each row keeps the median of theirs, so one disturbed process moves nothing. */
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? (quick ? 1 : 3)));

const results: ChildResult[] = [];
const started = new Date();
for (const runtime of nodeRuntimes()) {
  // The contestants take turns (A B C, A B C, ...), so that a busy stretch of a shared machine falls on all of them.
  const runs = new Map<Contestant, ChildResult[]>(CONTESTANTS.map((c) => [c, []]));
  for (let r = 0; r < REPEAT; r++) {
    for (const contestant of CONTESTANTS) {
      console.log(`${runtime.name}: ${contestant}, in a process of its own (${r + 1} of ${REPEAT})`);
      const done = spawnSync(runtime.path, ['--expose-gc', process.argv[1]], { env: { ...process.env, CUCKOO_CHILD: contestant }, encoding: 'utf8', maxBuffer: 1 << 26 });
      if (done.status !== 0) throw new Error(`${contestant} on ${runtime.name} failed: ${done.stderr}`);
      const line = done.stdout.split('\n').find((l) => l.startsWith('@@'))!;
      runs.get(contestant)!.push(JSON.parse(line.slice(2)) as ChildResult);
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[(xs.length - 1) >> 1];
  for (const contestant of CONTESTANTS) {
    const got = runs.get(contestant)!;
    results.push({ ...got[0], rows: got[0].rows.map((row, i) => ({ ...row, nsPerOp: median(got.map((g) => g.rows[i].nsPerOp)) })) });
  }
}

/** Bytes of each structure's file (toBytes), per item of capacity, at p = 0.001. */
function sizes(n: number): [string, number][] {
  const rows: [string, number][] = [
    ['BloomFilter (xxh64)', BloomFilter.forCapacity(n, P).toBytes().length],
    ['BloomFilter (sbbf)', BloomFilter.forCapacity(n, P, { scheme: 'sbbf' }).toBytes().length],
    ['CountingBloomFilter', CountingBloomFilter.forCapacity(n, P).toBytes().length],
  ];
  for (const b of [2, 4, 8]) rows.push([`CuckooFilter, buckets of ${b}`, CuckooFilter.forCapacity(n, P, { bucketSize: b }).toBytes().length]);
  rows.push(['CuckooFilter, growth 2 (first member)', CuckooFilter.forCapacity(n, P, { growth: 2 }).toBytes().length]);
  return rows;
}

function render(): string {
  const lines: string[] = [];
  const m = describeMachine();
  lines.push(`## Cuckoo filter`, '');
  lines.push(`\`npm run bench:cuckoo\` of ${formatDate(started.toISOString())} on ${formatMachine(m)}${quick ? ' (quick run: figures not meaningful)' : ''}. ` +
    `n = ${N.toLocaleString('en')} URLs of 64 to 70 characters, p = ${P}; each contestant in a fresh process of its own, under each runtime; ` +
    `median ns per operation over ${ROUNDS} interleaved rounds of every item (blocks of ${BLOCK}; bloom-filters' on the first ${PEER_N.toLocaleString('en')}), and of those the median of ${REPEAT} processes; imported as a Node user imports \`bloomwasm\` (src/index.node.ts: a batch's joined strings written by \`Buffer#write\`).`, '');
  lines.push('### Size: bits per item of capacity, whole file (header included)', '');
  lines.push('| structure | bytes | bits per item | vs BloomFilter (xxh64) |', '|---|---:|---:|---:|');
  const table = sizes(N);
  for (const [name, bytes] of table) lines.push(`| ${name} | ${bytes.toLocaleString('en')} | ${((bytes * 8) / N).toFixed(2)} | ${formatRatio(bytes / table[0][1])} |`);
  lines.push('');
  for (const runtime of [...new Set(results.map((r) => r.runtime))]) {
    const mine = results.filter((r) => r.runtime === runtime);
    const row = (contestant: string, op: string) => mine.flatMap((r) => r.rows).find((x) => x.contestant === contestant && x.op === op)?.nsPerOp;
    lines.push(`### ${runtime}`, '');
    lines.push('| operation | CuckooFilter | hasMany of strings, per item | hasMany of packed bytes, per item | bloom-filters CuckooFilter | sbbf BloomFilter |', '|---|---:|---:|---:|---:|---:|');
    for (const op of ['add', 'has present', 'has absent', 'remove']) {
      const ours = row('CuckooFilter', op);
      const many = row('CuckooFilter hasMany', op);
      const packed = row('CuckooFilter hasMany packed', op);
      const peer = row('bloom-filters CuckooFilter', op);
      const sbbf = row('sbbf BloomFilter', op);
      const cell = (x: number | undefined, rel?: number) => (x === undefined ? '' : `${formatNs(x)}${rel === undefined || ours === undefined ? '' : ` (${formatRatio(x / ours)})`}`);
      lines.push(`| ${op} | ${cell(ours)} | ${cell(many, many)} | ${cell(packed, packed)} | ${cell(peer, peer)} | ${cell(sbbf, sbbf)} |`);
    }
    lines.push('');
    const ours = mine.find((r) => r.contestant === 'CuckooFilter')!;
    const peer = mine.find((r) => r.contestant === 'bloom-filters CuckooFilter')!;
    lines.push(`Accuracy: CuckooFilter.forCapacity(${N}, ${P}) holds all ${ours.added!.toLocaleString('en')} items with ${ours.falseNegatives} false negatives and a measured rate of ${ours.falsePositiveRate!.toFixed(5)} on ${(10 * N).toLocaleString('en')} absent URLs; ` +
      `bloom-filters' CuckooFilter.create(${N}, ${P}) accepted ${peer.added!.toLocaleString('en')} of the ${N.toLocaleString('en')} adds and then answered ${peer.falseNegatives!.toLocaleString('en')} of them absent (rate ${peer.falsePositiveRate!.toFixed(5)} on ${N.toLocaleString('en')} absent URLs).`, '');
  }
  lines.push('In parentheses: the time divided by CuckooFilter\'s single call of the same operation (for hasMany: its time per item against the single call).');
  return lines.join('\n');
}

const body = render();
const document = documentPath(quick);
writeSection(document, 'cuckoo', body);
console.log(body);
console.log(`wrote ${document}`);
