// A cuckoo table's record (KIND_CUCKOO), its creation, and the reads of
// its fields that the table's code (assembly/cuckoo.ts) makes. The
// reference twin's table (src/reference/cuckoo-record.ts) holds the same
// fields under the same names.
//
// The payload after the record is the fingerprints: slot s of bucket i is
// the f bits from bit (i * b + s) * f of the packed little-endian bit
// string, 0 meaning empty, followed by 8 bytes of slack so that any slot is
// one unaligned u64 load.

import { KIND_CUCKOO, named, RecordHeader, REFUSED } from "./record";
import { createRecord } from "./core-calls";
import { splitmix64 } from "./hash";

/** A cuckoo table's record. */
@unmanaged export class CuckooRecord extends RecordHeader {
  /** B: buckets (any number from 1 to 2^32 - 1). */
  buckets: u64;
  /** The XXH64 seed of items (and of the kick generator's start). */
  seed: u64;
  /** Fingerprints held (adds less removes). */
  held: u64;
  /** The kick generator's state (xorshift64*), never 0. */
  randomState: u64;
  /** L: bit 0 of each of the b lanes of a bucket word (assembly/cuckoo-bucket.ts's Mycroft test), fixed by b and f. */
  laneLows: u64;
  /** b: slots a bucket (2, 4 or 8). */
  bucketSize: u32;
  /** f: bits a fingerprint (1 to 32). */
  fingerprintBits: u32;
}

/** Record `r` as a cuckoo table's. */
// @ts-ignore: decorator
@inline export function cuckooRecord(r: usize): CuckooRecord {
  return changetype<CuckooRecord>(r);
}

/** Bytes of the packed fingerprints of B buckets of b slots of f bits (the slack excluded): ceil(B * b * f / 8). */
// @ts-ignore: decorator
@inline export function slotsLengthOf(buckets: u64, bucketSize: u64, fingerprintBits: u64): u64 {
  return (buckets * bucketSize * fingerprintBits + 7) >> 3;
}

/** The kick generator's start for `seed`: splitmix64 maps 0 to 0, so the seed is first moved off 0 by the golden-ratio constant. */
export function firstRandomState(seed: u64): u64 {
  const state = splitmix64(seed ^ 0x9e3779b97f4a7c15);
  return state == 0 ? 1 : state;
}

/**
 * A new, empty table of B = `buckets` buckets of b = `bucketSize` slots of
 * f = `fingerprintBits` bits, seeded with seed hi:lo (all validated by the
 * caller): its address, or 0 when this instance's memory cannot hold it
 * (assembly/record.ts's createRecord).
 */
export function cuckooCreate(buckets: f64, bucketSize: u32, fingerprintBits: u32, seedLo: u32, seedHi: u32): usize {
  const b = <u64>buckets;
  const r = createRecord(KIND_CUCKOO, slotsLengthOf(b, <u64>bucketSize, <u64>fingerprintBits) + 8);
  if (r == 0) return 0;
  const table = changetype<CuckooRecord>(r);
  table.buckets = b;
  table.bucketSize = bucketSize;
  table.fingerprintBits = fingerprintBits;
  table.seed = (<u64>seedHi << 32) | <u64>seedLo;
  let lows: u64 = 0;
  for (let s: u32 = 0; s < bucketSize; s++) lows |= <u64>1 << <u64>(s * fingerprintBits);
  table.laneLows = lows;
  table.randomState = firstRandomState(table.seed);
  return r;
}

/** The kick generator's next value (xorshift64*, Vigna 2016). */
export function nextRandom(r: usize): u64 {
  const table = cuckooRecord(r);
  let x = table.randomState;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  table.randomState = x;
  return x * 0x2545f4914f6cdd1d;
}

/** Fingerprints held. */
function cuckooHeldAt(r: usize): f64 {
  return <f64>cuckooRecord(r).held;
}

/** The kick generator's state, low or high 32 bits. */
function cuckooRandomStateAt(r: usize, high: bool): u32 {
  const x = cuckooRecord(r).randomState;
  return <u32>(high ? x >> 32 : x);
}

/** Sets the kick generator's state (a file's, never 0). */
function cuckooSetRandomStateAt(r: usize, lo: u32, hi: u32): void {
  cuckooRecord(r).randomState = (<u64>hi << 32) | <u64>lo;
}

// The exports of the fields JS reads and restores: each names its record
// (assembly/record.ts) and refuses a pair that names no live record with REFUSED.

/** cuckooHeldAt on record r: REFUSED when r and generation name no live record. */
export function cuckooHeld(r: usize, generation: u32): f64 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <f64>cuckooHeldAt(r);
}

/** cuckooRandomStateAt on record r: REFUSED when r and generation name no live record. */
export function cuckooRandomState(r: usize, generation: u32, high: bool): f64 {
  // A half takes every u32 value, REFUSED among them as an i32: answered as a float.
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <f64>cuckooRandomStateAt(r, high);
}

/** cuckooSetRandomStateAt on record r: REFUSED when r and generation name no live record. */
export function cuckooSetRandomState(r: usize, generation: u32, lo: u32, hi: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  cuckooSetRandomStateAt(r, lo, hi);
  return 0;
}
