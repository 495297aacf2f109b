// The integer bitmap of the bitmap article (crawler URL dedup), packed in WebAssembly memory: a set of
// integers in [0, bits), one bit each. Its twin is src/reference/bitmap.ts;
// the wasm side is assembly/bitmap.ts.
//
// Each Bitmap is a record of the bitmap kind in a shared arena
// (src/wasm/bitmap.ts): a bit array instead of a filter. Single values are
// set and tested here, in a view of the wasm bits, because a call into wasm
// costs more than the one bit operation; only the loops over many values
// run in wasm. Batches and iteration go through the instance's scratch
// region in chunks, one call into wasm per chunk. The count is kept here,
// raised and lowered by single operations and by what setMany reports.

import { checkBitmapBits, checkValue, checkValues, clearWithValue, invalidValue, type BitmapValues } from './values.js';
import { BitmapEngine } from '../wasm/bitmap.js';
import { markDisposed } from '../filter/dispose.js';
import { BloomDisposedError } from '../errors.js';
import { INSPECT, inspectLine } from '../filter/describe.js';

let engineOfBitmap: (bitmap: Bitmap) => BitmapEngine;

/** The handle of `bitmap`, for the heap's tests. @internal */
export function bitmapEngineOf(bitmap: Bitmap): BitmapEngine {
  return engineOfBitmap(bitmap);
}

/** A set of integers in [0, bits), one bit each, in WebAssembly memory. */
export class Bitmap implements Iterable<number> {
  /** m, the number of representable values: members are integers in [0, bits). */
  readonly bits: number;
  /**
   * The handle and its views (src/wasm/bitmap.ts): private to the language,
   * not only to TypeScript, since a view of wasm memory kept by a caller
   * past dispose() would write into whatever takes the region next.
   */
  readonly #engine: BitmapEngine;
  /** How many values are set. */
  private setCount = 0;

  static {
    engineOfBitmap = (bitmap) => bitmap.#engine;
  }

  /** An empty bitmap for integers in [0, bits); bits is at most 2^32. */
  constructor(bits: number) {
    this.bits = checkBitmapBits(bits);
    this.#engine = new BitmapEngine(this.bits);
  }

  /**
   * Gives the memory back at once; any later call throws BloomDisposedError
   * naming it. Calling it again does nothing.
   */
  dispose(): void {
    this.#engine.release();
    markDisposed(this, 'Bitmap');
  }

  /** dispose(), for `using` (TC39 explicit resource management). */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** One line for util.inspect and console.log: `Bitmap { bits: 1000, size: 10 }`. */
  [INSPECT](): string {
    return inspectLine(this, 'Bitmap', () => ({ bits: this.bits, size: this.size }));
  }

  /**
   * The packed bits in wasm memory: value v is bit (v & 7) of byte v >> 3.
   * The engine's view, asked for each time: another filter's growth of the
   * shared memory detaches the old one.
   */
  get #bits(): Uint8Array {
    return this.#engine.bits;
  }

  /** Adds value; true when it was not already set. */
  set(value: number): boolean {
    const v = checkValue('value', value, this.bits);
    // v < 2^32: the unsigned shift gives the byte index, v & 7 the bit.
    const byte = v >>> 3;
    const mask = 1 << (v & 7);
    if (this.#bits[byte] & mask) return false;
    this.#bits[byte] |= mask;
    this.setCount++;
    return true;
  }

  /** True when value is set. */
  has(value: number): boolean {
    const v = checkValue('value', value, this.bits);
    return (this.#bits[v >>> 3] & (1 << (v & 7))) !== 0;
  }

  /** Removes value, as Set.prototype.delete does; true when it was set. */
  delete(value: number): boolean {
    const v = checkValue('value', value, this.bits);
    const byte = v >>> 3;
    const mask = 1 << (v & 7);
    if (!(this.#bits[byte] & mask)) return false;
    this.#bits[byte] &= ~mask;
    this.setCount--;
    return true;
  }

  /**
   * Removes every value, as Set.prototype.clear does. It takes no argument:
   * given one (the old spelling of delete), it throws BloomTypeError naming
   * delete rather than empty the bitmap.
   */
  clear(): void {
    if (arguments.length > 0) throw clearWithValue(arguments[0]);
    this.#engine.clearAll();
    this.setCount = 0;
  }

  /** How many values are set, as Set.prototype.size counts them, in O(1). */
  get size(): number {
    return this.setCount;
  }

  /**
   * Sets every value of the batch and returns how many were not set before.
   * The whole batch is checked first: a bad value throws and sets nothing.
   */
  setMany(values: BitmapValues): number {
    const batch = checkValues(values, this.bits);
    const engine = this.#engine;
    const chunk = engine.chunk;
    const n = batch.length;
    // An array of numbers was range-checked by checkValues; a typed array is checked here, a chunk at a time, in wasm.
    if (Array.isArray(values)) return this.setChecked(batch, chunk);
    for (let at = 0; at < n; at += chunk) {
      const len = engine.stage(batch, at, Math.min(n, at + chunk));
      const bad = engine.firstInvalid(len, batch instanceof Int32Array);
      if (bad >= 0) throw invalidValue(batch, at + bad, this.bits);
      // One chunk is still staged: set it now rather than copying it again.
      if (n <= chunk) return this.counted(engine.setMany(len));
    }
    return this.setChecked(batch, chunk);
  }

  /** For each value of the batch, 1 when it is set and 0 when not. A bad value throws. */
  hasMany(values: BitmapValues): Uint8Array {
    const batch = checkValues(values, this.bits);
    const n = batch.length;
    const out = new Uint8Array(n);
    const engine = this.#engine;
    const chunk = engine.hasChunk;
    const signed = batch instanceof Int32Array;
    for (let at = 0; at < n; at += chunk) {
      const len = engine.stage(batch, at, Math.min(n, at + chunk));
      const bad = engine.hasMany(len, signed);
      if (bad >= 0) throw invalidValue(batch, at + bad, this.bits);
      out.set(engine.hasResults(len), at);
    }
    return out;
  }

  /** The set values in ascending order (the article's bitmap sort). */
  [Symbol.iterator](): IterableIterator<number> {
    return this.values();
  }

  /**
   * The set values in ascending order. Values are fetched from wasm a chunk
   * at a time, so a value set or cleared during the iteration is seen only
   * when it lies beyond the chunk being read.
   */
  *values(): IterableIterator<number> {
    const engine = this.#engine;
    const max = engine.chunk;
    let from = 0;
    for (;;) {
      // The caller runs between yields, and may have disposed the bitmap:
      // resumed after that, the iterator throws, as every call on it does.
      if (!engine.live) throw new BloomDisposedError('Bitmap.values');
      // Copied out: the caller may use this bitmap (and its scratch) between yields.
      const run = engine.nextValues(from, max).slice();
      const n = run.length;
      if (n === 0) return;
      for (let i = 0; i < n; i++) {
        if (!engine.live) throw new BloomDisposedError('Bitmap.values');
        yield run[i];
      }
      if (n < max) return;
      from = run[n - 1] + 1;
    }
  }

  /** Every set value, ascending, in one Uint32Array of `size` entries. */
  toArray(): Uint32Array {
    const out = new Uint32Array(this.size);
    const max = this.#engine.chunk;
    let from = 0;
    for (let at = 0; at < out.length; ) {
      const run = this.#engine.nextValues(from, Math.min(max, out.length - at));
      const n = run.length;
      if (n === 0) break;
      out.set(run, at);
      at += n;
      from = out[at - 1] + 1;
    }
    return out;
  }

  /** A copy of the packed bits: value v is bit (v & 7) of byte v >> 3. */
  bitArray(): Uint8Array {
    return this.#bits.slice();
  }

  /** Sets an already checked batch, chunk by chunk. */
  private setChecked(batch: Int32Array | Uint32Array, chunk: number): number {
    let fresh = 0;
    for (let at = 0; at < batch.length; at += chunk) {
      fresh += this.#engine.setMany(this.#engine.stage(batch, at, Math.min(batch.length, at + chunk)));
    }
    return this.counted(fresh);
  }

  /** Adds `fresh` newly set values to the count and returns it. */
  private counted(fresh: number): number {
    this.setCount += fresh;
    return fresh;
  }
}
