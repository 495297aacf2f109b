// A counting Bloom filter (Fan, Cao, Almeida and Broder, "Summary Cache: A
// Scalable Wide-Area Web Cache Sharing Protocol", IEEE/ACM Transactions on
// Networking 8(3), 2000): every bit of the plain filter becomes a 4-bit
// counter, so items can be removed. The positions are the plain filter's
// (assembly/scheme.ts's probe record, expanded to the eight positions under
// sbbf); only what happens at a position differs.
// The pure-TypeScript twin is src/reference/counting.ts.
//
// Counter p lives in byte p >> 1 of the record's payload: the low nibble (bits 0-3)
// when p is even, the high nibble (bits 4-7) when p is odd. A counter
// saturates at 15 and then never changes again (not on add, not on
// remove), so a remove can never bring an item's counter to 0 while an
// item that still holds it is present: no false negatives.
//
// Each distinct position of an item counts once. Under xxh64 and sbbf the k
// positions are distinct already; under poly and bytesum a position may
// repeat, and a repeat neither adds nor removes a second time.

import { KIND_COUNTING, named, payloadOf, REFUSED, SchemeRecord, schemeRecord, writeSchemeFields } from "./record";
import { createRecord } from "./core-calls";
import { positionsCall, streamBeginCall, streamPositionsCall, streamUpdateCall } from "./bloom-calls";
import {
  BATCH_FLAGS_PTR, BATCH_MAX, BATCH_OFFSETS_PTR, PROBES_PTR, SCRATCH_PTR, SCRATCH_SIZE,
} from "./layout";
import { EVERY_SCHEME, SCHEME_SBBF, SCHEME_XXH64, blocksOf, probeHash, probeItem, streamProbe } from "./scheme";
import { sbbfPositions } from "./sbbf";
import { checksumUpdate } from "./checksum";

/** The largest counter value; a counter that reaches it is saturated. */
export const COUNTER_MAX: u32 = 15;

/** The operations of countingItem, countingStream and countingDigest. */
const OP_ADD = 0;
const OP_HAS = 1;
const OP_REMOVE = 2;
const OP_COUNT = 3;

/**
 * A counting filter's record (KIND_COUNTING): the scheme's parameters (m
 * counters) and its three tallies, which every change of a counter keeps
 * up to date in place. Its payload is the counters, ceil(m / 2) bytes.
 */
@unmanaged export class CountingRecord extends SchemeRecord {
  /** Counters above 0 (the plain filter's bitsSet). */
  nonzero: u64;
  /** Counters at COUNTER_MAX. */
  saturated: u64;
  /** Adds minus successful removes, never below 0. */
  held: u64;
}

/** Record `r` as a counting filter's. */
// @ts-ignore: decorator
@inline function countingRecord(r: usize): CountingRecord {
  return changetype<CountingRecord>(r);
}

/** Bytes of the packed counters: ceil(m / 2). */
// @ts-ignore: decorator
@inline function countersLength(r: usize): u64 {
  return (schemeRecord(r).bits + 1) >> 1;
}

// @ts-ignore: decorator
@inline function getCounter(r: usize, p: u64): u32 {
  return (<u32>load<u8>(payloadOf(r) + <usize>(p >> 1)) >> (<u32>(p & 1) << 2)) & 15;
}

// @ts-ignore: decorator
@inline function setCounter(r: usize, p: u64, value: u32): void {
  const ptr = payloadOf(r) + <usize>(p >> 1);
  const shift = <u32>(p & 1) << 2;
  store<u8>(ptr, (<u32>load<u8>(ptr) & ~(<u32>15 << shift)) | (value << shift));
}

// @ts-ignore: decorator
@inline function probed(i: i32): u64 {
  return load<u64>(PROBES_PTR + (<usize>i << 3));
}

/** False when position i repeats an earlier one of the same item (possible under poly and bytesum only). */
// @ts-ignore: decorator
@inline function isFirstAt(r: usize, i: i32): bool {
  if (schemeRecord(r).scheme == SCHEME_XXH64 || schemeRecord(r).scheme == SCHEME_SBBF) return true;
  const p = probed(i);
  for (let j = 0; j < i; j++) if (probed(j) == p) return false;
  return true;
}

/** Raises the item's counters; true when one went from 0 (the item was certainly new). */
function addProbed(r: usize): bool {
  let fresh = false;
  for (let i = 0; i < schemeRecord(r).hashes; i++) {
    if (!isFirstAt(r, i)) continue;
    const p = probed(i);
    const c = getCounter(r, p);
    if (c == COUNTER_MAX) continue;
    if (c == 0) {
      fresh = true;
      countingRecord(r).nonzero++;
    }
    setCounter(r, p, c + 1);
    if (c + 1 == COUNTER_MAX) countingRecord(r).saturated++;
  }
  countingRecord(r).held++;
  return fresh;
}

/** The smallest of the item's counters: 0 when it is certainly absent. */
function countProbed(r: usize): u32 {
  const k = schemeRecord(r).hashes;
  let least: u32 = COUNTER_MAX;
  for (let i = 0; i < k; i++) least = min<u32>(least, getCounter(r, probed(i)));
  return least;
}

/**
 * Lowers the item's counters, saturated ones excepted. Returns 0 and
 * changes nothing when a counter is 0 (the item cannot be present).
 */
function removeProbed(r: usize): i32 {
  if (countProbed(r) == 0) return 0;
  for (let i = 0; i < schemeRecord(r).hashes; i++) {
    if (!isFirstAt(r, i)) continue;
    const p = probed(i);
    const c = getCounter(r, p);
    if (c == COUNTER_MAX) continue;
    setCounter(r, p, c - 1);
    if (c == 1) countingRecord(r).nonzero--;
  }
  if (countingRecord(r).held > 0) countingRecord(r).held--;
  return 1;
}

/** Runs `op` on the probe record in PROBES_PTR. */
function countingProbed(r: usize, op: i32): i32 {
  // sbbf's record is the hash; its eight positions follow from it.
  if (schemeRecord(r).scheme == SCHEME_SBBF) sbbfPositions(load<u64>(PROBES_PTR), blocksOf(r), PROBES_PTR);
  if (op == OP_ADD) return <i32>addProbed(r);
  if (op == OP_HAS) return countProbed(r) != 0 ? 1 : 0;
  if (op == OP_REMOVE) return removeProbed(r);
  return <i32>countProbed(r);
}

/** Zeroes the counters and the tallies. */
function clearCounters(r: usize): void {
  memory.fill(payloadOf(r), 0, <usize>countersLength(r));
  countingRecord(r).nonzero = 0;
  countingRecord(r).saturated = 0;
  countingRecord(r).held = 0;
}

/**
 * Recounts the nonzero and saturated counters from memory (after counters
 * were written from JS), sets `held`, and returns the nonzero count.
 */
function restoreTallies(r: usize, heldItems: f64): f64 {
  // Eight bytes (16 counters) per step, by SWAR: a nibble is nonzero when
  // any of its bits is, and 15 when all four are; OR-folding (or AND-folding)
  // each nibble into its low bit and counting those bits gives both tallies.
  // Byte by byte this loop read ~120 MB/s, slow for loading a large file.
  let zero: u64 = 0;
  let full: u64 = 0;
  const end = payloadOf(r) + <usize>countersLength(r);
  const LOW: u64 = 0x1111111111111111;
  let ptr = payloadOf(r);
  for (; ptr + 8 <= end; ptr += 8) {
    const x = load<u64>(ptr);
    let any = x | (x >> 1);
    any |= any >> 2;
    let all = x & (x >> 1);
    all &= all >> 2;
    zero += 16 - popcnt<u64>(any & LOW);
    full += popcnt<u64>(all & LOW);
  }
  for (; ptr < end; ptr++) {
    const b = <u32>load<u8>(ptr);
    zero += <u64>((b & 15) == 0) + <u64>((b >> 4) == 0);
    full += <u64>((b & 15) == 15) + <u64>((b >> 4) == 15);
  }
  // The high nibble past an odd m is padding, always 0: not a counter.
  if (schemeRecord(r).bits & 1) zero--;
  countingRecord(r).nonzero = schemeRecord(r).bits - zero;
  countingRecord(r).saturated = full;
  countingRecord(r).held = <u64>heldItems;
  return <f64>countingRecord(r).nonzero;
}

/** Feeds the packed counters to the file checksum, straight from memory. */
function checksumCounters(r: usize): void {
  checksumUpdate(payloadOf(r), <usize>countersLength(r));
}

/**
 * Writes `len` bytes of the plain filter's packed bits, starting at bit
 * byte `first`, to `to`: bit p is 1 when counter p is above 0. `to` is a
 * BloomFilter's bits in the same memory (toBloomFilter, in one call), or
 * scratch (at most its size; a target in another memory takes it from
 * there).
 */
function bitsChunk(r: usize, first: u32, len: u32, to: usize): void {
  if (to == SCRATCH_PTR) len = min<u32>(len, SCRATCH_SIZE);
  const whole = <u32>(schemeRecord(r).bits >> 3); // bit bytes whose 8 counters all exist
  for (let j: u32 = 0; j < len; j++) {
    const byte = first + j;
    let out: u32 = 0;
    if (byte < whole) {
      // Eight counters are one u32; fold each nibble's "above 0" into its low
      // bit, then gather bits 0, 4, ..., 28 into bits 0..7.
      let x = load<u32>(payloadOf(r) + (<usize>byte << 2));
      x |= x >> 1;
      x |= x >> 2;
      x &= 0x11111111;
      x = (x | (x >> 3)) & 0x03030303;
      x = (x | (x >> 6)) & 0x000f000f;
      out = (x | (x >> 12)) & 0xff;
    } else {
      for (let q: u32 = 0; q < 8; q++) {
        const p = (<u64>byte << 3) + q;
        if (p < schemeRecord(r).bits && getCounter(r, p) != 0) out |= <u32>1 << q;
      }
    }
    store<u8>(to + <usize>j, <u8>out);
  }
}

/**
 * Runs `op` (0 add, 1 has) on `count` items staged as a batch (item i is
 * scratch bytes [offsets[i], offsets[i+1]) of the batch offsets region, as
 * for addBatch), in order; item i's answer goes to the batch flags region.
 * Returns how many answered 1.
 */
function batchOf(r: usize, count: u32, op: i32): u32 {
  count = min<u32>(count, BATCH_MAX);
  let ones: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const start = load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2));
    const end = load<u32>(BATCH_OFFSETS_PTR + (<usize>(i + 1) << 2));
    probeItem(r, SCRATCH_PTR + <usize>start, <usize>(end - start), false, PROBES_PTR, EVERY_SCHEME);
    const answer = countingProbed(r, op) != 0;
    store<u8>(BATCH_FLAGS_PTR + <usize>i, <u8>answer);
    ones += <u32>answer;
  }
  return ones;
}

// The exports: each names its record (assembly/record.ts) and refuses a
// pair that names no live record with REFUSED.

/**
 * A new counting filter of m = `m` counters, k, scheme and seed (validated
 * by the caller), every counter 0: its record's address, or 0 when the
 * instance's memory cannot hold it (assembly/record-life.ts's
 * createRecord, in the core).
 */
export function countingCreate(m: f64, k: i32, schemeId: i32, seedLo: u32, seedHi: u32): usize {
  const r = createRecord(KIND_COUNTING, (<u64>m + 1) >> 1);
  if (r == 0) return 0;
  writeSchemeFields(r, m, k, schemeId, seedLo, seedHi);
  return r;
}

/**
 * Runs `op` (0 add, 1 has, 2 remove, 3 count) on the item in scratch in
 * counting filter r. add returns 1 when the item was new, has 1 when it
 * may be present, remove 1 when done and 0 when refused, count the
 * smallest counter.
 */
export function countingItem(r: usize, generation: u32, len: u32, wide: bool, op: i32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  probeItem(r, SCRATCH_PTR, len, wide, PROBES_PTR, EVERY_SCHEME);
  return countingProbed(r, op);
}

/** countingItem for a streamed item (after streamBegin and streamUpdate). */
export function countingStream(r: usize, generation: u32, op: i32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  streamProbe(r, PROBES_PTR, EVERY_SCHEME);
  return countingProbed(r, op);
}

/** countingItem for an item given by its 64-bit digest hi:lo (xxh64 family; the caller checked). */
export function countingDigest(r: usize, generation: u32, lo: u32, hi: u32, op: i32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  probeHash(r, (<u64>hi << 32) | <u64>lo, PROBES_PTR);
  return countingProbed(r, op);
}

/** Counters above 0. */
export function countingNonzero(r: usize, generation: u32): f64 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <f64>countingRecord(r).nonzero;
}

/** Counters at 15. */
export function countingSaturated(r: usize, generation: u32): f64 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <f64>countingRecord(r).saturated;
}

/** Adds minus successful removes. */
export function countingHeld(r: usize, generation: u32): f64 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <f64>countingRecord(r).held;
}

/** clearCounters on record r; REFUSED or 0. */
export function countingClear(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  clearCounters(r);
  return 0;
}

/** restoreTallies on record r; REFUSED or the nonzero count. */
export function countingRestore(r: usize, generation: u32, heldItems: f64): f64 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return restoreTallies(r, heldItems);
}

/** checksumCounters on record r; REFUSED or 0. */
export function countingChecksumCounters(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  checksumCounters(r);
  return 0;
}

/** bitsChunk on record r; REFUSED or 0. */
export function countingBitsChunk(r: usize, generation: u32, first: u32, len: u32, to: usize): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  bitsChunk(r, first, len, to);
  return 0;
}

/** batchOf on record r; REFUSED or how many answered 1. */
export function countingBatch(r: usize, generation: u32, count: u32, op: i32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>batchOf(r, count, op);
}

// A counting filter's positions and the start of its streamed items are
// hashed here, not in the core, which leaves poly and bytesum out
// (assembly/bloom-calls.ts): the core's calls of the same names, for any
// scheme.

/** The core's positions, for a counting filter of any scheme. */
export function countingPositions(r: usize, generation: u32, len: u32, wide: bool): i32 {
  return positionsCall(r, generation, len, wide, EVERY_SCHEME);
}

/** The core's streamPositions, for a counting filter of any scheme. */
export function countingStreamPositions(r: usize, generation: u32): i32 {
  return streamPositionsCall(r, generation, EVERY_SCHEME);
}

/** The core's streamBegin, for a counting filter of any scheme. */
export function countingStreamBegin(r: usize, generation: u32, wide: bool): i32 {
  return streamBeginCall(r, generation, wide, EVERY_SCHEME);
}

/** The core's streamUpdate, for a counting filter of any scheme. */
export function countingStreamUpdate(r: usize, generation: u32, len: u32): i32 {
  return streamUpdateCall(r, generation, len, EVERY_SCHEME);
}
