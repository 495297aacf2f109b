// The Bitmap's side of the boundary: a record of the bitmap kind
// (assembly/record.ts, assembly/bitmap.ts) in an arena (src/wasm/arena.ts),
// the view of its bits, and the views of the instance's scratch that its
// batches use.
// src/bitmap/bitmap.ts holds the logic; this file holds every pointer.

import { type Arena, Kind, RECORD_BYTES } from './arena.js';
import { RecordHandle } from './record-handle.js';
import type { BitmapExports } from './abi.js';
import { FamilyModule } from './family-module.js';
import { bitmapWasm } from './bitmap-bytes.generated.js';

/** The Bitmap's module (assembly/bitmap-module.ts), instantiated over each arena that holds one. */
export const bitmapModule = /* @__PURE__ */ new FamilyModule<BitmapExports>(bitmapWasm);

/** What a released engine holds in place of its arena's module: nothing to call. */
const RELEASED = Object.freeze({}) as BitmapExports;

/** One Bitmap's handle, and the view of its bits that single values use. */
export class BitmapEngine extends RecordHandle {
  protected readonly owner = 'Bitmap';
  /** Bytes of its bits that values reach: ceil(size / 8). */
  private readonly bytes: number;
  /**
   * The view of its bits, kept between calls: a single set or has reads
   * and writes it in JS, and making a typed array costs more than the whole
   * rest of the call (docs/BENCHMARKS.md, "Choices in the code"). Empty
   * when it must be
   * made again: memory.grow detaches it (a detached view reads as empty),
   * and release() drops it.
   */
  private bitsView = new Uint8Array(0);
  /** Values per setMany chunk (and the most values per nextValues call). */
  readonly chunk: number;
  /** Values per hasMany chunk: 4 bytes in, 1 byte out each, within the scratch. */
  readonly hasChunk: number;
  /** The Bitmap module over the record's arena (RELEASED once released). */
  private fx: BitmapExports;

  /** A bit array of `size` bits; BloomAllocationError when memory cannot be had. */
  constructor(size: number) {
    super();
    this.bytes = Math.ceil(size / 8);
    // assembly/bitmap.ts's BitmapRecord: its size, and the bits in whole u64 words.
    this.placeRecord({ kind: Kind.Bitmap, payloadBytes: Math.ceil(size / 64) * 8, size, create: (a) => bitmapModule.of(a).bitmapCreate(size) });
    this.fx = bitmapModule.of(this.arena);
    const scratchSize = this.arena.x.scratchSize();
    this.chunk = scratchSize >> 2;
    this.hasChunk = Math.floor(scratchSize / 5);
  }

  /**
   * The packed bits, live: value v is bit (v & 7) of byte v >> 3. Read
   * and written in JS without a call into wasm (single values), so a
   * released handle is refused here.
   */
  get bits(): Uint8Array {
    if (this.bitsView.length === 0) {
      const a = this.enter('bits');
      this.bitsView = new Uint8Array(a.x.memory.buffer, this.record + RECORD_BYTES, this.bytes);
    }
    return this.bitsView;
  }

  /** A view of `length` elements of type `of` from the start of scratch, made where it is used. */
  private scratchView<T>(of: new (buffer: ArrayBufferLike, offset: number, length: number) => T, a: Arena, length: number): T {
    return new of(a.x.memory.buffer, a.x.scratchPtr(), length);
  }

  /** Gives the region back at once (dispose()) and drops the view of its bits; any later call throws BloomDisposedError. */
  release(): void {
    this.releaseRecord();
    this.bitsView = new Uint8Array(0);
    this.fx = RELEASED;
  }

  /** Zeroes every bit. */
  clearAll(): void {
    this.enter('clearAll');
    this.checked(this.fx.bitmapClearAll(this.record, this.generation), 'clearAll');
  }

  /** Copies batch[at, end) into scratch and returns its length (at most `chunk`). */
  stage(batch: Int32Array | Uint32Array, at: number, end: number): number {
    const a = this.enter('stage');
    if (batch instanceof Int32Array) this.scratchView(Int32Array, a, end - at).set(batch.subarray(at, end));
    else this.scratchView(Uint32Array, a, end - at).set(batch.subarray(at, end));
    return end - at;
  }

  /** The index of the first staged value out of range, or -1. */
  firstInvalid(len: number, signed: boolean): number {
    this.enter('firstInvalid');
    return this.checked(this.fx.bitmapFirstInvalid(this.record, this.generation, len, signed ? 1 : 0), 'firstInvalid');
  }

  /** Sets the `len` staged values; returns how many were not set before. */
  setMany(len: number): number {
    this.enter('setMany');
    return this.checked(this.fx.bitmapSetMany(this.record, this.generation, len), 'setMany');
  }

  /**
   * Tests the `len` staged values (at most hasChunk); returns the index of the
   * first one out of range, or -1 when the answers are in hasResults(len).
   */
  hasMany(len: number, signed: boolean): number {
    this.enter('hasMany');
    return this.checked(this.fx.bitmapHasMany(this.record, this.generation, len, signed ? 1 : 0), 'hasMany');
  }

  /** The 0/1 answers of the last hasMany of `len` values (valid until the next call). */
  hasResults(len: number): Uint8Array {
    return this.scratchView(Uint8Array, this.enter('hasMany'), len * 5).subarray(len * 4);
  }

  /** Up to `max` (at most `chunk`) set values from `from` on, ascending (valid until the next call). */
  nextValues(from: number, max: number): Uint32Array {
    const a = this.enter('nextValues');
    const count = this.checked(this.fx.bitmapNextValues(this.record, this.generation, from, max), 'nextValues');
    return this.scratchView(Uint32Array, a, count);
  }
}
