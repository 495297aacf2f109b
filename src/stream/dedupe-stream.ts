// dedupeStream(filter): a web TransformStream that passes on each item the
// first time the filter sees it, for items that arrive as a stream (URLs
// from a crawl frontier, lines from a socket). It imports no filter class:
// it takes any object whose add(item) says whether the item was new
// (BloomFilter, ScalableBloomFilter, CountingBloomFilter, SlidingBloomFilter,
// and the Redis filters, whose add answers a promise), or whose
// addIfAbsent(item) does (CuckooFilter, whose add stores one more copy and
// always says true). A user who never imports it carries none of it.

import { BloomTypeError } from '../errors.js';
import { isBytes } from '../wasm/typed-arrays.js';
import { checkInteger } from '../filter/options.js';
import { readOption } from '../filter/read-options.js';
import { isSet } from '../filter/sized-items.js';

/** An item as every filter takes it: a string (hashed as UTF-8) or bytes. */
type Item = string | Uint8Array;

/** A filter dedupeStream can use: its add(item) (or addIfAbsent(item), which is preferred) answers whether the item was new. */
export type DedupeFilter =
  | { add(item: Item): boolean | PromiseLike<boolean>; has(item: Item): unknown }
  | { addIfAbsent(item: Item): boolean | PromiseLike<boolean>; has(item: Item): unknown };

/** The options of dedupeStream. */
export interface DedupeStreamOptions {
  /** Items each side may hold before the other waits: 16 unless given, an integer in [1, 2^20]. */
  highWaterMark?: number;
}

/** The highWaterMark that dedupeStream uses unless told: 16 items each side. */
export const DEDUPE_HIGH_WATER_MARK = 16;
const MAX_HIGH_WATER_MARK = 2 ** 20;

const FILTER_ALLOWED = 'a filter whose add(item) or addIfAbsent(item) says whether the item was new (a BloomFilter, a CuckooFilter; not a Set)';

/**
 * A TransformStream of strings or Uint8Arrays that passes on only the items
 * `filter` had not seen, adding each, in order. Each side holds at most
 * `highWaterMark` items (16), so a consumer that stops reading stops the
 * producer. A chunk that is neither a string nor a Uint8Array errors the
 * stream with BloomTypeError naming `chunks[i]`, its index; an error thrown
 * by the filter errors it too.
 */
export function dedupeStream<T extends Item = Item>(filter: DedupeFilter, options?: DedupeStreamOptions): TransformStream<T, T> {
  const { method, addNew } = newItemAdder(filter);
  const highWaterMark = readHighWaterMark(options);
  let index = 0;
  const pass = (chunk: T, isNew: unknown, at: number, controller: TransformStreamDefaultController<T>): void => {
    if (typeof isNew !== 'boolean') {
      throw new BloomTypeError(`filter.${method}(chunks[${at}])`, isNew, 'a boolean (whether the item was new)', at);
    }
    if (isNew) controller.enqueue(chunk);
  };
  return new TransformStream<T, T>(
    {
      transform(chunk, controller): void | Promise<void> {
        const at = index++;
        if (typeof chunk !== 'string' && !isBytes(chunk)) {
          throw new BloomTypeError(`chunks[${at}]`, chunk, 'a string or a Uint8Array', at);
        }
        const isNew = addNew(chunk);
        // A Redis filter's answer is a promise: the next chunk waits for it, so the order holds.
        if (typeof isNew !== 'boolean') return Promise.resolve(isNew).then((answer) => pass(chunk, answer, at, controller));
        pass(chunk, isNew, at, controller);
      },
    },
    { highWaterMark },
    { highWaterMark },
  );
}

/**
 * The filter's "add, and say whether it was new", read once: a later change
 * to the object's methods does not redirect a running stream. addIfAbsent
 * comes first, since an object with both (CuckooFilter) has it because its
 * add does not answer that. Throws BloomTypeError naming `filter` for an
 * object with neither, for one without has (SeenFilter, whose add answers
 * nothing), and for a Set (whose add answers the set).
 */
function newItemAdder(filter: unknown): { method: 'add' | 'addIfAbsent'; addNew: (item: Item) => unknown } {
  const target = (filter ?? {}) as Record<string, unknown>;
  const addIfAbsent = target.addIfAbsent;
  const method = typeof addIfAbsent === 'function' ? 'addIfAbsent' : 'add';
  const add = method === 'addIfAbsent' ? addIfAbsent : target.add;
  if (typeof add !== 'function' || typeof target.has !== 'function' || isSet(filter)) throw new BloomTypeError('filter', filter, FILTER_ALLOWED);
  return { method, addNew: (item) => Reflect.apply(add, filter, [item]) };
}

function readHighWaterMark(options: DedupeStreamOptions | undefined): number {
  const value = readOption(options, 'highWaterMark', 'an object or undefined');
  return value === undefined ? DEDUPE_HIGH_WATER_MARK : checkInteger('options.highWaterMark', value, 1, MAX_HIGH_WATER_MARK);
}
