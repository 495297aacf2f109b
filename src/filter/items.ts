// The inputs of addMany/hasMany, checked and normalised in one place so the
// wasm filter and its reference twin accept and refuse exactly the same
// batches. Every item is checked before any is added: a bad batch changes
// no bits.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { bytesView, isBytes, isUint32s, uint32sView } from '../wasm/typed-arrays.js';

export type { BatchItems, CheckedBatch, Item, PackedItems } from '../wasm/inputs.js';
import type { CheckedBatch, Item, PackedItems } from '../wasm/inputs.js';

const ITEMS_ALLOWED = 'an array or iterable of strings and Uint8Arrays, or { bytes: Uint8Array, offsets }';

/** Checks a batch; throws BloomTypeError or BloomRangeError naming `items[i]` or `items.offsets[i]`. */
export function checkBatch(items: unknown): CheckedBatch {
  if (typeof items !== 'object' || items === null || isBytes(items)) {
    // A lone string or Uint8Array is iterable too, but as characters or numbers: refuse it.
    throw new BloomTypeError('items', items, ITEMS_ALLOWED);
  }
  // An array is read once, into a copy: its getters (or a Proxy's traps)
  // are the caller's code, which must not run again once the batch reaches
  // a filter's memory. An iterable's walk already makes a copy.
  if (Array.isArray(items)) return checkList(copyOf(items));
  if (typeof (items as Iterable<unknown>)[Symbol.iterator] === 'function') {
    return checkList(Array.from(items as Iterable<unknown>));
  }
  if ('bytes' in items || 'offsets' in items) return checkPacked(items as Partial<PackedItems>);
  throw new BloomTypeError('items', items, ITEMS_ALLOWED);
}

/**
 * A plain array with the elements of `list`, each read once: slice reads
 * every index once (a getter or a Proxy trap runs once), and copies a plain
 * array in one step, where a loop into new Array(n) makes a holey array
 * that the batch then walks again.
 */
function copyOf(list: readonly unknown[]): unknown[] {
  return Array.prototype.slice.call(list);
}

function checkList(list: readonly unknown[]): CheckedBatch {
  const bad = firstNonItem(list);
  if (bad >= 0) throw new BloomTypeError(`items[${bad}]`, list[bad], 'a string or a Uint8Array', bad);
  return { packed: false, list: list as readonly Item[], count: list.length };
}

/**
 * The index of the first element of `list` that is not an item, or -1.
 * The loop is a function of its own with nothing after it but a return:
 * V8 compiles a long first batch's loop on stack, and code after such a
 * loop, with no feedback yet, threw that code away at the end of every
 * later batch (src/wasm/batch.ts's stageList says more).
 */
function firstNonItem(list: readonly unknown[]): number {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item !== 'string' && !isBytes(item)) return i;
  }
  return -1;
}

function checkPacked(items: Partial<PackedItems>): CheckedBatch {
  const { bytes: given, offsets: givenOffsets } = items;
  if (!isBytes(given)) throw new BloomTypeError('items.bytes', given, 'a Uint8Array');
  if (!isUint32s(givenOffsets) && !Array.isArray(givenOffsets)) {
    throw new BloomTypeError('items.offsets', givenOffsets, 'a Uint32Array or an array of numbers');
  }
  // Plain views of the caller's typed arrays (src/wasm/typed-arrays.ts),
  // and an array of offsets read once, into a copy, as a list of items is:
  // nothing of the caller's runs once the batch reaches a filter's memory.
  const bytes = bytesView(given);
  const checked: Uint32Array | number[] = Array.isArray(givenOffsets) ? copyOf(givenOffsets) as number[] : uint32sView(givenOffsets);
  if (checked.length < 1) {
    throw new BloomRangeError('items.offsets.length', checked.length, 'at least 1 (n + 1 offsets for n items)');
  }
  let previous = 0;
  for (let i = 0; i < checked.length; i++) {
    const at = checked[i];
    if (typeof at !== 'number') {
      throw new BloomTypeError(`items.offsets[${i}]`, at, `an integer in [${previous}, ${bytes.length}]`);
    }
    if (!Number.isInteger(at) || at < previous || at > bytes.length) {
      throw new BloomRangeError(`items.offsets[${i}]`, at, `an integer in [${previous}, ${bytes.length}]`);
    }
    previous = at;
  }
  return { packed: true, bytes, offsets: checked, count: checked.length - 1 };
}

/** Item i of a checked batch (a subarray view for the packed form). */
export function batchItem(batch: CheckedBatch, i: number): Item {
  return batch.packed ? batch.bytes.subarray(batch.offsets[i], batch.offsets[i + 1]) : batch.list[i];
}

/** Items [start, start + count) of a checked batch, as a checked batch of their own (no copy of bytes). */
export function sliceBatch(batch: CheckedBatch, start: number, count: number): CheckedBatch {
  if (!batch.packed) return { packed: false, list: batch.list.slice(start, start + count), count };
  const { offsets } = batch;
  const part = offsets instanceof Uint32Array ? offsets.subarray(start, start + count + 1) : Array.prototype.slice.call(offsets, start, start + count + 1);
  return { packed: true, bytes: batch.bytes, offsets: part, count };
}
