// The wasm SlidingBloomFilter: the filter of src/sliding/sliding-over.ts over
// a record of the sliding kind (src/wasm/sliding.ts, assembly/sliding.ts).
// Its twin is src/reference/sliding.ts; the parity tests hold them together.

import { bytesChecksum } from '../wasm/checksum.js';
import { SlidingEngine } from '../wasm/sliding.js';
import { restoreSliding, SlidingBloomFilterOver, type SlidingKind } from './sliding-over.js';
import { slidingCapacityOptions, type SlidingCapacityOptions, type SlidingOptions } from './shape.js';
import { bytesFromJSON, type FilterJSON } from '../format/json.js';

/** The words in a wasm record; checksums computed in wasm. */
const WASM_WORDS: SlidingKind = {
  name: 'SlidingBloomFilter',
  create: (shape, seed) => new SlidingEngine({ bits: shape.bits, hashes: shape.hashes, seed, wordBytes: shape.generations === 8 ? 1 : 2 }),
  checksum: (header, payload) => bytesChecksum(header, payload),
};

/**
 * A Bloom filter that remembers the last `window` adds, or the adds of the
 * last `windowMs` milliseconds, in WebAssembly (docs/SLIDING.md).
 */
export class SlidingBloomFilter extends SlidingBloomFilterOver {
  /**
   * `{ window, falsePositiveRate }` remembers the last `window` adds;
   * `{ windowMs, capacity, falsePositiveRate, clock? }` the adds of the last
   * `windowMs` ms, for up to `capacity` adds in any window (`clock`
   * defaults to Date.now). Throws BloomRangeError or BloomTypeError naming
   * the option at fault, before anything is allocated.
   */
  constructor(options: SlidingOptions) {
    super(options, WASM_WORDS);
  }

  /**
   * A window of n = `capacity` adds at rate p = `falsePositiveRate`: the
   * last n adds, or with `{ windowMs }` the adds of the last `windowMs` ms
   * for up to n adds in any window. The same filter as the constructor's
   * `{ window: n, falsePositiveRate }` or `{ windowMs, capacity: n, falsePositiveRate, clock }`.
   */
  static forCapacity(capacity: number, falsePositiveRate: number, options?: SlidingCapacityOptions): SlidingBloomFilter {
    return new SlidingBloomFilter(slidingCapacityOptions(capacity, falsePositiveRate, options));
  }

  /**
   * Reads a filter written by toBytes (here or by the reference twin). The
   * whole input is checked (header, length, checksum, empty planes) before
   * the filter is allocated; any fault throws BloomFormatError naming the
   * field and its byte offset. A time window reads `clock` (default
   * Date.now) from here on.
   */
  static fromBytes(bytes: Uint8Array, options?: { clock?: () => number }): SlidingBloomFilter {
    return new SlidingBloomFilter(restoreSliding(bytes, options, WASM_WORDS));
  }

  /**
   * Reads the JSON form that toJSON gives (the parsed object, or its JSON
   * text): the same filter, byte for byte, as fromBytes of its bytes. Throws
   * BloomTypeError naming `value`, `type` or `bytes`, BloomRangeError naming
   * `version`, and BloomFormatError for bad base64 or bad bytes.
   */
  static fromJSON(value: FilterJSON | string, options?: { clock?: () => number }): SlidingBloomFilter {
    return SlidingBloomFilter.fromBytes(bytesFromJSON(value, 'SlidingBloomFilter'), options);
  }
}
