// The Bloom filter whose hashing and probing run in WebAssembly
// (assembly/). Its twin, src/reference/filter.ts, has the same surface and
// sets the same bits; the parity tests hold them together.

import { bitString } from './bit-string.js';
import { Engine } from './engine.js';
import { checkInteger, checkItem, checkParams, MAX_BITS, MAX_SHARDS, type FilterOptions, type Scheme } from './options.js';
import { capacityParams } from './sizing.js';

/** A Bloom filter of `bits` bits and `hashes` positions per item, hashed in WebAssembly. */
export class BloomFilter {
  /** m: the number of bits. */
  readonly bits: number;
  /** k: positions per item. */
  readonly hashes: number;
  /** The hash scheme. */
  readonly scheme: Scheme;
  /** The XXH64 seed (0 for the other schemes). */
  readonly seed: bigint;
  private readonly engine: Engine;

  /** Creates an empty filter; throws BloomRangeError or BloomTypeError on bad arguments. */
  constructor(bits: number, hashes: number, options?: FilterOptions) {
    const params = checkParams(bits, hashes, options);
    this.bits = params.bits;
    this.hashes = params.hashes;
    this.scheme = params.scheme;
    this.seed = params.seed;
    this.engine = new Engine(params);
  }

  /** A filter sized for `expectedItems` items at `falsePositiveRate`. */
  static forCapacity(expectedItems: number, falsePositiveRate: number, options?: FilterOptions): BloomFilter {
    const { bits, hashes } = capacityParams(expectedItems, falsePositiveRate, MAX_BITS);
    return new BloomFilter(bits, hashes, options);
  }

  /** Sets the item's k bits; true when any went from 0 to 1 (the item was certainly new). */
  add(item: string | Uint8Array): boolean {
    checkItem(item);
    return this.engine.add(item);
  }

  /** False when the item was certainly never added; true when it may have been. */
  has(item: string | Uint8Array): boolean {
    checkItem(item);
    return this.engine.has(item);
  }

  /** The item's k positions, in probe order. */
  positions(item: string | Uint8Array): number[] {
    checkItem(item);
    return this.engine.positions(item);
  }

  /** The shard in [0, shards) that a filter split over `shards` bitmaps (bloomwasm/redis) keeps the item in. */
  shardOf(item: string | Uint8Array, shards: number): number {
    checkItem(item);
    checkInteger('shards', shards, 1, MAX_SHARDS);
    return this.engine.shardPositions(item, shards);
  }

  /** How many bits are 1 (O(1): a counter raised on each 0-to-1 transition). */
  bitsSet(): number {
    return this.engine.x.bitsSet();
  }

  /** Zeroes every bit. */
  clear(): void {
    this.engine.x.clear();
  }

  /** A copy of the packed bits: bit p is bit (p & 7) of byte p >> 3. */
  bitArray(): Uint8Array {
    return this.engine.bitsView().slice();
  }

  /** The bits as m characters '0'/'1', bit 0 first. */
  toBitString(): string {
    return bitString(this.engine.bitsView(), this.bits);
  }
}
