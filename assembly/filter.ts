// One filter's state (every instance holds exactly one filter): its
// parameters, its counters, and the whole-array steps (clear, union,
// intersect, recount). How an item becomes bits is per scheme, in
// assembly/scheme.ts.

import { BITS_PTR, MAX_HASHES, SCRATCH_PTR, SCRATCH_SIZE, reserveBits } from "./layout";
import { clearBits } from "./bit-array";
import { andInto, orInto, popcount } from "./algebra";

/** m, k, scheme and seed of this instance's filter; the counters of set bits and of added items (adds that set a bit). */
export let bits: u64 = 1;
export let hashes: i32 = 1;
export let scheme: i32 = 0;
export let seed: u64 = 0;
export let setCount: u64 = 0;
export let addedCount: u64 = 0;
/** m / 256: the number of 256-bit blocks under sbbf (assembly/sbbf.ts). */
export let blocks: u64 = 0;

/**
 * Sets the filter's parameters and makes room for its bits. The caller has
 * validated them. Returns 0, or 1 when memory for the bits cannot be had.
 */
export function configure(m: f64, k: i32, schemeId: i32, seedLo: u32, seedHi: u32): i32 {
  bits = <u64>m;
  hashes = min(k, MAX_HASHES);
  scheme = schemeId;
  seed = (<u64>seedHi << 32) | <u64>seedLo;
  blocks = bits >> 8;
  // Freshly grown pages are zero, so a new filter needs no clearing: a
  // 1.25 GB filter costs no 1.25 GB memset up front.
  return reserveBits(byteLength()) ? 0 : 1;
}

/**
 * Sets the parameters and makes room for the scratch region only, reserving
 * no bits: for an instance that computes positions and shards for bits kept
 * elsewhere (bloomwasm/redis). Its add, has and clear must never be called.
 * Returns 0, or 1 when memory cannot be had.
 */
export function configureHashing(m: f64, k: i32, schemeId: i32, seedLo: u32, seedHi: u32): i32 {
  bits = <u64>m;
  hashes = min(k, MAX_HASHES);
  scheme = schemeId;
  seed = (<u64>seedHi << 32) | <u64>seedLo;
  blocks = bits >> 8;
  return reserveBits(0) ? 0 : 1;
}

/** Bytes of the packed bit array: ceil(m / 8). */
export function byteLength(): u64 {
  return (bits + 7) >> 3;
}

/** Counts an add that set `fresh` bits; true when it set any (the item was new). */
// @ts-ignore: decorator
@inline export function countAdd(fresh: u32): bool {
  setCount += <u64>fresh;
  if (fresh) addedCount++;
  return fresh != 0;
}

/** Zeroes the bits and both counters. */
export function clear(): void {
  clearBits(byteLength());
  setCount = 0;
  addedCount = 0;
}

/**
 * ORs the `len` bytes staged in scratch (another filter's bits) into the
 * bits at byte `offset`. setCount is stale until recount().
 */
export function unionScratch(offset: u32, len: u32): void {
  orInto(BITS_PTR + <usize>offset, SCRATCH_PTR, <usize>min<u32>(len, SCRATCH_SIZE));
}

/** ANDs the `len` bytes staged in scratch into the bits at byte `offset`; then recount(). */
export function intersectScratch(offset: u32, len: u32): void {
  andInto(BITS_PTR + <usize>offset, SCRATCH_PTR, <usize>min<u32>(len, SCRATCH_SIZE));
}

/** Sets setCount to the exact number of 1 bits (after a union, intersection or load) and returns it. */
export function recount(): u64 {
  setCount = popcount(BITS_PTR, <usize>byteLength());
  return setCount;
}

/** Sets both counters, for a copy or a load whose bits were written from JS. */
export function restoreCounters(set: u64, added: u64): void {
  setCount = set;
  addedCount = added;
}
