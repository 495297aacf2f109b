// The Bitmap's side of the boundary: a record of the bitmap kind
// (assembly/record.ts, assembly/bitmap.ts) in an arena (src/wasm/arena.ts),
// and the views of its bits and of the instance's scratch.
// src/bitmap/bitmap.ts holds the logic; this file holds every pointer.

import { type Arena, Kind, RECORD_BYTES } from './arena.js';
import { RecordHandle } from './record-handle.js';

/** One Bitmap's handle and views. */
export class BitmapEngine extends RecordHandle {
  protected readonly owner = 'Bitmap';
  /** Bytes of its bits that values reach: ceil(size / 8). */
  private readonly bytes: number;
  /** The views below, and the arena epoch they were made in (memory.grow detaches them). */
  private epoch = -1;
  private bitsView!: Uint8Array;
  /** The scratch region as u32: batches are copied in, iteration copies out. */
  private scratchU32!: Uint32Array;
  /** The same region as i32, so an Int32Array batch is a plain copy. */
  private scratchI32!: Int32Array;
  /** The same region as bytes: hasMany's answers follow the values. */
  private scratchBytes!: Uint8Array;
  /** Values per setMany chunk (and the most values per nextValues call). */
  readonly chunk: number;
  /** Values per hasMany chunk: 4 bytes in, 1 byte out each, within the scratch. */
  readonly hasChunk: number;

  /** A bit array of `size` bits; BloomAllocationError when memory cannot be had. */
  constructor(size: number) {
    super();
    this.bytes = Math.ceil(size / 8);
    // assembly/bitmap.ts's BitmapRecord: its size, and the bits in whole u64 words.
    this.placeRecord({ kind: Kind.Bitmap, payloadBytes: Math.ceil(size / 64) * 8, size, create: (x) => x.bitmapCreate(size) });
    const scratchSize = this.arena.x.scratchSize();
    this.chunk = scratchSize >> 2;
    this.hasChunk = Math.floor(scratchSize / 5);
    this.views();
  }

  /** Makes the views again when memory grew since they were made. */
  private views(): void {
    const a = this.arena;
    if (this.epoch === a.epoch) return;
    const buffer = a.x.memory.buffer;
    const ptr = a.x.scratchPtr();
    const scratchSize = a.x.scratchSize();
    this.scratchU32 = new Uint32Array(buffer, ptr, scratchSize >> 2);
    this.scratchI32 = new Int32Array(buffer, ptr, scratchSize >> 2);
    this.scratchBytes = new Uint8Array(buffer, ptr, scratchSize);
    this.bitsView = new Uint8Array(buffer, this.record + RECORD_BYTES, this.bytes);
    this.epoch = a.epoch;
  }

  /**
   * The packed bits, live: value v is bit (v & 7) of byte v >> 3. Read
   * and written in JS without a call into wasm (single values), so a
   * released handle is refused here (its epoch is -2, no arena's).
   */
  get bits(): Uint8Array {
    if (this.epoch !== this.arena.epoch) {
      if (!this.live) throw this.disposed('bits');
      this.views();
    }
    return this.bitsView;
  }

  /** Selects this bitmap in its instance and makes sure the views are current. */
  protected override enter(call: string): Arena {
    const a = super.enter(call);
    if (this.epoch !== a.epoch) this.views();
    return a;
  }

  /** Gives the region back at once (dispose()) and drops the views of its memory; any later call throws BloomDisposedError. */
  release(): void {
    this.releaseRecord();
    this.epoch = -2;
    const none = new Uint8Array(0);
    this.bitsView = none;
    this.scratchBytes = none;
    this.scratchU32 = new Uint32Array(0);
    this.scratchI32 = new Int32Array(0);
  }

  /** Zeroes every bit. */
  clearAll(): void {
    this.checked(this.enter('clearAll').x.bitmapClearAll(this.record, this.generation), 'clearAll');
  }

  /** Copies batch[at, end) into scratch and returns its length (at most `chunk`). */
  stage(batch: Int32Array | Uint32Array, at: number, end: number): number {
    this.enter('stage');
    if (batch instanceof Int32Array) this.scratchI32.set(batch.subarray(at, end));
    else this.scratchU32.set(batch.subarray(at, end));
    return end - at;
  }

  /** The index of the first staged value out of range, or -1. */
  firstInvalid(len: number, signed: boolean): number {
    return this.checked(this.enter('firstInvalid').x.bitmapFirstInvalid(this.record, this.generation, len, signed ? 1 : 0), 'firstInvalid');
  }

  /** Sets the `len` staged values; returns how many were not set before. */
  setMany(len: number): number {
    return this.checked(this.enter('setMany').x.bitmapSetMany(this.record, this.generation, len), 'setMany');
  }

  /**
   * Tests the `len` staged values (at most hasChunk); returns the index of the
   * first one out of range, or -1 when the answers are in hasResults(len).
   */
  hasMany(len: number, signed: boolean): number {
    return this.checked(this.enter('hasMany').x.bitmapHasMany(this.record, this.generation, len, signed ? 1 : 0), 'hasMany');
  }

  /** The 0/1 answers of the last hasMany of `len` values (valid until the next call). */
  hasResults(len: number): Uint8Array {
    this.enter('hasMany');
    return this.scratchBytes.subarray(len * 4, len * 5);
  }

  /** Up to `max` (at most `chunk`) set values from `from` on, ascending (valid until the next call). */
  nextValues(from: number, max: number): Uint32Array {
    const count = this.checked(this.enter('nextValues').x.bitmapNextValues(this.record, this.generation, from, max), 'nextValues');
    return this.scratchU32.subarray(0, count);
  }
}
