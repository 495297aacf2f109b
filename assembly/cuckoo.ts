// A cuckoo filter (Fan, Andersen, Kaminsky and Mitzenmacher, "Cuckoo Filter:
// Practically Better Than Bloom", CoNEXT 2014): each item leaves one
// f-bit fingerprint in one of two buckets of b slots, so that items can be
// removed and counted. This file is one table (one member of a filter that
// grows, src/cuckoo/cuckoo-over.ts): an add's kicks and the calls on an
// item, a batch and the whole table; the pure-TypeScript twin is
// src/reference/cuckoo.ts, with the same functions under the same names.
//
// A table is a record of KIND_CUCKOO, CuckooRecord in
// assembly/cuckoo-record.ts, which lays out its fields and its slots; its
// buckets' slots are read and written by assembly/cuckoo-bucket.ts.
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

import { named, payloadOf, REFUSED } from "./record";
import { BATCH_FLAGS_PTR, BATCH_MAX, BATCH_OFFSETS_PTR, BATCH_PROBES_PTR, KICK_PATH_PTR, SCRATCH_PTR, TOUCH_SINK_PTR } from "./layout";
import { xxh64, xxh64Digest } from "./hash";
import { checksumUpdate } from "./checksum";
import { cuckooRecord, nextRandom } from "./cuckoo-record";
import {
  altBucket, bucketHas, buckets, bucketSize, countInBucket, deleteFromBucket, fingerprintBits, fingerprintOf, firstBucket, getSlot,
  insertIntoBucket, laneLows, setSlot, slotsLength, wordAt, zeroLanes,
} from "./cuckoo-bucket";

export { KIND_CUCKOO } from "./record";
export { cuckooCreate, cuckooHeld, cuckooRandomState, cuckooSetRandomState } from "./cuckoo-record";

/** The most kicks one add makes before it gives up and puts everything back (the reference's kMaxCuckooCount). */
export const MAX_KICKS: i32 = 500;

/** The operations of cuckooItem, cuckooStream and cuckooBatch. */
const OP_ADD = 0;
const OP_HAS = 1;
const OP_REMOVE = 2;
const OP_COUNT = 3;

// The slots an add's kicks went through, to undo them when it fails, are
// kept at the work area's KICK_PATH_PTR, which has KICK_PATH_SLOTS of
// room: no fewer than MAX_KICKS.

/**
 * Stores one more copy of fingerprint `fp` of bucket `i1`: in a free slot
 * of either bucket, or by kicking fingerprints to their other bucket, up to
 * MAX_KICKS times, each from a slot the generator picks. When the last one
 * kicked finds no room either, every kick is undone in reverse and the
 * generator is set back to where it was, so the record is exactly as
 * before, byte for byte: 0, refused. 1 when stored.
 */
function addFingerprint(r: usize, i1: u64, fp: u32): i32 {
  const i2 = altBucket(i1, fp, buckets(r));
  if (insertIntoBucket(r, i1, fp) || insertIntoBucket(r, i2, fp)) {
    cuckooRecord(r).held++;
    return 1;
  }
  const b = bucketSize(r);
  const f = fingerprintBits(r);
  // A refusal changes nothing, the generator included (it is in the file).
  const state = cuckooRecord(r).randomState;
  let i = nextRandom(r) >> 63 ? i2 : i1;
  let held = fp;
  for (let n = 0; n < MAX_KICKS; n++) {
    const slot = i * b + ((nextRandom(r) >> 32) & (b - 1));
    store<u64>(KICK_PATH_PTR + (<usize>n << 3), slot);
    const victim = getSlot(r, slot, f);
    setSlot(r, slot, held, f);
    held = victim;
    i = altBucket(i, held, buckets(r));
    if (insertIntoBucket(r, i, held)) {
      cuckooRecord(r).held++;
      return 1;
    }
  }
  for (let n = MAX_KICKS - 1; n >= 0; n--) {
    const slot = load<u64>(KICK_PATH_PTR + (<usize>n << 3));
    const placed = getSlot(r, slot, f);
    setSlot(r, slot, held, f);
    held = placed;
  }
  cuckooRecord(r).randomState = state;
  return 0;
}

/**
 * Whether either bucket of `fp` holds it: bucketHas twice, with the
 * table's parameters read once, and the other bucket worked out only when
 * the first does not answer (the hot path of has).
 */
// @ts-ignore: decorator
@inline function hashedHas(r: usize, i1: u64, fp: u32, f: u64, buckets: u64): bool {
  const table = cuckooRecord(r);
  const width = <u64>table.bucketSize * f;
  if (width > 57) return bucketHas(r, i1, fp) || bucketHas(r, altBucket(i1, fp, buckets), fp);
  const lows = table.laneLows;
  const highs = lows << (f - 1);
  const wanted = <u64>fp * lows;
  const mask = (<u64>1 << width) - 1;
  if (zeroLanes(wordAt(r, i1 * width, mask), wanted, lows, highs) != 0) return true;
  return zeroLanes(wordAt(r, altBucket(i1, fp, buckets) * width, mask), wanted, lows, highs) != 0;
}

/** Runs `op` on the item of hash h: add 1 stored / 0 refused, has 1 / 0, remove 1 done / 0 no match, count the matches. */
function cuckooHashed(r: usize, h: u64, op: i32): i32 {
  const table = cuckooRecord(r);
  const f = <u64>table.fingerprintBits;
  const buckets = table.buckets;
  const fp = fingerprintOf(h, f);
  const i1 = firstBucket(h, buckets);
  if (op == OP_ADD) return addFingerprint(r, i1, fp);
  if (op == OP_HAS) return <i32>hashedHas(r, i1, fp, f, buckets);
  const i2 = altBucket(i1, fp, buckets);
  if (op == OP_REMOVE) {
    if (!deleteFromBucket(r, i1, fp) && !deleteFromBucket(r, i2, fp)) return 0;
    cuckooRecord(r).held--;
    return 1;
  }
  // When both buckets are one, its matches count once.
  return <i32>(countInBucket(r, i1, fp) + (i2 != i1 ? countInBucket(r, i2, fp) : 0));
}

/** Runs `op` (0 add, 1 has, 2 remove, 3 count) on the item of `len` bytes in scratch. */
function cuckooItemAt(r: usize, len: u32, op: i32): i32 {
  return cuckooHashed(r, xxh64(SCRATCH_PTR, <usize>len, cuckooRecord(r).seed), op);
}

/** cuckooItem for a streamed item (after streamBegin and streamUpdate on this record: XXH64 under the table's seed). */
function cuckooStreamAt(r: usize, op: i32): i32 {
  return cuckooHashed(r, xxh64Digest(), op);
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
function cuckooBatchAt(r: usize, count: u32, op: i32): u32 {
  count = min<u32>(count, BATCH_MAX);
  if (op == OP_HAS) {
    const seed = cuckooRecord(r).seed;
    const f = fingerprintBits(r);
    const width = bucketSize(r) * f;
    const word = width <= 57;
    const buckets = cuckooRecord(r).buckets;
    const lows = laneLows(r);
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
        touched += <u32>load<u8>(payloadOf(r) + <usize>(bit1 >> 3)) + <u32>load<u8>(payloadOf(r) + <usize>(bit2 >> 3));
      }
      store<u32>(TOUCH_SINK_PTR, load<u32>(TOUCH_SINK_PTR) + touched);
      for (let j: u32 = 0; j < n; j++) {
        const at = BATCH_PROBES_PTR + <usize>j * HAS_STRIDE;
        let answer: u32;
        if (word) {
          const wanted = load<u64>(at, 16);
          const one = zeroLanes(wordAt(r, load<u64>(at), mask), wanted, lows, highs);
          answer = <u32>((one | zeroLanes(wordAt(r, load<u64>(at, 8), mask), wanted, lows, highs)) != 0);
        } else {
          answer = <u32>cuckooHashed(r, load<u64>(at), OP_HAS);
        }
        store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>answer);
      }
    }
    return count;
  }
  const seed = cuckooRecord(r).seed;
  for (let i: u32 = 0; i < count; i++) {
    const answer = cuckooHashed(r, batchHash(i, seed), op);
    store<u8>(BATCH_FLAGS_PTR + <usize>i, <u8>answer);
    if (op == OP_ADD && answer == 0) return i;
  }
  return count;
}

/** Empties every slot; the generator goes on where it was. */
function cuckooClearAt(r: usize): void {
  memory.fill(payloadOf(r), 0, <usize>slotsLength(r));
  cuckooRecord(r).held = 0;
}

/** Recounts the non-empty slots (after fingerprints were written from JS), sets the tally to it and returns it. */
function cuckooRestoreAt(r: usize): f64 {
  const slots = buckets(r) * bucketSize(r);
  const f = fingerprintBits(r);
  let n: u64 = 0;
  for (let slot: u64 = 0; slot < slots; slot++) n += <u64>(getSlot(r, slot, f) != 0);
  cuckooRecord(r).held = n;
  return <f64>n;
}

/** Feeds the packed fingerprints (the slack excluded) to the file checksum, straight from memory. */
function cuckooChecksumSlotsAt(r: usize): void {
  checksumUpdate(payloadOf(r), <usize>slotsLength(r));
}

// The exports: each names its record (assembly/record.ts) and refuses a
// pair that names no live record with REFUSED.

/** cuckooItemAt on record r: REFUSED when r and generation name no live record. */
export function cuckooItem(r: usize, generation: u32, len: u32, op: i32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>cuckooItemAt(r, len, op);
}

/** cuckooStreamAt on record r: REFUSED when r and generation name no live record. */
export function cuckooStream(r: usize, generation: u32, op: i32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>cuckooStreamAt(r, op);
}

/** cuckooBatchAt on record r: REFUSED when r and generation name no live record. */
export function cuckooBatch(r: usize, generation: u32, count: u32, op: i32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>cuckooBatchAt(r, count, op);
}

/** cuckooClearAt on record r: REFUSED when r and generation name no live record. */
export function cuckooClear(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  cuckooClearAt(r);
  return 0;
}

/** cuckooRestoreAt on record r: REFUSED when r and generation name no live record. */
export function cuckooRestore(r: usize, generation: u32): f64 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <f64>cuckooRestoreAt(r);
}

/** cuckooChecksumSlotsAt on record r: REFUSED when r and generation name no live record. */
export function cuckooChecksumSlots(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  cuckooChecksumSlotsAt(r);
  return 0;
}
