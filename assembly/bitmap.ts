// The integer bitmap of the bitmap article: a set of integers in [0, size), one bit
// each (10^7 integers in [1, 10^8] take 10^8 bits, about 12 MB). A Bitmap
// is a record of kind KIND_BITMAP (BitmapRecord, below) whose bits follow
// it with the filter's layout: value v is bit (v & 7) of byte
// payloadOf(r) + (v >> 3).
// The pure-TypeScript twin is src/reference/bitmap.ts.
//
// Single values are set and tested by JS directly in the bits region (a
// call into wasm costs more than the bit operation itself), and JS keeps
// the count; what runs here are the loops over many values.
//
// Batches arrive in the scratch region as u32[n] (an Int32Array's bytes are
// passed as they are and read as i32 when `signed`). The JS side validates
// a whole batch with bitmapFirstInvalid before any bit changes, so a bad value
// leaves the bitmap untouched.

import { KIND_BITMAP, named, payloadOf, RecordHeader, REFUSED } from "./record";
import { createRecord } from "./core-calls";
import { SCRATCH_PTR } from "./layout";
import { clearBits, getBit, setBit } from "./bit-array";

/** A Bitmap's record (KIND_BITMAP). Its payload is the bits, rounded up to whole u64 words (wordBytes). */
@unmanaged export class BitmapRecord extends RecordHeader {
  /** The values it can hold: [0, size). */
  size: u64;
}

/** Bitmap `r`'s size. */
// @ts-ignore: decorator
@inline function size(r: usize): u64 {
  return changetype<BitmapRecord>(r).size;
}

/** Bytes of the bits region of a Bitmap of `size` values, rounded up to whole u64 words so that bitmapNextValues may read word by word. */
// @ts-ignore: decorator
@inline function wordBytesOf(size: u64): u64 {
  return ((size + 63) >> 6) << 3;
}

/** Bytes of Bitmap `r`'s bits region. */
// @ts-ignore: decorator
@inline function wordBytes(r: usize): u64 {
  return wordBytesOf(size(r));
}

/** Zeroes every bit. */
function bitmapClearAllAt(r: usize): void {
  clearBits(payloadOf(r), wordBytes(r));
}

/**
 * Index of the first of the n values in scratch that is outside [0, size)
 * (as i32 when `signed`, else as u32), or -1 when all are in range.
 */
function bitmapFirstInvalidAt(r: usize, n: u32, signed: bool): i32 {
  const limit = size(r);
  for (let i: u32 = 0; i < n; i++) {
    const raw = load<u32>(SCRATCH_PTR + (<usize>i << 2));
    if (signed && <i32>raw < 0) return <i32>i;
    if (<u64>raw >= limit) return <i32>i;
  }
  return -1;
}

/** Sets the n (validated) values in scratch; returns how many were not set before. */
function bitmapSetManyAt(r: usize, n: u32): u32 {
  let fresh: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    fresh += <u32>setBit(payloadOf(r), <u64>load<u32>(SCRATCH_PTR + (<usize>i << 2)));
  }
  return fresh;
}

/**
 * Tests the n values in scratch, writing one byte (1 set, 0 not) per value
 * right after them, at SCRATCH_PTR + 4n. Returns the index of the first
 * value outside [0, size) (nothing after it is tested), or -1.
 */
function bitmapHasManyAt(r: usize, n: u32, signed: bool): i32 {
  const out = SCRATCH_PTR + (<usize>n << 2);
  const limit = size(r);
  for (let i: u32 = 0; i < n; i++) {
    const raw = load<u32>(SCRATCH_PTR + (<usize>i << 2));
    if ((signed && <i32>raw < 0) || <u64>raw >= limit) return <i32>i;
    store<u8>(out + <usize>i, getBit(payloadOf(r), <u64>raw) ? 1 : 0);
  }
  return -1;
}

/**
 * Writes to scratch, as u32, the set values v >= `from` in ascending order,
 * at most `max` of them, and returns how many it wrote. Fewer than `max`
 * means no set value remains after the last one written. The scan reads a
 * u64 word (64 values) at a time and skips empty words, so iterating a
 * sparse bitmap costs size/64 word reads plus one step per set value.
 */
function bitmapNextValuesAt(r: usize, from: f64, max: u32): u32 {
  let v = <u64>from;
  const n = size(r);
  if (v >= n || max == 0) return 0;
  const words = (n + 63) >> 6;
  let w = v >> 6;
  // Mask off the bits below `from` in its own word.
  let word = load<u64>(payloadOf(r) + (<usize>w << 3)) & (~(<u64>0) << (v & 63));
  let written: u32 = 0;
  while (true) {
    while (word != 0) {
      const bit = ctz<u64>(word);
      store<u32>(SCRATCH_PTR + (<usize>written << 2), <u32>((w << 6) + bit));
      written++;
      if (written == max) return written;
      word &= word - 1;
    }
    w++;
    if (w >= words) return written;
    word = load<u64>(payloadOf(r) + (<usize>w << 3));
  }
}

/**
 * A new Bitmap of `size` values, all clear: its address, or 0 when this
 * instance's memory cannot hold it (assembly/record-life.ts's createRecord).
 */
export function bitmapCreate(size: f64): usize {
  const r = createRecord(KIND_BITMAP, wordBytesOf(<u64>size));
  if (r != 0) changetype<BitmapRecord>(r).size = <u64>size;
  return r;
}

// The exports: each names its record (assembly/record.ts) and refuses a
// pair that names no live record with REFUSED.

/** bitmapClearAllAt on record r: REFUSED when r and generation name no live record. */
export function bitmapClearAll(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  bitmapClearAllAt(r);
  return 0;
}

/** bitmapFirstInvalidAt on record r: REFUSED when r and generation name no live record. */
export function bitmapFirstInvalid(r: usize, generation: u32, n: u32, signed: bool): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>bitmapFirstInvalidAt(r, n, signed);
}

/** bitmapSetManyAt on record r: REFUSED when r and generation name no live record. */
export function bitmapSetMany(r: usize, generation: u32, n: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>bitmapSetManyAt(r, n);
}

/** bitmapHasManyAt on record r: REFUSED when r and generation name no live record. */
export function bitmapHasMany(r: usize, generation: u32, n: u32, signed: bool): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>bitmapHasManyAt(r, n, signed);
}

/** bitmapNextValuesAt on record r: REFUSED when r and generation name no live record. */
export function bitmapNextValues(r: usize, generation: u32, from: f64, max: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>bitmapNextValuesAt(r, from, max);
}
