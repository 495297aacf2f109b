// The reference twin of assembly/counting.ts and src/counting/counting.ts:
// the counting Bloom filter of Fan, Cao, Almeida and Broder (IEEE/ACM ToN
// 8(3), 2000) with 4-bit saturating counters, written plainly. Counter p is
// the low nibble of byte p >> 1 when p is even, the high nibble when odd;
// each distinct position of an item counts once; a counter at 15 never
// changes again.

import { checkBytes } from '../wasm/typed-arrays.js';
import { BloomRangeError } from '../errors.js';
import { checkDigest, type Digest } from '../filter/item-digest.js';
import { batchItem, type BatchItems, type Item } from '../filter/items.js';
import { checkItem, checkParams, readFilterOptions, SCHEMES, schemeOption, type FilterOptions, type Scheme } from '../filter/options.js';
import { capacityParams, currentFalsePositiveRateOf, estimatedCountOf } from '../filter/sizing.js';
import { CHECKSUMMED_HEADER_BYTES, checkPayload, encodeHeader, HEADER_BYTES, parseHeader, setChecksum } from '../format/filter.js';
import { COUNTING_KIND, countersAboveZero } from '../format/counting.js';
import { checkNotShared, COUNTER_MAX, MAX_COUNTING_BITS } from '../counting/limits.js';
import { checksum } from './checksum.js';
import { BloomFilter } from './filter.js';
import { itemPositions, probeHash } from './scheme.js';
import { checkBatchOf, markDisposed } from '../filter/dispose.js';
import { INSPECT, inspectLine, positionFields } from '../filter/describe.js';
import { toJSONOf, bytesFromJSON, type FilterJSON } from '../format/json.js';

/** Counter p of the packed counters. */
export function getCounter(counters: Uint8Array, p: number): number {
  const byte = counters[Math.floor(p / 2)];
  return p % 2 === 0 ? byte & 15 : byte >> 4;
}

/** Sets counter p to `value` (0..15). */
export function setCounter(counters: Uint8Array, p: number, value: number): void {
  const i = Math.floor(p / 2);
  counters[i] = p % 2 === 0 ? (counters[i] & 0xf0) | value : (counters[i] & 0x0f) | (value << 4);
}

/** A counting Bloom filter computed in plain TypeScript, counter-for-counter equal to the wasm CountingBloomFilter. */
export class CountingBloomFilter {
  /** m: the number of counters (and of bits in toBloomFilter()). */
  readonly bits: number;
  /** k: positions per item. */
  readonly hashes: number;
  /** The hash scheme. */
  readonly scheme: Scheme;
  /** The XXH64 seed (0 for the other schemes). */
  readonly seed: bigint;
  private readonly packed: Uint8Array;
  private held = 0;

  /** Creates an empty filter; throws BloomRangeError or BloomTypeError on bad arguments. */
  constructor(bits: number, hashes: number, options?: FilterOptions) {
    const o = readFilterOptions(options);
    const params = checkParams(bits, hashes, o);
    checkNotShared(o);
    if (params.bits > MAX_COUNTING_BITS) {
      throw new BloomRangeError('bits', bits, `an integer in [1, ${MAX_COUNTING_BITS}] for a counting filter (4 bits per counter)`);
    }
    this.bits = params.bits;
    this.hashes = params.hashes;
    this.scheme = params.scheme;
    this.seed = params.seed;
    this.packed = new Uint8Array(Math.ceil(params.bits / 2));
  }

  /**
   * Gives the memory back at once; any later call throws BloomDisposedError
   * naming it. Calling it again does nothing.
   * The twin holds no wasm memory: this only marks it disposed, so that it
   * refuses later calls exactly as the wasm class does.
   */
  dispose(): void {
    markDisposed(this, 'CountingBloomFilter');
  }

  /** dispose(), for `using` (TC39 explicit resource management). */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** One line for util.inspect and console.log: `CountingBloomFilter { counters: 9586, hashes: 7, added: 1000, fill: 50.1% }` (fill: counters above 0). */
  [INSPECT](): string {
    return inspectLine(this, 'CountingBloomFilter', () => positionFields(this, 'counters'));
  }

  /** A filter sized for `capacity` items at `falsePositiveRate` (as BloomFilter.forCapacity). */
  static forCapacity(capacity: number, falsePositiveRate: number, options?: FilterOptions): CountingBloomFilter {
    const o = readFilterOptions(options);
    const { bits, hashes } = capacityParams(capacity, falsePositiveRate, MAX_COUNTING_BITS, schemeOption(o));
    return new CountingBloomFilter(bits, hashes, o as FilterOptions);
  }

  /** The item's k positions, in probe order: the same as a BloomFilter's. */
  positions(item: Item): number[] {
    checkItem(item);
    return itemPositions(this, item);
  }

  /** The distinct positions, first occurrences in probe order. */
  private distinct(positions: number[]): number[] {
    return positions.filter((p, i) => positions.indexOf(p) === i);
  }

  private addAt(positions: number[]): boolean {
    let fresh = false;
    for (const p of this.distinct(positions)) {
      const c = getCounter(this.packed, p);
      if (c === 0) fresh = true;
      if (c < COUNTER_MAX) setCounter(this.packed, p, c + 1);
    }
    this.held++;
    return fresh;
  }

  private countAt(positions: number[]): number {
    return Math.min(...positions.map((p) => getCounter(this.packed, p)));
  }

  private removeAt(positions: number[]): boolean {
    if (this.countAt(positions) === 0) return false;
    for (const p of this.distinct(positions)) {
      const c = getCounter(this.packed, p);
      if (c < COUNTER_MAX) setCounter(this.packed, p, c - 1);
    }
    if (this.held > 0) this.held--;
    return true;
  }

  /** Raises the item's counters (saturated ones stay at 15); true when one went from 0. */
  add(item: Item): boolean {
    return this.addAt(this.positions(item));
  }

  /** False when the item is certainly not in the filter; true when it may be. */
  has(item: Item): boolean {
    return this.countAt(this.positions(item)) > 0;
  }

  /** Lowers the item's counters, saturated ones excepted, and returns true; false, changing nothing, when one is 0 (certainly absent). */
  remove(item: Item): boolean {
    return this.removeAt(this.positions(item));
  }

  /** The smallest of the item's counters (0: certainly absent; 15: 15 or more). */
  count(item: Item): number {
    return this.countAt(this.positions(item));
  }

  /** has() for the item whose digest is `d` (xxh64 and sbbf). */
  hasDigest(d: Digest): boolean {
    checkDigest(this, d, 'hasDigest');
    return this.countAt(probeHash(this, d.value)) > 0;
  }

  /** add() for the item whose digest is `d` (xxh64 and sbbf). */
  addDigest(d: Digest): boolean {
    checkDigest(this, d, 'addDigest');
    return this.addAt(probeHash(this, d.value));
  }

  /** remove() for the item whose digest is `d` (xxh64 and sbbf): false, changing nothing, when it is certainly absent. */
  removeDigest(d: Digest): boolean {
    checkDigest(this, d, 'removeDigest');
    return this.removeAt(probeHash(this, d.value));
  }

  /** count() for the item whose digest is `d` (xxh64 and sbbf). */
  countDigest(d: Digest): number {
    checkDigest(this, d, 'countDigest');
    return this.countAt(probeHash(this, d.value));
  }

  /** Adds each item in order; flag i is 1 when item i was certainly new. */
  addMany(items: BatchItems): Uint8Array {
    const batch = checkBatchOf(this, 'CountingBloomFilter.addMany', items);
    const flags = new Uint8Array(batch.count);
    for (let i = 0; i < batch.count; i++) flags[i] = this.add(batchItem(batch, i)) ? 1 : 0;
    return flags;
  }

  /** Tests each item; flag i is 1 when item i may be present. */
  hasMany(items: BatchItems): Uint8Array {
    const batch = checkBatchOf(this, 'CountingBloomFilter.hasMany', items);
    const flags = new Uint8Array(batch.count);
    for (let i = 0; i < batch.count; i++) flags[i] = this.has(batchItem(batch, i)) ? 1 : 0;
    return flags;
  }

  /** How many counters are above 0: the bits set in toBloomFilter(). */
  bitsSet(): number {
    return countersAboveZero(this.packed, this.bits);
  }

  /** How many counters are saturated (at 15). */
  saturatedCount(): number {
    let n = 0;
    for (let p = 0; p < this.bits; p++) if (getCounter(this.packed, p) === COUNTER_MAX) n++;
    return n;
  }

  /** The items held, as Set.prototype.size counts them: adds that reported new, less successful removes (never below 0). */
  get size(): number {
    return this.held;
  }

  /** The Swamidass–Baldi estimate of distinct items held, -(m/k) ln(1 - X/m) with X = bitsSet(). */
  estimatedCount(): number {
    return estimatedCountOf(this.bits, this.hashes, this.bitsSet());
  }

  /** The false-positive rate at the current fill, (X/m)^k with X = bitsSet(), or under sbbf the blocked rate at estimatedCount() (as for BloomFilter). */
  currentFalsePositiveRate(): number {
    return currentFalsePositiveRateOf(this.bits, this.hashes, this.bitsSet(), this.scheme);
  }

  /** Zeroes every counter. */
  clear(): void {
    this.packed.fill(0);
    this.held = 0;
  }

  /** A copy of the packed counters. */
  counters(): Uint8Array {
    return this.packed.slice();
  }

  /** An independent copy with the same parameters, counters and tallies. */
  clone(): CountingBloomFilter {
    const copy = new CountingBloomFilter(this.bits, this.hashes, { scheme: this.scheme, seed: this.seed });
    copy.packed.set(this.packed);
    copy.held = this.held;
    return copy;
  }

  /** The plain BloomFilter whose bit p is 1 exactly when counter p is above 0; its size is this filter's size. */
  toBloomFilter(): BloomFilter {
    const plain = new BloomFilter(this.bits, this.hashes, { scheme: this.scheme, seed: this.seed });
    const bits = plain['array'].bytes;
    for (let p = 0; p < this.bits; p++) if (getCounter(this.packed, p) > 0) bits[Math.floor(p / 8)] |= 1 << p % 8;
    plain['counters'].setCount = this.bitsSet();
    plain['counters'].addedCount = this.held;
    return plain;
  }

  /** The filter in the counting file format, byte-identical to the wasm filter's. */
  toBytes(): Uint8Array {
    const header = encodeHeader(
      {
        scheme: this.scheme, schemeId: SCHEMES.indexOf(this.scheme), hashes: this.hashes, seed: this.seed,
        bits: this.bits, bitsSet: this.bitsSet(), addedCount: this.held,
      },
      COUNTING_KIND,
    );
    setChecksum(header, checksum(header.subarray(0, CHECKSUMMED_HEADER_BYTES), this.packed));
    const out = new Uint8Array(HEADER_BYTES + this.packed.length);
    out.set(header);
    out.set(this.packed, HEADER_BYTES);
    return out;
  }

  /** The JSON form (docs/FORMAT.md, "JSON form, version 1"): `{ type: "bloomwasm/CountingBloomFilter", version: 1, bytes: "<base64 of toBytes()>" }`, so that JSON.stringify works. */
  toJSON(): FilterJSON {
    return toJSONOf('CountingBloomFilter', this.toBytes());
  }

  /** Reads a filter written by toBytes; checks all of it before allocating, as the wasm filter does. */
  static fromBytes(bytes: Uint8Array): CountingBloomFilter {
    bytes = checkBytes(bytes);
    const header = parseHeader(bytes, bytes.length, COUNTING_KIND);
    const payload = bytes.subarray(HEADER_BYTES);
    const sum = checksum(bytes.subarray(0, CHECKSUMMED_HEADER_BYTES), payload);
    checkPayload(header, sum, payload[payload.length - 1], countersAboveZero(payload, header.bits), COUNTING_KIND);
    const filter = new CountingBloomFilter(header.bits, header.hashes, { scheme: header.scheme, seed: header.seed });
    filter.packed.set(payload);
    filter.held = header.addedCount;
    return filter;
  }

  /**
   * Reads the JSON form that toJSON gives (the parsed object, or its JSON
   * text): the same filter, byte for byte, as fromBytes of its bytes. Throws
   * BloomTypeError naming `value`, `type` or `bytes`, BloomRangeError naming
   * `version`, and BloomFormatError for bad base64 or bad bytes.
   */
  static fromJSON(value: FilterJSON | string): CountingBloomFilter {
    return CountingBloomFilter.fromBytes(bytesFromJSON(value, 'CountingBloomFilter'));
  }
}
