// The reference twin of src/filter.ts: the same surface and the same bits,
// computed in plain TypeScript from src/reference/{hash,probe,bit-array}.ts.

import { bitString } from '../bit-string.js';
import { checkInteger, checkItem, checkParams, MAX_BITS, MAX_SHARDS, type FilterOptions, type Scheme } from '../options.js';
import { capacityParams } from '../sizing.js';
import { BitArray } from './bit-array.js';
import { bytesum, poly, xxh64 } from './hash.js';
import { probeDouble, probeEnhancedDouble } from './probe.js';
import { pairKey, shardIndex } from './shard.js';

const encoder = new TextEncoder();

function utf8(item: string | Uint8Array): Uint8Array {
  return typeof item === 'string' ? encoder.encode(item) : item;
}

function codeUnits(item: string | Uint8Array): ArrayLike<number> {
  if (typeof item !== 'string') return item;
  const units = new Array<number>(item.length);
  for (let i = 0; i < item.length; i++) units[i] = item.charCodeAt(i);
  return units;
}

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
  private readonly array: BitArray;
  private setCount = 0;

  /** Creates an empty filter; throws BloomRangeError or BloomTypeError on bad arguments. */
  constructor(bits: number, hashes: number, options?: FilterOptions) {
    const params = checkParams(bits, hashes, options);
    this.bits = params.bits;
    this.hashes = params.hashes;
    this.scheme = params.scheme;
    this.seed = params.seed;
    this.array = new BitArray(this.bits);
  }

  /** A filter sized for `expectedItems` items at `falsePositiveRate`. */
  static forCapacity(expectedItems: number, falsePositiveRate: number, options?: FilterOptions): BloomFilter {
    const { bits, hashes } = capacityParams(expectedItems, falsePositiveRate, MAX_BITS);
    return new BloomFilter(bits, hashes, options);
  }

  /** The item's k positions, in probe order. */
  positions(item: string | Uint8Array): number[] {
    checkItem(item);
    const m = this.bits;
    const k = this.hashes;
    if (this.scheme === 'xxh64') return probeEnhancedDouble(xxh64(utf8(item), this.seed), m, k);
    if (this.scheme === 'poly') {
      const { h1, h2 } = poly(codeUnits(item));
      return probeDouble(h1, h2, m, k);
    }
    const { h1, h2 } = bytesum(utf8(item), m);
    return probeDouble(h1, h2, m, k);
  }

  /** The shard in [0, shards) that a filter split over `shards` bitmaps (bloomwasm/redis) keeps the item in. */
  shardOf(item: string | Uint8Array, shards: number): number {
    checkItem(item);
    checkInteger('shards', shards, 1, MAX_SHARDS);
    if (this.scheme === 'xxh64') return shardIndex(xxh64(utf8(item), this.seed), shards);
    if (this.scheme === 'poly') {
      const { h1, h2 } = poly(codeUnits(item));
      return shardIndex(pairKey(h1, h2), shards);
    }
    const { h1, h2 } = bytesum(utf8(item), this.bits);
    return shardIndex(pairKey(h1, h2), shards);
  }

  /** Sets the item's k bits; true when any went from 0 to 1 (the item was certainly new). */
  add(item: string | Uint8Array): boolean {
    let fresh = 0;
    for (const p of this.positions(item)) if (this.array.set(p)) fresh++;
    this.setCount += fresh;
    return fresh > 0;
  }

  /** False when the item was certainly never added; true when it may have been. */
  has(item: string | Uint8Array): boolean {
    return this.positions(item).every((p) => this.array.get(p));
  }

  /** How many bits are 1. */
  bitsSet(): number {
    return this.setCount;
  }

  /** Zeroes every bit. */
  clear(): void {
    this.array.clear();
    this.setCount = 0;
  }

  /** A copy of the packed bits: bit p is bit (p & 7) of byte p >> 3. */
  bitArray(): Uint8Array {
    return this.array.bytes.slice();
  }

  /** The bits as m characters '0'/'1', bit 0 first. */
  toBitString(): string {
    return bitString(this.array.bytes, this.bits);
  }
}
