// `bloom dedupe`'s hot path: split a byte stream into lines, test-and-set
// each line, and compact the lines to print into an output area. JS reads
// the stream in large chunks straight into the input area and writes the
// output area out; no line is ever decoded into a string.
//
// Two modes, chosen at configure time:
// - filter mode (linesConfigure, assembly/lines-filter.ts): the filter is
//   this instance's own; one call per chunk splits, hashes, test-and-sets
//   and compacts.
// - split mode (linesConfigureSplit, assembly/lines-split.ts): the lines
//   belong to a chain whose members live in other instances. linesProcess
//   either packs the chunk's items (as add(Uint8Array) batches read them:
//   bytes plus offsets), or, for a chain of the xxh64 family, hashes each
//   into its digest (this instance is configured as an xxh64 filter with the
//   chain's seed, so its XXH64 is digest(item, { seed })); JS asks the chain
//   and writes one flag per item, and linesEmit compacts.
//
// A line is the bytes before a \n, or before the end of the input, less
// one \r right before that end: "a\r\n", "a\n" and a last "a\r" are all
// the item "a". An empty line is the item "". Printed lines keep their
// bytes as read (a \r\n stays \r\n, invalid UTF-8 passes through); a last
// line without a \n gets one, as awk and sort do.
//
// A line that outgrows half of the input area is handled as a stream: each
// chunk of it goes to JS as a "piece" to hold until the line ends (in
// filter mode and digest split mode it is also fed to the streamed hash).
// So a line of any length works with fixed-size areas.
//
// This file holds what the two modes share: the lines region and its
// areas, the state of the one dedupe an instance runs (configuring either
// mode resets all of it, split mode's item areas included), the scan for
// line ends, the carrying or streaming of the unfinished line, and the
// exports that read that state. The two mode files assign these globals.
// The pure-TypeScript twin is src/reference/lines.ts, with
// src/reference/lines-filter.ts and src/reference/lines-split.ts.

import { regionAlloc, regionFree } from "./core-calls";
import { EVERY_SCHEME, streamBegin, streamFeed } from "./scheme";

/** Input area: bytes carried from the last chunk, then the bytes JS read. */
export let inPtr: usize = 0;
/** Output area: the lines to print, then the piece of a streamed line. */
export let outPtr: usize = 0;
/** Bytes in the input area. */
export let capacity: u32 = 0;
/** Print the lines already seen instead of the new ones. */
export let invert: bool = false;
/** Bytes at the start of the input area carried over from the last chunk. */
export let carry: u32 = 0;
/** Whether the unfinished line is being handled as a stream. */
export let streaming: bool = false;
/** Bytes of the streamed line's piece, right after the printed lines. */
export let pieceLen: u32 = 0;
/** What happened to a streamed line in the last call: 0 nothing, 1 ended and printed, 2 ended and dropped, 3 ended and is item 0 (split mode). */
export let streamEnd: i32 = 0;
/** Lines read and lines printed since configuring. */
export let lineCount: u64 = 0;
export let printedCount: u64 = 0;

/**
 * Split mode: the packed items and their u32 offsets (or, in digest mode,
 * one u64 digest per item instead), the u32 starts of their lines in the
 * input area, and one u8 flag each.
 */
export let splitMode: bool = false;
export let digestMode: bool = false;
export let digestsPtr: usize = 0;
export let packPtr: usize = 0;
export let offsetsPtr: usize = 0;
export let startsPtr: usize = 0;
export let flagsPtr: usize = 0;
/** Split mode: items packed by the last linesProcess or linesFinish. */
export let itemCount: u32 = 0;
/** Split mode: where the unfinished line starts, and where the chunk ends. */
export let splitEnd: usize = 0;
export let chunkEnd: usize = 0;
/** Split mode: the packed item is the last line, which had no \n. */
export let finishing: bool = false;

export const NEWLINE: u8 = 10;
const RETURN: u8 = 13;

/**
 * Offset of the first \n in [p, end), or end. Sixteen bytes at a time with
 * SIMD (a lane compare and its bit mask); without SIMD, and for the last
 * bytes, eight at a time: the classic "has a zero byte" test (Mycroft,
 * 1987) on the word xor "\n"*8 flags the first matching byte exactly (flags
 * above it may be spurious), and wasm is little-endian, so the lowest flag
 * is the earliest byte.
 */
// @ts-ignore: decorator
@inline export function findNewline(p: usize, end: usize): usize {
  if (ASC_FEATURE_SIMD) {
    // Sixteen bytes at a time: the lanes equal to \n, as a bit mask, lowest byte first.
    while (p + 16 <= end) {
      const mask = i8x16.bitmask(i8x16.eq(v128.load(p), i8x16.splat(NEWLINE)));
      if (mask) return p + <usize>ctz<u32>(mask);
      p += 16;
    }
  }
  while (p + 8 <= end) {
    const v = load<u64>(p) ^ 0x0a0a0a0a0a0a0a0a;
    const t = (v - 0x0101010101010101) & ~v & 0x8080808080808080;
    if (t) return p + (<usize>ctz<u64>(t) >> 3);
    p += 8;
  }
  while (p < end) {
    if (load<u8>(p) == NEWLINE) return p;
    p++;
  }
  return end;
}

/** End of the item of the line [start, stop), where stop is its \n or the end of the input: one \r before it is stripped. */
// @ts-ignore: decorator
@inline export function itemEnd(start: usize, stop: usize): usize {
  return stop > start && load<u8>(stop - 1) == RETURN ? stop - 1 : stop;
}

/** Feeds `len` bytes at `ptr` to the streamed hash started by streamBegin. */
// @ts-ignore: decorator
@inline export function feed(r: usize, ptr: usize, len: usize): void {
  streamFeed(r, ptr, len, EVERY_SCHEME);
}

/** Moves the unfinished bytes [from, end) to the start of the input area. */
// @ts-ignore: decorator
@inline function keep(from: usize, end: usize): void {
  carry = <u32>(end - from);
  if (from != inPtr) memory.copy(inPtr, from, end - from);
}

/** Whether this instance hashes the lines itself: in filter mode, and in split mode with digests. */
// @ts-ignore: decorator
@inline function hashing(): bool {
  return !splitMode || digestMode;
}

/**
 * Hands the unfinished streamed line [p, end) to JS as a piece at `out`
 * (and, when this instance hashes, to the hash), holding back a last \r
 * that may end the line.
 */
export function feedPiece(r: usize, p: usize, end: usize, out: usize): void {
  let fed = end;
  if (fed > p && load<u8>(fed - 1) == RETURN) fed--;
  if (hashing()) feed(r, p, fed - p);
  memory.copy(out, p, fed - p);
  pieceLen = <u32>(fed - p);
  keep(fed, end);
}

/** After the complete lines, [p, end) is the unfinished one: a piece when it is long, else carried. */
export function carryRest(r: usize, p: usize, end: usize, out: usize): void {
  if (streaming || end - p >= <usize>(capacity >> 1)) {
    if (!streaming && hashing()) streamBegin(r, false, EVERY_SCHEME);
    streaming = true;
    feedPiece(r, p, end, out);
  } else {
    keep(p, end);
  }
}

/** Resets the line state for an input area of `size` bytes at `base`. */
export function reset(base: u64, size: u32, printSeen: bool, split: bool, digests: bool): void {
  inPtr = <usize>base;
  outPtr = inPtr + <usize>size;
  capacity = size;
  invert = printSeen;
  splitMode = split;
  digestMode = digests;
  carry = 0;
  streaming = false;
  pieceLen = 0;
  streamEnd = 0;
  lineCount = 0;
  printedCount = 0;
  itemCount = 0;
  finishing = false;
}

/**
 * The lines region, a region of the core instance's heap (taken through
 * assembly/core-calls.ts) that is this module instance's, not any
 * filter's: one dedupe runs per instance at a time, and a new configure
 * gives the last one's region back.
 */
export let region: usize = 0;

/** Takes a lines region of `bytes` bytes in place of the last one; false when memory cannot be had. */
export function takeRegion(bytes: u64): bool {
  if (region != 0) regionFree(region);
  region = regionAlloc(<f64>bytes);
  return region != 0;
}

/** Offset of the input area. */
export function linesInput(): usize {
  return inPtr;
}

/** Offset of the output area. */
export function linesOutput(): usize {
  return outPtr;
}

/** Bytes carried at the start of the input area: JS reads the next chunk after them. */
export function linesCarry(): u32 {
  return carry;
}

/** Bytes of the streamed line's piece that follow the printed lines in the output area. */
export function linesPiece(): u32 {
  return pieceLen;
}

/** 1 when a streamed line ended in the last call and is printed (its pieces first), 2 when dropped, 3 (split mode, before linesEmit) when it is item 0, else 0. */
export function linesStreamEnd(): i32 {
  return streamEnd;
}

/** Lines read since configuring. */
export function linesRead(): f64 {
  return <f64>lineCount;
}

/** Lines printed since configuring. */
export function linesPrinted(): f64 {
  return <f64>printedCount;
}
