/**
 * bloomwasm/core: the lean BloomFilter, for a bundle that only makes
 * filters, adds, asks and disposes (README, "The lean bundle"). Its wasm is
 * the lean build (assembly/core.ts), unless the full entry is imported too,
 * in which case every new filter uses the full build. The lean class's own
 * module (src/filter/core-filter.ts) offers the lean build.
 */

export { BloomFilter } from './filter/core-filter.js';
export { probeAll } from './filter/digest.js';
export {
  BloomDigestError, BloomDisposedError, BloomMismatchError, BloomRangeError, BloomTypeError, BloomAllocationError,
} from './errors.js';
export type { BatchItems, Item, PackedItems } from './filter/items.js';
export type { FilterOptions, Scheme } from './filter/options.js';
