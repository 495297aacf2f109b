// A caller's typed array read the way the language's own built-ins read it.
//
// A Uint8Array subclass may define `length`, `byteOffset` or `buffer` as
// getters, and `subarray` builds its result through `Symbol.species`: all of
// it is the caller's code, which may call into this package while one of its
// calls is half done (use another filter, dispose one, make one that grows
// the memory). %TypedArray%.prototype.set reads a typed array's internal
// slots and never its properties; so do the accessors below, captured from
// %TypedArray%.prototype once, when this module loads. Every item, key and
// file the package takes is read through them, once, before any wasm state
// is touched.

/** %TypedArray%.prototype, shared by every typed array class. */
import { BloomTypeError } from '../errors.js';

/** %TypedArray%.prototype, shared by every typed array class. */
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;

function intrinsicGetter(key: PropertyKey): (this: unknown) => unknown {
  return Object.getOwnPropertyDescriptor(TypedArrayPrototype, key)!.get! as (this: unknown) => unknown;
}

const lengthGetter = intrinsicGetter('length') as (this: ArrayBufferView) => number;
const byteOffsetGetter = intrinsicGetter('byteOffset') as (this: ArrayBufferView) => number;
const bufferGetter = intrinsicGetter('buffer') as (this: ArrayBufferView) => ArrayBufferLike;
// Answers the [[TypedArrayName]] slot, and undefined for anything else
// (a Proxy of a typed array included), with no trap or getter run.
const tagGetter = intrinsicGetter(Symbol.toStringTag);

/** Whether `value` is a Uint8Array or an instance of a subclass of it (its internal slot says so). */
export function isBytes(value: unknown): value is Uint8Array {
  return tagGetter.call(value) === 'Uint8Array';
}

/** Whether `value` is a BigUint64Array or an instance of a subclass of it. */
export function isBigUint64s(value: unknown): value is BigUint64Array {
  return tagGetter.call(value) === 'BigUint64Array';
}

/** Whether `value` is a Uint32Array or an instance of a subclass of it. */
export function isUint32s(value: unknown): value is Uint32Array {
  return tagGetter.call(value) === 'Uint32Array';
}

/** Whether `value` is an Int32Array or an instance of a subclass of it. */
export function isInt32s(value: unknown): value is Int32Array {
  return tagGetter.call(value) === 'Int32Array';
}

/** Elements of a typed array, from its internal slot (never its own `length`). */
export function lengthOf(array: ArrayBufferView): number {
  return lengthGetter.call(array);
}

/**
 * A plain Uint8Array over elements [start, end) of `bytes` (all of it by
 * default): the same memory, no copy, and none of the caller's getters or
 * species on the way.
 */
export function bytesView(bytes: Uint8Array, start = 0, end = lengthGetter.call(bytes)): Uint8Array {
  return new Uint8Array(bufferGetter.call(bytes), byteOffsetGetter.call(bytes) + start, end - start);
}

/** A plain Uint32Array over all of `array`'s elements. */
export function uint32sView(array: Uint32Array): Uint32Array {
  return new Uint32Array(bufferGetter.call(array), byteOffsetGetter.call(array), lengthGetter.call(array));
}

/** A plain Int32Array over all of `array`'s elements. */
export function int32sView(array: Int32Array): Int32Array {
  return new Int32Array(bufferGetter.call(array), byteOffsetGetter.call(array), lengthGetter.call(array));
}

/** A plain BigUint64Array over all of `keys`'s elements. */
export function bigUint64sView(keys: BigUint64Array): BigUint64Array {
  return new BigUint64Array(bufferGetter.call(keys), byteOffsetGetter.call(keys), lengthGetter.call(keys));
}

/**
 * A file's bytes as given to a fromBytes: a plain view of them, or
 * BloomTypeError naming `name` when `value` is not a Uint8Array.
 */
export function checkBytes(value: unknown, name = 'bytes'): Uint8Array {
  if (!isBytes(value)) throw new BloomTypeError(name, value, 'a Uint8Array');
  return bytesView(value);
}
