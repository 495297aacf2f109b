// The integer bitmap of seed 004, packed in WebAssembly memory: a set of
// integers in [0, size), one bit each. Its twin is src/reference/bitmap.ts;
// the wasm side is assembly/bitmap.ts.
//
// Each Bitmap owns one instance of the filter module, configured as a bit
// array instead of a filter. Single values are set and tested here, in a
// view of the wasm bits: a call into wasm costs more than one bit operation
// (measured: about 2x slower per single has), so only the loops over many
// values run in wasm. Batches and iteration go through the instance's
// scratch region in chunks, one call into wasm per chunk. The count is kept
// here, raised and lowered by single operations and by what setMany reports.

import { checkBitmapSize, checkValue, checkValues, invalidValue, type BitmapValues } from './values.js';
import { instantiate, type FilterExports } from '../wasm/engine.js';
import { BloomAllocationError } from '../errors.js';

/** A set of integers in [0, size), one bit each, in WebAssembly memory. */
export class Bitmap implements Iterable<number> {
  /** The number of representable values: members are integers in [0, size). */
  readonly size: number;
  /** The instance's exports. */
  private readonly x: FilterExports;
  /** The scratch region as u32: batches are copied in, iteration copies out. */
  private readonly scratchU32: Uint32Array;
  /** The same region as i32, so an Int32Array batch is a plain copy. */
  private readonly scratchI32: Int32Array;
  /** The same region as bytes: hasMany's answers follow the values. */
  private readonly scratchBytes: Uint8Array;
  /** Values per hasMany chunk: 4 bytes in, 1 byte out each, within the scratch. */
  private readonly hasChunk: number;
  /** The packed bits in wasm memory: value v is bit (v & 7) of byte v >> 3. */
  private readonly bits: Uint8Array;
  /** How many values are set. */
  private setCount = 0;

  /** An empty bitmap for integers in [0, size); size is at most 2^32. */
  constructor(size: number) {
    this.size = checkBitmapSize(size);
    const bytes = Math.ceil(this.size / 8);
    this.x = instantiate(this.size, bytes);
    if (this.x.bitmapConfigure(this.size) !== 0) throw new BloomAllocationError(this.size, bytes);
    // Memory grew once, in bitmapConfigure; it never grows again, so views
    // built now stay attached for the bitmap's life.
    const buffer = this.x.memory.buffer;
    const ptr = this.x.scratchPtr();
    const scratchSize = this.x.scratchSize();
    this.scratchU32 = new Uint32Array(buffer, ptr, scratchSize >> 2);
    this.scratchI32 = new Int32Array(buffer, ptr, scratchSize >> 2);
    this.scratchBytes = new Uint8Array(buffer, ptr, scratchSize);
    this.hasChunk = Math.floor(scratchSize / 5);
    this.bits = new Uint8Array(buffer, this.x.bitsPtr(), bytes);
  }

  /** Adds value; true when it was not already set. */
  set(value: number): boolean {
    const v = checkValue('value', value, this.size);
    // v < 2^32: the unsigned shift gives the byte index, v & 7 the bit.
    const byte = v >>> 3;
    const mask = 1 << (v & 7);
    if (this.bits[byte] & mask) return false;
    this.bits[byte] |= mask;
    this.setCount++;
    return true;
  }

  /** True when value is set. */
  has(value: number): boolean {
    const v = checkValue('value', value, this.size);
    return (this.bits[v >>> 3] & (1 << (v & 7))) !== 0;
  }

  /** Removes value; true when it was set. */
  clear(value: number): boolean {
    const v = checkValue('value', value, this.size);
    const byte = v >>> 3;
    const mask = 1 << (v & 7);
    if (!(this.bits[byte] & mask)) return false;
    this.bits[byte] &= ~mask;
    this.setCount--;
    return true;
  }

  /** Removes every value. */
  clearAll(): void {
    this.x.bitmapClearAll();
    this.setCount = 0;
  }

  /** How many values are set, in O(1). */
  count(): number {
    return this.setCount;
  }

  /**
   * Sets every value of the batch and returns how many were not set before.
   * The whole batch is checked first: a bad value throws and sets nothing.
   */
  setMany(values: BitmapValues): number {
    const batch = checkValues(values, this.size);
    const chunk = this.scratchU32.length;
    const n = batch.length;
    if (batch !== values) return this.setChecked(batch, chunk);
    for (let at = 0; at < n; at += chunk) {
      const len = this.stage(batch, at, Math.min(n, at + chunk));
      const bad = this.x.bitmapFirstInvalid(len, batch instanceof Int32Array ? 1 : 0);
      if (bad >= 0) throw invalidValue(batch, at + bad, this.size);
      // One chunk is still staged: set it now rather than copying it again.
      if (n <= chunk) return this.counted(this.x.bitmapSetMany(len));
    }
    return this.setChecked(batch, chunk);
  }

  /** For each value of the batch, 1 when it is set and 0 when not. A bad value throws. */
  hasMany(values: BitmapValues): Uint8Array {
    const batch = checkValues(values, this.size);
    const n = batch.length;
    const out = new Uint8Array(n);
    const chunk = this.hasChunk;
    const signed = batch instanceof Int32Array ? 1 : 0;
    for (let at = 0; at < n; at += chunk) {
      const len = this.stage(batch, at, Math.min(n, at + chunk));
      const bad = this.x.bitmapHasMany(len, signed);
      if (bad >= 0) throw invalidValue(batch, at + bad, this.size);
      out.set(this.scratchBytes.subarray(len * 4, len * 5), at);
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
    const max = this.scratchU32.length;
    let from = 0;
    for (;;) {
      const n = this.x.bitmapNextValues(from, max);
      if (n === 0) return;
      // Copied out: the caller may use this bitmap (and its scratch) between yields.
      const run = this.scratchU32.slice(0, n);
      for (let i = 0; i < n; i++) yield run[i];
      if (n < max) return;
      from = run[n - 1] + 1;
    }
  }

  /** Every set value, ascending, in one Uint32Array of count() entries. */
  toArray(): Uint32Array {
    const out = new Uint32Array(this.count());
    const max = this.scratchU32.length;
    let from = 0;
    for (let at = 0; at < out.length; ) {
      const n = this.x.bitmapNextValues(from, Math.min(max, out.length - at));
      if (n === 0) break;
      out.set(this.scratchU32.subarray(0, n), at);
      at += n;
      from = out[at - 1] + 1;
    }
    return out;
  }

  /** A copy of the packed bits: value v is bit (v & 7) of byte v >> 3. */
  bitArray(): Uint8Array {
    return this.bits.slice();
  }

  /** Copies batch[at, end) into scratch and returns its length. */
  private stage(batch: Int32Array | Uint32Array, at: number, end: number): number {
    if (batch instanceof Int32Array) this.scratchI32.set(batch.subarray(at, end));
    else this.scratchU32.set(batch.subarray(at, end));
    return end - at;
  }

  /** Sets an already checked batch, chunk by chunk. */
  private setChecked(batch: Int32Array | Uint32Array, chunk: number): number {
    let fresh = 0;
    for (let at = 0; at < batch.length; at += chunk) {
      fresh += this.x.bitmapSetMany(this.stage(batch, at, Math.min(batch.length, at + chunk)));
    }
    return this.counted(fresh);
  }

  /** Adds `fresh` newly set values to the count and returns it. */
  private counted(fresh: number): number {
    this.setCount += fresh;
    return fresh;
  }
}
