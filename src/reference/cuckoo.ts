// The reference twin of assembly/cuckoo.ts: one cuckoo table (Fan,
// Andersen, Kaminsky and Mitzenmacher, "Cuckoo Filter: Practically Better
// Than Bloom", CoNEXT 2014), written plainly with BigInt where 64-bit
// arithmetic is needed, and the CuckooFilter of src/cuckoo/cuckoo-over.ts
// over such tables. Same functions, same names, same slots bit for bit:
//
//   h      = XXH64(item's bytes, seed)
//   fp     = top f bits of h, 1 in place of 0 (0 marks an empty slot)
//   i1     = ((h mod 2^32) * B) >> 32
//   i2     = (H(fp) - i1) mod B,  H(fp) = ((fp * 0x9E3779B1 mod 2^32) * B) >> 32
//
// Slot s of bucket i is the f bits from bit (i * b + s) * f of the packed
// little-endian bit string. An add that finds both buckets full kicks a
// fingerprint from a slot the xorshift64* generator picks to its other
// bucket, up to MAX_KICKS times, and undoes every kick when the last one
// finds no room.

import { batchItem, type CheckedBatch, type Item } from '../filter/items.js';
import { CuckooFilterOver, restoreCuckoo, TableFull, type CuckooKind, type CuckooParts, type CuckooTable } from '../cuckoo/cuckoo-over.js';
import type { CuckooOptions } from '../cuckoo/shape.js';
import { xxh64 } from './hash.js';
import { nextRandom } from './cuckoo-record.js';
import { ReferenceCuckooBuckets } from './cuckoo-bucket.js';
import { itemBytes } from './js-string.js';
import { bytesFromJSON, type FilterJSON } from '../format/json.js';

/** The most kicks one add makes (assembly/cuckoo.ts's MAX_KICKS). */
export const MAX_KICKS = 500;

const OP_ADD = 0;
const OP_HAS = 1;
const OP_REMOVE = 2;

/** One table in plain TypeScript: its buckets (src/reference/cuckoo-bucket.ts), kicks and calls. */
export class ReferenceCuckooTable extends ReferenceCuckooBuckets implements CuckooTable {
  /** Stores one more copy of `fp` of bucket i1, kicking when both buckets are full; 0 (unchanged, the generator included) when refused. */
  addFingerprint(i1: number, fp: number): number {
    const i2 = this.altBucket(i1, fp);
    if (this.insertIntoBucket(i1, fp) || this.insertIntoBucket(i2, fp)) {
      this.record.held++;
      return 1;
    }
    // A refusal changes nothing, the generator included (it is in the file).
    const state = this.record.randomState;
    const path: number[] = [];
    let i = nextRandom(this.record) >> 63n ? i2 : i1;
    let held = fp;
    for (let n = 0; n < MAX_KICKS; n++) {
      const slot = i * this.record.bucketSize + Number((nextRandom(this.record) >> 32n) & BigInt(this.record.bucketSize - 1));
      path.push(slot);
      const victim = this.getSlot(slot);
      this.setSlot(slot, held);
      held = victim;
      i = this.altBucket(i, held);
      if (this.insertIntoBucket(i, held)) {
        this.record.held++;
        return 1;
      }
    }
    for (let n = MAX_KICKS - 1; n >= 0; n--) {
      const placed = this.getSlot(path[n]);
      this.setSlot(path[n], held);
      held = placed;
    }
    this.record.randomState = state;
    return 0;
  }

  /** Whether either bucket of `fp` holds it (assembly/cuckoo.ts computes the same with the table's parameters read once). */
  hashedHas(i1: number, fp: number): boolean {
    return this.bucketHas(i1, fp) || this.bucketHas(this.altBucket(i1, fp), fp);
  }

  /** Runs `op` on the item of hash h (assembly/cuckoo.ts's cuckooHashed). */
  cuckooHashed(h: bigint, op: number): number {
    const fp = this.fingerprintOf(h);
    const i1 = this.firstBucket(h);
    if (op === OP_ADD) return this.addFingerprint(i1, fp);
    const i2 = this.altBucket(i1, fp);
    if (op === OP_HAS) return this.hashedHas(i1, fp) ? 1 : 0;
    if (op === OP_REMOVE) {
      if (!this.deleteFromBucket(i1, fp) && !this.deleteFromBucket(i2, fp)) return 0;
      this.record.held--;
      return 1;
    }
    return this.countInBucket(i1, fp) + (i2 !== i1 ? this.countInBucket(i2, fp) : 0);
  }

  run(item: Item, op: number): number {
    return this.cuckooHashed(xxh64(itemBytes(item), this.record.seed), op);
  }

  hasBatch(batch: CheckedBatch): Uint8Array {
    const flags = new Uint8Array(batch.count);
    for (let i = 0; i < batch.count; i++) flags[i] = this.run(batchItem(batch, i), OP_HAS);
    return flags;
  }

  addBatch(batch: CheckedBatch): void {
    for (let i = 0; i < batch.count; i++) if (this.run(batchItem(batch, i), OP_ADD) === 0) throw new TableFull(i);
  }

  held(): number {
    return this.record.held;
  }

  randomState(): bigint {
    return this.record.randomState;
  }

  setRandomState(state: bigint): void {
    this.record.randomState = state;
  }

  clear(): void {
    this.slots.fill(0);
    this.record.held = 0;
  }

  restore(): number {
    let n = 0;
    for (let slot = 0; slot < this.record.buckets * this.record.bucketSize; slot++) if (this.getSlot(slot) !== 0) n++;
    this.record.held = n;
    return n;
  }

  payloadChecksum(): bigint {
    return xxh64(this.slots, 0n);
  }

  /** The twin holds no wasm memory. */
  release(): void {}
}

/** Tables in plain TypeScript. */
const REFERENCE_TABLES: CuckooKind = {
  name: 'CuckooFilter',
  table: (member, bucketSize, seed) => new ReferenceCuckooTable(member.buckets, bucketSize, member.fingerprintBits, seed),
  xxh64: (bytes) => xxh64(bytes, 0n),
};

/** A cuckoo filter computed in plain TypeScript, slot for slot equal to the wasm CuckooFilter. */
export class CuckooFilter extends CuckooFilterOver {
  /** As forCapacity(capacity, falsePositiveRate, options). */
  constructor(capacity: number, falsePositiveRate: number, options?: CuckooOptions);
  /** fromBytes' and clone()'s: a filter over restored parts. @internal */
  constructor(capacity: number, falsePositiveRate: number, options: unknown, parts: CuckooParts);
  constructor(capacity: number, falsePositiveRate: number, options?: CuckooOptions, parts?: CuckooParts) {
    super(capacity, falsePositiveRate, options, REFERENCE_TABLES, parts);
  }

  /** A filter for `capacity` items at a false-positive rate of at most `falsePositiveRate` (as the wasm CuckooFilter.forCapacity). */
  static forCapacity(capacity: number, falsePositiveRate: number, options?: CuckooOptions): CuckooFilter {
    return new CuckooFilter(capacity, falsePositiveRate, options);
  }

  /** Reads a filter written by toBytes; checks it as the wasm filter does. */
  static fromBytes(bytes: Uint8Array): CuckooFilter {
    return restoreCuckoo(bytes, REFERENCE_TABLES, CuckooFilter);
  }

  /**
   * Reads the JSON form that toJSON gives (the parsed object, or its JSON
   * text): the same filter, byte for byte, as fromBytes of its bytes. Throws
   * BloomTypeError naming `value`, `type` or `bytes`, BloomRangeError naming
   * `version`, and BloomFormatError for bad base64 or bad bytes.
   */
  static fromJSON(value: FilterJSON | string): CuckooFilter {
    return CuckooFilter.fromBytes(bytesFromJSON(value, 'CuckooFilter'));
  }
}
