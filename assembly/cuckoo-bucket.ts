// One cuckoo table's buckets (assembly/cuckoo.ts says how items reach
// them): the table's shape from its record, the f-bit slots packed in its
// payload, an item's fingerprint and its two buckets, and the search,
// insert, count and delete of a fingerprint in one bucket. The
// pure-TypeScript twin is src/reference/cuckoo-bucket.ts, with the same
// functions under the same names.

import { payloadOf } from "./record";
import { cuckooRecord, slotsLengthOf } from "./cuckoo-record";

/** B: buckets of table r. */
// @ts-ignore: decorator
@inline export function buckets(r: usize): u64 {
  return cuckooRecord(r).buckets;
}

/** b: slots a bucket. */
// @ts-ignore: decorator
@inline export function bucketSize(r: usize): u64 {
  return <u64>cuckooRecord(r).bucketSize;
}

/** f: bits a fingerprint. */
// @ts-ignore: decorator
@inline export function fingerprintBits(r: usize): u64 {
  return <u64>cuckooRecord(r).fingerprintBits;
}

/** Bytes of the packed fingerprints (the slack excluded). */
// @ts-ignore: decorator
@inline export function slotsLength(r: usize): u64 {
  return slotsLengthOf(buckets(r), bucketSize(r), fingerprintBits(r));
}

// The slot helpers take f from their caller, which reads it from the
// record once for all the slots it touches (each read of a field is a
// load from memory).

/** The fingerprint in global slot `slot` (bucket * b + s) of f-bit slots. */
// @ts-ignore: decorator
@inline export function getSlot(r: usize, slot: u64, f: u64): u32 {
  const bit = slot * f;
  return <u32>((load<u64>(payloadOf(r) + <usize>(bit >> 3)) >> (bit & 7)) & ((<u64>1 << f) - 1));
}

/** Writes `fp` into global slot `slot` of f-bit slots. */
// @ts-ignore: decorator
@inline export function setSlot(r: usize, slot: u64, fp: u32, f: u64): void {
  const bit = slot * f;
  const ptr = payloadOf(r) + <usize>(bit >> 3);
  const shift = bit & 7;
  store<u64>(ptr, (load<u64>(ptr) & ~(((<u64>1 << f) - 1) << shift)) | (<u64>fp << shift));
}

/** The fingerprint of hash h: its top f bits, 1 in place of 0. */
// @ts-ignore: decorator
@inline export function fingerprintOf(h: u64, f: u64): u32 {
  const fp = <u32>(h >> (64 - f));
  return fp == 0 ? 1 : fp;
}

/** The first bucket of hash h. */
// @ts-ignore: decorator
@inline export function firstBucket(h: u64, b: u64): u64 {
  return ((h & 0xffffffff) * b) >> 32;
}

/** The other bucket of a fingerprint `fp` in bucket `i`: (H(fp) - i) mod B. */
// @ts-ignore: decorator
@inline export function altBucket(i: u64, fp: u32, b: u64): u64 {
  const hf = (<u64>(fp * <u32>0x9e3779b1) * b) >> 32;
  return hf >= i ? hf - i : hf + b - i;
}

// A bucket of b slots of f bits spans b * f bits; when that and the bit
// offset within its first byte fit in one u64 (b * f <= 57: f <= 14 for
// b = 4, f <= 28 for b = 2, f <= 7 for b = 8), the bucket is one load, and
// "which slot holds x" is one SWAR step over its b lanes (Mycroft's
// zero-lane test, as for bytes in strlen): with L the lanes' low bits and H
// their high bits, t = lanes xor (x * L) has a lane of 0 exactly where a
// slot holds x, and (t - L) & ~t & H is nonzero exactly when one does, its
// lowest set bit in the lowest such lane (a borrow only runs upward from
// it). Otherwise the slots are read one at a time; both give the first
// slot, so the twin's plain loop is the same rule.

/** The `mask` bits of the packed slots from bit `bit`: a bucket's word, when b * f <= 57. */
// @ts-ignore: decorator
@inline export function wordAt(r: usize, bit: u64, mask: u64): u64 {
  return (load<u64>(payloadOf(r) + <usize>(bit >> 3)) >> (bit & 7)) & mask;
}

/** L: bit 0 of each of the b lanes (stored by cuckooCreate). */
// @ts-ignore: decorator
@inline export function laneLows(r: usize): u64 {
  return cuckooRecord(r).laneLows;
}

/**
 * Mycroft's test above: the lanes of bucket word `word` that hold the
 * fingerprint whose lanes are `wanted` (fp * L), as their high bits (`highs`,
 * L << (f - 1)); 0 when none does.
 */
// @ts-ignore: decorator
@inline export function zeroLanes(word: u64, wanted: u64, lows: u64, highs: u64): u64 {
  const t = word ^ wanted;
  return (t - lows) & ~t & highs;
}

/** Whether bucket `i` holds `fp`. */
// @ts-ignore: decorator
@inline export function bucketHas(r: usize, i: u64, fp: u32): bool {
  return findInBucket(r, i, fp) >= 0;
}

/** The first slot s of bucket `i` holding `fp` (0 for an empty one), or -1. */
export function findInBucket(r: usize, i: u64, fp: u32): i32 {
  const table = cuckooRecord(r);
  const b = <u64>table.bucketSize;
  const f = <u64>table.fingerprintBits;
  const first = i * b;
  const width = b * f;
  if (width <= 57) {
    const lows = table.laneLows;
    const hit = zeroLanes(wordAt(r, first * f, (<u64>1 << width) - 1), <u64>fp * lows, lows, lows << (f - 1));
    return hit == 0 ? -1 : <i32>(ctz<u64>(hit) / f);
  }
  for (let s: u64 = 0; s < b; s++) if (getSlot(r, first + s, f) == fp) return <i32>s;
  return -1;
}

/** Puts `fp` in the first empty slot of bucket `i`; false when there is none. */
export function insertIntoBucket(r: usize, i: u64, fp: u32): bool {
  const s = findInBucket(r, i, 0);
  if (s < 0) return false;
  const table = cuckooRecord(r);
  setSlot(r, i * <u64>table.bucketSize + <u64>s, fp, <u64>table.fingerprintBits);
  return true;
}

/** Matches of `fp` in bucket `i`. */
export function countInBucket(r: usize, i: u64, fp: u32): u32 {
  const b = bucketSize(r);
  const f = fingerprintBits(r);
  const first = i * b;
  let n: u32 = 0;
  for (let s: u64 = 0; s < b; s++) n += <u32>(getSlot(r, first + s, f) == fp);
  return n;
}

/** Empties the first slot of bucket `i` that holds `fp`; false when none does. */
export function deleteFromBucket(r: usize, i: u64, fp: u32): bool {
  const s = findInBucket(r, i, fp);
  if (s < 0) return false;
  const table = cuckooRecord(r);
  setSlot(r, i * <u64>table.bucketSize + <u64>s, 0, <u64>table.fingerprintBits);
  return true;
}
