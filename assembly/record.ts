// Many filters in one instance: each filter is a record followed by its
// bits (or counters), one region of the heap (assembly/heap.ts).
//
// Every export that acts on a filter takes the filter's record and its
// generation as its first two arguments, and binds them first (bind()):
// the call refuses a pair that is not a live record's, and otherwise loads
// the record's parameters and counters into the globals the hashing and
// probing code reads (assembly/filter.ts, assembly/layout.ts's bitsBase).
// An export that changes the counters writes them back before it returns
// (saveCounters()). No call can act on another filter than the one it
// names, whatever ran in between: what the globals hold is checked against
// the pair on every call (bind()).
//
// A record is named by its address and its generation, a number create()
// gives it and release() takes away (as slab allocators name their
// objects): a released handle's generation matches nothing again (a region
// reused at the same address gets a new one).
//
// A record, 64 bytes, 64-byte aligned:
//   +0  u64 m (bits, counters, or a Bitmap's size)
//   +8  u64 the XXH64 seed
//   +16 u64 bits set (a counting filter: counters above 0)
//   +24 u64 adds that set a bit (a counting filter: counters at 15)
//   +32 u64 a counting filter's adds less removes
//   +40 i32 k
//   +44 i32 the scheme id
//   +48 u32 the kind (KIND_*)
//   +52 u32 a sliding filter's bytes per word (1 or 2; assembly/sliding.ts),
//       or a binary fuse filter's bytes per fingerprint (assembly/binary-fuse.ts)
//   +56 u32 the generation (0: not a live record)
// and the bits (or counters) start at +64. A cuckoo table
// (assembly/cuckoo.ts) and a binary fuse filter (assembly/binary-fuse.ts)
// lay out their own fields before +48, and keep them in the record rather
// than in globals.

import { HEAP_START, MAX_HASHES, bitsBase } from "./layout";
import { addedCount, bits, blocks, hashes, scheme, seed, setCount } from "./filter";
import { heapAlloc, heapFree } from "./heap";
import { held, nonzero, saturated } from "./counting";

// The work area (scratch and the regions an item passes through) lies past
// the statics, in memory the module does not declare: it is grown here, at
// start, so that JS can make its views before the first record.
const startPages = <i32>((HEAP_START + 0xffff) >> 16);
if (memory.size() < startPages) memory.grow(startPages - memory.size());

/** Bytes of a record; the bits follow it. */
export const RECORD_BYTES: u32 = 64;

/** What a record holds: a Bloom filter's bits, only parameters (hashing for bits kept elsewhere), 4-bit counters, a Bitmap, or a sliding filter's words. */
export const KIND_FILTER = 0;
export const KIND_HASHING = 1;
export const KIND_COUNTING = 2;
export const KIND_BITMAP = 3;
export const KIND_SLIDING = 4;
/** A cuckoo filter's table: buckets of fingerprints (assembly/cuckoo.ts). */
export const KIND_CUCKOO = 5;
/** A binary fuse filter's fingerprints (assembly/binary-fuse.ts, which lays out its record's fields). */
export const KIND_FUSE = 6;

/**
 * Whether a record of kind `kind` is a counting filter's. Always false in
 * the lean build (asconfig.json's `use` sets COUNTING_RECORDS to 0 for its
 * target alone): its instances hold Bloom filters only, since the lean
 * class makes no other kind and an instance of an older build takes no
 * new records once the full build is loaded (src/wasm/placement.ts), so
 * its walks carry no counter reads.
 */
// @ts-ignore: decorator
@inline export function countingKind(kind: u32): bool {
  return COUNTING_RECORDS != 0 ? kind == KIND_COUNTING : false;
}

/** What an export returns when its record and generation do not name a live record. */
export const REFUSED: i32 = -2;

/**
 * The record and generation that the last bind() loaded into the globals.
 * A memo, never an input: every export names its record, and bind() loads
 * another's parameters whenever the pair differs. A record's parameters
 * never change while it lives, and every export that changes its counters
 * writes them back, so the globals of a pair that matches are its record's.
 */
let bound: usize = 0;
let boundGeneration: u32 = 0;

/** The generation the next record gets (never 0). */
let nextGeneration: u32 = 1;
/** The generation of the record create() made last. */
let madeGeneration: u32 = 0;

/**
 * Bytes of the region after the record, for a record of this kind and m
 * (filter.ts's byteLength, counting.ts's countersLength, bitmap.ts's
 * wordBytes, sliding.ts's wordsLength with `width` bytes a word).
 */
function payloadBytes(kind: u32, m: u64, width: u32): u64 {
  if (kind == KIND_FILTER) return (m + 7) >> 3;
  if (kind == KIND_COUNTING) return (m + 1) >> 1;
  if (kind == KIND_BITMAP) return ((m + 63) >> 6) << 3;
  if (kind == KIND_SLIDING || kind == KIND_FUSE) return m * <u64>width;
  // m buckets of (width & 0xff) slots of (width >> 8) bits, and 8 bytes of slack.
  if (kind == KIND_CUCKOO) return ((m * <u64>(width & 0xff) * <u64>(width >> 8) + 7) >> 3) + 8;
  return 0;
}

/**
 * Whether `r` and `generation` name a live record: `r` is a 64-byte
 * aligned address in the heap whose record holds that generation. A
 * released record's generation is 0, and a reused region is zeroed before
 * a new record (with a new generation) is written there.
 */
export function isLive(r: usize, generation: u32): bool {
  if (generation == 0 || r < HEAP_START || (r & 63) != 0) return false;
  if (<u64>r + <u64>RECORD_BYTES > (<u64>memory.size() << 16)) return false;
  return load<u32>(r, 56) == generation;
}

/**
 * Binds the running export to record `r`: its parameters and counters go
 * to the globals. False, loading nothing, when `r` and `generation` do not
 * name a live record; the export then returns REFUSED. The shared build
 * holds one filter and no records (assembly/filter.ts's configure): there
 * is nothing to bind.
 */
export function bind(r: usize, generation: u32): bool {
  if (ASC_FEATURE_THREADS) return true;
  // Calls to one filter in a row load nothing and check one field: the memo's
  // address passed isLive's checks when it was bound, and memory never
  // shrinks, so its generation alone tells whether the record still lives.
  if (r == bound && generation == boundGeneration && generation != 0 && load<u32>(r, 56) == generation) return true;
  return rebind(r, generation);
}

/** bind() of a pair other than the memo's: checks it and loads its record. */
function rebind(r: usize, generation: u32): bool {
  if (!isLive(r, generation)) return false;
  bound = r;
  boundGeneration = generation;
  peek(r);
  const kind = load<u32>(r, 48);
  // A cuckoo table and a binary fuse filter keep their fields in the record, where the others keep counters in globals.
  if (kind == KIND_CUCKOO || kind == KIND_FUSE) return true;
  if (countingKind(kind)) {
    nonzero = load<u64>(r, 16);
    saturated = load<u64>(r, 24);
    held = load<u64>(r, 32);
  } else {
    setCount = load<u64>(r, 16);
    addedCount = load<u64>(r, 24);
  }
  return true;
}

/** Writes the counters of the bound record back into it: the last step of an export that changed them. */
export function saveCounters(): void {
  if (ASC_FEATURE_THREADS) return;
  const r = bound;
  const kind = load<u32>(r, 48);
  if (kind == KIND_CUCKOO || kind == KIND_FUSE) return;
  if (countingKind(kind)) {
    store<u64>(r, nonzero, 16);
    store<u64>(r, saturated, 24);
    store<u64>(r, held, 32);
  } else {
    store<u64>(r, setCount, 16);
    store<u64>(r, addedCount, 24);
  }
}

/**
 * Points the parameter globals (m, k, scheme, seed, the bits) at record
 * `r` without binding it: for reads of many records in one call
 * (assembly/chain.ts, assembly/digest.ts), which call unpeek() before
 * anything else reads the bound record's. The counters stay as they were.
 */
// @ts-ignore: decorator
@inline export function peek(r: usize): void {
  bits = load<u64>(r);
  seed = load<u64>(r, 8);
  hashes = load<i32>(r, 40);
  scheme = load<i32>(r, 44);
  blocks = bits >> 8;
  bitsBase = r + <usize>RECORD_BYTES;
}

/** Points the parameter globals back at the bound record, after peek(). */
export function unpeek(): void {
  peek(bound);
}

/**
 * A new record of `kind` for m = `m`, k, scheme and seed (validated by
 * the caller), its bits zero; `width` is a sliding filter's
 * bytes per word (0 for the other kinds). Returns its address, or 0 when
 * this instance's memory cannot hold it (JS then opens another); its
 * generation is then createdGeneration().
 */
export function create(m: f64, k: i32, schemeId: i32, seedLo: u32, seedHi: u32, kind: u32, width: u32): usize {
  const bytes = <u64>RECORD_BYTES + payloadBytes(kind, <u64>m, width);
  if (bytes > 0xffff_0000) return 0;
  const r = heapAlloc(<u32>bytes);
  if (r == 0) return 0;
  store<u64>(r, <u64>m);
  store<u64>(r, (<u64>seedHi << 32) | <u64>seedLo, 8);
  store<i32>(r, min(k, MAX_HASHES), 40);
  store<i32>(r, schemeId, 44);
  store<u32>(r, kind, 48);
  store<u32>(r, width, 52);
  const generation = nextGeneration;
  // 2^32 records later the count wraps; 0 stays "not live".
  nextGeneration = generation == 0xffff_ffff ? 1 : generation + 1;
  store<u32>(r, generation, 56);
  madeGeneration = generation;
  return r;
}

/** The generation of the record that create() made last. */
export function createdGeneration(): u32 {
  return madeGeneration;
}

/**
 * Gives record `r`'s region back to the heap. Returns 0, or 1 (and frees
 * nothing) when `r` and `generation` do not name a live record.
 */
export function release(r: usize, generation: u32): i32 {
  if (!isLive(r, generation)) return 1;
  store<u32>(r, 0, 56);
  heapFree(r);
  return 0;
}

/** The bytes of record `r`'s region after the record, or -1 when it is not live (for tests: regions must not overlap). */
export function recordPayload(r: usize, generation: u32): f64 {
  if (!isLive(r, generation)) return -1;
  return <f64>payloadBytes(load<u32>(r, 48), load<u64>(r), load<u32>(r, 52));
}
