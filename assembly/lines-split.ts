// `bloom dedupe` in split mode (assembly/lines.ts describes both modes and
// holds their state): the lines belong to a chain whose members live in
// other instances, so this instance splits and does not decide. linesProcess
// and linesFinish (assembly/lines-filter.ts) hand over to splitChunk and
// splitFinish here, which pack the items or, in digest mode, hash each into
// its digest; JS asks the chain and writes one flag per item, and linesEmit
// compacts the lines to print.
// The pure-TypeScript twin is src/reference/lines-split.ts (ReferenceSplitLines).

import { LINES_SLACK } from "./layout";
import { named, REFUSED, schemeRecord } from "./record";
import { xxh64, xxh64Digest } from "./hash";
import {
  NEWLINE, carry, carryRest, chunkEnd, digestMode, digestsPtr, feed, findNewline, finishing, flagsPtr, inPtr, invert,
  itemCount, itemEnd, lineCount, offsetsPtr, outPtr, packPtr, pieceLen, printedCount, region, reset, splitEnd,
  startsPtr, streamEnd, streaming, takeRegion,
} from "./lines";

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
 * The next split-mode item: the `len` bytes at `ptr`, whose line ends just
 * before `next`. Packed as bytes, or in digest mode hashed into its digest.
 */
// @ts-ignore: decorator
@inline function pack(r: usize, ptr: usize, len: usize, next: usize): void {
  if (digestMode) {
    store<u64>(digestsPtr + (<usize>itemCount << 3), xxh64(ptr, len, schemeRecord(r).seed));
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
function packStreamEnd(r: usize, ptr: usize, len: usize, next: usize): void {
  if (!digestMode) {
    pack(r, ptr, len, next);
    return;
  }
  feed(r, ptr, len);
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
export function splitChunk(r: usize, end: usize): u32 {
  let p = inPtr;
  startItems();
  streamEnd = 0;
  finishing = false;
  if (streaming) {
    const nl = findNewline(p, end);
    if (nl != end) {
      // The streamed line ends: its last part is item 0.
      packStreamEnd(r, p, itemEnd(p, nl) - p, nl + 1);
      streamEnd = 3;
      p = nl + 1;
    } else {
      p = end;
    }
  }
  while (true) {
    const nl = findNewline(p, end);
    if (nl == end) break;
    pack(r, p, itemEnd(p, nl) - p, nl + 1);
    p = nl + 1;
  }
  if (streamEnd == 3) streaming = false;
  else if (streaming) p = inPtr;
  splitEnd = p;
  chunkEnd = end;
  return itemCount;
}

/**
 * linesFinish in split mode: packs the last line, [inPtr, last), which had
 * no \n, as the only item, and returns 1 for JS to flag before linesEmit.
 */
// @ts-ignore: decorator
@inline export function splitFinish(r: usize, last: usize): u32 {
  startItems();
  if (streaming) {
    packStreamEnd(r, inPtr, itemEnd(inPtr, last) - inPtr, last);
    streamEnd = 3;
  } else {
    pack(r, inPtr, itemEnd(inPtr, last) - inPtr, last);
  }
  streaming = false;
  finishing = true;
  return 1;
}

/**
 * Split mode: compacts the packed items' lines whose flag (1 = new) asks
 * for printing into the output area, then carries or streams the rest as
 * linesProcess does in filter mode, under the seed of record r, the
 * chain's. Returns the bytes of printed lines, or REFUSED when r and
 * generation name no live record.
 */
export function linesEmit(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
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
    carryRest(r, splitEnd, chunkEnd, out);
  }
  itemCount = 0;
  return <i32>(out - outPtr);
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
