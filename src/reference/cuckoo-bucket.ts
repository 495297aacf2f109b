// The reference twin of assembly/cuckoo-bucket.ts: one cuckoo table's
// buckets, its f-bit slots packed little-endian (slot s of bucket i is the
// f bits from bit (i * b + s) * f), an item's fingerprint and two buckets,
// and a fingerprint's search, insert, count and delete in one bucket.
// Same functions, same names, same slots bit for bit; src/reference/cuckoo.ts
// builds the table on them.

import { cuckooCreate, type CuckooRecord } from './cuckoo-record.js';

/** One table's buckets in plain TypeScript. */
export class ReferenceCuckooBuckets {
  /** B, b, f, the seed, the tally and the kick generator (src/reference/cuckoo-record.ts). */
  readonly record: CuckooRecord;
  /** The packed fingerprints. */
  readonly slots: Uint8Array;

  constructor(buckets: number, bucketSize: number, fingerprintBits: number, seed: bigint) {
    this.record = cuckooCreate(buckets, bucketSize, fingerprintBits, seed);
    this.slots = new Uint8Array(Math.ceil((buckets * bucketSize * fingerprintBits) / 8));
  }

  /** The fingerprint in global slot `slot` (bucket * b + s). */
  getSlot(slot: number): number {
    const first = slot * this.record.fingerprintBits;
    let value = 0;
    for (let k = 0; k < this.record.fingerprintBits; k++) {
      const bit = first + k;
      if ((this.slots[Math.floor(bit / 8)] >> bit % 8) & 1) value += 2 ** k;
    }
    return value;
  }

  /** Writes `fp` into global slot `slot`. */
  setSlot(slot: number, fp: number): void {
    const first = slot * this.record.fingerprintBits;
    for (let k = 0; k < this.record.fingerprintBits; k++) {
      const bit = first + k;
      const byte = Math.floor(bit / 8);
      if (Math.floor(fp / 2 ** k) % 2 === 1) this.slots[byte] |= 1 << bit % 8;
      else this.slots[byte] &= ~(1 << bit % 8);
    }
  }

  /** The fingerprint of hash h: its top f bits, 1 in place of 0. */
  fingerprintOf(h: bigint): number {
    const fp = Number(h >> BigInt(64 - this.record.fingerprintBits));
    return fp === 0 ? 1 : fp;
  }

  /** The first bucket of hash h. */
  firstBucket(h: bigint): number {
    return Number(((h & 0xffffffffn) * BigInt(this.record.buckets)) >> 32n);
  }

  /** The other bucket of fingerprint `fp` in bucket `i`: (H(fp) - i) mod B. */
  altBucket(i: number, fp: number): number {
    const mixed = BigInt(Math.imul(fp, 0x9e3779b1) >>> 0);
    const hf = Number((mixed * BigInt(this.record.buckets)) >> 32n);
    return hf >= i ? hf - i : hf + this.record.buckets - i;
  }

  /** The first slot s of bucket `i` holding `fp` (0 for an empty one), or -1 (assembly/cuckoo-bucket.ts finds the same slot with one SWAR step when a bucket fits a u64). */
  findInBucket(i: number, fp: number): number {
    for (let s = 0; s < this.record.bucketSize; s++) if (this.getSlot(i * this.record.bucketSize + s) === fp) return s;
    return -1;
  }

  insertIntoBucket(i: number, fp: number): boolean {
    const s = this.findInBucket(i, 0);
    if (s < 0) return false;
    this.setSlot(i * this.record.bucketSize + s, fp);
    return true;
  }

  countInBucket(i: number, fp: number): number {
    let n = 0;
    for (let s = 0; s < this.record.bucketSize; s++) if (this.getSlot(i * this.record.bucketSize + s) === fp) n++;
    return n;
  }

  bucketHas(i: number, fp: number): boolean {
    return this.findInBucket(i, fp) >= 0;
  }

  deleteFromBucket(i: number, fp: number): boolean {
    const s = this.findInBucket(i, fp);
    if (s < 0) return false;
    this.setSlot(i * this.record.bucketSize + s, 0);
    return true;
  }
}
