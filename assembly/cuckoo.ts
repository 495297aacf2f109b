// A cuckoo filter (Fan, Andersen, Kaminsky and Mitzenmacher, "Cuckoo Filter:
// Practically Better Than Bloom", CoNEXT 2014): each item leaves one
// f-bit fingerprint in one of two buckets of b slots, so that items can be
// removed and counted. This file is one table (one member of a filter that
// grows, src/cuckoo/cuckoo-over.ts); the pure-TypeScript twin is
// src/reference/cuckoo.ts, with the same functions under the same names.
//
// A table is a record of KIND_CUCKOO, CuckooRecord in
// assembly/cuckoo-record.ts, which lays out its fields and its slots.
//
// An item's hash h is XXH64 of its bytes (UTF-8 for strings) under the seed.
// Its fingerprint is the top f bits of h (1 where those are 0, as the
// reference implementation does, since 0 marks an empty slot), its first
// bucket i1 = ((h mod 2^32) * B) >> 32 (Lemire's multiply-shift reduction,
// for any B), and its other bucket
//   i2 = (H(fp) - i1) mod B,   H(fp) = ((fp * 0x9E3779B1 mod 2^32) * B) >> 32.
// i -> (H(fp) - i) mod B is an involution for every B, so a fingerprint
// moves between its two buckets knowing only where it is: the paper's
// i1 xor hash(fp) needs a power-of-two B, which would double the table for
// most capacities.

import { bind, REFUSED } from "./record";
import { BATCH_FLAGS_PTR, BATCH_MAX, BATCH_OFFSETS_PTR, BATCH_PROBES_PTR, bitsBase, SCRATCH_PTR } from "./layout";
import { TOUCH_SINK_PTR } from "./scheme";
import { xxh64, xxh64Digest } from "./hash";
import { checksumUpdate } from "./checksum";
import { cuckooRecord, nextRandom, slotsLengthOf } from "./cuckoo-record";

export { KIND_CUCKOO } from "./record";
export { cuckooCreate, cuckooHeld, cuckooRandomState, cuckooSetRandomState } from "./cuckoo-record";

/** The most kicks one add makes before it gives up and puts everything back (the reference's kMaxCuckooCount). */
export const MAX_KICKS: i32 = 500;

/** The operations of cuckooItem, cuckooStream and cuckooBatch. */
const OP_ADD = 0;
const OP_HAS = 1;
const OP_REMOVE = 2;
const OP_COUNT = 3;

/** u64[MAX_KICKS]: the slots an add's kicks went through, to undo them when it fails. */
const PATH_PTR: usize = memory.data(MAX_KICKS << 3, 8);

/** B: buckets of the bound table. */
// @ts-ignore: decorator
@inline function buckets(): u64 {
  return cuckooRecord().buckets;
}

/** b: slots a bucket. */
// @ts-ignore: decorator
@inline function bucketSize(): u64 {
  return <u64>cuckooRecord().bucketSize;
}

/** f: bits a fingerprint. */
// @ts-ignore: decorator
@inline function fingerprintBits(): u64 {
  return <u64>cuckooRecord().fingerprintBits;
}

/** Bytes of the packed fingerprints (the slack excluded). */
// @ts-ignore: decorator
@inline function slotsLength(): u64 {
  return slotsLengthOf(buckets(), bucketSize(), fingerprintBits());
}

// The slot helpers take f from their caller, which reads it from the
// record once for all the slots it touches (each read of a field is a
// load from memory).

/** The fingerprint in global slot `slot` (bucket * b + s) of f-bit slots. */
// @ts-ignore: decorator
@inline function getSlot(slot: u64, f: u64): u32 {
  const bit = slot * f;
  return <u32>((load<u64>(bitsBase + <usize>(bit >> 3)) >> (bit & 7)) & ((<u64>1 << f) - 1));
}

/** Writes `fp` into global slot `slot` of f-bit slots. */
// @ts-ignore: decorator
@inline function setSlot(slot: u64, fp: u32, f: u64): void {
  const bit = slot * f;
  const ptr = bitsBase + <usize>(bit >> 3);
  const shift = bit & 7;
  store<u64>(ptr, (load<u64>(ptr) & ~(((<u64>1 << f) - 1) << shift)) | (<u64>fp << shift));
}

/** The fingerprint of hash h: its top f bits, 1 in place of 0. */
// @ts-ignore: decorator
@inline function fingerprintOf(h: u64, f: u64): u32 {
  const fp = <u32>(h >> (64 - f));
  return fp == 0 ? 1 : fp;
}

/** The first bucket of hash h. */
// @ts-ignore: decorator
@inline function firstBucket(h: u64, b: u64): u64 {
  return ((h & 0xffffffff) * b) >> 32;
}

/** The other bucket of a fingerprint `fp` in bucket `i`: (H(fp) - i) mod B. */
// @ts-ignore: decorator
@inline function altBucket(i: u64, fp: u32, b: u64): u64 {
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
@inline function wordAt(bit: u64, mask: u64): u64 {
  return (load<u64>(bitsBase + <usize>(bit >> 3)) >> (bit & 7)) & mask;
}

/** L: bit 0 of each of the b lanes (stored by cuckooCreate). */
// @ts-ignore: decorator
@inline function laneLows(): u64 {
  return cuckooRecord().laneLows;
}

/**
 * Mycroft's test above: the lanes of bucket word `word` that hold the
 * fingerprint whose lanes are `wanted` (fp * L), as their high bits (`highs`,
 * L << (f - 1)); 0 when none does.
 */
// @ts-ignore: decorator
@inline function zeroLanes(word: u64, wanted: u64, lows: u64, highs: u64): u64 {
  const t = word ^ wanted;
  return (t - lows) & ~t & highs;
}

/** Whether bucket `i` holds `fp`. */
// @ts-ignore: decorator
@inline function bucketHas(i: u64, fp: u32): bool {
  return findInBucket(i, fp) >= 0;
}

/** The first slot s of bucket `i` holding `fp` (0 for an empty one), or -1. */
function findInBucket(i: u64, fp: u32): i32 {
  const table = cuckooRecord();
  const b = <u64>table.bucketSize;
  const f = <u64>table.fingerprintBits;
  const first = i * b;
  const width = b * f;
  if (width <= 57) {
    const lows = table.laneLows;
    const hit = zeroLanes(wordAt(first * f, (<u64>1 << width) - 1), <u64>fp * lows, lows, lows << (f - 1));
    return hit == 0 ? -1 : <i32>(ctz<u64>(hit) / f);
  }
  for (let s: u64 = 0; s < b; s++) if (getSlot(first + s, f) == fp) return <i32>s;
  return -1;
}

/** Puts `fp` in the first empty slot of bucket `i`; false when there is none. */
function insertIntoBucket(i: u64, fp: u32): bool {
  const s = findInBucket(i, 0);
  if (s < 0) return false;
  const table = cuckooRecord();
  setSlot(i * <u64>table.bucketSize + <u64>s, fp, <u64>table.fingerprintBits);
  return true;
}

/** Matches of `fp` in bucket `i`. */
function countInBucket(i: u64, fp: u32): u32 {
  const b = bucketSize();
  const f = fingerprintBits();
  const first = i * b;
  let n: u32 = 0;
  for (let s: u64 = 0; s < b; s++) n += <u32>(getSlot(first + s, f) == fp);
  return n;
}

/** Empties the first slot of bucket `i` that holds `fp`; false when none does. */
function deleteFromBucket(i: u64, fp: u32): bool {
  const s = findInBucket(i, fp);
  if (s < 0) return false;
  const table = cuckooRecord();
  setSlot(i * <u64>table.bucketSize + <u64>s, 0, <u64>table.fingerprintBits);
  return true;
}

/**
 * Stores one more copy of fingerprint `fp` of bucket `i1`: in a free slot
 * of either bucket, or by kicking fingerprints to their other bucket, up to
 * MAX_KICKS times, each from a slot the generator picks. When the last one
 * kicked finds no room either, every kick is undone in reverse and the
 * generator is set back to where it was, so the record is exactly as
 * before, byte for byte: 0, refused. 1 when stored.
 */
function addFingerprint(i1: u64, fp: u32): i32 {
  const i2 = altBucket(i1, fp, buckets());
  if (insertIntoBucket(i1, fp) || insertIntoBucket(i2, fp)) {
    cuckooRecord().held++;
    return 1;
  }
  const b = bucketSize();
  const f = fingerprintBits();
  // A refusal changes nothing, the generator included (it is in the file).
  const state = cuckooRecord().randomState;
  let i = nextRandom() >> 63 ? i2 : i1;
  let held = fp;
  for (let n = 0; n < MAX_KICKS; n++) {
    const slot = i * b + ((nextRandom() >> 32) & (b - 1));
    store<u64>(PATH_PTR + (<usize>n << 3), slot);
    const victim = getSlot(slot, f);
    setSlot(slot, held, f);
    held = victim;
    i = altBucket(i, held, buckets());
    if (insertIntoBucket(i, held)) {
      cuckooRecord().held++;
      return 1;
    }
  }
  for (let n = MAX_KICKS - 1; n >= 0; n--) {
    const slot = load<u64>(PATH_PTR + (<usize>n << 3));
    const placed = getSlot(slot, f);
    setSlot(slot, held, f);
    held = placed;
  }
  cuckooRecord().randomState = state;
  return 0;
}

/**
 * Whether either bucket of `fp` holds it: bucketHas twice, with the
 * table's parameters read once, and the other bucket worked out only when
 * the first does not answer (the hot path of has).
 */
// @ts-ignore: decorator
@inline function hashedHas(i1: u64, fp: u32, f: u64, buckets: u64): bool {
  const table = cuckooRecord();
  const width = <u64>table.bucketSize * f;
  if (width > 57) return bucketHas(i1, fp) || bucketHas(altBucket(i1, fp, buckets), fp);
  const lows = table.laneLows;
  const highs = lows << (f - 1);
  const wanted = <u64>fp * lows;
  const mask = (<u64>1 << width) - 1;
  if (zeroLanes(wordAt(i1 * width, mask), wanted, lows, highs) != 0) return true;
  return zeroLanes(wordAt(altBucket(i1, fp, buckets) * width, mask), wanted, lows, highs) != 0;
}

/** Runs `op` on the item of hash h: add 1 stored / 0 refused, has 1 / 0, remove 1 done / 0 no match, count the matches. */
function cuckooHashed(h: u64, op: i32): i32 {
  const table = cuckooRecord();
  const f = <u64>table.fingerprintBits;
  const buckets = table.buckets;
  const fp = fingerprintOf(h, f);
  const i1 = firstBucket(h, buckets);
  if (op == OP_ADD) return addFingerprint(i1, fp);
  if (op == OP_HAS) return <i32>hashedHas(i1, fp, f, buckets);
  const i2 = altBucket(i1, fp, buckets);
  if (op == OP_REMOVE) {
    if (!deleteFromBucket(i1, fp) && !deleteFromBucket(i2, fp)) return 0;
    cuckooRecord().held--;
    return 1;
  }
  // When both buckets are one, its matches count once.
  return <i32>(countInBucket(i1, fp) + (i2 != i1 ? countInBucket(i2, fp) : 0));
}

/** Runs `op` (0 add, 1 has, 2 remove, 3 count) on the item of `len` bytes in scratch. */
function cuckooItemBound(len: u32, op: i32): i32 {
  return cuckooHashed(xxh64(SCRATCH_PTR, <usize>len, cuckooRecord().seed), op);
}

/** cuckooItem for a streamed item (after streamBegin and streamUpdate on this record: XXH64 under the table's seed). */
function cuckooStreamBound(op: i32): i32 {
  return cuckooHashed(xxh64Digest(), op);
}

/** Items hashed, then touched, together in a batch has (as assembly/batch.ts's groups): the hashes fill the batch probes region. */
const HAS_GROUP: u32 = 64;

/** The hash of staged batch item i. */
// @ts-ignore: decorator
@inline function batchHash(i: u32, seed: u64): u64 {
  const start = load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2));
  const end = load<u32>(BATCH_OFFSETS_PTR + (<usize>(i + 1) << 2));
  return xxh64(SCRATCH_PTR + <usize>start, <usize>(end - start), seed);
}

/** Bytes per item of a has group in the batch probes region: the bit offsets of its two buckets (u64s), then its fingerprint times L (u64). */
const HAS_STRIDE: usize = 24;

/**
 * Runs `op` (0 add or 1 has) on `count` items staged as a batch (item i is
 * scratch bytes [offsets[i], offsets[i+1])), in order; item i's answer goes
 * to the batch flags region. An add stops at the first item refused and
 * returns its index (count when every item was stored); has returns count.
 *
 * has hashes a group of items, then reads the first byte of both buckets
 * of each before it tests any: the loads are independent, so in a table
 * larger than the cache their misses overlap (what assembly/batch.ts does
 * for a Bloom filter's positions). Where a bucket is one u64 (b * f <= 57)
 * the touch pass keeps both buckets' bit offsets and the fingerprint's
 * lanes, and the test reads both buckets and ORs Mycroft's test of each
 * without a branch: a present item is in either bucket at random, so
 * hashedHas's early return, right for a single has, would be mispredicted
 * for half of them, and both lines are in the cache by then. Adds stay one
 * at a time: each may kick.
 */
function cuckooBatchBound(count: u32, op: i32): u32 {
  count = min<u32>(count, BATCH_MAX);
  if (op == OP_HAS) {
    const seed = cuckooRecord().seed;
    const f = fingerprintBits();
    const width = bucketSize() * f;
    const word = width <= 57;
    const buckets = cuckooRecord().buckets;
    const lows = laneLows();
    const highs = lows << (f - 1);
    const mask = (<u64>1 << (width & 63)) - 1;
    for (let first: u32 = 0; first < count; first += HAS_GROUP) {
      const n = min<u32>(HAS_GROUP, count - first);
      for (let j: u32 = 0; j < n; j++) store<u64>(BATCH_PROBES_PTR + <usize>j * HAS_STRIDE, batchHash(first + j, seed));
      let touched: u32 = 0;
      for (let j: u32 = 0; j < n; j++) {
        const at = BATCH_PROBES_PTR + <usize>j * HAS_STRIDE;
        const h = load<u64>(at);
        const fp = fingerprintOf(h, f);
        const i1 = firstBucket(h, buckets);
        const bit1 = i1 * width;
        const bit2 = altBucket(i1, fp, buckets) * width;
        // h is read again by the generic test below; the word test needs only these.
        if (word) {
          store<u64>(at, bit1);
          store<u64>(at, bit2, 8);
          store<u64>(at, <u64>fp * lows, 16);
        }
        touched += <u32>load<u8>(bitsBase + <usize>(bit1 >> 3)) + <u32>load<u8>(bitsBase + <usize>(bit2 >> 3));
      }
      store<u32>(TOUCH_SINK_PTR, load<u32>(TOUCH_SINK_PTR) + touched);
      for (let j: u32 = 0; j < n; j++) {
        const at = BATCH_PROBES_PTR + <usize>j * HAS_STRIDE;
        let answer: u32;
        if (word) {
          const wanted = load<u64>(at, 16);
          const one = zeroLanes(wordAt(load<u64>(at), mask), wanted, lows, highs);
          answer = <u32>((one | zeroLanes(wordAt(load<u64>(at, 8), mask), wanted, lows, highs)) != 0);
        } else {
          answer = <u32>cuckooHashed(load<u64>(at), OP_HAS);
        }
        store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>answer);
      }
    }
    return count;
  }
  const seed = cuckooRecord().seed;
  for (let i: u32 = 0; i < count; i++) {
    const answer = cuckooHashed(batchHash(i, seed), op);
    store<u8>(BATCH_FLAGS_PTR + <usize>i, <u8>answer);
    if (op == OP_ADD && answer == 0) return i;
  }
  return count;
}

/** Empties every slot; the generator goes on where it was. */
function cuckooClearBound(): void {
  memory.fill(bitsBase, 0, <usize>slotsLength());
  cuckooRecord().held = 0;
}

/** Recounts the non-empty slots (after fingerprints were written from JS), sets the tally to it and returns it. */
function cuckooRestoreBound(): f64 {
  const slots = buckets() * bucketSize();
  const f = fingerprintBits();
  let n: u64 = 0;
  for (let slot: u64 = 0; slot < slots; slot++) n += <u64>(getSlot(slot, f) != 0);
  cuckooRecord().held = n;
  return <f64>n;
}

/** Feeds the packed fingerprints (the slack excluded) to the file checksum, straight from memory. */
function cuckooChecksumSlotsBound(): void {
  checksumUpdate(bitsBase, <usize>slotsLength());
}

// The exports: each binds its record first (assembly/record.ts).

/** cuckooItemBound on record r, bound first: REFUSED when r and generation name no live record. */
export function cuckooItem(r: usize, generation: u32, len: u32, op: i32): i32 {
  if (!bind(r, generation)) return REFUSED;
  return <i32>cuckooItemBound(len, op);
}

/** cuckooStreamBound on record r, bound first: REFUSED when r and generation name no live record. */
export function cuckooStream(r: usize, generation: u32, op: i32): i32 {
  if (!bind(r, generation)) return REFUSED;
  return <i32>cuckooStreamBound(op);
}

/** cuckooBatchBound on record r, bound first: REFUSED when r and generation name no live record. */
export function cuckooBatch(r: usize, generation: u32, count: u32, op: i32): i32 {
  if (!bind(r, generation)) return REFUSED;
  return <i32>cuckooBatchBound(count, op);
}

/** cuckooClearBound on record r, bound first: REFUSED when r and generation name no live record. */
export function cuckooClear(r: usize, generation: u32): i32 {
  if (!bind(r, generation)) return REFUSED;
  cuckooClearBound();
  return 0;
}

/** cuckooRestoreBound on record r, bound first: REFUSED when r and generation name no live record. */
export function cuckooRestore(r: usize, generation: u32): f64 {
  if (!bind(r, generation)) return REFUSED;
  return <f64>cuckooRestoreBound();
}

/** cuckooChecksumSlotsBound on record r, bound first: REFUSED when r and generation name no live record. */
export function cuckooChecksumSlots(r: usize, generation: u32): i32 {
  if (!bind(r, generation)) return REFUSED;
  cuckooChecksumSlotsBound();
  return 0;
}
