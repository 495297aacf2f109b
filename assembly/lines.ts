// `bloom dedupe`'s hot path: split a byte stream into lines, test-and-set
// each line, and compact the lines to print into an output area. JS reads
// the stream in large chunks straight into the input area and writes the
// output area out; no line is ever decoded into a string.
// The pure-TypeScript twin is src/reference/lines.ts.
// (Over 300 lines: the two modes share the areas, the carry and the
// streamed-line state, so they stay in one file.)
//
// Two modes, chosen at configure time:
// - filter mode (linesConfigure): the filter is this instance's own; one
//   call per chunk splits, hashes, test-and-sets and compacts.
// - split mode (linesConfigureSplit): the lines belong to a chain whose
//   members live in other instances. linesProcess either packs the chunk's
//   items (as add(Uint8Array) batches read them: bytes plus offsets), or,
//   for a chain of the xxh64 family, hashes each into its digest (this
//   instance is configured as an xxh64 filter with the chain's seed, so its
//   XXH64 is digest(item, { seed })); JS asks the chain and writes one flag
//   per item, and linesEmit compacts.
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
// So a line of any length
// works with fixed-size areas.
// Over 300 lines: the two modes (fixed filter, and split for a chain) share
// one scanner and one output area, and splitting them would split that state.

import { BATCH_PROBES_BYTES, BATCH_PROBES_PTR, LINES_SLACK, PROBES_PTR, SCRATCH_SIZE } from "./layout";
import { countAdd, scheme, seed } from "./filter";
import { heapAlloc, heapFree } from "./heap";
import { xxh64, xxh64Digest } from "./hash";
import {
  SCHEME_BYTESUM, TOUCH_SINK_PTR, insertProbed, probeItem, probeStride, streamBegin, streamFeed, streamProbe,
  touchProbed,
} from "./scheme";

/** Input area: bytes carried from the last chunk, then the bytes JS read. */
let inPtr: usize = 0;
/** Output area: the lines to print, then the piece of a streamed line. */
let outPtr: usize = 0;
/** Bytes in the input area. */
let capacity: u32 = 0;
/** Print the lines already seen instead of the new ones. */
let invert: bool = false;
/** Bytes at the start of the input area carried over from the last chunk. */
let carry: u32 = 0;
/** Whether the unfinished line is being handled as a stream. */
let streaming: bool = false;
/** Bytes of the streamed line's piece, right after the printed lines. */
let pieceLen: u32 = 0;
/** What happened to a streamed line in the last call: 0 nothing, 1 ended and printed, 2 ended and dropped, 3 ended and is item 0 (split mode). */
let streamEnd: i32 = 0;
/** Lines read and lines printed since configuring. */
let lineCount: u64 = 0;
let printedCount: u64 = 0;

/**
 * Split mode: the packed items and their u32 offsets (or, in digest mode,
 * one u64 digest per item instead), the u32 starts of their lines in the
 * input area, and one u8 flag each.
 */
let splitMode: bool = false;
let digestMode: bool = false;
let digestsPtr: usize = 0;
let packPtr: usize = 0;
let offsetsPtr: usize = 0;
let startsPtr: usize = 0;
let flagsPtr: usize = 0;
/** Split mode: items packed by the last linesProcess or linesFinish. */
let itemCount: u32 = 0;
/** Split mode: where the unfinished line starts, and where the chunk ends. */
let splitEnd: usize = 0;
let chunkEnd: usize = 0;
/** Split mode: the packed item is the last line, which had no \n. */
let finishing: bool = false;

const NEWLINE: u8 = 10;
const RETURN: u8 = 13;
/**
 * Lines hashed and touched ahead of their test-and-set in filter mode, so
 * that their cache misses overlap. Measured on 10^7 URLs into a 20 MiB
 * sbbf filter (bench/cli.ts, output to /dev/null, a busy 2-core machine):
 * 64 a little ahead of 16 and 256 (0.90-1.06 s of CPU against
 * 0.99-1.15 s); groups of 8 that tested each whole block instead of one
 * load took 1.5 s.
 */
const GROUP: i32 = 64;
/** u32[GROUP] line starts and u32[GROUP] \n offsets of one group. */
const GROUP_PTR: usize = memory.data(GROUP * 8, 8);


/**
 * Offset of the first \n in [p, end), or end. Sixteen bytes at a time with
 * SIMD (a lane compare and its bit mask); without SIMD, and for the last
 * bytes, eight at a time: the classic "has a zero byte" test (Mycroft,
 * 1987) on the word xor "\n"*8 flags the first matching byte exactly (flags
 * above it may be spurious), and wasm is little-endian, so the lowest flag
 * is the earliest byte.
 */
// @ts-ignore: decorator
@inline function findNewline(p: usize, end: usize): usize {
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
@inline function itemEnd(start: usize, stop: usize): usize {
  return stop > start && load<u8>(stop - 1) == RETURN ? stop - 1 : stop;
}

/** Feeds `len` bytes at `ptr` to the streamed hash started by streamBegin. */
// @ts-ignore: decorator
@inline function feed(ptr: usize, len: usize): void {
  streamFeed(ptr, len);
}

/** The probe record of the `len` bytes at `ptr`, hashed as add(Uint8Array) would, at `out`. */
function probeLine(ptr: usize, len: usize, out: usize): void {
  // probeItem hashes in one call; bytesum's sums are bounded to a scratch-sized item.
  if (scheme != SCHEME_BYTESUM || len <= <usize>SCRATCH_SIZE) {
    probeItem(ptr, len, false, out);
    return;
  }
  streamBegin(false);
  streamFeed(ptr, len);
  streamProbe(out);
}

/** Sets the bits of the probe record at `out`; true when any went from 0 to 1 (counted as an add). */
// @ts-ignore: decorator
@inline function addProbed(out: usize): bool {
  return countAdd(insertProbed(out));
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
function feedPiece(p: usize, end: usize, out: usize): void {
  let fed = end;
  if (fed > p && load<u8>(fed - 1) == RETURN) fed--;
  if (hashing()) feed(p, fed - p);
  memory.copy(out, p, fed - p);
  pieceLen = <u32>(fed - p);
  keep(fed, end);
}

/** After the complete lines, [p, end) is the unfinished one: a piece when it is long, else carried. */
function carryRest(p: usize, end: usize, out: usize): void {
  if (streaming || end - p >= <usize>(capacity >> 1)) {
    if (!streaming && hashing()) streamBegin(false);
    streaming = true;
    feedPiece(p, end, out);
  } else {
    keep(p, end);
  }
}

/** Resets the line state for an input area of `size` bytes at `base`. */
function reset(base: u64, size: u32, printSeen: bool, split: bool, digests: bool): void {
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
 * The lines region, a region of the heap (assembly/heap.ts) that is this
 * instance's, not any filter's: one dedupe runs per instance at a time,
 * and a new configure gives the last one's region back.
 */
let region: usize = 0;

/** Takes a lines region of `bytes` bytes in place of the last one; false when memory cannot be had. */
function takeRegion(bytes: u64): bool {
  if (region != 0) heapFree(region);
  region = bytes > 0xffff_0000 ? 0 : heapAlloc(<u32>bytes);
  return region != 0;
}

/**
 * Filter mode: makes room for an input area of `size` bytes and an output
 * area, for the selected filter (assembly/record.ts). Returns 0, or 1 when
 * memory cannot be had. Called once, before the first chunk.
 */
export function linesConfigure(size: u32, printSeen: bool): i32 {
  if (!takeRegion((<u64>size << 1) + LINES_SLACK)) return 1;
  reset(<u64>region, size, printSeen, false, false);
  return 0;
}

/**
 * Split mode: as linesConfigure, plus the line starts (u32[size + 2]) and
 * the flags (u8[size + 2]), and either the packed items (`size` bytes) and
 * their offsets (u32[size + 2]) or, with `digests`, the items' digests
 * (u64[size + 2]): a chunk of `size` bytes holds at most `size` lines.
 * Only the pages that a chunk's lines reach are ever written, so the
 * regions sized for one-byte lines cost no memory on longer ones.
 */
export function linesConfigureSplit(size: u32, printSeen: bool, digests: bool): i32 {
  const slots = <u64>size + 2;
  const items = digests ? slots << 3 : <u64>size + (slots << 2);
  if (!takeRegion((<u64>size << 1) + LINES_SLACK + (slots << 2) + slots + 8 + items)) return 1;
  reset(<u64>region, size, printSeen, true, digests);
  startsPtr = outPtr + <usize>size + LINES_SLACK;
  flagsPtr = startsPtr + (<usize>slots << 2);
  const after = (flagsPtr + <usize>slots + 7) & ~(<usize>7);
  digestsPtr = digests ? after : 0;
  offsetsPtr = digests ? 0 : after;
  packPtr = digests ? 0 : offsetsPtr + (<usize>slots << 2);
  return 0;
}

/**
 * Filter mode: processes `n` new bytes that JS read into the input area
 * after the carried ones. Returns how many bytes of printed lines start the
 * output area; a piece of a streamed line may follow them (linesPiece), and
 * the unfinished line is carried (linesCarry).
 * Split mode: packs the complete lines' items and returns their count; JS
 * then writes their flags and calls linesEmit.
 */
export function linesProcess(n: u32): u32 {
  const end = inPtr + <usize>carry + <usize>n;
  if (splitMode) return splitChunk(end);
  let p = inPtr;
  let out = outPtr;
  pieceLen = 0;
  streamEnd = 0;
  if (streaming) {
    const nl = findNewline(p, end);
    if (nl == end) {
      feedPiece(p, end, out);
      return 0;
    }
    feed(p, itemEnd(p, nl) - p);
    streamProbe(PROBES_PTR);
    streaming = false;
    lineCount++;
    if (addProbed(PROBES_PTR) != invert) {
      printedCount++;
      memory.copy(out, p, nl + 1 - p);
      out += nl + 1 - p;
      streamEnd = 1;
    } else {
      streamEnd = 2;
    }
    p = nl + 1;
  }
  // Printed lines that follow each other in the input are copied as one run.
  let run = p;
  const stride = probeStride();
  const group = <i32>min<usize>(<usize>GROUP, BATCH_PROBES_BYTES / stride);
  while (true) {
    // A group of up to `group` lines: split and hash them all, touch their
    // bits together (the cache misses overlap), then test-and-set them in
    // order, which alone decides: a repeat inside the group finds the bits
    // its first occurrence set a moment before.
    let count = 0;
    let q = p;
    while (count < group) {
      const nl = findNewline(q, end);
      if (nl == end) break;
      store<u32>(GROUP_PTR + (<usize>count << 2), <u32>(q - inPtr));
      store<u32>(GROUP_PTR + (<usize>(count + GROUP) << 2), <u32>(nl - inPtr));
      probeLine(q, itemEnd(q, nl) - q, BATCH_PROBES_PTR + <usize>count * stride);
      count++;
      q = nl + 1;
    }
    if (count == 0) break;
    // Only the loads in this loop, so that nothing else sits between the misses.
    let touched: u32 = 0;
    for (let j = 0; j < count; j++) touched += touchProbed(BATCH_PROBES_PTR + <usize>j * stride);
    store<u32>(TOUCH_SINK_PTR, touched);
    for (let j = 0; j < count; j++) {
      const start = inPtr + <usize>load<u32>(GROUP_PTR + (<usize>j << 2));
      const nl = inPtr + <usize>load<u32>(GROUP_PTR + (<usize>(j + GROUP) << 2));
      lineCount++;
      if (addProbed(BATCH_PROBES_PTR + <usize>j * stride) != invert) {
        printedCount++;
      } else {
        memory.copy(out, run, start - run);
        out += start - run;
        run = nl + 1;
      }
    }
    p = q;
    if (count < group) break;
  }
  memory.copy(out, run, p - run);
  out += p - run;
  carryRest(p, end, out);
  return <u32>(out - outPtr);
}

/**
 * The next split-mode item: the `len` bytes at `ptr`, whose line ends just
 * before `next`. Packed as bytes, or in digest mode hashed into its digest.
 */
// @ts-ignore: decorator
@inline function pack(ptr: usize, len: usize, next: usize): void {
  if (digestMode) {
    store<u64>(digestsPtr + (<usize>itemCount << 3), xxh64(ptr, len, seed));
  } else {
    const at = load<u32>(offsetsPtr + (<usize>itemCount << 2));
    memory.copy(packPtr + <usize>at, ptr, len);
    store<u32>(offsetsPtr + (<usize>(itemCount + 1) << 2), at + <u32>len);
  }
  itemCount++;
  store<u32>(startsPtr + (<usize>itemCount << 2), <u32>(next - inPtr));
}

/**
 * Item 0 as the end of a streamed line: its last `len` bytes at `ptr`. In
 * digest mode they finish the line's streamed hash, whose digest is the
 * item's; otherwise they are packed, and JS joins them to the pieces.
 */
function packStreamEnd(ptr: usize, len: usize, next: usize): void {
  if (!digestMode) {
    pack(ptr, len, next);
    return;
  }
  feed(ptr, len);
  store<u64>(digestsPtr, xxh64Digest());
  itemCount = 1;
  store<u32>(startsPtr + 4, <u32>(next - inPtr));
}

/** Split mode: no items yet. */
// @ts-ignore: decorator
@inline function startItems(): void {
  itemCount = 0;
  if (!digestMode) store<u32>(offsetsPtr, 0);
  store<u32>(startsPtr, 0);
}

/** Split mode's linesProcess: packs (or digests) the complete lines of [inPtr, end). */
function splitChunk(end: usize): u32 {
  let p = inPtr;
  startItems();
  streamEnd = 0;
  finishing = false;
  if (streaming) {
    const nl = findNewline(p, end);
    if (nl != end) {
      // The streamed line ends: its last part is item 0.
      packStreamEnd(p, itemEnd(p, nl) - p, nl + 1);
      streamEnd = 3;
      p = nl + 1;
    } else {
      p = end;
    }
  }
  while (true) {
    const nl = findNewline(p, end);
    if (nl == end) break;
    pack(p, itemEnd(p, nl) - p, nl + 1);
    p = nl + 1;
  }
  if (streamEnd == 3) streaming = false;
  else if (streaming) p = inPtr;
  splitEnd = p;
  chunkEnd = end;
  return itemCount;
}

/**
 * Split mode: compacts the packed items' lines whose flag (1 = new) asks
 * for printing into the output area, then carries or streams the rest as
 * linesProcess does in filter mode. Returns the bytes of printed lines.
 */
export function linesEmit(): u32 {
  let out = outPtr;
  pieceLen = 0;
  let print = false;
  for (let i: u32 = 0; i < itemCount; i++) {
    const start = inPtr + <usize>load<u32>(startsPtr + (<usize>i << 2));
    const next = inPtr + <usize>load<u32>(startsPtr + (<usize>(i + 1) << 2));
    print = (load<u8>(flagsPtr + <usize>i) != 0) != invert;
    lineCount++;
    if (print) {
      printedCount++;
      memory.copy(out, start, next - start);
      out += next - start;
    }
    if (i == 0 && streamEnd == 3) streamEnd = print ? 1 : 2;
  }
  if (finishing) {
    if (print) {
      store<u8>(out, NEWLINE);
      out++;
    }
    carry = 0;
    finishing = false;
  } else {
    carryRest(splitEnd, chunkEnd, out);
  }
  itemCount = 0;
  return <u32>(out - outPtr);
}

/**
 * Ends the input: the carried bytes, if any, are the last line (it had no
 * \n). Filter mode returns the bytes of output, as linesProcess does; split
 * mode packs that line as the only item and returns 1 (or 0 when there is
 * none), for JS to flag before linesEmit.
 */
export function linesFinish(): u32 {
  let out = outPtr;
  pieceLen = 0;
  streamEnd = 0;
  if (!streaming && carry == 0) return 0;
  const last = inPtr + <usize>carry;
  if (splitMode) {
    startItems();
    if (streaming) {
      packStreamEnd(inPtr, itemEnd(inPtr, last) - inPtr, last);
      streamEnd = 3;
    } else {
      pack(inPtr, itemEnd(inPtr, last) - inPtr, last);
    }
    streaming = false;
    finishing = true;
    return 1;
  }
  let fresh: bool;
  if (streaming) {
    feed(inPtr, itemEnd(inPtr, last) - inPtr);
    streamProbe(PROBES_PTR);
  } else {
    probeLine(inPtr, itemEnd(inPtr, last) - inPtr, PROBES_PTR);
  }
  fresh = addProbed(PROBES_PTR);
  lineCount++;
  const print = fresh != invert;
  if (print) {
    printedCount++;
    memory.copy(out, inPtr, carry);
    out += carry;
    store<u8>(out, NEWLINE);
    out++;
  }
  if (streaming) streamEnd = print ? 1 : 2;
  streaming = false;
  carry = 0;
  return <u32>(out - outPtr);
}

/** Offset of the input area. */
export function linesInput(): usize {
  return inPtr;
}

/** Offset of the output area. */
export function linesOutput(): usize {
  return outPtr;
}

/** Split mode: offsets of the packed items, their u32 offsets (count + 1), their u8 flags and (digest mode) their u64 digests. */
export function linesPacked(): usize {
  return packPtr;
}
export function linesOffsets(): usize {
  return offsetsPtr;
}
export function linesFlags(): usize {
  return flagsPtr;
}
export function linesDigests(): usize {
  return digestsPtr;
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
