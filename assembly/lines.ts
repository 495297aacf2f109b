// `bloom dedupe`'s hot path: split a byte stream into lines, test-and-set
// each line in the filter, and compact the lines to print into an output
// area. JS reads the stream in large chunks straight into the input area
// and writes the output area out; no line is ever decoded into a string.
// The pure-TypeScript twin is src/reference/lines.ts.
//
// A line is the bytes before a \n, less one \r just before that \n; a last
// line without a \n still counts, and an empty line is the item "". Each
// line is hashed exactly as add(lineBytes) hashes a Uint8Array, so a saved
// filter answers has(line) for every line that was printed.
//
// Printed lines keep their bytes as read (a \r\n stays \r\n, invalid UTF-8
// passes through); a last line without a \n gets one, as awk and sort do.
//
// A line that outgrows half of the input area is hashed as a stream: its
// bytes go to the streamed hash chunk by chunk, and each chunk is handed to
// JS as a "piece" to hold until the line ends and the filter says whether
// it is printed. So a line of any length works with a fixed-size area.

import { LINES_SLACK, PROBES_PTR, linesBase, reserveEnd } from "./layout";
import { byteLength, countAdd } from "./filter";
import { insertItem, insertProbed, streamBegin, streamFeed, streamProbe } from "./scheme";

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
/** Whether the unfinished line is being hashed as a stream. */
let streaming: bool = false;
/** Bytes of the streamed line's piece, right after the printed lines. */
let pieceLen: u32 = 0;
/** What happened to a streamed line in the last call: 0 nothing, 1 ended and printed, 2 ended and dropped. */
let streamEnd: i32 = 0;
/** Lines read and lines printed since linesConfigure. */
let lineCount: u64 = 0;
let printedCount: u64 = 0;

const NEWLINE: u8 = 10;
const RETURN: u8 = 13;

/**
 * Offset of the first \n in [p, end), or end. Eight bytes at a time: the
 * classic "has a zero byte" test (Mycroft, 1987) on the word xor "\n"*8 flags
 * the first matching byte exactly (flags above it may be spurious), and
 * wasm is little-endian, so the lowest flag is the earliest byte.
 */
// @ts-ignore: decorator
@inline function findNewline(p: usize, end: usize): usize {
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

/** End of the item for a line ending at the \n at `nl`: one \r before it is stripped. */
// @ts-ignore: decorator
@inline function itemEnd(start: usize, nl: usize): usize {
  return nl > start && load<u8>(nl - 1) == RETURN ? nl - 1 : nl;
}

/** Feeds `len` bytes at `ptr` to the streamed hash started by streamBegin. */
// @ts-ignore: decorator
@inline function feed(ptr: usize, len: usize): void {
  streamFeed(ptr, len);
}

/** Test-and-set of the `len` bytes at `ptr`, hashed as add(Uint8Array) would; true when new. */
// @ts-ignore: decorator
@inline function addLine(ptr: usize, len: usize): bool {
  return countAdd(insertItem(ptr, len, false, PROBES_PTR));
}

/** Adds the streamed line that the last feed finished; true when new. */
// @ts-ignore: decorator
@inline function addStreamed(): bool {
  streamProbe(PROBES_PTR);
  return countAdd(insertProbed(PROBES_PTR));
}

/** Moves the unfinished bytes [from, end) to the start of the input area. */
// @ts-ignore: decorator
@inline function keep(from: usize, end: usize): void {
  carry = <u32>(end - from);
  if (from != inPtr) memory.copy(inPtr, from, end - from);
}

/**
 * Feeds the unfinished streamed line [p, end) to the hash and copies it to
 * `out` as a piece, holding back a last \r that may precede the next \n.
 */
function feedPiece(p: usize, end: usize, out: usize): void {
  let fed = end;
  if (fed > p && load<u8>(fed - 1) == RETURN) fed--;
  feed(p, fed - p);
  memory.copy(out, p, fed - p);
  pieceLen = <u32>(fed - p);
  keep(fed, end);
}

/**
 * Makes room for an input area of `size` bytes (and an output area) after
 * the bit array and resets the line state. Returns 0, or 1 when memory
 * cannot grow that far. Called once, before the first chunk.
 */
export function linesConfigure(size: u32, printSeen: bool): i32 {
  const base = linesBase(byteLength());
  if (!reserveEnd(base + (<u64>size << 1) + LINES_SLACK)) return 1;
  inPtr = <usize>base;
  outPtr = inPtr + <usize>size;
  capacity = size;
  invert = printSeen;
  carry = 0;
  streaming = false;
  pieceLen = 0;
  streamEnd = 0;
  lineCount = 0;
  printedCount = 0;
  return 0;
}

/**
 * Processes `n` new bytes that JS read into the input area after the carried
 * ones. Returns how many bytes of printed lines start the output area; a
 * piece of a streamed line may follow them (linesPiece), and the unfinished
 * line is carried (linesCarry).
 */
export function linesProcess(n: u32): u32 {
  const end = inPtr + <usize>carry + <usize>n;
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
    streaming = false;
    lineCount++;
    if (addStreamed() != invert) {
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
  while (true) {
    const nl = findNewline(p, end);
    if (nl == end) break;
    lineCount++;
    if (addLine(p, itemEnd(p, nl) - p) != invert) {
      printedCount++;
    } else {
      memory.copy(out, run, p - run);
      out += p - run;
      run = nl + 1;
    }
    p = nl + 1;
  }
  memory.copy(out, run, p - run);
  out += p - run;
  if (end - p >= <usize>(capacity >> 1)) {
    streamBegin(false);
    streaming = true;
    feedPiece(p, end, out);
  } else {
    keep(p, end);
  }
  return <u32>(out - outPtr);
}

/**
 * Ends the input: the carried bytes, if any, are the last line (it had no
 * \n). Returns the bytes of output, as linesProcess does.
 */
export function linesFinish(): u32 {
  let out = outPtr;
  pieceLen = 0;
  streamEnd = 0;
  if (!streaming && carry == 0) return 0;
  let fresh: bool;
  if (streaming) {
    feed(inPtr, carry);
    fresh = addStreamed();
  } else {
    fresh = addLine(inPtr, carry);
  }
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

/** Bytes carried at the start of the input area: JS reads the next chunk after them. */
export function linesCarry(): u32 {
  return carry;
}

/** Bytes of the streamed line's piece that follow the printed lines in the output area. */
export function linesPiece(): u32 {
  return pieceLen;
}

/** 1 when a streamed line ended in the last call and is printed (its pieces first), 2 when dropped, else 0. */
export function linesStreamEnd(): i32 {
  return streamEnd;
}

/** Lines read since linesConfigure. */
export function linesRead(): f64 {
  return <f64>lineCount;
}

/** Lines printed since linesConfigure. */
export function linesPrinted(): f64 {
  return <f64>printedCount;
}
