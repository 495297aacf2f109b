// The reference twin of src/scalable/scalable.ts: the same chain
// (src/scalable/scalable-over.ts) over reference BloomFilters, with the
// header checksum from the reference XXH64. Both chains build the same
// members from the same plan, so they hold the same bits.

import { restoreChain } from '../scalable/restore.js';
import { ScalableBloomFilterOver, type ChainKind } from '../scalable/scalable-over.js';
import { scalableCapacityOptions, type ScalableCapacityOptions, type ScalableOptions } from '../scalable/plan.js';
import { BloomFilter } from './filter.js';
import { xxh64 } from './hash.js';
import { digestItem } from './digest.js';
import { bytesFromJSON, type FilterJSON } from '../format/json.js';

/** Reference members, and the header checksum in plain TypeScript. */
const REFERENCE_MEMBERS: ChainKind<BloomFilter> = {
  create: (bits, hashes, scheme, seed) => new BloomFilter(bits, hashes, { scheme, seed }),
  fromBytes: (bytes) => BloomFilter.fromBytes(bytes),
  xxh64: (bytes) => xxh64(bytes, 0n),
  digest: digestItem,
};

/** A chain of Bloom filters that grows with the items and keeps its false-positive bound, in plain TypeScript. */
export class ScalableBloomFilter extends ScalableBloomFilterOver<BloomFilter> {
  /** An empty chain with one member; throws BloomRangeError or BloomTypeError on bad options. */
  constructor(options: ScalableOptions) {
    super(options, REFERENCE_MEMBERS);
  }

  /**
   * The chain for n = `capacity` items in its first member at compound rate
   * p = `falsePositiveRate`: the same chain as
   * `new ScalableBloomFilter({ capacity, falsePositiveRate, ...options })`.
   */
  static forCapacity(capacity: number, falsePositiveRate: number, options?: ScalableCapacityOptions): ScalableBloomFilter {
    return new ScalableBloomFilter(scalableCapacityOptions(capacity, falsePositiveRate, options));
  }

  /** Reads a chain written by toBytes (here or by the wasm chain), checking all of it as the wasm chain does. */
  static fromBytes(bytes: Uint8Array): ScalableBloomFilter {
    return new ScalableBloomFilter(restoreChain(bytes, REFERENCE_MEMBERS));
  }

  /**
   * Reads the JSON form that toJSON gives (the parsed object, or its JSON
   * text): the same filter, byte for byte, as fromBytes of its bytes. Throws
   * BloomTypeError naming `value`, `type` or `bytes`, BloomRangeError naming
   * `version`, and BloomFormatError for bad base64 or bad bytes.
   */
  static fromJSON(value: FilterJSON | string): ScalableBloomFilter {
    return ScalableBloomFilter.fromBytes(bytesFromJSON(value, 'ScalableBloomFilter'));
  }
}
