// The reference twin of src/filter/filter.ts: the same surface and the same
// bits, method for method, computed in plain TypeScript from
// src/reference/{scheme,hash,probe,sbbf,bit-array}.ts.

import { checkBytes } from '../wasm/typed-arrays.js';
import { bitString } from '../filter/bit-string.js';
import { BloomDisposedError, BloomTypeError } from '../errors.js';
import {
  CHECKSUMMED_HEADER_BYTES, checkPayload, encodeHeader, HEADER_BYTES, parseHeader, saturatedSum, setChecksum,
} from '../format/filter.js';
import {
  checkCompatible, checkInteger, checkItem, checkParams, checkShared, MAX_ADDED_COUNT, MAX_BITS, MAX_SHARDS, SBBF_HASHES,
  readFilterOptions, SCHEMES, schemeOption, type FilterOptions, type Scheme,
} from '../filter/options.js';
import { checkParquetBitset, checkParquetFilter, parquetAddedCount } from '../format/parquet.js';
import { capacityParams, currentFalsePositiveRateOf, estimatedCountOf } from '../filter/sizing.js';
import { andInto, orInto, popcount } from './algebra.js';
import type { BatchItems } from '../filter/items.js';
import { filledFrom, type SizedItems } from '../filter/sized-items.js';
import { addBatch, hasBatch } from './batch.js';
import { BitArray, SharedBitArray } from './bit-array.js';
import {
  BITS_OFFSET, checkReferenceHandle, COUNTERS_BYTES, LocalCounts, newSharedBuffer, REFERENCE_SHARED_KIND, SharedCounts,
  TOKEN_OFFSET, type Counts, type SharedFilterHandle,
} from './shared.js';
import { Stripes } from './stripe.js';
import { checksum } from './checksum.js';
import { itemKey, itemPositions, probeHash } from './scheme.js';
import { checkDigest, type Digest } from '../filter/item-digest.js';
import { shardIndex } from './shard.js';
import { checkBatchOf, isDisposed, markDisposed } from '../filter/dispose.js';
import { INSPECT, inspectLine, positionFields } from '../filter/describe.js';
import { toJSONOf, bytesFromJSON, type FilterJSON } from '../format/json.js';

/** A Bloom filter computed in plain TypeScript, bit-for-bit equal to the wasm BloomFilter. */
export class BloomFilter {
  /** m: the number of bits. */
  readonly bits: number;
  /** k: positions per item. */
  readonly hashes: number;
  /** The hash scheme. */
  readonly scheme: Scheme;
  /** The XXH64 seed (0 for the other schemes). */
  readonly seed: bigint;
  /** Not readonly: share() moves the bits into a shared buffer, once. */
  private array: BitArray | SharedBitArray;
  /** The counters, beside the bits (in the shared buffer when shared). */
  private counters: Counts;
  /** The shared buffer, when the bits live in one. */
  private buffer: SharedArrayBuffer | undefined;
  /** Its stripe locks, which make a shared add exactly once. */
  private stripes: Stripes | undefined;

  /** Creates an empty filter; throws BloomRangeError or BloomTypeError on bad arguments. `{ shared: true }` as in bloomwasm. */
  constructor(bits: number, hashes: number, options?: FilterOptions) {
    const o = readFilterOptions(options);
    const params = checkParams(bits, hashes, o);
    this.bits = params.bits;
    this.hashes = params.hashes;
    this.scheme = params.scheme;
    this.seed = params.seed;
    this.array = new BitArray(this.bits);
    this.counters = new LocalCounts();
    this.buffer = undefined;
    this.stripes = undefined;
    if (checkShared(o)) this.useBuffer(newSharedBuffer(params));
  }

  /**
   * Gives the memory back at once; any later call throws BloomDisposedError
   * naming it. Calling it again does nothing.
   * The twin holds no wasm memory: this only marks it disposed, so that it
   * refuses later calls exactly as the wasm class does.
   */
  dispose(): void {
    markDisposed(this, 'BloomFilter');
  }

  /** dispose(), for `using` (TC39 explicit resource management). */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** One line for util.inspect and console.log: `BloomFilter { bits: 9586, hashes: 7, added: 1000, fill: 50.1% }` (and the scheme when not xxh64). */
  [INSPECT](): string {
    return inspectLine(this, 'BloomFilter', () => positionFields(this, 'bits'));
  }

  /** True when the bits live in a shared buffer. */
  get shared(): boolean {
    return this.buffer !== undefined;
  }

  /** A structured-cloneable handle for attach() in another thread; moves the bits into a shared buffer first, once. */
  share(): SharedFilterHandle {
    if (this.buffer === undefined) {
      const { bytes } = this.array;
      const { setCount, addedCount } = this.counters;
      const { bits, hashes, scheme, seed } = this;
      this.useBuffer(newSharedBuffer({ bits, hashes, scheme, schemeId: SCHEMES.indexOf(scheme), seed }));
      this.array.bytes.set(bytes);
      this.counters.setCount = setCount;
      this.counters.addedCount = addedCount;
    }
    const { bits, hashes, scheme, seed } = this;
    return { kind: REFERENCE_SHARED_KIND, buffer: this.buffer!, bits, hashes, scheme, seed };
  }

  /** A filter over the bits of a handle from share(), in any thread. */
  static attach(handle: SharedFilterHandle): BloomFilter {
    const { params, buffer } = checkReferenceHandle(handle);
    const filter = new BloomFilter(params.bits, params.hashes, { scheme: params.scheme, seed: params.seed });
    filter.useBuffer(buffer);
    return filter;
  }

  /** Puts the bits and counters in `buffer` (whose contents they become). */
  private useBuffer(buffer: SharedArrayBuffer): void {
    this.buffer = buffer;
    this.array = new SharedBitArray(this.bits, buffer, BITS_OFFSET);
    this.counters = new SharedCounts(buffer);
    this.stripes = new Stripes(buffer, COUNTERS_BYTES, TOKEN_OFFSET);
  }

  /** A filter sized for `capacity` items at `falsePositiveRate` (under sbbf, with the blocked filter's rate). */
  static forCapacity(capacity: number, falsePositiveRate: number, options?: FilterOptions): BloomFilter {
    const o = readFilterOptions(options);
    const { bits, hashes } = capacityParams(capacity, falsePositiveRate, MAX_BITS, schemeOption(o));
    return new BloomFilter(bits, hashes, o as FilterOptions);
  }

  /**
   * A filter sized exactly as forCapacity(n, falsePositiveRate, options)
   * sizes one, holding every item: n is the array's length (duplicates
   * count, so an array with repeats gets a larger filter than its Set) or
   * the Set's size. The collection is read once. Anything else throws
   * BloomTypeError naming `items` (n must be known before the first add);
   * an empty one, BloomRangeError, as forCapacity(0) does; a bad item,
   * BloomTypeError naming `items[i]`, with nothing kept.
   */
  static from(items: SizedItems, falsePositiveRate: number, options?: FilterOptions): BloomFilter {
    return filledFrom(items, (n) => BloomFilter.forCapacity(n, falsePositiveRate, options));
  }

  /** The item's k positions, in probe order. */
  positions(item: string | Uint8Array): number[] {
    checkItem(item);
    return itemPositions(this, item);
  }

  /** The shard in [0, shards) that a filter split over `shards` bitmaps (bloomwasm/redis) keeps the item in. */
  shardOf(item: string | Uint8Array, shards: number): number {
    checkItem(item);
    checkInteger('shards', shards, 1, MAX_SHARDS);
    return shardIndex(itemKey(this, item), shards);
  }

  /** Sets the item's k bits; true when any went from 0 to 1 (the item was certainly new). */
  add(item: string | Uint8Array): boolean {
    return this.setAll(this.positions(item));
  }

  /** False when the item was certainly never added; true when it may have been. */
  has(item: string | Uint8Array): boolean {
    return this.holdsAll(this.positions(item));
  }

  /** has() for the item whose digest is `d` (xxh64 and sbbf; BloomDigestError otherwise or when the seeds differ). */
  hasDigest(d: Digest): boolean {
    checkDigest(this, d, 'hasDigest');
    return this.holdsAll(probeHash(this, d.value));
  }

  /** add() for the item whose digest is `d`; refused as hasDigest is. */
  addDigest(d: Digest): boolean {
    checkDigest(this, d, 'addDigest');
    return this.setAll(probeHash(this, d.value));
  }

  /** Whether every one of the item's positions is set: the one test that has() and hasDigest() ask. */
  private holdsAll(positions: number[]): boolean {
    return positions.every((p) => this.array.get(p));
  }

  private setAll(positions: number[]): boolean {
    const set = (): number => {
      let fresh = 0;
      for (const p of positions) if (this.array.set(p)) fresh++;
      return fresh;
    };
    // Shared: under the item's stripe lock, so that one thread alone is told it is new.
    const fresh = this.stripes === undefined ? set() : this.stripes.holding(this.stripes.stripeOf(positions[0]), set);
    this.counters.count(fresh);
    return fresh > 0;
  }

  /** Adds each item in order; flag i is 1 when item i was certainly new (as add() would say). */
  addMany(items: BatchItems): Uint8Array {
    return addBatch(this, checkBatchOf(this, 'BloomFilter.addMany', items));
  }

  /** Tests each item; flag i is 1 when item i may have been added (as has() would say). */
  hasMany(items: BatchItems): Uint8Array {
    return hasBatch(this, checkBatchOf(this, 'BloomFilter.hasMany', items));
  }

  /** How many bits are 1. */
  bitsSet(): number {
    return this.counters.setCount;
  }

  /** Zeroes every bit. */
  clear(): void {
    this.array.clear();
    this.counters.setCount = 0;
    this.counters.addedCount = 0;
  }

  /** A copy of the packed bits: bit p is bit (p & 7) of byte p >> 3. */
  bitArray(): Uint8Array {
    return this.array.bytes.slice();
  }

  /** The bits as m characters '0'/'1', bit 0 first. */
  toBitString(): string {
    return bitString(this.array.bytes, this.bits);
  }

  /** The items held, as Set.prototype.size counts them: adds that reported a new item (set at least one bit). */
  get size(): number {
    return Math.min(this.counters.addedCount, MAX_ADDED_COUNT);
  }

  /** The Swamidass–Baldi estimate of distinct items added, -(m/k) ln(1 - X/m) with X = bitsSet(). */
  estimatedCount(): number {
    return estimatedCountOf(this.bits, this.hashes, this.bitsSet());
  }

  /** The false-positive rate at the current fill: (X/m)^k with X = bitsSet(), or under sbbf the blocked rate at estimatedCount(). */
  currentFalsePositiveRate(): number {
    return currentFalsePositiveRateOf(this.bits, this.hashes, this.bitsSet(), this.scheme);
  }

  /** An independent copy with the same parameters, bits and counters. */
  clone(): BloomFilter {
    const copy = new BloomFilter(this.bits, this.hashes, { scheme: this.scheme, seed: this.seed });
    copy.array.bytes.set(this.array.bytes);
    copy.counters.setCount = this.counters.setCount;
    copy.counters.addedCount = this.counters.addedCount;
    return copy;
  }

  /** Adds every item of `other` in place (bits OR); size becomes the sum, saturated at 2^53 - 1. */
  union(other: BloomFilter): this {
    checkOperands('union', this, other);
    if (this.array instanceof SharedBitArray) this.array.orFrom(other.array.bytes);
    else orInto(this.array.bytes, other.array.bytes);
    this.counters.setCount = popcount(this.array.bytes);
    this.counters.addedCount = saturatedSum(this.size, other.size);
    return this;
  }

  /** Keeps only the bits set in both, in place (bits AND); size becomes the smaller. */
  intersect(other: BloomFilter): this {
    checkOperands('intersect', this, other);
    if (this.array instanceof SharedBitArray) this.array.andFrom(other.array.bytes);
    else andInto(this.array.bytes, other.array.bytes);
    this.counters.setCount = popcount(this.array.bytes);
    this.counters.addedCount = Math.min(this.counters.addedCount, other.counters.addedCount);
    return this;
  }

  /** A new filter holding the union of `a` and `b`, which are left unchanged. */
  static union(a: BloomFilter, b: BloomFilter): BloomFilter {
    checkOperands('union', a, b);
    return a.clone().union(b);
  }

  /** A new filter holding the intersection of `a` and `b`, which are left unchanged. */
  static intersect(a: BloomFilter, b: BloomFilter): BloomFilter {
    checkOperands('intersect', a, b);
    return a.clone().intersect(b);
  }

  /** The filter in the version-1 binary format, byte-identical to the wasm filter's. */
  toBytes(): Uint8Array {
    const header = encodeHeader({
      scheme: this.scheme,
      schemeId: SCHEMES.indexOf(this.scheme),
      hashes: this.hashes,
      seed: this.seed,
      bits: this.bits,
      bitsSet: this.counters.setCount,
      addedCount: this.counters.addedCount,
    });
    setChecksum(header, checksum(header.subarray(0, CHECKSUMMED_HEADER_BYTES), this.array.bytes));
    const out = new Uint8Array(HEADER_BYTES + this.array.bytes.length);
    out.set(header);
    out.set(this.array.bytes, HEADER_BYTES);
    return out;
  }

  /** The JSON form (docs/FORMAT.md, "JSON form, version 1"): `{ type: "bloomwasm/BloomFilter", version: 1, bytes: "<base64 of toBytes()>" }`, so that JSON.stringify works. */
  toJSON(): FilterJSON {
    return toJSONOf('BloomFilter', this.toBytes());
  }

  /** Reads a filter written by toBytes; checks all of it before allocating, as the wasm filter does. */
  static fromBytes(bytes: Uint8Array): BloomFilter {
    bytes = checkBytes(bytes);
    const header = parseHeader(bytes, bytes.length);
    const payload = bytes.subarray(HEADER_BYTES);
    const sum = checksum(bytes.subarray(0, CHECKSUMMED_HEADER_BYTES), payload);
    checkPayload(header, sum, payload[payload.length - 1], popcount(payload));
    const filter = new BloomFilter(header.bits, header.hashes, { scheme: header.scheme, seed: header.seed });
    filter.array.bytes.set(payload);
    filter.counters.setCount = header.bitsSet;
    filter.counters.addedCount = header.addedCount;
    return filter;
  }

  /**
   * Reads the JSON form that toJSON gives (the parsed object, or its JSON
   * text): the same filter, byte for byte, as fromBytes of its bytes. Throws
   * BloomTypeError naming `value`, `type` or `bytes`, BloomRangeError naming
   * `version`, and BloomFormatError for bad base64 or bad bytes.
   */
  static fromJSON(value: FilterJSON | string): BloomFilter {
    return BloomFilter.fromBytes(bytesFromJSON(value, 'BloomFilter'));
  }

  /** The bits as a Parquet split-block bitset; only an `sbbf` filter with seed 0 has it, as in the wasm filter. */
  toParquet(): Uint8Array {
    checkParquetFilter(this);
    return this.bitArray();
  }

  /** An `sbbf` filter holding a Parquet column chunk's bitset, checked and counted as the wasm filter does. */
  static fromParquet(bitset: Uint8Array): BloomFilter {
    const bits = checkParquetBitset(bitset);
    const filter = new BloomFilter(bits, SBBF_HASHES, { scheme: 'sbbf' });
    filter.array.bytes.set(bitset);
    filter.counters.setCount = popcount(filter.array.bytes);
    filter.counters.addedCount = parquetAddedCount(filter.estimatedCount(), bits);
    return filter;
  }
}

function checkOperands(operation: string, a: unknown, b: unknown): asserts b is BloomFilter {
  if (!(a instanceof BloomFilter)) throw new BloomTypeError('this', a, 'a BloomFilter from bloomwasm/reference');
  if (!(b instanceof BloomFilter)) {
    // The other implementation's filter has the same class name: say which one is wanted only then.
    const twin = (b as { constructor?: { name?: unknown } } | null)?.constructor?.name === 'BloomFilter';
    throw new BloomTypeError('other', b, twin ? 'a BloomFilter from bloomwasm/reference (not the wasm filter)' : 'a BloomFilter from bloomwasm/reference');
  }
  if (isDisposed(b)) throw new BloomDisposedError(`BloomFilter.${operation}`, 'its operand');
  checkCompatible(operation, a, b);
}
