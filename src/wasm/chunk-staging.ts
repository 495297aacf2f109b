// A batch chunk's staging: items back to back in the scratch region of a
// Staging (src/wasm/staging.ts), item j's end offset at batchOffsets[j + 1],
// which src/wasm/batch.ts cuts and runs. Strings are joined and written in
// one call per chunk: about 4x cheaper per URL than one call per string
// into a fresh subarray (docs/BENCHMARKS.md, "How an item is copied"). On
// a long joined string Node's Buffer#write beats encodeInto, whose edge is
// its cost per call, so the Node entry supplies one (useUtf8Writer).
//
// Functions, not a class per instance: a chunk is put and written with no
// other code between (no caller's code either: a checked batch's list is
// the package's own copy), so one joined rope and one writer serve every
// instance.

import type { Item } from './inputs.js';
import type { Staging, UnitsStaging } from './staging.js';
import { lengthOf } from './typed-arrays.js';

/** A view that writes a string's UTF-8 into itself (Node's Buffer#write): see encodeJoined. */
export interface Utf8Writer {
  write(text: string, offset: number, length: number, encoding: 'utf8'): number;
}

/** Makes a Utf8Writer over `length` bytes of `buffer` from `offset`; set by the Node entry (src/index.node.ts), absent elsewhere. */
let makeWriter: ((buffer: ArrayBufferLike, offset: number, length: number) => Utf8Writer) | undefined;

/** Lets batches write their joined strings with `make`'s views (see encodeJoined). @internal */
export function useUtf8Writer(make: (buffer: ArrayBufferLike, offset: number, length: number) => Utf8Writer): void {
  makeWriter = make;
}

/**
 * In a batch, strings up to this many units are joined and encoded in one
 * call per chunk (joinStrings). Longer strings take the single-item path:
 * joining would copy them once more.
 */
const JOIN_MAX = 256;

/** The strings joinStrings took, joined, until putJoined writes them. */
let joined = '';
/** A Utf8Writer over a scratch region, where the entry supplied one (encodeJoined). */
let writer: Utf8Writer | undefined;
/** The scratch view `writer` writes into: for another one (another instance, or memory grew since) it is made again. */
let writerOver: Uint8Array | undefined;

/**
 * Copies packed items i, i + 1, ... (bytes.subarray(offsets[j],
 * offsets[j + 1])) into `staging`'s scratch as one contiguous copy, as
 * many as fit, and rebases their offsets; returns how many: 0 when item i
 * alone is longer than scratch.
 */
export function putPacked(staging: Staging, bytes: Uint8Array, offsets: ArrayLike<number>, i: number, count: number): number {
  const { scratchSize, batchMax, batchOffsets: table } = staging;
  const base = offsets[i];
  let n = 0;
  while (i + n < count && n < batchMax && offsets[i + n + 1] - base <= scratchSize) {
    table[n + 1] = offsets[i + n + 1] - base;
    n++;
  }
  if (n > 0) staging.scratch.set(bytes.subarray(base, offsets[i + n]));
  return n;
}

/**
 * Takes list[from, ...) into one chunk while they fit it and are of the
 * kind of list[from]; returns the index after the last item taken: from
 * itself when list[from] is too long to share a chunk. Byte items are
 * copied into scratch here; strings are joined (joinStrings) for
 * putJoined to write. Each item's end offset goes to batchOffsets.
 *
 * These loops are functions of their own with nothing after them but a
 * return: V8 (Node 20 and 24) compiles a long first batch's loop on
 * stack, and code after such a loop, with no feedback yet, threw that
 * code away at the end of every later batch (--trace-deopt: "Insufficient
 * type feedback", once per call, which cost more than the batch saved).
 */
export function putList(staging: Staging, list: readonly Item[], from: number, count: number): number {
  if (typeof list[from] === 'string') return joinStrings(staging, list, from, count);
  // Read here, after any run before: a runner may have grown memory.
  const { scratch, scratchSize, batchMax, batchOffsets: table } = staging;
  let units = 0;
  let i = from;
  for (; i < count; i++) {
    const item = list[i];
    if (typeof item === 'string') break;
    const size = lengthOf(item);
    if (i - from === batchMax || units + size > scratchSize) break;
    scratch.set(item, units);
    units += size;
    table[i - from + 1] = units;
  }
  return i;
}

/**
 * putList for a run of strings: writes each one's offset as its length
 * (right when every unit is ASCII: putJoined checks) and joins them into
 * `joined` in the same pass, as a rope that the one UTF-8 write of
 * putJoined flattens (cheaper than a slice and join after the loop).
 *
 * A chunk takes up to scratchSize - 4 units, as if every one were ASCII,
 * rather than the maxUtf8Units that fit whatever the characters: three
 * times the URLs a chunk, so the rope, its flattening, the write and the
 * crossing are paid a third as often. The 4 units of room are what make
 * putJoined's check exact: see there. Strings over JOIN_MAX units end the
 * chunk: joining would copy them once more.
 */
function joinStrings(staging: Staging, list: readonly Item[], from: number, count: number): number {
  const { scratchSize, batchMax, batchOffsets: table } = staging;
  const most = scratchSize - 4;
  let rope = '';
  let units = 0;
  let i = from;
  for (; i < count; i++) {
    const item = list[i];
    if (typeof item !== 'string') break;
    const size = item.length;
    if (i - from === batchMax || units + size > most || size > JOIN_MAX) break;
    rope += item;
    units += size;
    table[i - from + 1] = units;
  }
  joined = rope;
  return i;
}

/**
 * Writes the strings putList last took (`units` units) as UTF-8 at the
 * start of scratch; true when every unit was ASCII, so that the offsets
 * it wrote hold: exactly when the bytes written equal the units, since a
 * string with another character takes more bytes than units, and a write
 * that stops at the end of scratch has written at least scratchSize - 3
 * bytes (it stops before a character of at most 4), more than the units.
 */
export function putJoined(staging: Staging, units: number): boolean {
  const text = joined;
  // The rope is not kept past its one write.
  joined = '';
  return encodeJoined(staging, text) === units;
}

/**
 * Puts strings list[first, ...) into scratch, as many as fit
 * maxUtf8Units units (whose UTF-8, and UTF-16, surely fit scratch; each
 * is at most JOIN_MAX, so at least one), each encoded on its own (read in
 * place by wasm when it is short: a crossing, but no encodeInto call), or
 * as UTF-16 code units under poly (`units`); returns the index after the
 * last one taken.
 */
export function putStrings(staging: Staging, list: readonly Item[], first: number, end: number, units: UnitsStaging | undefined): number {
  let stop = first;
  for (let part = 0; stop < end && (part += (list[stop] as string).length) <= staging.maxUtf8Units; stop++);
  if (units) {
    units.chunk(staging, list, first, stop - first);
    return stop;
  }
  const table = staging.batchOffsets;
  const inPlace = staging.inPlaceMax;
  let at = 0;
  for (let j = first; j < stop; j++) {
    const s = list[j] as string;
    table[j - first + 1] = at += s.length <= inPlace ? staging.x.stageString(s, at, 0) : staging.encodeAt(s, at);
  }
  return stop;
}

/**
 * Encodes a batch chunk's joined strings (at most scratchSize - 4 units)
 * as UTF-8 at the start of scratch, as much of it as fits in whole
 * characters; returns the bytes written (putJoined tells from them whether
 * every unit was ASCII). Through the Node entry's writer where there is
 * one (see the top of this file).
 */
function encodeJoined(staging: Staging, text: string): number {
  if (makeWriter === undefined || staging.encodeVia !== undefined) return staging.encodeAt(text, 0);
  const scratch = staging.scratch;
  if (writerOver !== scratch) {
    writer = makeWriter(scratch.buffer, scratch.byteOffset, staging.scratchSize);
    writerOver = scratch;
  }
  return writer!.write(text, 0, staging.scratchSize, 'utf8');
}
