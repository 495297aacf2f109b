// The reference twin of assembly/cuckoo-record.ts: a cuckoo table's record,
// with the same fields under the same names, its creation, and the kick
// generator that lives in it. The slots are the table's own Uint8Array
// (src/reference/cuckoo.ts), where the wasm table keeps them after its
// record.

import { splitmix64 } from './hash.js';

const MASK64 = (1n << 64n) - 1n;

/** A cuckoo table's record (assembly/cuckoo-record.ts's CuckooRecord). */
export interface CuckooRecord {
  /** B: buckets (any number from 1 to 2^32 - 1). */
  readonly buckets: number;
  /** The XXH64 seed of items (and of the kick generator's start). */
  readonly seed: bigint;
  /** Fingerprints held (adds less removes). */
  held: number;
  /** The kick generator's state (xorshift64*), never 0. */
  randomState: bigint;
  /** L: bit 0 of each of the b lanes of a bucket word, fixed by b and f (the wasm table's Mycroft test reads it; the twin's plain loop does not). */
  readonly laneLows: bigint;
  /** b: slots a bucket (2, 4 or 8). */
  readonly bucketSize: number;
  /** f: bits a fingerprint (1 to 32). */
  readonly fingerprintBits: number;
}

/** The kick generator's start for `seed`: splitmix64 maps 0 to 0, so the seed is first moved off 0 by the golden-ratio constant. */
export function firstRandomState(seed: bigint): bigint {
  const state = splitmix64(seed ^ 0x9e3779b97f4a7c15n);
  return state === 0n ? 1n : state;
}

/** The record of a new, empty table of B buckets of b slots of f bits, seeded with `seed`. */
export function cuckooCreate(buckets: number, bucketSize: number, fingerprintBits: number, seed: bigint): CuckooRecord {
  let laneLows = 0n;
  for (let s = 0; s < bucketSize; s++) laneLows |= 1n << BigInt(s * fingerprintBits);
  return { buckets, seed, held: 0, randomState: firstRandomState(seed), laneLows, bucketSize, fingerprintBits };
}

/** The kick generator's next value (xorshift64*, Vigna 2016), moving the record's state on. */
export function nextRandom(record: CuckooRecord): bigint {
  let x = record.randomState;
  x ^= x >> 12n;
  x ^= (x << 25n) & MASK64;
  x ^= x >> 27n;
  record.randomState = x;
  return (x * 0x2545f4914f6cdd1dn) & MASK64;
}
