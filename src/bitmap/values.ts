// Argument checks for the Bitmap (the bitmap article's set of integers), shared by the wasm Bitmap and
// its reference twin so that both refuse exactly the same inputs with the
// same messages.

import { int32sView, isInt32s, isUint32s, uint32sView } from '../wasm/typed-arrays.js';
import { BloomRangeError, BloomTypeError } from '../errors.js';
import { checkInteger } from '../filter/options.js';

/** The most bits a bitmap has: values are u32, so [0, 2^32) (512 MiB of bits). */
export const MAX_BITMAP_BITS = 2 ** 32;

/** A batch of values: a typed array (copied into wasm as is) or an array of numbers. */
export type BitmapValues = Int32Array | Uint32Array | readonly number[];

/** Checks the constructor's bits: an integer in [1, 2^32]. */
export function checkBitmapBits(bits: unknown): number {
  return checkInteger('bits', bits, 1, MAX_BITMAP_BITS);
}

/** What a value must be, for error messages. */
export function valueRange(size: number): string {
  return `an integer in [0, ${size - 1}]`;
}

/** Checks one value: a number that is an integer in [0, size); `index` is its place in a batch. */
export function checkValue(parameter: string, value: unknown, size: number, index?: number): number {
  if (typeof value !== 'number') throw new BloomTypeError(parameter, value, valueRange(size), index);
  if (!Number.isInteger(value) || value < 0 || value >= size) {
    throw new BloomRangeError(parameter, value, valueRange(size), index);
  }
  return value;
}

/**
 * Checks a batch's container. Typed arrays hold integers by construction
 * and are range-checked later (in wasm, or by the twin); an array of
 * numbers is checked element by element here and returned as a Uint32Array.
 */
export function checkValues(values: unknown, size: number): Int32Array | Uint32Array {
  // Plain views of a typed array (src/wasm/typed-arrays.ts): its getters
  // and species are the caller's code, which must not run mid-batch.
  if (isInt32s(values)) return int32sView(values);
  if (isUint32s(values)) return uint32sView(values);
  if (!Array.isArray(values)) {
    throw new BloomTypeError('values', values, 'an Int32Array, a Uint32Array or an array of numbers');
  }
  // Read once, into a copy: a Proxy's traps are the caller's code.
  const list = Array.prototype.slice.call(values) as unknown[];
  const out = new Uint32Array(list.length);
  for (let i = 0; i < list.length; i++) out[i] = checkValue(`values[${i}]`, list[i], size, i);
  return out;
}

/** The error for element i of a typed-array batch, which lies outside [0, size). */
export function invalidValue(values: Int32Array | Uint32Array, i: number, size: number): BloomRangeError {
  return new BloomRangeError(`values[${i}]`, values[i], valueRange(size), i);
}

/** The error of clear() given a value: clear empties the bitmap, and delete(value) removes one value. */
export function clearWithValue(value: unknown): BloomTypeError {
  return new BloomTypeError('value', value, 'absent: clear() empties the bitmap; to remove one value, call delete(value)');
}
