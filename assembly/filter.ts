// One filter's state (every instance holds exactly one filter) and the
// steps shared by the exports: hash the staged item into probe positions,
// then set, test or export them.

import { BITS_PTR, MAX_HASHES, POSITIONS_OUT_PTR, PROBES_PTR, SCRATCH_PTR, SCRATCH_SIZE, reserveBits } from "./layout";
import { clearBits, getBit, setBit } from "./bit-array";
import { andInto, orInto, popcount } from "./algebra";
import {
  byteSum, bytesumBegin, bytesumUpdate, polyBegin, polyH1, polyH2, polyUpdate,
  weightedSum, xxh64, xxh64Begin, xxh64Digest, xxh64Update,
} from "./hash";
import { probeDouble, probeEnhancedDouble } from "./probe";
import { pairKey } from "./shard";

/** Scheme ids, part of the file format; exported from index.ts and checked against src/filter/options.ts. */
export const SCHEME_XXH64 = 0;
export const SCHEME_POLY = 1;
export const SCHEME_BYTESUM = 2;

/** m, k, scheme and seed of this instance's filter; the counters of set bits and of new adds. */
export let bits: u64 = 1;
export let hashes: i32 = 1;
export let scheme: i32 = SCHEME_XXH64;
export let seed: u64 = 0;
export let setCount: u64 = 0;
export let newAddCount: u64 = 0;
export let streamWide: bool = false;
/** The 64-bit key of the last probed item that its shard is chosen from (see assembly/shard.ts). */
export let itemKey: u64 = 0;

/**
 * Sets the filter's parameters and makes room for its bits. The caller has
 * validated them. Returns 0, or 1 when memory for the bits cannot be had.
 */
export function configure(m: f64, k: i32, schemeId: i32, seedLo: u32, seedHi: u32): i32 {
  bits = <u64>m;
  hashes = min(k, MAX_HASHES);
  scheme = schemeId;
  seed = (<u64>seedHi << 32) | <u64>seedLo;
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
  return reserveBits(0) ? 0 : 1;
}

/** Bytes of the packed bit array: ceil(m / 8). */
export function byteLength(): u64 {
  return (bits + 7) >> 3;
}

/** Hashes `len` units at `ptr` (u16 code units when `wide`) into k positions at `out`. */
export function probeItem(ptr: usize, len: usize, wide: bool, out: usize): void {
  if (scheme == SCHEME_XXH64) {
    const h = xxh64(ptr, len, seed);
    itemKey = h;
    probeEnhancedDouble(h, bits, hashes, out);
  } else if (scheme == SCHEME_POLY) {
    polyBegin();
    polyUpdate(ptr, len, wide);
    itemKey = pairKey(polyH1, polyH2);
    probeDouble(polyH1, polyH2, bits, hashes, out);
  } else {
    bytesumBegin();
    bytesumUpdate(ptr, len, bits);
    itemKey = pairKey(byteSum % bits, weightedSum);
    probeDouble(byteSum, weightedSum, bits, hashes, out);
  }
}

/** Hashes `len` units in the scratch region into the probe positions. */
export function probeScratch(len: usize, wide: bool): void {
  probeItem(SCRATCH_PTR, len, wide, PROBES_PTR);
}

/** Sets the k bits whose positions are at `probes`; true when any went from 0 to 1. */
export function setProbedAt(probes: usize): bool {
  let fresh: u64 = 0;
  for (let i = 0; i < hashes; i++) {
    if (setBit(load<u64>(probes + (<usize>i << 3)))) fresh++;
  }
  setCount += fresh;
  if (fresh) newAddCount++;
  return fresh != 0;
}

/** Sets the probed bits; true when any went from 0 to 1. */
export function setProbed(): bool {
  return setProbedAt(PROBES_PTR);
}

/** True when every probed bit is set. */
export function testProbed(): bool {
  for (let i = 0; i < hashes; i++) {
    if (!getBit(load<u64>(PROBES_PTR + (<usize>i << 3)))) return false;
  }
  return true;
}

/**
 * True when all k bits at `probes` are set, read without an early exit: the
 * k loads do not wait on each other's branches, so their cache misses
 * overlap. The batch path uses it.
 */
export function testProbedAll(probes: usize): bool {
  let all: u32 = 1;
  for (let i = 0; i < hashes; i++) {
    all &= <u32>getBit(load<u64>(probes + (<usize>i << 3)));
  }
  return all != 0;
}

/** Copies the probe positions out as doubles (exact: positions < 2^35). */
export function exportProbed(): void {
  for (let i = 0; i < hashes; i++) {
    store<f64>(POSITIONS_OUT_PTR + (<usize>i << 3), <f64>load<u64>(PROBES_PTR + (<usize>i << 3)));
  }
}


/** Zeroes the bits and both counters. */
export function clear(): void {
  clearBits(byteLength());
  setCount = 0;
  newAddCount = 0;
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
export function restoreCounters(set: u64, adds: u64): void {
  setCount = set;
  newAddCount = adds;
}

/** Starts a streamed item, for items longer than the scratch region. */
export function streamBegin(wide: bool): void {
  streamWide = wide;
  if (scheme == SCHEME_XXH64) xxh64Begin(seed);
  else if (scheme == SCHEME_POLY) polyBegin();
  else bytesumBegin();
}

/** Feeds the next `len` units of a streamed item from scratch. */
export function streamUpdate(len: u32): void {
  if (scheme == SCHEME_XXH64) xxh64Update(SCRATCH_PTR, len);
  else if (scheme == SCHEME_POLY) polyUpdate(SCRATCH_PTR, len, streamWide);
  else bytesumUpdate(SCRATCH_PTR, len, bits);
}

/** Finishes a streamed hash into the probe positions. */
export function streamProbe(): void {
  if (scheme == SCHEME_XXH64) {
    const h = xxh64Digest();
    itemKey = h;
    probeEnhancedDouble(h, bits, hashes, PROBES_PTR);
  } else if (scheme == SCHEME_POLY) {
    itemKey = pairKey(polyH1, polyH2);
    probeDouble(polyH1, polyH2, bits, hashes, PROBES_PTR);
  } else {
    itemKey = pairKey(byteSum % bits, weightedSum);
    probeDouble(byteSum, weightedSum, bits, hashes, PROBES_PTR);
  }
}
