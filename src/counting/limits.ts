// Constants shared by the wasm counting filter and its reference twin.

import { BloomTypeError } from '../errors.js';
import { MAX_BITS, readFilterOptions, type FilterOptionRecord, type FilterOptions } from '../filter/options.js';

/** The largest counter value: a counter that reaches it is saturated and never changes again. */
export const COUNTER_MAX = 15;

/**
 * The most counters a counting filter may have: its ceil(m / 2) bytes of
 * counters must fit where a plain filter's ceil(m / 8) bytes of bits do.
 */
export const MAX_COUNTING_BITS = MAX_BITS / 4;

/** The operations of assembly/counting.ts's countingItem, countingStream and countingDigest. */
export const OP_ADD = 0;
export const OP_HAS = 1;
export const OP_REMOVE = 2;
export const OP_COUNT = 3;

/**
 * Throws unless `options.shared` is false or absent: a counting filter has
 * no shared form (a counter changes by read-modify-write of a nibble, and
 * there is no share() or attach() for it), so `{ shared: true }` is refused
 * rather than ignored.
 */
export function checkNotShared(options: FilterOptions | FilterOptionRecord | undefined): void {
  const shared = readFilterOptions(options).shared;
  if (shared !== undefined && shared !== false) {
    throw new BloomTypeError('shared', shared, 'false or absent: a CountingBloomFilter cannot be shared between threads');
  }
}
