// The counting Bloom filter whose hashing, probing and counting run in
// WebAssembly (assembly/counting.ts): 4-bit saturating counters in place of
// bits, on exactly the positions a BloomFilter with the same bits, hashes,
// scheme and seed uses, so that items can be removed. Its twin is
// src/reference/counting.ts; the parity tests hold them together.

import { checkBytes } from '../wasm/typed-arrays.js';
import { CountingEngine } from '../wasm/counting.js';
import { BloomRangeError } from '../errors.js';
import { BloomFilter, engineOf } from '../filter/filter.js';
import { checkDigest, type Digest } from '../filter/item-digest.js';
import type { BatchItems, Item } from '../filter/items.js';
import { checkItem, checkParams, readFilterOptions, SCHEMES, schemeOption, type FilterOptions, type Scheme } from '../filter/options.js';
import { capacityParams, currentFalsePositiveRateOf, estimatedCountOf } from '../filter/sizing.js';
import {
  CHECKSUMMED_HEADER_BYTES, checkPayload, encodeHeader, HEADER_BYTES, parseHeader, setChecksum, type FileHeader,
} from '../format/filter.js';
import { COUNTING_KIND } from '../format/counting.js';
import { checkNotShared, MAX_COUNTING_BITS, OP_ADD, OP_COUNT, OP_HAS, OP_REMOVE } from './limits.js';
import { checkBatchOf, markDisposed } from '../filter/dispose.js';
import { INSPECT, inspectLine, positionFields } from '../filter/describe.js';
import { toJSONOf, bytesFromJSON, type FilterJSON } from '../format/json.js';

/** Set by CountingBloomFilter's static block. */
let engineOfCounting: (f: CountingBloomFilter) => CountingEngine;

/** A counting Bloom filter of `bits` 4-bit counters and `hashes` positions per item, in WebAssembly. */
export class CountingBloomFilter {
  /** m: the number of counters (and of bits in toBloomFilter()). */
  readonly bits: number;
  /** k: positions per item. */
  readonly hashes: number;
  /** The hash scheme. */
  readonly scheme: Scheme;
  /** The XXH64 seed (0 for the other schemes). */
  readonly seed: bigint;
  /** #private: its views are live wasm memory (this module reaches it through countingEngineOf). */
  readonly #engine: CountingEngine;

  static {
    engineOfCounting = (f) => f.#engine;
  }

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
    this.#engine = new CountingEngine(params);
  }

  /**
   * Gives the memory back at once; any later call throws BloomDisposedError
   * naming it. Calling it again does nothing.
   */
  dispose(): void {
    this.#engine.release();
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

  /** Runs a counting op on a checked item. */
  private run(item: Item, op: number): number {
    return this.#engine.run(item, op);
  }

  /** Raises the item's counters (saturated ones stay at 15); true when one went from 0 (the item was certainly new). */
  add(item: Item): boolean {
    checkItem(item);
    return this.run(item, OP_ADD) !== 0;
  }

  /** False when the item is certainly not in the filter; true when it may be. */
  has(item: Item): boolean {
    checkItem(item);
    return this.run(item, OP_HAS) !== 0;
  }

  /**
   * Lowers the item's counters (saturated ones stay at 15, so nothing else
   * can become a false negative) and returns true. Returns false, changing
   * nothing, when one of them is 0: the item is certainly absent. Removing
   * an item that was never added (a false positive) lowers other items'
   * counters and can make them false negatives: see docs/COUNTING.md.
   */
  remove(item: Item): boolean {
    checkItem(item);
    return this.run(item, OP_REMOVE) !== 0;
  }

  /**
   * The smallest of the item's counters: an upper bound on how many times it
   * is held (adds minus removes), 0 when it is certainly absent, 15 meaning
   * 15 or more.
   */
  count(item: Item): number {
    checkItem(item);
    return this.run(item, OP_COUNT);
  }

  /** has() for the item whose digest(item, { seed }) is `d` (xxh64 and sbbf). */
  hasDigest(d: Digest): boolean {
    checkDigest(this, d, 'hasDigest');
    return this.#engine.runDigest(d.lo, d.hi, OP_HAS) !== 0;
  }

  /** add() for the item whose digest is `d` (xxh64 and sbbf). */
  addDigest(d: Digest): boolean {
    checkDigest(this, d, 'addDigest');
    return this.#engine.runDigest(d.lo, d.hi, OP_ADD) !== 0;
  }

  /** remove() for the item whose digest is `d` (xxh64 and sbbf): false, changing nothing, when it is certainly absent. */
  removeDigest(d: Digest): boolean {
    checkDigest(this, d, 'removeDigest');
    return this.#engine.runDigest(d.lo, d.hi, OP_REMOVE) !== 0;
  }

  /** count() for the item whose digest is `d` (xxh64 and sbbf). */
  countDigest(d: Digest): number {
    checkDigest(this, d, 'countDigest');
    return this.#engine.runDigest(d.lo, d.hi, OP_COUNT);
  }

  /** The item's k positions, in probe order: the same as a BloomFilter's. */
  positions(item: Item): number[] {
    checkItem(item);
    return this.#engine.positions(item);
  }

  /**
   * Adds each item in order; flag i is 1 when item i was certainly new (as
   * add() would say). A bad batch throws before any add. One wasm call per
   * chunk of up to 4096 items.
   */
  addMany(items: BatchItems): Uint8Array {
    return this.#engine.runBatch(checkBatchOf(this, 'CountingBloomFilter.addMany', items), OP_ADD);
  }

  /** Tests each item; flag i is 1 when item i may be present. One wasm call per chunk. */
  hasMany(items: BatchItems): Uint8Array {
    return this.#engine.runBatch(checkBatchOf(this, 'CountingBloomFilter.hasMany', items), OP_HAS);
  }

  /** How many counters are above 0: the bits set in toBloomFilter(). */
  bitsSet(): number {
    return this.#engine.nonzero();
  }

  /** How many counters are saturated (at 15); while it is 0, every remove undoes its add exactly. */
  saturatedCount(): number {
    return this.#engine.saturated();
  }

  /** The items held, as Set.prototype.size counts them: adds that reported new, less successful removes (never below 0). */
  get size(): number {
    return this.#engine.held();
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
    this.#engine.clear();
  }

  /** A copy of the packed counters: counter p is the low nibble of byte p >> 1 when p is even, the high nibble when odd. */
  counters(): Uint8Array {
    return this.#engine.counters.slice();
  }

  /** An independent copy with the same parameters, counters and tallies. */
  clone(): CountingBloomFilter {
    const copy = new CountingBloomFilter(this.bits, this.hashes, { scheme: this.scheme, seed: this.seed });
    countingEngineOf(copy).counters.set(this.#engine.counters);
    countingEngineOf(copy).restore(this.size);
    return copy;
  }

  /**
   * The plain BloomFilter with the same bits, hashes, scheme and seed, whose
   * bit p is 1 exactly when counter p is above 0. While no counter has
   * saturated it equals a BloomFilter holding the items still held; its
   * size is this filter's size.
   */
  toBloomFilter(): BloomFilter {
    const plain = new BloomFilter(this.bits, this.hashes, { scheme: this.scheme, seed: this.seed });
    const target = engineOf(plain);
    this.#engine.writeBits(target);
    target.setCounters(this.bitsSet(), this.size);
    return plain;
  }

  /** The filter in the counting file format (docs/FORMAT.md): the 56-byte header under magic "BLM4", then the counters. */
  toBytes(): Uint8Array {
    const header = countingFileHeader(this);
    const out = new Uint8Array(HEADER_BYTES + this.#engine.countersLength);
    out.set(header);
    out.set(this.#engine.counters, HEADER_BYTES);
    return out;
  }

  /** The JSON form (docs/FORMAT.md, "JSON form, version 1"): `{ type: "bloomwasm/CountingBloomFilter", version: 1, bytes: "<base64 of toBytes()>" }`, so that JSON.stringify works. */
  toJSON(): FilterJSON {
    return toJSONOf('CountingBloomFilter', this.toBytes());
  }

  /**
   * Reads a filter written by toBytes (here or by the reference twin). The
   * header and the length are checked before the filter is allocated; the
   * counters are then copied once, into the filter, and the checksum, the
   * padding and bitsSet are checked there, in place. Any fault throws
   * BloomFormatError naming the field and its byte offset (and gives the
   * filter's memory back).
   */
  static fromBytes(bytes: Uint8Array): CountingBloomFilter {
    bytes = checkBytes(bytes);
    const header = parseHeader(bytes, bytes.length, COUNTING_KIND);
    const payload = bytes.subarray(HEADER_BYTES);
    const filter = new CountingBloomFilter(header.bits, header.hashes, { scheme: header.scheme, seed: header.seed });
    try {
      countingEngineOf(filter).counters.set(payload);
      const ones = countingEngineOf(filter).restore(header.addedCount);
      checkPayload(header, countingEngineOf(filter).checksum(bytes.subarray(0, CHECKSUMMED_HEADER_BYTES)), payload[payload.length - 1], ones, COUNTING_KIND);
    } catch (error) {
      filter.dispose();
      throw error;
    }
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

/** The filter's wasm engine, for the Node file helpers (src/node/) to stream its counters in place. @internal */
export function countingEngineOf(filter: CountingBloomFilter): CountingEngine {
  return engineOfCounting(filter);
}

/**
 * The filter's 56-byte file header as it is now, checksum included: the
 * checksum runs in wasm over the header (through scratch) and the counters
 * in place, so nothing the size of the counters is copied. @internal
 */
export function countingFileHeader(filter: CountingBloomFilter): Uint8Array {
  const header = encodeHeader(
    {
      scheme: filter.scheme, schemeId: SCHEMES.indexOf(filter.scheme), hashes: filter.hashes, seed: filter.seed,
      bits: filter.bits, bitsSet: filter.bitsSet(), addedCount: filter.size,
    },
    COUNTING_KIND,
  );
  setChecksum(header, countingEngineOf(filter).checksum(header.subarray(0, CHECKSUMMED_HEADER_BYTES)));
  return header;
}

/** An empty filter with the parameters of a checked counting header, whose counters a file reader fills in place. @internal */
export function emptyCountingFilterFor(header: FileHeader): CountingBloomFilter {
  return new CountingBloomFilter(header.bits, header.hashes, { scheme: header.scheme, seed: header.seed });
}

/**
 * After a reader filled the counters of emptyCountingFilterFor(header) in
 * place: runs the payload checks (checksum, padding nibble, bitsSet) on
 * them, in wasm, and sets the tallies. Throws BloomFormatError as fromBytes
 * does. @internal
 */
export function finishCountingLoad(filter: CountingBloomFilter, header: FileHeader, headerBytes: Uint8Array): void {
  const engine = countingEngineOf(filter);
  const checksum = engine.checksum(headerBytes.subarray(0, CHECKSUMMED_HEADER_BYTES));
  engine.restore(header.addedCount);
  checkPayload(header, checksum, engine.counters[engine.counters.length - 1], engine.nonzero(), COUNTING_KIND);
}
