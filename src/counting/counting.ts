// The counting Bloom filter whose hashing, probing and counting run in
// WebAssembly (assembly/counting.ts): 4-bit saturating counters in place of
// bits, on exactly the positions a BloomFilter with the same bits, hashes,
// scheme and seed uses, so that items can be removed. Its twin is
// src/reference/counting.ts; the parity tests hold them together.

import { checkerEngine, Engine, type FilterExports } from '../wasm/engine.js';
import { BloomRangeError, BloomRemoveError, BloomTypeError } from '../errors.js';
import { BloomFilter, engineOf } from '../filter/filter.js';
import { checkDigest, type Digest, type ProbeLayout } from '../filter/item-digest.js';
import { checkBatch, batchItem, type BatchItems, type Item } from '../filter/items.js';
import { checkItem, checkParams, SCHEMES, type FilterOptions, type Scheme } from '../filter/options.js';
import { capacityParams, currentFalsePositiveRateOf, estimatedCountOf } from '../filter/sizing.js';
import {
  CHECKSUMMED_HEADER_BYTES, checkPayload, encodeHeader, HEADER_BYTES, parseHeader, setChecksum,
} from '../format/filter.js';
import { COUNTING_KIND, countersAboveZero } from '../format/counting.js';
import { MAX_COUNTING_BITS, OP_ADD, OP_COUNT, OP_HAS, OP_REMOVE } from './limits.js';

/** The exports of assembly/counting.ts. */
interface CountingExports extends FilterExports {
  countingConfigure(bits: number, hashes: number, scheme: number, seedLo: number, seedHi: number): number;
  countingItem(len: number, wide: number, op: number): number;
  countingStream(op: number): number;
  countingDigest(lo: number, hi: number, op: number): number;
  countingNonzero(): number;
  countingSaturated(): number;
  countingHeld(): number;
  countingClear(): void;
  countingRestore(held: number): number;
  countingChecksumCounters(): void;
  countingBitsChunk(first: number, len: number): void;
}

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
  private readonly engine: Engine;
  private readonly x: CountingExports;
  /** Bytes of the packed counters: ceil(m / 2). */
  private readonly countersLength: number;
  /** probeLayout's answer, made on first use. */
  private layout: ProbeLayout | undefined;

  /** Creates an empty filter; throws BloomRangeError or BloomTypeError on bad arguments. */
  constructor(bits: number, hashes: number, options?: FilterOptions) {
    const params = checkParams(bits, hashes, options);
    if (params.bits > MAX_COUNTING_BITS) {
      throw new BloomRangeError('bits', bits, `an integer in [1, ${MAX_COUNTING_BITS}] for a counting filter (4 bits per counter)`);
    }
    this.bits = params.bits;
    this.hashes = params.hashes;
    this.scheme = params.scheme;
    this.seed = params.seed;
    this.countersLength = Math.ceil(params.bits / 2);
    // A hashing-only instance (no bits), then room for the counters; the
    // growth detaches the engine's views, so they are rebuilt.
    this.engine = new Engine(params, true);
    this.x = this.engine.x as CountingExports;
    const seedLo = Number(params.seed & 0xffffffffn);
    const seedHi = Number(params.seed >> 32n);
    if (this.x.countingConfigure(params.bits, params.hashes, params.schemeId, seedLo, seedHi) !== 0) {
      throw new BloomRangeError('bits', bits, `a size whose ${this.countersLength} bytes of counters the engine can allocate`);
    }
    this.engine.rebind();
  }

  /** A filter sized for `expectedItems` items at `falsePositiveRate` (as BloomFilter.forCapacity). */
  static forCapacity(expectedItems: number, falsePositiveRate: number, options?: FilterOptions): CountingBloomFilter {
    const { bits, hashes } = capacityParams(expectedItems, falsePositiveRate, MAX_COUNTING_BITS);
    return new CountingBloomFilter(bits, hashes, options);
  }

  /** Runs a counting op on a checked item. */
  private run(item: Item, op: number): number {
    const len = this.engine.stage(item);
    return len >= 0 ? this.x.countingItem(len, this.engine['wide'], op) : this.x.countingStream(op);
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
   * can become a false negative). Throws BloomRemoveError, changing
   * nothing, when one of them is 0: the item cannot be present.
   */
  remove(item: Item): void {
    checkItem(item);
    if (this.run(item, OP_REMOVE) === 0) throw new BloomRemoveError(item, this.hashes);
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

  /** has() for the item whose digest(item, { seed }) is `d` (xxh64 only). */
  hasDigest(d: Digest): boolean {
    checkDigest(this, d, 'hasDigest');
    return this.x.countingDigest(d.lo, d.hi, OP_HAS) !== 0;
  }

  /** add() for the item whose digest is `d` (xxh64 only). */
  addDigest(d: Digest): boolean {
    checkDigest(this, d, 'addDigest');
    return this.x.countingDigest(d.lo, d.hi, OP_ADD) !== 0;
  }

  /** remove() for the item whose digest is `d` (xxh64 only). */
  removeDigest(d: Digest): void {
    checkDigest(this, d, 'removeDigest');
    if (this.x.countingDigest(d.lo, d.hi, OP_REMOVE) === 0) throw new BloomRemoveError(`the item with digest 0x${d.value.toString(16)}`, this.hashes);
  }

  /** count() for the item whose digest is `d` (xxh64 only). */
  countDigest(d: Digest): number {
    checkDigest(this, d, 'countDigest');
    return this.x.countingDigest(d.lo, d.hi, OP_COUNT);
  }

  /** Where the counters lie, for probeAll to read them in place. @internal */
  probeLayout(): ProbeLayout {
    const layout = (this.layout ??= { bits: this.bits, hashes: this.hashes, width: 4, view: this.countersView() });
    if (layout.view.length === 0) layout.view = this.countersView();
    return layout;
  }

  /** The item's k positions, in probe order: the same as a BloomFilter's. */
  positions(item: Item): number[] {
    checkItem(item);
    return this.engine.positions(item);
  }

  /** Adds each item in order; flag i is 1 when item i was certainly new. A bad batch throws before any add. */
  addMany(items: BatchItems): Uint8Array {
    const batch = checkBatch(items);
    const flags = new Uint8Array(batch.count);
    for (let i = 0; i < batch.count; i++) flags[i] = this.run(batchItem(batch, i), OP_ADD);
    return flags;
  }

  /** Tests each item; flag i is 1 when item i may be present. */
  hasMany(items: BatchItems): Uint8Array {
    const batch = checkBatch(items);
    const flags = new Uint8Array(batch.count);
    for (let i = 0; i < batch.count; i++) flags[i] = this.run(batchItem(batch, i), OP_HAS);
    return flags;
  }

  /** How many counters are above 0: the bits set in toBloomFilter(). */
  bitsSet(): number {
    return this.x.countingNonzero();
  }

  /** How many counters are saturated (at 15); while it is 0, every remove undoes its add exactly. */
  saturatedCount(): number {
    return this.x.countingSaturated();
  }

  /** The items held: adds minus successful removes (never below 0). */
  addedCount(): number {
    return this.x.countingHeld();
  }

  /** The Swamidass–Baldi estimate of distinct items held, -(m/k) ln(1 - X/m) with X = bitsSet(). */
  estimatedCount(): number {
    return estimatedCountOf(this.bits, this.hashes, this.bitsSet());
  }

  /** The false-positive rate at the current fill, (X/m)^k with X = bitsSet(). */
  currentFalsePositiveRate(): number {
    return currentFalsePositiveRateOf(this.bits, this.hashes, this.bitsSet());
  }

  /** Zeroes every counter. */
  clear(): void {
    this.x.countingClear();
  }

  /** A live view of the packed counters in wasm memory. */
  private countersView(): Uint8Array {
    return new Uint8Array(this.x.memory.buffer, this.x.bitsPtr(), this.countersLength);
  }

  /** A copy of the packed counters: counter p is the low nibble of byte p >> 1 when p is even, the high nibble when odd. */
  counters(): Uint8Array {
    return this.countersView().slice();
  }

  /** An independent copy with the same parameters, counters and tallies. */
  clone(): CountingBloomFilter {
    const copy = new CountingBloomFilter(this.bits, this.hashes, { scheme: this.scheme, seed: this.seed });
    copy.countersView().set(this.countersView());
    copy.x.countingRestore(this.addedCount());
    return copy;
  }

  /**
   * The plain BloomFilter with the same bits, hashes, scheme and seed, whose
   * bit p is 1 exactly when counter p is above 0. While no counter has
   * saturated it equals a BloomFilter holding the items still held; its
   * addedCount is this filter's addedCount().
   */
  toBloomFilter(): BloomFilter {
    const plain = new BloomFilter(this.bits, this.hashes, { scheme: this.scheme, seed: this.seed });
    const target = engineOf(plain);
    const bits = target.bitsView();
    const size = this.x.scratchSize();
    const scratch = new Uint8Array(this.x.memory.buffer, this.x.scratchPtr(), size);
    for (let at = 0; at < bits.length; at += size) {
      const len = Math.min(size, bits.length - at);
      this.x.countingBitsChunk(at, len);
      bits.set(scratch.subarray(0, len), at);
    }
    target.x.setCounters(this.bitsSet(), this.addedCount());
    return plain;
  }

  /** The filter in the counting file format (docs/FORMAT.md): the 56-byte header under magic "BLMC", then the counters. */
  toBytes(): Uint8Array {
    const header = encodeHeader(
      {
        scheme: this.scheme, schemeId: SCHEMES.indexOf(this.scheme), hashes: this.hashes, seed: this.seed,
        bits: this.bits, bitsSet: this.bitsSet(), addedCount: this.addedCount(),
      },
      COUNTING_KIND,
    );
    // The checksum runs in wasm over the header (through scratch) and the counters in place.
    this.x.checksumStart();
    this.x.checksumScratch(this.engine.stage(header.subarray(0, CHECKSUMMED_HEADER_BYTES)));
    this.x.countingChecksumCounters();
    this.x.checksumEnd();
    setChecksum(header, new DataView(this.x.memory.buffer, this.x.scratchPtr(), 8).getBigUint64(0, true));
    const out = new Uint8Array(HEADER_BYTES + this.countersLength);
    out.set(header);
    out.set(this.countersView(), HEADER_BYTES);
    return out;
  }

  /**
   * Reads a filter written by toBytes (here or by the reference twin). The
   * whole input is checked (header, length, checksum, padding, bitsSet)
   * before the filter is allocated; any fault throws BloomFormatError naming
   * the field and its byte offset.
   */
  static fromBytes(bytes: Uint8Array): CountingBloomFilter {
    if (!(bytes instanceof Uint8Array)) throw new BloomTypeError('bytes', bytes, 'a Uint8Array');
    const header = parseHeader(bytes, bytes.length, COUNTING_KIND);
    const payload = bytes.subarray(HEADER_BYTES);
    const { checksum } = checkerEngine().inspect(bytes.subarray(0, CHECKSUMMED_HEADER_BYTES), payload);
    checkPayload(header, checksum, payload[payload.length - 1], countersAboveZero(payload, header.bits), COUNTING_KIND);
    const filter = new CountingBloomFilter(header.bits, header.hashes, { scheme: header.scheme, seed: header.seed });
    filter.countersView().set(payload);
    filter.x.countingRestore(header.addedCount);
    return filter;
  }
}


