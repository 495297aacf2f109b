/**
 * bloomwasm/reference: the pure-TypeScript twin of bloomwasm, with the same
 * surface and the same bits. Written for a reader checking the specs.
 */
import { SeenFilterOver } from '../filter/seen-filter.js';
import { BloomFilter } from './filter.js';

export { BloomFilter };
export {
  BloomAllocationError, BloomConcurrencyError, BloomDigestError, BloomFormatError, BloomMismatchError, BloomRangeError,
  BloomDisposedError, BloomFullError, BloomNotLoadedError, BloomRemoveError, BloomTypeError,
} from '../errors.js';
export { FORMAT_VERSION } from '../format/filter.js';
export type { SharedFilterHandle } from './shared.js';
export type { BatchItems, Item, PackedItems } from '../filter/items.js';
export type { SizedItems } from '../filter/sized-items.js';
export { MAX_BITS, MAX_HASHES, MAX_SHARDS, SCHEMES, type FilterOptions, type Scheme } from '../filter/options.js';
export {
  falsePositiveRate, minimumBits, optimalBits, optimalHashes, sbbfFalsePositiveRate, sbbfOptimalBits,
} from '../filter/sizing.js';
export { Bitmap } from './bitmap.js';
export { MAX_BITMAP_BITS, type BitmapValues } from '../bitmap/values.js';
export { ScalableBloomFilter } from './scalable.js';
export { CountingBloomFilter } from './counting.js';
export { digest, probeAll } from './digest.js';
export { COUNTER_MAX, MAX_COUNTING_BITS } from '../counting/limits.js';
export { COUNTING_FORMAT_VERSION } from '../format/counting.js';
export { Digest, DIGEST_SCHEMES, type DigestOptions, type ProbeTarget } from '../filter/item-digest.js';
export { CHAIN_VERSION } from '../format/chain.js';
export { MAX_FILTER_COUNT, MAX_GROWTH, type ScalableCapacityOptions, type ScalableMember, type ScalableOptions } from '../scalable/plan.js';
export { SlidingBloomFilter } from './sliding.js';
export type { SlidingCapacityOptions, SlidingOptions, SlidingShape } from '../sliding/shape.js';
export { SLIDING_FORMAT_VERSION } from '../format/sliding.js';
export { CuckooFilter } from './cuckoo.js';
export { BUCKET_SIZES, MAX_CUCKOO_GROWTH, MAX_CUCKOO_MEMBERS, type CuckooOptions } from '../cuckoo/shape.js';
export type { CuckooMember } from '../cuckoo/cuckoo-over.js';
export { CUCKOO_FORMAT_VERSION } from '../format/cuckoo.js';
export { BinaryFuseFilter } from './binary-fuse.js';
export { FUSE_FORMAT_VERSION } from '../format/binary-fuse.js';
export type { FuseOptions } from '../fuse/options.js';
export { BloomBuildError } from '../errors.js';
export { dedupeStream, type DedupeFilter, type DedupeStreamOptions } from '../stream/dedupe-stream.js';
export { fromBytes, type FileFilter, type FileFilterClass } from './from-bytes.js';
export type { FromBytesOptions } from '../kinds/read-any.js';
export { JSON_FORMAT_VERSION, type FilterJSON } from '../format/json.js';

/** The SeenFilter exercise's SeenFilter(m, k): m bits, k positions (h1 + i*h2) mod m over the `poly` hashes, in plain TypeScript. */
export class SeenFilter extends SeenFilterOver {
  /** An empty filter of m bits and k positions per URL. */
  constructor(m: number, k: number) {
    super(new BloomFilter(m, k, { scheme: 'poly' }));
  }
}

/**
 * The twin of bloomwasm's loadSharedMemory(), which loads the shared-memory
 * wasm build on first use: the reference's shared filters need nothing
 * loaded, so it resolves at once. Code written for either entry calls it
 * the same way.
 */
export function loadSharedMemory(): Promise<void> {
  return Promise.resolve();
}
