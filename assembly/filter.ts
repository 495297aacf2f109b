// A Bloom filter's record, its counters, and the whole-array steps (clear,
// union, intersect, recount). Many filters share an instance; each export
// names its filter's record (assembly/record.ts), and every step here reads
// the record it is given. How an item becomes bits is per scheme, in
// assembly/scheme.ts.

import { MAX_HASHES, SCRATCH_PTR, SCRATCH_SIZE, SHARED_HEADER_PTR, SHARED_RECORD_PTR, reserveBits } from "./layout";
import { clearBits } from "./bit-array";
import { andInto, orInto, popcount } from "./algebra";
import { named, payloadOf, REFUSED, SchemeRecord, schemeRecord } from "./record";

/**
 * A Bloom filter's record (KIND_FILTER, and KIND_HASHING, whose bits are
 * kept elsewhere): the scheme's parameters and the two counters, which
 * every add raises in place (countAdd). Its payload is the packed bits,
 * ceil(m / 8) bytes.
 */
@unmanaged export class FilterRecord extends SchemeRecord {
  /** Bits set. */
  setCount: u64;
  /** Adds that set a bit. */
  addedCount: u64;
}

/** Record `r` as a Bloom filter's. */
// @ts-ignore: decorator
@inline export function filterRecord(r: usize): FilterRecord {
  return changetype<FilterRecord>(r);
}

// In the shared build (ASC_FEATURE_THREADS) the two counters are common to
// every thread, so they live in the shared header instead of the record,
// and change by atomic adds: bitsSet stays exact (each 0-to-1
// transition is seen by exactly one atomic OR), and addedCount counts the
// adds that reported a new item, in whichever thread they ran. An instance
// sums its own counts first and adds them to the header once per exported
// call (flushCounts, from assembly/shared.ts): one atomic add per item would
// make every thread's every add write the same cache line.

/** Shared build: the u64 count of 1 bits, in the shared header. */
const SHARED_SET_COUNT_PTR: usize = SHARED_HEADER_PTR;
/** Shared build: the u64 count of adds that set a bit, in the shared header. */
const SHARED_ADDED_COUNT_PTR: usize = SHARED_HEADER_PTR + 8;

/** Shared build: this instance's counts not yet added to the header. */
let pendingSetCount: u64 = 0;
let pendingAddedCount: u64 = 0;

/** Shared build: adds this instance's pending counts to the shared counters. */
export function flushCounts(): void {
  if (ASC_FEATURE_THREADS) {
    if (pendingAddedCount == 0) return;
    atomic.add<u64>(SHARED_SET_COUNT_PTR, pendingSetCount);
    atomic.add<u64>(SHARED_ADDED_COUNT_PTR, pendingAddedCount);
    pendingSetCount = 0;
    pendingAddedCount = 0;
  }
}

/** The number of 1 bits of filter `r` (the shared counter in the shared build). */
export function setCountNow(r: usize): u64 {
  if (ASC_FEATURE_THREADS) return atomic.load<u64>(SHARED_SET_COUNT_PTR);
  return filterRecord(r).setCount;
}

/** The number of adds to filter `r` that set a bit (the shared counter in the shared build). */
export function addedCountNow(r: usize): u64 {
  if (ASC_FEATURE_THREADS) return atomic.load<u64>(SHARED_ADDED_COUNT_PTR);
  return filterRecord(r).addedCount;
}

/**
 * Shared build: writes the filter's parameters into this instance's record
 * (SHARED_RECORD_PTR) and makes room for its bits. The caller has
 * validated them. Returns 0, or 1 when memory for the bits cannot be had.
 * (The other builds make filters with assembly/record.ts's create.)
 */
export function configure(m: f64, k: i32, schemeId: i32, seedLo: u32, seedHi: u32): i32 {
  const s = schemeRecord(SHARED_RECORD_PTR);
  s.bits = <u64>m;
  s.hashes = min(k, MAX_HASHES);
  s.scheme = schemeId;
  s.seed = (<u64>seedHi << 32) | <u64>seedLo;
  // Freshly grown pages are zero, so a new filter needs no clearing: a
  // 1.25 GB filter costs no 1.25 GB memset up front.
  return reserveBits(byteLength(SHARED_RECORD_PTR)) ? 0 : 1;
}

/** Bytes of filter `r`'s packed bit array: ceil(m / 8). */
export function byteLength(r: usize): u64 {
  return (schemeRecord(r).bits + 7) >> 3;
}

/** Counts an add to filter `r` that set `fresh` bits; true when it set any (the item was new). */
// @ts-ignore: decorator
@inline export function countAdd(r: usize, fresh: u32): bool {
  if (ASC_FEATURE_THREADS) {
    pendingSetCount += <u64>fresh;
    if (fresh) pendingAddedCount++;
    return fresh != 0;
  }
  const f = filterRecord(r);
  f.setCount += <u64>fresh;
  if (fresh) f.addedCount++;
  return fresh != 0;
}

/** Zeroes record r's bits and both counters; REFUSED or 0. */
export function clear(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  clearBits(payloadOf(r), byteLength(r));
  restoreCounters(r, 0, 0);
  return 0;
}

/**
 * ORs the `len` bytes staged in scratch (another filter's bits) into the
 * bits at byte `offset`. setCount is stale until recount().
 */
export function unionScratch(r: usize, generation: u32, offset: u32, len: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  orInto(payloadOf(r) + <usize>offset, SCRATCH_PTR, <usize>min<u32>(len, SCRATCH_SIZE));
  return 0;
}

/** ANDs the `len` bytes staged in scratch into the bits at byte `offset`; then recount(). */
export function intersectScratch(r: usize, generation: u32, offset: u32, len: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  andInto(payloadOf(r) + <usize>offset, SCRATCH_PTR, <usize>min<u32>(len, SCRATCH_SIZE));
  return 0;
}

/**
 * ORs (or, with `and`, ANDs) the bits at `src`, another filter's of the
 * same m in this memory, into record r's, in place: no copy through
 * scratch. setCount is stale until recount().
 */
export function combineAt(r: usize, generation: u32, src: usize, and: bool): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  if (and) andInto(payloadOf(r), src, <usize>byteLength(r));
  else orInto(payloadOf(r), src, <usize>byteLength(r));
  return 0;
}

/** Sets filter r's setCount to the exact number of 1 bits (after a union, intersection or load) and returns it. */
export function recount(r: usize): u64 {
  const ones = popcount(payloadOf(r), <usize>byteLength(r));
  if (ASC_FEATURE_THREADS) atomic.store<u64>(SHARED_SET_COUNT_PTR, ones);
  else filterRecord(r).setCount = ones;
  return ones;
}

/** Sets both of filter r's counters, for a copy or a load whose bits were written from JS. */
export function restoreCounters(r: usize, set: u64, added: u64): void {
  if (ASC_FEATURE_THREADS) {
    atomic.store<u64>(SHARED_SET_COUNT_PTR, set);
    atomic.store<u64>(SHARED_ADDED_COUNT_PTR, added);
    return;
  }
  const f = filterRecord(r);
  f.setCount = set;
  f.addedCount = added;
}
