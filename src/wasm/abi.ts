// The exports of assembly/index.ts, listed once. The list is a runtime
// value, so test/abi.test.ts can hold it against WebAssembly.Module.exports
// of the built module (names, kinds and parameter counts); the TypeScript
// type of an instance's exports is derived from it. Only src/wasm/ uses it.

/** An exported function of `params` parameters that returns a number. */
interface Fn<P extends number> {
  readonly kind: 'function';
  readonly params: P;
  readonly returns: true;
}

/** An exported function of `params` parameters that returns nothing. */
interface Proc<P extends number> {
  readonly kind: 'function';
  readonly params: P;
  readonly returns: false;
}

/** An exported function that takes a JS string (an externref) and then `R` numbers, and returns a number. */
interface StrFn<R extends number> {
  readonly kind: 'function';
  readonly params: number;
  readonly returns: true;
  readonly numbersAfter: R;
}

const fn = <P extends number>(params: P): Fn<P> => ({ kind: 'function', params, returns: true });
const proc = <P extends number>(params: P): Proc<P> => ({ kind: 'function', params, returns: false });
const strFn = <R extends number>(numbersAfter: R): StrFn<R> => ({ kind: 'function', params: numbersAfter + 1, returns: true, numbersAfter });
const global = { kind: 'global' } as const;
const memory = { kind: 'memory' } as const;

/** Every export of the module: its kind, and for a function its parameter count and whether it returns a value. */
export const ABI = {
  memory,
  // Scheme ids (assembly/scheme.ts), the other side of SCHEMES in src/filter/options.ts.
  SCHEME_XXH64: global,
  SCHEME_POLY: global,
  SCHEME_BYTESUM: global,
  SCHEME_SBBF: global,
  // Records: many filters in one instance (assembly/record.ts, assembly/heap.ts).
  KIND_FILTER: global,
  KIND_HASHING: global,
  KIND_COUNTING: global,
  KIND_BITMAP: global,
  KIND_SLIDING: global,
  KIND_CUCKOO: global,
  KIND_FUSE: global,
  createRecord: fn(2), // (kind, payload bytes as a wasm i64) -> a record's address, or 0: what the family modules import to make their records (assembly/core-calls.ts)
  create: fn(6), // (bits, hashes, schemeId, seedLo, seedHi, kind) -> a scheme family's record address (filter, hashing, counting), or 0 when memory cannot be had
  createdGeneration: fn(0), // -> the generation of the record create() made last
  release: fn(2), // (record, generation) -> 0, its region went back to the heap; 1, freeing nothing, when the pair names no live record
  recordPayload: fn(2), // (record, generation) -> bytes of its bits or counters, or -1 when not live
  heapBlockSize: fn(1), // (region) -> bytes of its heap block, header included
  heapCheck: fn(0), // -> 0 when the heap is consistent, else the address of the first bad block
  heapUsedBytes: fn(0),
  heapGrowth: proc(1), // (shift): memory grows by at least 1 / 2^shift of itself
  regionAlloc: fn(1), // (bytes) -> a zeroed heap region that is not a record (a fuse construction's, the lines region), or 0
  regionFree: proc(1), // (region)
  chainRecordsPtr: fn(0),
  // Setting up an instance (assembly/layout.ts).
  scratchPtr: fn(0),
  scratchSize: fn(0),
  positionsPtr: fn(0),
  bitsPtr: fn(0),
  batchOffsetsPtr: fn(0),
  batchFlagsPtr: fn(0),
  batchMax: fn(0),
  // Every export that acts on a filter takes its record and generation first
  // (assembly/record.ts), or right after the string of a String export, and
  // returns REFUSED (-2) when they name no live record.
  // One string read in place through the JS String Builtins (assembly/js-string.ts).
  stageString: strFn(2), // (string, at, units) -> its length in scratch from byte at, UTF-8 bytes or (units) code units
  // One item streamed through scratch in pieces, begun here whatever its family: (record, generation, ...).
  streamBegin: fn(3), // (wide)
  streamUpdate: fn(3), // (len)
  // The bits and the counters.
  bitsSet: fn(2),
  addedCount: fn(2),
  clear: fn(2),
  recountBits: fn(2),
  setCounters: fn(4), // (bitsSet, addedCount)
  // The file checksum, over a record's bits or over bytes copied into scratch.
  popcountScratch: fn(1), // (len)
  checksumStart: proc(0),
  checksumScratch: proc(1), // (len)
  checksumBits: fn(2),
  checksumEnd: proc(0),
  // Hash once, probe many (assembly/digest.ts); a digest is two u32 halves (lo, hi).
  digestItem: proc(3), // (len, seedLo, seedHi): XXH64 of the staged item, as a u64 at positionsPtr
  digestBegin: proc(2), // (seedLo, seedHi): the same for an item fed in pieces by digestUpdate (len)
  digestUpdate: proc(1),
  digestStream: proc(0), // ends it
} as const;

/**
 * Every export of the chain's module (assembly/chain-module.ts), which
 * imports the memory of the core instance that holds the records it walks:
 * a chain's members, whose (record, generation) pairs are at the core's
 * chainRecordsPtr, and probeAll's filters, at its batchOffsetsPtr.
 */
export const CHAIN_ABI = {
  // Walks over many records in one call (assembly/chain.ts): a chain's members as (record, generation) pairs at chainRecordsPtr.
  chainHas: fn(2), // (count, len) -> index of the newest member that reports the staged item, -1 for none, -2 when a pair is not live
  chainBatch: fn(6), // (members, first, count, room, op, hashed): op 1 has, 0 add of batch items [first, count) -> where it stopped, or -1 when a pair is not live
  probeRecords: fn(4), // (count, len, lo, hi): probeAll over (record, generation) pairs listed at batchOffsetsPtr -> how many may hold the item; flags 0, 1, or 2 (ask it yourself)
} as const;

/** The exports of one instance of the chain's module. */
export type ChainExports = { readonly [K in keyof typeof CHAIN_ABI]: ExportOf<(typeof CHAIN_ABI)[K]> };

/**
 * A Bloom filter's calls on an item and a batch (assembly/bloom.ts), under
 * every scheme, and on a digest: the Bloom filter's module's, and the
 * shared build's.
 */
const BLOOM_CALLS = {
  // One item staged in scratch: (record, generation, len, wide).
  add: fn(4),
  has: fn(4),
  positions: fn(4),
  shardPositions: fn(5), // (len, wide, shards) -> shard
  // One string read in place through the JS String Builtins (assembly/js-string.ts): (string, record, generation).
  addString: strFn(2),
  hasString: strFn(2),
  // One item streamed through scratch in pieces (the core's streamBegin and streamUpdate, under the module's own names).
  streamBegin: fn(3), // (wide)
  streamUpdate: fn(3), // (len)
  streamAdd: fn(2),
  streamHas: fn(2),
  streamPositions: fn(2),
  streamShardPositions: fn(3), // (shards) -> shard
  // A chunk of items staged in scratch, offsets in the batch offsets region: (count, wide).
  addBatch: fn(4),
  hasBatch: fn(4),
  // Hash once, probe many (assembly/digest.ts), the xxh64 family's; a digest is two u32 halves (lo, hi).
  hasDigest: fn(4), // (lo, hi)
  addDigest: fn(4), // (lo, hi)
} as const;

/**
 * Every export of the Bloom filter's module (assembly/bloom-module.ts),
 * which imports the memory of the core instance that holds its filters'
 * records: BLOOM_CALLS and the set algebra.
 */
export const BLOOM_ABI = {
  ...BLOOM_CALLS,
  // Set algebra: over another filter's bits in this memory, or over bits copied into scratch.
  combineAt: fn(4), // (record, generation, bits address, and): OR (or AND) another filter's bits in this memory into the record's
  unionScratch: fn(4), // (offset, len)
  intersectScratch: fn(4), // (offset, len)
} as const;

/** The exports of one instance of the Bloom filter's module. */
export type BloomExports = { readonly [K in keyof typeof BLOOM_ABI]: ExportOf<(typeof BLOOM_ABI)[K]> };

/**
 * Every export of the sliding-window filter's module
 * (assembly/sliding-module.ts), which imports the memory of the core
 * instance that holds its records, and the core's createRecord
 * (src/wasm/family-module.ts).
 */
export const SLIDING_ABI = {
  // The sliding-window filter (assembly/sliding.ts); op: 0 add, 1 has; plane: the current generation's bit; live: the mask of live generations.
  slidingCreate: fn(5), // (bits, hashes, seedLo, seedHi, wordBytes) -> a record address under the xxh64 scheme, or 0 when memory cannot be had
  slidingItem: fn(7), // (len, wide, op, plane, live)
  slidingStream: fn(5), // (op, plane, live): the item streamed by streamBegin and streamUpdate on the filter's record
  slidingBatch: fn(6), // (count, op, plane, live): a staged batch (UTF-8 or bytes), answers in the batch flags region
  slidingClearPlane: fn(3), // (plane): clears that bit of every word
  slidingChecksumWords: fn(2),
} as const;

/**
 * Every export of the Bitmap's module (assembly/bitmap-module.ts), which
 * imports the memory of the core instance that holds its records, and the
 * core's createRecord (src/wasm/family-module.ts).
 */
export const BITMAP_ABI = {
  // The Bitmap (assembly/bitmap.ts).
  bitmapCreate: fn(1), // (size) -> a record address, or 0 when memory cannot be had
  bitmapClearAll: fn(2),
  bitmapFirstInvalid: fn(4), // (n, signed) -> index of the first value out of range, or -1
  bitmapSetMany: fn(3), // (n) -> how many were new
  bitmapHasMany: fn(4), // (n, signed) -> index of the first value out of range, or -1
  bitmapNextValues: fn(4), // (from, max) -> how many set values were written to scratch
} as const;

/**
 * Every export of the counting filter's module
 * (assembly/counting-module.ts), which imports the memory of the core
 * instance that holds its records, and the core's createRecord
 * (src/wasm/family-module.ts).
 */
export const COUNTING_ABI = {
  // The counting filter (assembly/counting.ts); op: 0 add, 1 has, 2 remove, 3 count.
  countingCreate: fn(5), // (counters, hashes, schemeId, seedLo, seedHi) -> a record address, or 0 when memory cannot be had
  countingItem: fn(5), // (len, wide, op)
  countingBatch: fn(4), // (count, op): op 0 or 1 on a staged batch (UTF-8 or bytes), answers in the batch flags region
  countingStream: fn(3), // (op)
  countingDigest: fn(5), // (lo, hi, op)
  countingNonzero: fn(2),
  countingSaturated: fn(2),
  countingHeld: fn(2),
  countingClear: fn(2),
  countingRestore: fn(3), // (held) -> counters above 0, recounted
  countingChecksumCounters: fn(2),
  countingBitsChunk: fn(5), // (first, len, to): the plain filter's bit bytes [first, first + len) to `to` (a filter's bits in this memory, or scratch)
  // The core's positions, streamPositions, streamBegin and streamUpdate, for a counting filter of any scheme.
  countingPositions: fn(4), // (len, wide)
  countingStreamPositions: fn(2),
  countingStreamBegin: fn(3), // (wide)
  countingStreamUpdate: fn(3), // (len)
} as const;

/**
 * Every export of the cuckoo filter's module (assembly/cuckoo-module.ts),
 * which imports the memory of the core instance that holds its tables, and
 * the core's createRecord (src/wasm/family-module.ts).
 */
export const CUCKOO_ABI = {
  // The cuckoo filter's table (assembly/cuckoo.ts); op: 0 add, 1 has, 2 remove, 3 count.
  cuckooItem: fn(4), // (len, op) -> add 1 stored / 0 refused (table unchanged), has 1 / 0, remove 1 / 0 (no match), count
  cuckooStream: fn(3), // (op): the item streamed by streamBegin and streamUpdate on the table's record
  cuckooBatch: fn(4), // (count, op): op 0 or 1 on a staged batch; add stops at the first refusal and returns its index
  cuckooCreate: fn(5), // (buckets, bucketSize, fingerprintBits, seedLo, seedHi) -> an empty table's record address, or 0 when memory cannot be had
  cuckooHeld: fn(2),
  cuckooRandomState: fn(3), // (high) -> the generator's state, low or high 32 bits
  cuckooSetRandomState: fn(4), // (lo, hi)
  cuckooClear: fn(2),
  cuckooRestore: fn(2), // -> non-empty slots, recounted (and set as the tally)
  cuckooChecksumSlots: fn(2),
} as const;

/**
 * Every export of the binary fuse filter's module
 * (assembly/fuse-module.ts), which imports the memory of the core instance
 * that holds its records, and the core's createRecord, regionAlloc and
 * regionFree (src/wasm/family-module.ts).
 */
export const FUSE_ABI = {
  // The binary fuse filter (assembly/binary-fuse.ts): construction into heap regions (regionAlloc), queries on a record.
  fusePopulate: fn(8), // (keys, size, out, width, segmentLength, segmentCount, segmentCountLength, arrayLength) -> 0, 1 (no memory) or 2 (gave up); the seed in scratch
  fuseCreate: fn(2), // (arrayLength, fingerprintBytes) -> a record address, or 0 when memory cannot be had
  fuseSetShape: fn(8), // (record, generation, seedLo, seedHi, size, segmentLength, segmentCount, segmentCountLength) into the record
  fuseHasKey: fn(3), // (key: a bigint, as a wasm i64) -> binary_fuse*_contain
  fuseHasItem: fn(3), // (len): the item in scratch
  fuseHasString: strFn(2),
  fuseHasStream: fn(2), // the item streamed by streamBegin and streamUpdate on the filter's record
  fuseHasBatch: fn(3), // (count): a staged batch, answers in the batch flags region
  fuseKeyBatch: proc(2), // (count, out): the staged batch's keys as u64s at out
  fuseKeyItem: proc(2), // (len, out)
  fuseKeyStream: proc(1), // (out)
  fuseChecksumFingerprints: fn(2),
} as const;

/**
 * Every export of the line dedupe module (assembly/lines-module.ts), which
 * imports the memory of the core instance that holds the filter, and its
 * regionAlloc and regionFree (src/wasm/lines-module.ts).
 */
export const LINES_ABI = {
  // Line-by-line dedupe (assembly/lines.ts).
  linesConfigure: fn(4), // (record, generation, size, printSeen) -> 0, or 1 when memory cannot grow
  linesProcess: fn(3),
  linesFinish: fn(2),
  linesInput: fn(0),
  linesOutput: fn(0),
  linesCarry: fn(0),
  linesPiece: fn(0),
  linesStreamEnd: fn(0),
  linesRead: fn(0),
  linesPrinted: fn(0),
  linesConfigureSplit: fn(3), // (size, printSeen, digests) -> 0, or 1 when memory cannot grow: split mode, for a chain
  linesEmit: fn(2), // (record, generation) split mode: compacts the flagged lines -> bytes of output
  linesPacked: fn(0),
  linesOffsets: fn(0),
  linesFlags: fn(0),
  linesDigests: fn(0), // split mode with digests: u64 per item, (lo, hi) as u32 pairs
  linesCount: fn(2), // (ptr, len) -> how many of those bytes are \n (assembly/line-count.ts)
} as const;

/** `P` numbers, as a parameter list. */
type Params<P extends number, A extends number[] = []> = A['length'] extends P ? A : Params<P, [...A, number]>;

/** The JavaScript type of one export, from its ABI entry. */
type ExportOf<E> = E extends StrFn<infer R>
  ? (s: string, ...args: Params<R>) => number
  : E extends { kind: 'memory' }
  ? WebAssembly.Memory
  : E extends { kind: 'global' }
    ? WebAssembly.Global
    : E extends Fn<infer P>
      ? (...args: Params<P>) => number
      : E extends Proc<infer P>
        ? (...args: Params<P>) => void
        : never;

/** The exports of one instance of the module. */
export type Exports = { readonly [K in keyof typeof ABI]: ExportOf<(typeof ABI)[K]> };

/** The calls on an item, a batch and a digest of a Bloom filter (the Bloom filter's module's or the shared build's exports). */
export type BloomCalls = { readonly [K in keyof typeof BLOOM_CALLS]: ExportOf<(typeof BLOOM_CALLS)[K]> };

/** The exports of one instance of the counting filter's module. */
export type CountingExports = { readonly [K in keyof typeof COUNTING_ABI]: ExportOf<(typeof COUNTING_ABI)[K]> };

/** The exports of one instance of the cuckoo filter's module. */
export type CuckooExports = { readonly [K in keyof typeof CUCKOO_ABI]: ExportOf<(typeof CUCKOO_ABI)[K]> };

/** The exports of one instance of the binary fuse filter's module. */
export type FuseExports = { readonly [K in keyof typeof FUSE_ABI]: ExportOf<(typeof FUSE_ABI)[K]> };

/** The exports of one instance of the sliding-window filter's module. */
export type SlidingExports = { readonly [K in keyof typeof SLIDING_ABI]: ExportOf<(typeof SLIDING_ABI)[K]> };

/** The exports of one instance of the Bitmap's module. */
export type BitmapExports = { readonly [K in keyof typeof BITMAP_ABI]: ExportOf<(typeof BITMAP_ABI)[K]> };

/** The exports of one instance of the line dedupe module, with the memory it imports (the core instance's). */
export type LinesExports = { readonly [K in keyof typeof LINES_ABI]: ExportOf<(typeof LINES_ABI)[K]> } & { readonly memory: WebAssembly.Memory };

/**
 * Exports the shared build leaves out: the counting filter, the records,
 * the heap's regions and the walks and copies over many of them (its
 * memory holds one filter; digests are hashed in a shared arena), and
 * strings read in place (its instances are made per thread by
 * src/wasm/shared-memory.ts, which copies strings in).
 */
type NotShared = Extract<
  keyof typeof ABI | keyof typeof BLOOM_ABI,
  `${string}String` | `heap${string}` | `region${string}` | `KIND_${string}` | 'create' | 'createRecord' | 'createdGeneration' | 'release' | 'recordPayload' | 'combineAt' | 'chainRecordsPtr' | `digest${string}`
>;

/** True for the exports of NotShared. */
const notShared = (name: string): boolean => /^(heap|region|KIND_|chainRecordsPtr$|digest|create$|createRecord$|createdGeneration$|release$|recordPayload$|combineAt$)|String$/.test(name);

/**
 * Every export of the shared build (assembly/shared.ts): the filter exports
 * above without the counting filter, the records and strings read in
 * place, plus configure (its one filter), and the two that locate the
 * shared header and size a work area.
 */
export const SHARED_ABI = {
  ...(Object.fromEntries(
    Object.entries({ ...ABI, ...BLOOM_ABI }).filter(([name]) => !notShared(name)),
  ) as Omit<typeof ABI & typeof BLOOM_ABI, NotShared>),
  configure: fn(5), // (bits, hashes, schemeId, seedLo, seedHi) -> 0, or 1 when memory cannot grow
  sharedHeaderPtr: fn(0),
  workAreaSize: fn(0),
} as const;

/** The exports of one instance of the shared build. */
export type SharedExports = { readonly [K in keyof typeof SHARED_ABI]: ExportOf<(typeof SHARED_ABI)[K]> };
