// A counting Bloom filter (Fan, Cao, Almeida and Broder, "Summary Cache: A
// Scalable Wide-Area Web Cache Sharing Protocol", IEEE/ACM Transactions on
// Networking 8(3), 2000): every bit of the plain filter becomes a 4-bit
// counter, so items can be removed. The positions are the plain filter's
// (assembly/scheme.ts's probe record, expanded to the eight positions under
// sbbf); only what happens at a position differs.
// The pure-TypeScript twin is src/reference/counting.ts.
//
// Counter p lives in byte bitsBase + (p >> 1): the low nibble (bits 0-3)
// when p is even, the high nibble (bits 4-7) when p is odd. A counter
// saturates at 15 and then never changes again (not on add, not on
// remove), so a remove can never bring an item's counter to 0 while an
// item that still holds it is present: no false negatives.
//
// Each distinct position of an item counts once. Under xxh64 and sbbf the k
// positions are distinct already; under poly and bytesum a position may
// repeat, and a repeat neither adds nor removes a second time.

import { bind, REFUSED, saveCounters, SchemeRecord } from "./record";
import {
  BATCH_FLAGS_PTR, BATCH_MAX, BATCH_OFFSETS_PTR, bitsBase, PROBES_PTR, SCRATCH_PTR, SCRATCH_SIZE,
} from "./layout";
import { bits, blocks, hashes, scheme } from "./filter";
import { SCHEME_SBBF, SCHEME_XXH64, probeHash, probeItem, streamProbe } from "./scheme";
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
 * counters) and its three tallies, which bind() loads into the globals
 * below and saveCounters() writes back. Its payload is the counters,
 * ceil(m / 2) bytes.
 */
@unmanaged export class CountingRecord extends SchemeRecord {
  /** Counters above 0. */
  nonzero: u64;
  /** Counters at COUNTER_MAX. */
  saturated: u64;
  /** Adds less removes. */
  held: u64;
}

/** Counters above 0 (the plain filter's bitsSet). */
export let nonzero: u64 = 0;
/** Counters at COUNTER_MAX. */
export let saturated: u64 = 0;
/** Adds minus successful removes, never below 0. */
export let held: u64 = 0;

/** Bytes of the packed counters: ceil(m / 2). */
// @ts-ignore: decorator
@inline function countersLength(): u64 {
  return (bits + 1) >> 1;
}

// @ts-ignore: decorator
@inline function getCounter(p: u64): u32 {
  return (<u32>load<u8>(bitsBase + <usize>(p >> 1)) >> (<u32>(p & 1) << 2)) & 15;
}

// @ts-ignore: decorator
@inline function setCounter(p: u64, value: u32): void {
  const ptr = bitsBase + <usize>(p >> 1);
  const shift = <u32>(p & 1) << 2;
  store<u8>(ptr, (<u32>load<u8>(ptr) & ~(<u32>15 << shift)) | (value << shift));
}

// @ts-ignore: decorator
@inline function probed(i: i32): u64 {
  return load<u64>(PROBES_PTR + (<usize>i << 3));
}

/** False when position i repeats an earlier one of the same item (possible under poly and bytesum only). */
// @ts-ignore: decorator
@inline function isFirstAt(i: i32): bool {
  if (scheme == SCHEME_XXH64 || scheme == SCHEME_SBBF) return true;
  const p = probed(i);
  for (let j = 0; j < i; j++) if (probed(j) == p) return false;
  return true;
}

/** Raises the item's counters; true when one went from 0 (the item was certainly new). */
function addProbed(): bool {
  let fresh = false;
  for (let i = 0; i < hashes; i++) {
    if (!isFirstAt(i)) continue;
    const p = probed(i);
    const c = getCounter(p);
    if (c == COUNTER_MAX) continue;
    if (c == 0) {
      fresh = true;
      nonzero++;
    }
    setCounter(p, c + 1);
    if (c + 1 == COUNTER_MAX) saturated++;
  }
  held++;
  return fresh;
}

/** The smallest of the item's counters: 0 when it is certainly absent. */
function countProbed(): u32 {
  let least: u32 = COUNTER_MAX;
  for (let i = 0; i < hashes; i++) least = min<u32>(least, getCounter(probed(i)));
  return least;
}

/**
 * Lowers the item's counters, saturated ones excepted. Returns 0 and
 * changes nothing when a counter is 0 (the item cannot be present).
 */
function removeProbed(): i32 {
  if (countProbed() == 0) return 0;
  for (let i = 0; i < hashes; i++) {
    if (!isFirstAt(i)) continue;
    const p = probed(i);
    const c = getCounter(p);
    if (c == COUNTER_MAX) continue;
    setCounter(p, c - 1);
    if (c == 1) nonzero--;
  }
  if (held > 0) held--;
  return 1;
}

/** Runs `op` on the probe record in PROBES_PTR. */
function countingProbed(op: i32): i32 {
  // sbbf's record is the hash; its eight positions follow from it.
  if (scheme == SCHEME_SBBF) sbbfPositions(load<u64>(PROBES_PTR), blocks, PROBES_PTR);
  if (op == OP_ADD) return <i32>addProbed();
  if (op == OP_HAS) return countProbed() != 0 ? 1 : 0;
  if (op == OP_REMOVE) return removeProbed();
  return <i32>countProbed();
}

/** has() of the item whose hash is h, in the counting filter peeked at (assembly/chain.ts's walks). */
// @ts-ignore: decorator
@inline export function countingHasHash(h: u64): bool {
  probeHash(h, PROBES_PTR);
  return countingProbed(OP_HAS) != 0;
}

/**
 * Runs `op` (0 add, 1 has, 2 remove, 3 count) on the item in scratch. add
 * returns 1 when the item was new, has 1 when it may be present, remove 1
 * when done and 0 when refused, count the smallest counter.
 */
function countingItemBound(len: u32, wide: bool, op: i32): i32 {
  probeItem(SCRATCH_PTR, len, wide, PROBES_PTR);
  return countingProbed(op);
}

/** countingItem for a streamed item (after streamBegin and streamUpdate). */
function countingStreamBound(op: i32): i32 {
  streamProbe(PROBES_PTR);
  return countingProbed(op);
}

/** countingItem for an item given by its 64-bit digest (xxh64 family; the caller checked). */
function countingDigestBound(lo: u32, hi: u32, op: i32): i32 {
  probeHash((<u64>hi << 32) | <u64>lo, PROBES_PTR);
  return countingProbed(op);
}

/** Counters above 0. */
function countingNonzeroBound(): f64 {
  return <f64>nonzero;
}

/** Counters at 15. */
function countingSaturatedBound(): f64 {
  return <f64>saturated;
}

/** Adds minus successful removes. */
function countingHeldBound(): f64 {
  return <f64>held;
}

/** Zeroes the counters and the tallies. */
function countingClearBound(): void {
  memory.fill(bitsBase, 0, <usize>countersLength());
  nonzero = 0;
  saturated = 0;
  held = 0;
}

/**
 * Recounts the nonzero and saturated counters from memory (after counters
 * were written from JS), sets `held`, and returns the nonzero count.
 */
function countingRestoreBound(heldItems: f64): f64 {
  // Eight bytes (16 counters) per step, by SWAR: a nibble is nonzero when
  // any of its bits is, and 15 when all four are; OR-folding (or AND-folding)
  // each nibble into its low bit and counting those bits gives both tallies.
  // Byte by byte this loop read ~120 MB/s, slow for loading a large file.
  let zero: u64 = 0;
  let full: u64 = 0;
  const end = bitsBase + <usize>countersLength();
  const LOW: u64 = 0x1111111111111111;
  let ptr = bitsBase;
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
  if (bits & 1) zero--;
  nonzero = bits - zero;
  saturated = full;
  held = <u64>heldItems;
  return <f64>nonzero;
}

/** Feeds the packed counters to the file checksum, straight from memory. */
function countingChecksumCountersBound(): void {
  checksumUpdate(bitsBase, <usize>countersLength());
}

/**
 * Writes `len` bytes of the plain filter's packed bits, starting at bit
 * byte `first`, to `to`: bit p is 1 when counter p is above 0. `to` is a
 * BloomFilter's bits in the same memory (toBloomFilter, in one call), or
 * scratch (at most its size; a target in another memory takes it from
 * there).
 */
function countingBitsChunkBound(first: u32, len: u32, to: usize): void {
  if (to == SCRATCH_PTR) len = min<u32>(len, SCRATCH_SIZE);
  const whole = <u32>(bits >> 3); // bit bytes whose 8 counters all exist
  for (let j: u32 = 0; j < len; j++) {
    const byte = first + j;
    let out: u32 = 0;
    if (byte < whole) {
      // Eight counters are one u32; fold each nibble's "above 0" into its low
      // bit, then gather bits 0, 4, ..., 28 into bits 0..7.
      let x = load<u32>(bitsBase + (<usize>byte << 2));
      x |= x >> 1;
      x |= x >> 2;
      x &= 0x11111111;
      x = (x | (x >> 3)) & 0x03030303;
      x = (x | (x >> 6)) & 0x000f000f;
      out = (x | (x >> 12)) & 0xff;
    } else {
      for (let q: u32 = 0; q < 8; q++) {
        const p = (<u64>byte << 3) + q;
        if (p < bits && getCounter(p) != 0) out |= <u32>1 << q;
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
function countingBatchBound(count: u32, op: i32): u32 {
  count = min<u32>(count, BATCH_MAX);
  let ones: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const start = load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2));
    const end = load<u32>(BATCH_OFFSETS_PTR + (<usize>(i + 1) << 2));
    probeItem(SCRATCH_PTR + <usize>start, <usize>(end - start), false, PROBES_PTR);
    const answer = countingProbed(op) != 0;
    store<u8>(BATCH_FLAGS_PTR + <usize>i, <u8>answer);
    ones += <u32>answer;
  }
  return ones;
}

// The exports: each binds its record first (assembly/record.ts).

/** countingItemBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingItem(r: usize, generation: u32, len: u32, wide: bool, op: i32): i32 {
  if (!bind(r, generation)) return REFUSED;
  const result = countingItemBound(len, wide, op);
  saveCounters();
  return <i32>result;
}

/** countingStreamBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingStream(r: usize, generation: u32, op: i32): i32 {
  if (!bind(r, generation)) return REFUSED;
  const result = countingStreamBound(op);
  saveCounters();
  return <i32>result;
}

/** countingDigestBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingDigest(r: usize, generation: u32, lo: u32, hi: u32, op: i32): i32 {
  if (!bind(r, generation)) return REFUSED;
  const result = countingDigestBound(lo, hi, op);
  saveCounters();
  return <i32>result;
}

/** countingNonzeroBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingNonzero(r: usize, generation: u32): f64 {
  if (!bind(r, generation)) return REFUSED;
  return <f64>countingNonzeroBound();
}

/** countingSaturatedBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingSaturated(r: usize, generation: u32): f64 {
  if (!bind(r, generation)) return REFUSED;
  return <f64>countingSaturatedBound();
}

/** countingHeldBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingHeld(r: usize, generation: u32): f64 {
  if (!bind(r, generation)) return REFUSED;
  return <f64>countingHeldBound();
}

/** countingClearBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingClear(r: usize, generation: u32): i32 {
  if (!bind(r, generation)) return REFUSED;
  countingClearBound();
  saveCounters();
  return 0;
}

/** countingRestoreBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingRestore(r: usize, generation: u32, heldItems: f64): f64 {
  if (!bind(r, generation)) return REFUSED;
  const result = countingRestoreBound(heldItems);
  saveCounters();
  return <f64>result;
}

/** countingChecksumCountersBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingChecksumCounters(r: usize, generation: u32): i32 {
  if (!bind(r, generation)) return REFUSED;
  countingChecksumCountersBound();
  return 0;
}

/** countingBitsChunkBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingBitsChunk(r: usize, generation: u32, first: u32, len: u32, to: usize): i32 {
  if (!bind(r, generation)) return REFUSED;
  countingBitsChunkBound(first, len, to);
  return 0;
}

/** countingBatchBound on record r, bound first: REFUSED when r and generation name no live record. */
export function countingBatch(r: usize, generation: u32, count: u32, op: i32): i32 {
  if (!bind(r, generation)) return REFUSED;
  const result = countingBatchBound(count, op);
  saveCounters();
  return <i32>result;
}
