// The calls that `npm run bench:engine` compares between two builds of the
// library: each case builds its filters from a build's dist/ (loaded by the
// caller, so both builds run the same code here) and hands back one call,
// which the timed child repeats in interleaved rounds and the callgrind
// child repeats N and 2N times. The same case serves both, at two sizes:
// the timed size keeps a filter in cache (2 × 10^5 items at m = 10n is a
// 250 KB filter), so a call's own cost is what a change to the engine can
// make slower; the callgrind size is smaller, since valgrind runs about
// 50 times slower and counts instructions, not cache misses.

import { mulberry32 } from '../src/cli/mulberry32.js';
import { urls, type Packed } from './data.js';

/** What the cases use of a build's dist/index.node.js (the same in both builds). */
export interface Library {
  BloomFilter: {
    new (bits: number, hashes: number, options?: { scheme?: string }): BloomLike;
    forCapacity(n: number, p: number, options?: { scheme?: string }): BloomLike;
  };
  CountingBloomFilter: new (bits: number, hashes: number) => BloomLike;
  CuckooFilter: { forCapacity(n: number, p: number): BloomLike };
  // A chain's parts: `members` in this build, `filters` in builds before the names were made one.
  ScalableBloomFilter: new (options: { capacity: number; falsePositiveRate: number; scheme?: string }) => BloomLike & { members?: unknown[]; filters?: unknown[] };
  BinaryFuseFilter: {
    from(items: readonly string[]): { has(item: string): boolean; dispose(): void };
    fromKeys(keys: BigUint64Array): { has(item: string): boolean; dispose(): void };
  };
  probeAll(filters: readonly BloomLike[], item: string, into?: Uint8Array): Uint8Array;
}
interface BloomLike {
  add(item: string): boolean;
  has(item: string): boolean;
  addMany(items: readonly string[]): unknown;
  hasMany(items: readonly string[] | Packed): Uint8Array;
  clear(): void;
  dispose(): void;
}

/** One case: `call(i)` is call number i (i counts up from 0 within a round); `reset` runs untimed before each round. */
export interface Case {
  call: (i: number) => unknown;
  reset?: () => void;
}

/** A case's name, what one call is, and how many calls a timed round and a callgrind count make. */
export interface CaseSpec {
  name: string;
  /** What one call does, for the report. */
  unit: string;
  /** Calls per timed round. */
  calls: number;
  /** Calls counted under callgrind (N; the run of 2N is compared with it); 0 for none, where the case's twin is counted. */
  counted: number;
  /** Calls before the counted ones, so the JIT has settled in both runs. */
  warm: number;
  make: (lib: Library, small: boolean) => Case;
}

/** Items per filter: the timed size, the callgrind size. */
const items = (small: boolean) => (small ? 20_000 : 200_000);
/** Items per hasMany call. */
const BATCH = 300;
/** Filters in probeAll's list, as in workload (g). */
const FILES = 200;
/** Keys of the binary fuse build. */
const FUSE_KEYS = 1_000_000;
/** Filters made per timed round. */
const LIVE = 200_000;

/** Present and absent URLs, made once per size and shared by the cases. */
const sets = new Map<boolean, { present: string[]; absent: string[]; packed: Packed[]; packedAbsent: Packed[] }>();
function urlSets(small: boolean) {
  let got = sets.get(small);
  if (got === undefined) {
    const n = items(small);
    const present = urls(n, 1, 'p');
    const absent = urls(n, 2, 'q');
    got = { present: present.strings, absent: absent.strings, packed: packedBlocks(present.packed), packedAbsent: packedBlocks(absent.packed) };
    sets.set(small, got);
  }
  return got;
}

/** Consecutive packed blocks of BATCH items: the same bytes, a window of the offsets. */
function packedBlocks(packed: Packed): Packed[] {
  const out: Packed[] = [];
  const n = packed.offsets.length - 1;
  for (let i = 0; i + BATCH <= n; i += BATCH) out.push({ bytes: packed.bytes, offsets: packed.offsets.subarray(i, i + BATCH + 1) });
  return out;
}

/** Consecutive blocks of BATCH strings, made once so slicing is not timed. */
function blocks(list: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i + BATCH <= list.length; i += BATCH) out.push(list.slice(i, i + BATCH));
  return out;
}

/** A Bloom filter of m = 10n (whole 256-bit blocks, which sbbf takes), k = 7 or 8 under sbbf, holding the present URLs. */
function fullFilter(lib: Library, scheme: string, small: boolean): BloomLike {
  const { present } = urlSets(small);
  const f = new lib.BloomFilter(Math.ceil((10 * present.length) / 256) * 256, scheme === 'sbbf' ? 8 : 7, { scheme });
  for (const s of present) f.add(s);
  return f;
}

/** Single calls over one list of strings, wrapping around. */
const over = (list: string[], f: (s: string) => unknown) => (i: number) => f(list[i % list.length]);

function singleCases(scheme: string): CaseSpec[] {
  const single = { calls: 200_000, counted: 100_000, warm: 30_000 };
  return [
    { name: `add, ${scheme}`, unit: 'one add of a URL', ...single, make: (lib, small) => {
      const { present } = urlSets(small);
      const f = new lib.BloomFilter(Math.ceil((10 * present.length) / 256) * 256, scheme === 'sbbf' ? 8 : 7, { scheme });
      return { call: over(present, (s) => f.add(s)), reset: () => f.clear() };
    } },
    { name: `has present, ${scheme}`, unit: 'one has of a URL', ...single, make: (lib, small) => {
      const f = fullFilter(lib, scheme, small);
      return { call: over(urlSets(small).present, (s) => f.has(s)) };
    } },
    { name: `has absent, ${scheme}`, unit: 'one has of a URL', ...single, counted: 0, make: (lib, small) => {
      const f = fullFilter(lib, scheme, small);
      return { call: over(urlSets(small).absent, (s) => f.has(s)) };
    } },
  ];
}

function batchCases(scheme: string): CaseSpec[] {
  const batch = { calls: 600, counted: 600, warm: 200 };
  const unit = `one hasMany of ${BATCH} URLs`;
  return [
    { name: `hasMany strings present, ${scheme}`, unit, ...batch, make: (lib, small) => {
      const f = fullFilter(lib, scheme, small);
      const list = blocks(urlSets(small).present);
      return { call: (i) => f.hasMany(list[i % list.length])[0] };
    } },
    { name: `hasMany strings absent, ${scheme}`, unit, ...batch, counted: 0, make: (lib, small) => {
      const f = fullFilter(lib, scheme, small);
      const list = blocks(urlSets(small).absent);
      return { call: (i) => f.hasMany(list[i % list.length])[0] };
    } },
    { name: `hasMany packed present, ${scheme}`, unit: `one hasMany of ${BATCH} URLs as packed bytes`, ...batch, make: (lib, small) => {
      const f = fullFilter(lib, scheme, small);
      const list = urlSets(small).packed;
      return { call: (i) => f.hasMany(list[i % list.length])[0] };
    } },
    { name: `hasMany packed absent, ${scheme}`, unit: `one hasMany of ${BATCH} URLs as packed bytes`, ...batch, counted: 0, make: (lib, small) => {
      const f = fullFilter(lib, scheme, small);
      const list = urlSets(small).packedAbsent;
      return { call: (i) => f.hasMany(list[i % list.length])[0] };
    } },
  ];
}

/**
 * probeAll over 200 filters of 1,000 to 50,000 keys (100 to 5,000 at the
 * callgrind size), 10 bits per key, as workload (g) holds them; each
 * present URL lives in one of them. The answers go into one array given
 * every time, so the call is the engine's walk and not an allocation.
 */
function probeCases(scheme: string): CaseSpec[] {
  const make = (which: 'present' | 'absent') => (lib: Library, small: boolean): Case => {
    const { present, absent } = urlSets(small);
    const filters: BloomLike[] = [];
    for (let i = 0; i < FILES; i++) {
      const n = Math.round((1000 + (49_000 * i) / (FILES - 1)) * (small ? 0.1 : 1));
      const own: string[] = [];
      for (let j = 0; j < n; j++) own.push(`file${i}/key${j}`);
      const f = new lib.BloomFilter(Math.ceil((10 * n) / 256) * 256, scheme === 'sbbf' ? 8 : 7, { scheme });
      f.addMany(own);
      filters.push(f);
    }
    for (let j = 0; j < 4096; j++) filters[j % FILES].add(present[j]);
    const keys = (which === 'present' ? present : absent).slice(0, 4096);
    const into = new Uint8Array(FILES);
    return { call: (i) => lib.probeAll(filters, keys[i & 4095], into)[i % FILES] };
  };
  const probe = { calls: 8192, counted: 8192, warm: 4096, unit: `one probeAll over ${FILES} filters` };
  return [
    { name: `probeAll present, ${scheme}`, ...probe, make: make('present') },
    { name: `probeAll absent, ${scheme}`, ...probe, counted: 0, make: make('absent') },
  ];
}

/** has on a ScalableBloomFilter that starts at n/127 and doubles: 7 members once it holds the n present URLs. */
function chainCases(scheme: string): CaseSpec[] {
  const make = (which: 'present' | 'absent') => (lib: Library, small: boolean): Case => {
    const { present, absent } = urlSets(small);
    const chain = new lib.ScalableBloomFilter({ capacity: Math.ceil(present.length / 127), falsePositiveRate: 0.01, scheme });
    for (const s of present) chain.add(s);
    const members = (chain.members ?? chain.filters)!.length;
    if (members !== 7) throw new Error(`the chain has ${members} members, not 7`);
    return { call: over(which === 'present' ? present : absent, (s) => chain.has(s)) };
  };
  const chain = { calls: 200_000, counted: 50_000, warm: 20_000, unit: 'one has of a URL on a chain of 7' };
  return [
    { name: `chain has present, ${scheme}`, ...chain, counted: 0, make: make('present') },
    { name: `chain has absent, ${scheme}`, ...chain, make: make('absent') },
  ];
}

/** The counting, cuckoo and binary fuse filters' single calls. */
function familyCases(): CaseSpec[] {
  const single = { calls: 200_000, counted: 100_000, warm: 30_000 };
  const counting = (which: 'present' | 'absent') => (lib: Library, small: boolean): Case => {
    const { present, absent } = urlSets(small);
    const f = new lib.CountingBloomFilter(10 * present.length, 7);
    for (const s of present) f.add(s);
    return { call: over(which === 'present' ? present : absent, (s) => f.has(s)) };
  };
  const cuckoo = (which: 'present' | 'absent') => (lib: Library, small: boolean): Case => {
    const { present, absent } = urlSets(small);
    const f = lib.CuckooFilter.forCapacity(present.length, 0.001);
    for (const s of present) f.add(s);
    return { call: over(which === 'present' ? present : absent, (s) => f.has(s)) };
  };
  const fuse = (which: 'present' | 'absent') => (lib: Library, small: boolean): Case => {
    const { present, absent } = urlSets(small);
    const f = lib.BinaryFuseFilter.from(present);
    return { call: over(which === 'present' ? present : absent, (s) => f.has(s)) };
  };
  return [
    { name: 'counting has present', unit: 'one has of a URL', ...single, make: counting('present') },
    { name: 'counting has absent', unit: 'one has of a URL', ...single, counted: 0, make: counting('absent') },
    { name: 'cuckoo add', unit: 'one add of a URL', ...single, make: (lib, small) => {
      const { present } = urlSets(small);
      const f = lib.CuckooFilter.forCapacity(present.length, 0.001);
      // Cleared when the items come round again (only counting wraps around): a cuckoo filter holds few copies of one item.
      return { call: (i) => ((i % present.length === 0 && i > 0 && f.clear()), f.add(present[i % present.length])), reset: () => f.clear() };
    } },
    { name: 'cuckoo has present', unit: 'one has of a URL', ...single, make: cuckoo('present') },
    { name: 'cuckoo has absent', unit: 'one has of a URL', ...single, counted: 0, make: cuckoo('absent') },
    { name: 'binary fuse has present', unit: 'one has of a URL', ...single, make: fuse('present') },
    { name: 'binary fuse has absent', unit: 'one has of a URL', ...single, counted: 0, make: fuse('absent') },
  ];
}

/** Building: Bloom filters made and disposed one after another, a binary fuse filter from 10^6 keys, and live Bloom filters. */
function buildCases(): CaseSpec[] {
  return [
    // As the memory section's disposed filters: the cost of a filter's
    // construction and release, which the item cases do not reach. First of
    // these cases: under callgrind a segment counts the collections in it,
    // and after the two below it would count theirs of their garbage.
    { name: 'making and disposing filters', unit: 'one new BloomFilter(8192, 5), one add, one has, dispose', calls: LIVE, counted: 20_000, warm: 20_000, make: (lib) => {
      const keys = Array.from({ length: LIVE }, (_, i) => `key-${i}`);
      return {
        call: (i) => {
          const f = new lib.BloomFilter(8192, 5);
          f.add(keys[i % LIVE]);
          const found = f.has(keys[(i + 1) % LIVE]);
          f.dispose();
          return found;
        },
      };
    } },
    { name: 'binary fuse build', unit: `one fromKeys of ${FUSE_KEYS.toLocaleString('en')} 64-bit keys`, calls: 1, counted: 1, warm: 1, make: (lib) => {
      const r = mulberry32(7);
      const keys = new BigUint64Array(FUSE_KEYS);
      // Filled as 32-bit halves: a BigInt per key would cost more than the build under callgrind.
      const halves = new Uint32Array(keys.buffer);
      for (let i = 0; i < halves.length; i++) halves[i] = r() * 2 ** 32;
      let built: { dispose(): void }[] = [];
      return {
        call: () => built.push(lib.BinaryFuseFilter.fromKeys(keys)),
        reset: () => {
          for (const f of built) f.dispose();
          built = [];
        },
      };
    } },
    // As workload (j) makes its live filters: forCapacity(1000, 0.01) and one add each, all kept.
    { name: 'making live filters', unit: `one forCapacity(1000, 0.01) and one add, ${LIVE.toLocaleString('en')} kept alive a round`, calls: LIVE, counted: 20_000, warm: 20_000, make: (lib) => {
      const keys = Array.from({ length: LIVE }, (_, i) => `key-${i}`);
      let live: BloomLike[] = [];
      return {
        call: (i) => {
          const f = lib.BloomFilter.forCapacity(1000, 0.01);
          f.add(keys[i % LIVE]);
          return live.push(f);
        },
        reset: () => {
          for (const f of live) f.dispose();
          live = [];
        },
      };
    } },
  ];
}

/** Every case, in the report's order. */
export const CASES: CaseSpec[] = [
  ...singleCases('xxh64'), ...singleCases('sbbf'),
  ...batchCases('xxh64'), ...batchCases('sbbf'),
  ...probeCases('xxh64'), ...probeCases('sbbf'),
  ...chainCases('xxh64'), ...chainCases('sbbf'),
  ...familyCases(), ...buildCases(),
];
