// The items of BloomFilter.from: an array or a Set, whose count sizes the
// filter before any item is added, so the count must be known up front (an
// iterator's is not). The collection is the caller's code as much as its
// data: an array may be a Proxy or have a getter on `length`, and a Set
// subclass may override `size` and its iterator. Each is read once,
// through the built-ins' own accessors, into a plain array whose length
// is then the count: the count and the items cannot disagree.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import type { Item } from './items.js';

const ALLOWED = 'an array or a Set of strings and Uint8Arrays (an iterator has no count to size the filter by)';

/** Set.prototype.size's getter: reads a Set's internal slot (never an override), and throws for anything but a Set. */
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size')!.get! as (this: unknown) => number;
/** Set.prototype.values: the intrinsic iterator, whatever a subclass defines. */
const setValues = Set.prototype.values as (this: unknown) => IterableIterator<unknown>;

/** Whether `value` has a Set's internal slot (a Set, a subclass's instance, or one from another realm). */
export function isSet(value: unknown): boolean {
  try {
    setSize.call(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The items of `items`, an array or a Set, each read once into a plain
 * array (an array's length and every index read once, as slice reads them;
 * a Set's values through the intrinsic iterator). Throws BloomTypeError
 * naming `items` for anything else, and BloomRangeError naming
 * `items.length` or `items.size` when it is empty: forCapacity sizes for a
 * positive capacity. The elements are checked by addMany.
 */
export function sizedItems(items: unknown): unknown[] {
  const isArray = Array.isArray(items);
  if (!isArray && !isSet(items)) throw new BloomTypeError('items', items, ALLOWED);
  const list = isArray ? Array.prototype.slice.call(items) as unknown[] : Array.from(setValues.call(items));
  if (list.length === 0) {
    throw new BloomRangeError(isArray ? 'items.length' : 'items.size', 0, 'at least 1 (forCapacity sizes for a positive capacity)');
  }
  return list;
}

/**
 * BloomFilter.from's body, for both twins: `make(n)` sizes a filter for the
 * n items of `items` (read once, as sizedItems reads them), which then
 * takes them all in one addMany; a bad item disposes it, so nothing is
 * kept.
 */
export function filledFrom<F extends { addMany(items: readonly Item[]): unknown; dispose(): void }>(items: unknown, make: (n: number) => F): F {
  const list = sizedItems(items) as Item[];
  const filter = make(list.length);
  try {
    filter.addMany(list);
  } catch (error) {
    filter.dispose();
    throw error;
  }
  return filter;
}

/** The collections BloomFilter.from takes. */
export type SizedItems = readonly Item[] | ReadonlySet<Item>;
