// What dispose() leaves behind: an object whose every method and accessor
// throws BloomDisposedError naming the call. Rather than a check at the top
// of each method (a cost on every add and has, and one more line for every
// method to forget), the disposed object's prototype is swapped for one
// that inherits from its class's and shadows each method with a thrower:
// instanceof still holds, nothing before dispose() pays anything, and a
// method added later is covered without a line of its own. Used by the
// wasm classes and their reference twins alike.

import { BloomDisposedError } from '../errors.js';
import { checkBatch, type CheckedBatch } from './items.js';

/** The thrower prototype of each class prototype, made once. */
const disposedPrototypes = new WeakMap<object, object>();

/**
 * Names kept callable on a disposed object: dispose() twice is a no-op, the
 * constructor stays, and util.inspect's view (describe.ts's INSPECT) says
 * "disposed" rather than throw inside a console.log.
 */
const KEPT = new Set<PropertyKey>(['constructor', 'dispose', Symbol.for('nodejs.util.inspect.custom')]);
if (typeof Symbol.dispose === 'symbol') KEPT.add(Symbol.dispose);

function disposedPrototypeOf(proto: object, className: string): object {
  let disposed = disposedPrototypes.get(proto);
  if (disposed !== undefined) return disposed;
  disposed = Object.create(proto) as object;
  const seen = new Set<PropertyKey>();
  for (let p: object | null = proto; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const key of Reflect.ownKeys(p)) {
      if (KEPT.has(key) || seen.has(key)) continue;
      seen.add(key);
      const descriptor = Object.getOwnPropertyDescriptor(p, key)!;
      const call = `${className}.${typeof key === 'symbol' ? `[${key.description ?? 'symbol'}]` : key}`;
      const thrower = (): never => {
        throw new BloomDisposedError(call);
      };
      if (typeof descriptor.value === 'function') {
        Object.defineProperty(disposed, key, { value: thrower, configurable: true, writable: true });
      } else if (descriptor.get !== undefined || descriptor.set !== undefined) {
        Object.defineProperty(disposed, key, { get: thrower, set: thrower, configurable: true });
      }
    }
  }
  disposedPrototypes.set(proto, disposed);
  return disposed;
}

/**
 * Marks `target` disposed: from now on every method and accessor of its
 * class throws BloomDisposedError naming `className.method`; dispose()
 * itself stays a no-op.
 */
export function markDisposed(target: object, className: string): void {
  if (isDisposed(target)) return;
  Object.setPrototypeOf(target, disposedPrototypeOf(Object.getPrototypeOf(target) as object, className));
}

/** Whether `target` was disposed. @internal */
export function isDisposed(target: object): boolean {
  const proto = Object.getPrototypeOf(target) as object | null;
  if (proto === null) return false;
  const parent = Object.getPrototypeOf(proto) as object | null;
  return parent !== null && disposedPrototypes.get(parent) === proto;
}

/**
 * checkBatch(items) for a call on `target`: the walk of an iterable (or an
 * array's getters) is the caller's code, which may dispose `target`; then
 * BloomDisposedError naming `call` is thrown before anything reaches the
 * filter's memory. The checked batch holds only strings and Uint8Arrays,
 * so nothing of the caller's runs after this returns.
 */
export function checkBatchOf(target: object, call: string, items: unknown): CheckedBatch {
  const batch = checkBatch(items);
  if (isDisposed(target)) throw new BloomDisposedError(call);
  return batch;
}

/** Throws BloomDisposedError naming `call` and `filters[i]` for the first disposed filter of `filters`. */
export function checkNoneDisposed(call: string, filters: readonly unknown[]): void {
  for (let i = 0; i < filters.length; i++) {
    const f = filters[i];
    if (typeof f === 'object' && f !== null && isDisposed(f)) throw new BloomDisposedError(call, `filters[${i}]`);
  }
}
