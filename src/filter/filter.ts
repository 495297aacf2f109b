// The Bloom filter whose hashing and probing run in WebAssembly
// (assembly/). Its twin, src/reference/filter.ts, has the same surface and
// sets the same bits; the parity tests hold them together. The common
// user's methods (add, has, batches, dispose) are src/filter/filter-base.ts's;
// the rest of the public surface is here, one short method each.

import { checkBytes } from '../wasm/typed-arrays.js';
import { bitString } from './bit-string.js';
import { fileChecksum } from '../wasm/checksum.js';
import { Engine } from '../wasm/engine.js';
import { SharedEngine } from '../wasm/shared-engine.js';
import { requireSharedBuild } from '../wasm/module.js';
import { checkHeldFilter, holdsBits } from '../wasm/shared-memory.js';
import { BloomDisposedError, BloomTypeError } from '../errors.js';
import { isDisposed } from './dispose.js';
import {
  CHECKSUMMED_HEADER_BYTES, checkPayload, encodeHeader, HEADER_BYTES, parseHeader, saturatedSum, setChecksum,
} from '../format/filter.js';
import {
  checkCompatible, checkInteger, checkItem, checkParams, checkShared, MAX_BITS, MAX_SHARDS, SBBF_HASHES, SCHEMES,
  readFilterOptions, schemeOption, type FilterOptions, type FilterParams,
} from './options.js';
import { checkHandle, SHARED_FILTER_KIND, SHARED_FILTER_VERSION, type SharedFilterHandle } from './shared.js';
import { checkParquetBitset, checkParquetFilter, parquetAddedCount } from '../format/parquet.js';
import { capacityParams, currentFalsePositiveRateOf, estimatedCountOf } from './sizing.js';
import { checkDigest, type Digest } from './item-digest.js';
import { BloomFilterBase, coreEngineOf, swapEngine } from './filter-base.js';
import { filledFrom, type SizedItems } from './sized-items.js';
import { toJSONOf, bytesFromJSON, type FilterJSON } from '../format/json.js';

/**
 * The parameters and engine that the next construction adopts instead of
 * making its own: set only for the length of filterOver's `new`, which
 * gives a filter over an engine made elsewhere (attach).
 */
let adopted: { params: FilterParams; engine: Engine } | undefined;

/** A filter over `engine`, made elsewhere for `params` (attach). */
function filterOver(params: FilterParams, engine: Engine): BloomFilter {
  adopted = { params, engine };
  try {
    return new BloomFilter(0, 0);
  } finally {
    adopted = undefined;
  }
}

/** A Bloom filter of `bits` bits and `hashes` positions per item, hashed in WebAssembly. */
export class BloomFilter extends BloomFilterBase {
  /**
   * Creates an empty filter; throws BloomRangeError or BloomTypeError on bad
   * arguments. With `{ shared: true }` its bits live in shared memory from
   * the start (see share()).
   */
  constructor(bits: number, hashes: number, options?: FilterOptions) {
    if (adopted !== undefined) {
      const { params, engine } = adopted;
      adopted = undefined;
      super(params, engine);
      return;
    }
    const o = readFilterOptions(options);
    const params = checkParams(bits, hashes, o);
    const shared = checkShared(o);
    if (shared) requireSharedBuild('new BloomFilter(bits, hashes, { shared: true })');
    super(params, shared ? new SharedEngine(params, true) : new Engine(params));
  }

  /** True when the bits live in shared memory (created with `{ shared: true }`, attached, or after share()). */
  get shared(): boolean {
    return engineOf(this).sharedMemory !== undefined;
  }

  /**
   * A structured-cloneable handle to this filter's bits, for
   * BloomFilter.attach() in another thread (docs/SHARED.md). A filter that
   * is not shared yet moves its bits and counters into a new shared memory
   * first, once (a copy of its bits); from then on it is shared, and every
   * later share() returns a handle to the same memory.
   */
  share(): SharedFilterHandle {
    if (engineOf(this).sharedMemory === undefined) {
      requireSharedBuild('BloomFilter.share()');
      const engine = new SharedEngine(paramsOf(this), true);
      engine.bitsView().set(engineOf(this).bitsView());
      engine.setCounters(this.bitsSet(), this.size);
      engineOf(this).release();
      swapEngine(this, engine);
    }
    const { bits, hashes, scheme, seed } = this;
    return { kind: SHARED_FILTER_KIND, version: SHARED_FILTER_VERSION, memory: engineOf(this).sharedMemory!, bits, hashes, scheme, seed };
  }

  /**
   * A filter over the bits of `handle` (from share(), possibly in another
   * thread): adds in any thread are seen by has in every thread. Throws
   * BloomTypeError naming the field of a handle that is not one.
   */
  static attach(handle: SharedFilterHandle): BloomFilter {
    const { params, memory } = checkHandle(handle);
    requireSharedBuild('BloomFilter.attach(handle)');
    if (!holdsBits(memory, params.bits)) {
      throw new BloomTypeError('handle.memory', memory, `a shared memory that holds ${params.bits} bits (this one is smaller)`);
    }
    checkHeldFilter(memory, params);
    return filterOver(params, new SharedEngine(params, memory));
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

  /** add() for the item whose digest is `d`; refused as hasDigest is. */
  addDigest(d: Digest): boolean {
    checkDigest(this, d, 'addDigest');
    return engineOf(this).addDigest(d.lo, d.hi);
  }

  /** The item's k positions, in probe order. */
  positions(item: string | Uint8Array): number[] {
    checkItem(item);
    return engineOf(this).positions(item);
  }

  /** The shard in [0, shards) that a filter split over `shards` bitmaps (bloomwasm/redis) keeps the item in. */
  shardOf(item: string | Uint8Array, shards: number): number {
    checkItem(item);
    checkInteger('shards', shards, 1, MAX_SHARDS);
    return engineOf(this).shardPositions(item, shards);
  }

  /** Zeroes every bit. */
  clear(): void {
    engineOf(this).clear();
  }

  /** A copy of the packed bits: bit p is bit (p & 7) of byte p >> 3. */
  bitArray(): Uint8Array {
    return engineOf(this).bitsView().slice();
  }

  /** The bits as m characters '0'/'1', bit 0 first. */
  toBitString(): string {
    return bitString(engineOf(this).bitsView(), this.bits);
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
    engineOf(copy).bitsView().set(engineOf(this).bitsView());
    engineOf(copy).setCounters(this.bitsSet(), this.size);
    return copy;
  }

  /**
   * Adds every item of `other` in place: the bits become the OR of both.
   * size becomes the sum of both (an upper bound: shared items count twice),
   * saturated at 2^53 - 1.
   * Throws BloomMismatchError naming what differs when bits, hashes, scheme or seed do.
   */
  union(other: BloomFilter): this {
    checkOperands('union', this, other);
    this.combine(other, 'union', saturatedSum(this.size, other.size));
    return this;
  }

  /**
   * Keeps only the bits set in both, in place: the AND, which answers true for
   * every item added to both. size becomes the smaller of the two.
   */
  intersect(other: BloomFilter): this {
    checkOperands('intersect', this, other);
    this.combine(other, 'intersect', Math.min(this.size, other.size));
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

  private combine(other: BloomFilter, operation: 'union' | 'intersect', addedCount: number): void {
    engineOf(this).combine(engineOf(other), operation);
    engineOf(this).setCounters(this.bitsSet(), addedCount);
  }

  /** The filter in the version-1 binary format (docs/FORMAT.md, "Filter format, version 1"): a 56-byte header, then the packed bits. */
  toBytes(): Uint8Array {
    const header = fileHeader(this);
    const out = new Uint8Array(HEADER_BYTES + engineOf(this).byteLength);
    out.set(header);
    out.set(engineOf(this).bitsView(), HEADER_BYTES);
    return out;
  }

  /** The JSON form (docs/FORMAT.md, "JSON form, version 1"): `{ type: "bloomwasm/BloomFilter", version: 1, bytes: "<base64 of toBytes()>" }`, so that JSON.stringify works. */
  toJSON(): FilterJSON {
    return toJSONOf('BloomFilter', this.toBytes());
  }

  /**
   * Reads a filter written by toBytes (here or by the reference twin). The
   * header and the length are checked before the filter is allocated; the
   * bits are then copied once, into the filter, and the checksum, the
   * padding and bitsSet are checked there, in place. Any fault throws
   * BloomFormatError naming the field and its byte offset (and gives the
   * filter's memory back).
   */
  static fromBytes(bytes: Uint8Array): BloomFilter {
    bytes = checkBytes(bytes);
    const header = parseHeader(bytes, bytes.length);
    const payload = bytes.subarray(HEADER_BYTES);
    const filter = new BloomFilter(header.bits, header.hashes, { scheme: header.scheme, seed: header.seed });
    try {
      engineOf(filter).bitsView().set(payload);
      const ones = engineOf(filter).recountBits();
      checkPayload(header, fileChecksum(engineOf(filter), bytes.subarray(0, CHECKSUMMED_HEADER_BYTES)), payload[payload.length - 1], ones);
    } catch (error) {
      filter.dispose();
      throw error;
    }
    engineOf(filter).setCounters(header.bitsSet, header.addedCount);
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

  /**
   * The bits as an Apache Parquet split-block Bloom filter bitset, the bytes
   * that follow a column chunk's BloomFilterHeader (docs/SCHEMES.md,
   * "Parquet interoperability"). Only an `sbbf` filter with seed 0 has that
   * layout; any other throws BloomRangeError naming the scheme or seed.
   */
  toParquet(): Uint8Array {
    checkParquetFilter(this);
    return this.bitArray();
  }

  /**
   * An `sbbf` filter (bits = 8 · bitset.length, hashes 8, seed 0) holding a
   * Parquet column chunk's bitset, copied. Throws BloomTypeError unless it is
   * a Uint8Array, BloomRangeError unless its length is a positive multiple of
   * 32. A bitset does not record its item count: size is the rounded
   * estimatedCount() of its set bits.
   */
  static fromParquet(bitset: Uint8Array): BloomFilter {
    const bits = checkParquetBitset(bitset);
    const filter = new BloomFilter(bits, SBBF_HASHES, { scheme: 'sbbf' });
    engineOf(filter).bitsView().set(bitset);
    engineOf(filter).recountBits();
    engineOf(filter).setCounters(filter.bitsSet(), parquetAddedCount(filter.estimatedCount(), bits));
    return filter;
  }
}

/** The checked parameters of an existing filter. */
function paramsOf(filter: BloomFilter): FilterParams {
  const { bits, hashes, scheme, seed } = filter;
  return { bits, hashes, scheme, schemeId: SCHEMES.indexOf(scheme), seed };
}

function checkOperands(operation: string, a: unknown, b: unknown): asserts b is BloomFilter {
  if (!(a instanceof BloomFilter)) throw new BloomTypeError('this', a, 'a BloomFilter from bloomwasm');
  if (!(b instanceof BloomFilter)) {
    // The other implementation's filter has the same class name: say which one is wanted only then.
    const twin = (b as { constructor?: { name?: unknown } } | null)?.constructor?.name === 'BloomFilter';
    throw new BloomTypeError('other', b, twin ? 'a BloomFilter from bloomwasm (not the reference twin)' : 'a BloomFilter from bloomwasm');
  }
  if (isDisposed(a)) throw new BloomDisposedError(`BloomFilter.${operation}`);
  if (isDisposed(b)) throw new BloomDisposedError(`BloomFilter.${operation}`, 'its operand');
  checkCompatible(operation, a, b);
}

/** The wasm engine behind a filter; for src/node (which streams bits in and out of it) and src/wasm/lines.ts. @internal */
export function engineOf(filter: BloomFilter): Engine {
  return coreEngineOf(filter) as Engine;
}

/** The 56-byte version-1 header of `filter`, its checksum computed in wasm over the bits in place. @internal */
export function fileHeader(filter: BloomFilter): Uint8Array {
  const header = encodeHeader({
    scheme: filter.scheme,
    schemeId: SCHEMES.indexOf(filter.scheme),
    hashes: filter.hashes,
    seed: filter.seed,
    bits: filter.bits,
    bitsSet: filter.bitsSet(),
    addedCount: filter.size,
  });
  setChecksum(header, fileChecksum(engineOf(filter), header.subarray(0, CHECKSUMMED_HEADER_BYTES)));
  return header;
}
