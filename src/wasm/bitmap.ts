// The Bitmap's side of the boundary: an instance of the filter module
// configured by bitmapConfigure as a plain bit array (assembly/bitmap.ts),
// and the views of its bits and scratch. src/bitmap/bitmap.ts holds the
// logic; this file holds every pointer.

import { BloomAllocationError } from '../errors.js';
import type { Exports } from './abi.js';
import { instantiate } from './module.js';

/** One Bitmap's wasm instance and views. */
export class BitmapEngine {
  private readonly x: Exports;
  /**
   * The packed bits: value v is bit (v & 7) of byte v >> 3. Memory grows once,
   * in bitmapConfigure, before the views are made, and a bitmap's instance
   * never grows again (see staging.ts on why growth would detach them).
   */
  readonly bits: Uint8Array;
  /** The scratch region as u32: batches are copied in, iteration copies out. */
  private readonly scratchU32: Uint32Array;
  /** The same region as i32, so an Int32Array batch is a plain copy. */
  private readonly scratchI32: Int32Array;
  /** The same region as bytes: hasMany's answers follow the values. */
  private readonly scratchBytes: Uint8Array;
  /** Values per setMany chunk (and the most values per nextValues call). */
  readonly chunk: number;
  /** Values per hasMany chunk: 4 bytes in, 1 byte out each, within the scratch. */
  readonly hasChunk: number;

  /** A bit array of `size` bits; BloomAllocationError when memory cannot be had. */
  constructor(size: number) {
    const bytes = Math.ceil(size / 8);
    this.x = instantiate(size, bytes);
    if (this.x.bitmapConfigure(size) !== 0) throw new BloomAllocationError(size, bytes);
    const buffer = this.x.memory.buffer;
    const ptr = this.x.scratchPtr();
    const scratchSize = this.x.scratchSize();
    this.scratchU32 = new Uint32Array(buffer, ptr, scratchSize >> 2);
    this.scratchI32 = new Int32Array(buffer, ptr, scratchSize >> 2);
    this.scratchBytes = new Uint8Array(buffer, ptr, scratchSize);
    this.chunk = this.scratchU32.length;
    this.hasChunk = Math.floor(scratchSize / 5);
    this.bits = new Uint8Array(buffer, this.x.bitsPtr(), bytes);
  }

  /** Zeroes every bit. */
  clearAll(): void {
    this.x.bitmapClearAll();
  }

  /** Copies batch[at, end) into scratch and returns its length (at most `chunk`). */
  stage(batch: Int32Array | Uint32Array, at: number, end: number): number {
    if (batch instanceof Int32Array) this.scratchI32.set(batch.subarray(at, end));
    else this.scratchU32.set(batch.subarray(at, end));
    return end - at;
  }

  /** The index of the first staged value out of range, or -1. */
  firstInvalid(len: number, signed: boolean): number {
    return this.x.bitmapFirstInvalid(len, signed ? 1 : 0);
  }

  /** Sets the `len` staged values; returns how many were not set before. */
  setMany(len: number): number {
    return this.x.bitmapSetMany(len);
  }

  /**
   * Tests the `len` staged values (at most hasChunk); returns the index of the
   * first one out of range, or -1 when the answers are in hasResults(len).
   */
  hasMany(len: number, signed: boolean): number {
    return this.x.bitmapHasMany(len, signed ? 1 : 0);
  }

  /** The 0/1 answers of the last hasMany of `len` values (valid until the next call). */
  hasResults(len: number): Uint8Array {
    return this.scratchBytes.subarray(len * 4, len * 5);
  }

  /** Up to `max` (at most `chunk`) set values from `from` on, ascending (valid until the next call). */
  nextValues(from: number, max: number): Uint32Array {
    return this.scratchU32.subarray(0, this.x.bitmapNextValues(from, max));
  }
}
