// `bloom dedupe` in filter mode (assembly/lines.ts describes both modes
// and holds their state): the filter is this instance's own, and one call
// per chunk splits the lines, hashes them, test-and-sets them in groups and
// compacts the lines to print. linesProcess and linesFinish are the exports
// of both modes: in split mode they hand over to assembly/lines-split.ts.
// The pure-TypeScript twin is src/reference/lines-filter.ts (ReferenceLines).

import { named, REFUSED, schemeRecord } from "./record";
import { BATCH_OFFSETS_PTR, BATCH_PROBES_BYTES, BATCH_PROBES_PTR, LINES_SLACK, PROBES_PTR, SCRATCH_SIZE, TOUCH_SINK_PTR } from "./layout";
import { countAdd } from "./filter";
import {
  EVERY_SCHEME, SCHEME_BYTESUM, insertProbed, probeItem, probeStride, streamBegin, streamFeed, streamProbe,
  touchProbed,
} from "./scheme";
import {
  NEWLINE, carry, carryRest, feed, feedPiece, findNewline, inPtr, invert, itemEnd, lineCount, outPtr, pieceLen,
  printedCount, region, reset, splitMode, streamEnd, streaming, takeRegion,
} from "./lines";
import { splitChunk, splitFinish } from "./lines-split";

/**
 * Lines hashed and touched ahead of their test-and-set in filter mode, so
 * that their cache misses overlap. Measured on 10^7 URLs into a 20 MiB
 * sbbf filter (bench/cli.ts, output to /dev/null, a busy 2-core machine):
 * 64 a little ahead of 16 and 256 (0.90-1.06 s of CPU against
 * 0.99-1.15 s); groups of 8 that tested each whole block instead of one
 * load took 1.5 s.
 */
const GROUP: i32 = 64;
/** u32[GROUP] line starts and u32[GROUP] \n offsets of one group: the batch offsets region, which no line call uses otherwise. */
const GROUP_PTR: usize = BATCH_OFFSETS_PTR;

/** The probe record of the `len` bytes at `ptr`, hashed as add(Uint8Array) would, at `out`. */
function probeLine(r: usize, ptr: usize, len: usize, out: usize): void {
  // probeItem hashes in one call; bytesum's sums are bounded to a scratch-sized item.
  if (schemeRecord(r).scheme != SCHEME_BYTESUM || len <= <usize>SCRATCH_SIZE) {
    probeItem(r, ptr, len, false, out, EVERY_SCHEME);
    return;
  }
  streamBegin(r, false, EVERY_SCHEME);
  streamFeed(r, ptr, len, EVERY_SCHEME);
  streamProbe(r, out, EVERY_SCHEME);
}

/** Sets the bits of the probe record at `out`; true when any went from 0 to 1 (counted as an add). */
// @ts-ignore: decorator
@inline function addProbed(r: usize, out: usize): bool {
  return countAdd(r, insertProbed(r, out));
}

/**
 * Filter mode: makes room for an input area of `size` bytes and an output
 * area, for filter r (assembly/record.ts). Returns 0, or 1 when
 * memory cannot be had. Called once, before the first chunk.
 */
function linesConfigureAt(size: u32, printSeen: bool): i32 {
  if (!takeRegion((<u64>size << 1) + LINES_SLACK)) return 1;
  reset(<u64>region, size, printSeen, false, false);
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
function linesProcessAt(r: usize, n: u32): u32 {
  const end = inPtr + <usize>carry + <usize>n;
  if (splitMode) return splitChunk(r, end);
  let p = inPtr;
  let out = outPtr;
  pieceLen = 0;
  streamEnd = 0;
  if (streaming) {
    const nl = findNewline(p, end);
    if (nl == end) {
      feedPiece(r, p, end, out);
      return 0;
    }
    feed(r, p, itemEnd(p, nl) - p);
    streamProbe(r, PROBES_PTR, EVERY_SCHEME);
    streaming = false;
    lineCount++;
    if (addProbed(r, PROBES_PTR) != invert) {
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
  const stride = probeStride(r);
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
      probeLine(r, q, itemEnd(q, nl) - q, BATCH_PROBES_PTR + <usize>count * stride);
      count++;
      q = nl + 1;
    }
    if (count == 0) break;
    // Only the loads in this loop, so that nothing else sits between the misses.
    let touched: u32 = 0;
    for (let j = 0; j < count; j++) touched += touchProbed(r, BATCH_PROBES_PTR + <usize>j * stride);
    store<u32>(TOUCH_SINK_PTR, touched);
    for (let j = 0; j < count; j++) {
      const start = inPtr + <usize>load<u32>(GROUP_PTR + (<usize>j << 2));
      const nl = inPtr + <usize>load<u32>(GROUP_PTR + (<usize>(j + GROUP) << 2));
      lineCount++;
      if (addProbed(r, BATCH_PROBES_PTR + <usize>j * stride) != invert) {
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
  carryRest(r, p, end, out);
  return <u32>(out - outPtr);
}

/**
 * Ends the input: the carried bytes, if any, are the last line (it had no
 * \n). Filter mode returns the bytes of output, as linesProcess does; split
 * mode packs that line as the only item and returns 1 (or 0 when there is
 * none), for JS to flag before linesEmit.
 */
function linesFinishAt(r: usize): u32 {
  let out = outPtr;
  pieceLen = 0;
  streamEnd = 0;
  if (!streaming && carry == 0) return 0;
  const last = inPtr + <usize>carry;
  if (splitMode) return splitFinish(r, last);
  let fresh: bool;
  if (streaming) {
    feed(r, inPtr, itemEnd(inPtr, last) - inPtr);
    streamProbe(r, PROBES_PTR, EVERY_SCHEME);
  } else {
    probeLine(r, inPtr, itemEnd(inPtr, last) - inPtr, PROBES_PTR);
  }
  fresh = addProbed(r, PROBES_PTR);
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

// The exports: each names its record (assembly/record.ts) and refuses a
// pair that names no live record with REFUSED.

/** linesConfigureAt on record r: REFUSED when r and generation name no live record. */
export function linesConfigure(r: usize, generation: u32, size: u32, printSeen: bool): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>linesConfigureAt(size, printSeen);
}

/** linesProcessAt on record r: REFUSED when r and generation name no live record. */
export function linesProcess(r: usize, generation: u32, n: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  const result = linesProcessAt(r, n);
  return <i32>result;
}

/** linesFinishAt on record r: REFUSED when r and generation name no live record. */
export function linesFinish(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  const result = linesFinishAt(r);
  return <i32>result;
}
