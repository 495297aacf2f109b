// The reference twin of src/bitmap/bitmap.ts (wasm side: assembly/bitmap.ts): the
// integer bitmap of the bitmap article in plain TypeScript, with the same surface and
// the same bits. Value v is bit (v & 7) of byte v >> 3, as in the article's
// BitMap (which packs 16 per char) and as in the filter's bit array.

import { checkBitmapBits, checkValue, checkValues, clearWithValue, invalidValue, type BitmapValues } from '../bitmap/values.js';
import { isDisposed, markDisposed } from '../filter/dispose.js';
import { BloomDisposedError } from '../errors.js';
import { INSPECT, inspectLine } from '../filter/describe.js';

/** A set of integers in [0, bits), one bit each, in plain TypeScript. */
export class Bitmap implements Iterable<number> {
  /** m, the number of representable values: members are integers in [0, bits). */
  readonly bits: number;
  /** The packed bits. */
  private readonly bytes: Uint8Array;
  /** How many values are set, kept on every change so size is O(1). */
  private setCount = 0;

  /** An empty bitmap for integers in [0, bits); bits is at most 2^32. */
  constructor(bits: number) {
    this.bits = checkBitmapBits(bits);
    this.bytes = new Uint8Array(Math.ceil(this.bits / 8));
  }

  /**
   * Gives the memory back at once; any later call throws BloomDisposedError
   * naming it. Calling it again does nothing.
   * The twin holds no wasm memory: this only marks it disposed, so that it
   * refuses later calls exactly as the wasm class does.
   */
  dispose(): void {
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

  /** Adds value; true when it was not already set. */
  set(value: number): boolean {
    return this.bitmapSet(checkValue('value', value, this.bits));
  }

  /** True when value is set. */
  has(value: number): boolean {
    return this.bitmapHas(checkValue('value', value, this.bits));
  }

  /** Removes value, as Set.prototype.delete does; true when it was set. */
  delete(value: number): boolean {
    const v = checkValue('value', value, this.bits);
    if (!this.bitmapHas(v)) return false;
    this.bytes[Math.floor(v / 8)] &= ~(1 << v % 8);
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
    this.bytes.fill(0);
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
    for (let i = 0; i < batch.length; i++) {
      if (batch[i] < 0 || batch[i] >= this.bits) throw invalidValue(batch, i, this.bits);
    }
    let fresh = 0;
    for (let i = 0; i < batch.length; i++) if (this.bitmapSet(batch[i])) fresh++;
    return fresh;
  }

  /** For each value of the batch, 1 when it is set and 0 when not. A bad value throws. */
  hasMany(values: BitmapValues): Uint8Array {
    const batch = checkValues(values, this.bits);
    const out = new Uint8Array(batch.length);
    for (let i = 0; i < batch.length; i++) {
      if (batch[i] < 0 || batch[i] >= this.bits) throw invalidValue(batch, i, this.bits);
      out[i] = this.bitmapHas(batch[i]) ? 1 : 0;
    }
    return out;
  }

  /** The set values in ascending order (the article's bitmap sort). */
  [Symbol.iterator](): IterableIterator<number> {
    return this.values();
  }

  /** The set values in ascending order, read live, one bit at a time. */
  *values(): IterableIterator<number> {
    for (let v = 0; v < this.bits; v++) {
      // Skip a zero byte whole: iterating 10^8 bits one by one is slow even for an oracle.
      if (v % 8 === 0 && this.bytes[v / 8] === 0) {
        v += 7;
        continue;
      }
      if (!this.bitmapHas(v)) continue;
      // The caller runs between yields, and may have disposed the bitmap (the wasm Bitmap refuses the same).
      if (isDisposed(this)) throw new BloomDisposedError('Bitmap.values');
      yield v;
    }
  }

  /** Every set value, ascending, in one Uint32Array of size entries. */
  toArray(): Uint32Array {
    const out = new Uint32Array(this.setCount);
    let at = 0;
    for (const v of this.values()) out[at++] = v;
    return out;
  }

  /** A copy of the packed bits: value v is bit (v & 7) of byte v >> 3. */
  bitArray(): Uint8Array {
    return this.bytes.slice();
  }

  /** Sets a checked value; true when it was not set before. */
  private bitmapSet(v: number): boolean {
    const byte = Math.floor(v / 8);
    const mask = 1 << v % 8;
    if (this.bytes[byte] & mask) return false;
    this.bytes[byte] |= mask;
    this.setCount++;
    return true;
  }

  /** Reads a checked value's bit. */
  private bitmapHas(v: number): boolean {
    return (this.bytes[Math.floor(v / 8)] & (1 << v % 8)) !== 0;
  }
}
