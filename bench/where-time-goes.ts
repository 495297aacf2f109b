// `npm run bench:where`: where the time of one `has` goes, on URLs of 64 to
// 70 characters at n = 10^6 and p = 0.01, and the sbbf targets side by side
// in this one run.
//
// Part 1 takes the single-item path apart: the crossing into wasm (an export
// that does nothing), the copy (TextEncoder.encodeInto into wasm memory, the
// floor for any string item), the hash with a probe that stays in cache (a
// 256-bit filter), and the probe that goes to memory (the sized filter).
// Part 2 measures the targets: sbbf against the npm `bloomfilter` package,
// the xxh64 layout, and the encodeInto floor; Part 3 the same sbbf batch
// loops built with wasm SIMD (the release build) and without (the `scalar`
// target). Single calls are word by word in both builds (assembly/sbbf.ts,
// sbbfCheckScalar, says why), so part 3 times only batches.
//
// Workload (c)'s shape is measured too: a 10^10-bit filter holding the n
// URLs under each scheme.
//
// Every figure is the median of REPEAT passes over all n items, in ns per
// item. The machine may be shared: the figures are indicative.
//
// Prints the tables and writes them as the "where" section of
// docs/BENCHMARKS.md (of build/bench/BENCHMARKS.md when WHERE_N is set, a
// smaller trial run).
//
// Env: WHERE_N (items, default 10^6), WHERE_REPEAT (default 5), WHERE_HUGE=0
// skips the two 10^10-bit filters (1.25 GB each).

import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { BloomFilter as PeerBloomfilter } from 'bloomfilter';
import { BloomFilter, optimalHashes } from '../src/index.js';
import { urls, type ItemSet } from './data.js';
import { documentPath, writeSection } from './document.js';

const N = Number(process.env.WHERE_N ?? 1_000_000);
const TRIAL = process.env.WHERE_N !== undefined;
const LOAD = loadavg()[0];
const REPEAT = Number(process.env.WHERE_REPEAT ?? 5);
const HUGE = process.env.WHERE_HUGE !== '0';
const P = 0.01;
const encoder = new TextEncoder();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
let sink = 0;

/** Median ns per item of `pass` (which processes all n items), after one warmup pass. */
function measure(n: number, pass: () => number, reset?: () => void): number {
  const times: number[] = [];
  for (let r = 0; r <= REPEAT; r++) {
    reset?.();
    const t = performance.now();
    sink ^= pass();
    const elapsed = performance.now() - t;
    if (r > 0) times.push((elapsed * 1e6) / n);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The raw exports this script calls (a subset of src/wasm's ABI). */
interface Raw {
  memory: WebAssembly.Memory;
  configure(bits: number, hashes: number, scheme: number, seedLo: number, seedHi: number): number;
  has(len: number, wide: number): number;
  add(len: number, wide: number): number;
  hasBatch(count: number, wide: number): number;
  addBatch(count: number, wide: number): number;
  scratchPtr(): number;
  scratchSize(): number;
  batchOffsetsPtr(): number;
  batchMax(): number;
  clear(): void;
}

/** A raw sbbf instance of the module at `file`, with views of its scratch and batch offsets. */
function rawSbbf(file: string, bits: number): { x: Raw; scratch: Uint8Array; offsets: Uint32Array } {
  const module = new WebAssembly.Module(readFileSync(`build/${file}`));
  const x = new WebAssembly.Instance(module, {}).exports as unknown as Raw;
  if (x.configure(bits, 8, 3, 0, 0) !== 0) throw new Error(`cannot configure ${bits} bits`);
  return {
    x,
    scratch: new Uint8Array(x.memory.buffer, x.scratchPtr(), x.scratchSize()),
    offsets: new Uint32Array(x.memory.buffer, x.batchOffsetsPtr(), x.batchMax() + 1),
  };
}

/** Runs `op` over the packed items in chunks that fit the scratch region: the batch path without the JS around it. */
function rawBatch(raw: ReturnType<typeof rawSbbf>, set: ItemSet, op: 'has' | 'add'): number {
  const { bytes, offsets } = set.packed;
  const max = raw.x.batchMax();
  const size = raw.scratch.length;
  let found = 0;
  for (let i = 0; i < N; ) {
    const base = offsets[i];
    let n = 0;
    while (i + n < N && n < max && offsets[i + n + 1] - base <= size) {
      raw.offsets[n + 1] = offsets[i + n + 1] - base;
      n++;
    }
    raw.scratch.set(bytes.subarray(base, offsets[i + n]));
    found += op === 'has' ? raw.x.hasBatch(n, 0) : raw.x.addBatch(n, 0);
    i += n;
  }
  return found;
}

/** Raw single calls, each item's bytes copied in with one set(). */
function rawSingle(raw: ReturnType<typeof rawSbbf>, set: ItemSet, op: 'has' | 'add'): number {
  const { x, scratch } = raw;
  let found = 0;
  for (let i = 0; i < N; i++) {
    const v = set.views[i];
    scratch.set(v);
    found += op === 'has' ? x.has(v.length, 0) : x.add(v.length, 0);
  }
  return found;
}

const table: Array<Record<string, string | number>> = [];
function row(part: string, what: string, ns: number, note = ''): number {
  table.push({ part, what, 'ns/item': Number(ns.toFixed(1)), note });
  console.error(`${part} | ${what}: ${ns.toFixed(1)} ns`);
  return ns;
}

const present = urls(N, 1, 'in');
const absent = urls(N, 2, 'out');
const sbbf = BloomFilter.forCapacity(N, P, { scheme: 'sbbf' });
sbbf.addMany(present.packed);
const classic = BloomFilter.forCapacity(N, P);
classic.addMany(present.packed);
const peer = new PeerBloomfilter(classic.bits, classic.hashes);
for (const s of present.strings) peer.add(s);

// ------------------------------------------------- part 1: the parts of has
const release = rawSbbf('bloom.wasm', sbbf.bits);
rawBatch(release, present, 'add');
const tiny = rawSbbf('bloom.wasm', 256);
const staged = present.views[0];
tiny.scratch.set(staged);
const floorView = release.scratch;

const crossing = row('parts', 'crossing (an export that returns a constant)', measure(N, () => {
  let s = 0;
  for (let i = 0; i < N; i++) s += release.x.scratchSize();
  return s;
}));
const copy = row('parts', 'copy: encodeInto of the URL into wasm memory (the floor)', measure(N, () => {
  let s = 0;
  for (let i = 0; i < N; i++) s += encoder.encodeInto(absent.strings[i], floorView).written;
  return s;
}));
const hashCached = row('parts', 'crossing + hash + probe in cache (256-bit filter, item staged once)', measure(N, () => {
  let s = 0;
  for (let i = 0; i < N; i++) s += tiny.x.has(staged.length, 0);
  return s;
}));
const batchCached = row('parts', 'hash + probe in cache, batched (no crossing per item)', measure(N, () => rawBatch(tiny, absent, 'has')));
const batchMemory = row('parts', 'hash + probe in memory, batched (misses overlap)', measure(N, () => rawBatch(release, absent, 'has')));
const singleCached = row('parts', 'set() bytes + crossing + hash + probe in cache', measure(N, () => rawSingle(tiny, absent, 'has')));
const singleMemory = row('parts', 'set() bytes + crossing + hash + probe in memory', measure(N, () => rawSingle(release, absent, 'has')));
const rawStrings = row('parts', 'encodeInto + crossing + hash + probe in memory (no Engine)', measure(N, () => {
  let s = 0;
  for (let i = 0; i < N; i++) s += release.x.has(encoder.encodeInto(absent.strings[i], release.scratch).written, 0);
  return s;
}));
const api = row('parts', 'BloomFilter.has(url): everything', measure(N, () => {
  let s = 0;
  for (let i = 0; i < N; i++) s += sbbf.has(absent.strings[i]) ? 1 : 0;
  return s;
}));
row('derived', 'hash (in-cache single call less the crossing)', hashCached - crossing);
row('derived', 'memory probe, single call (in memory less in cache)', singleMemory - singleCached);
row('derived', 'memory probe, batched (misses overlap)', batchMemory - batchCached);
row('derived', 'JS around the call (has(url) less the same work on the raw exports)', api - rawStrings);

// ---------------------------------------------------------- part 2: targets
const loop = (f: (s: string) => boolean, set: string[]) => () => {
  let s = 0;
  for (let i = 0; i < N; i++) s += f(set[i]) ? 1 : 0;
  return s;
};
const sbbfHas = row('targets', 'sbbf has (absent)', measure(N, loop((s) => sbbf.has(s), absent.strings)));
row('targets', 'sbbf has (present)', measure(N, loop((s) => sbbf.has(s), present.strings)));
const xxHas = row('targets', 'xxh64 has (absent), same n and p', measure(N, loop((s) => classic.has(s), absent.strings)));
const peerHas = row('targets', 'bloomfilter has (absent), same m and k as xxh64', measure(N, loop((s) => peer.test(s), absent.strings)));
row('targets', 'encodeInto floor', copy);
const viewsHas = row('targets', 'sbbf has, Uint8Array items (absent)', measure(N, () => {
  let s = 0;
  for (let i = 0; i < N; i++) s += sbbf.has(absent.views[i]) ? 1 : 0;
  return s;
}));
const adder = BloomFilter.forCapacity(N, P, { scheme: 'sbbf' });
const sbbfAdd = row('targets', 'sbbf add', measure(N, loop((s) => adder.add(s), present.strings), () => adder.clear()));
let peerAdder = new PeerBloomfilter(classic.bits, classic.hashes);
const peerAdd = row('targets', 'bloomfilter add', measure(N, () => {
  for (let i = 0; i < N; i++) peerAdder.add(present.strings[i]);
  return 0;
}, () => (peerAdder = new PeerBloomfilter(classic.bits, classic.hashes))));

let hugeRatio = NaN;
let hugeAbsentRatio = NaN;
if (HUGE) {
  // Workload (c)'s shape: a 10^10-bit filter (1.25 GB) holding the n URLs,
  // one scheme at a time. Present items touch k cache lines under xxh64 and
  // one block under sbbf; absent ones mostly stop at the first clear bit.
  const huge = (scheme: 'sbbf' | 'xxh64'): [number, number] => {
    const bits = 10_000_000_000;
    const f = new BloomFilter(bits, scheme === 'sbbf' ? 8 : optimalHashes(bits, bits / 10), { scheme });
    f.addMany(present.packed);
    const hasPresent = row('targets', `10^10-bit ${scheme} has (present)`, measure(N, loop((s) => f.has(s), present.strings)));
    const hasAbsent = row('targets', `10^10-bit ${scheme} has (absent)`, measure(N, loop((s) => f.has(s), absent.strings)));
    return [hasPresent, hasAbsent];
  };
  const [sbbfPresent, sbbfAbsent] = huge('sbbf');
  gc();
  const [xxPresent, xxAbsent] = huge('xxh64');
  gc();
  hugeRatio = xxPresent / sbbfPresent;
  hugeAbsentRatio = xxAbsent / sbbfAbsent;
}

// ----------------------------------------------------- part 3: SIMD or not
const scalar = rawSbbf('bloom-scalar.wasm', sbbf.bits);
rawBatch(scalar, present, 'add');
for (const [name, raw] of [['v128 (release)', release], ['scalar', scalar]] as const) {
  row('simd', `${name}: batched has, raw`, measure(N, () => rawBatch(raw, absent, 'has')));
  row('simd', `${name}: batched add, raw`, measure(N, () => rawBatch(raw, present, 'add'), () => raw.x.clear()));
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const targets: Array<[string, string]> = [
  ['sbbf `has` against `bloomfilter` (goal ≥ 3.5×)', ratio(peerHas, sbbfHas)],
  ['sbbf `has` over the encodeInto floor (goal ≤ 1.5×)', ratio(sbbfHas, copy)],
  ['sbbf `add` against `bloomfilter` (goal ≥ 3×)', ratio(peerAdd, sbbfAdd)],
  ['sbbf `has` on `Uint8Array` items against `bloomfilter` on the strings (goal ≥ 6×)', ratio(peerHas, viewsHas)],
  ['10^10-bit sbbf `has` against the xxh64 layout of the same size, present items (goal ≥ 3×)', HUGE ? `${hugeRatio.toFixed(2)}×` : 'not run'],
  ['the same, absent items', HUGE ? `${hugeAbsentRatio.toFixed(2)}×` : 'not run'],
  ['sbbf `has` against xxh64 `has` at n = 10^6, p = 0.01', ratio(xxHas, sbbfHas)],
];
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), Node ${process.version}, load average ${LOAD.toFixed(1)} at the start`;
console.log(`\nwhere-time-goes, ${new Date().toISOString()}, ${machine}, n = ${N}, p = ${P}`);
console.table(table);
console.table(targets.map(([target, measured]) => ({ target, measured })));

const markdown = [
  '## Where the time goes (`npm run bench:where`)',
  '',
  `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; n = ${N.toLocaleString('en-US')} URLs of 64 to 70 characters, p = ${P}, the median of ${REPEAT} passes over all items. The code is \`bench/where-time-goes.ts\`.`,
  ...(LOAD > cpus().length ? ['', `**Measured on a busy machine** (load average ${LOAD.toFixed(1)} on ${cpus().length} cores): every figure is inflated and noisy, and the ratios are indicative only.`] : []),
  '',
  '| part | what | ns per item |',
  '|---|---|---:|',
  ...table.map((r) => `| ${r.part} | ${r.what} | ${r['ns/item']} |`),
  '',
  '| target | measured |',
  '|---|---:|',
  ...targets.map(([target, measured]) => `| ${target} | ${measured} |`),
].join('\n');
writeSection(TRIAL ? documentPath(true) : documentPath(false), 'where', markdown);
if (sink === 0.5) console.log(sink);
