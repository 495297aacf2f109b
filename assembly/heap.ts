// The allocator that lets many filters share one instance's linear memory:
// each filter's record and bits are one region of the heap, which runs from
// HEAP_START (after the work area, assembly/layout.ts) to the end of memory.
//
// Two-level segregated fit (TLSF): Masmano, Ripoll, Crespo and Real, "TLSF:
// a New Dynamic Memory Allocator for Real-Time Systems", ECRTS 2004. Free
// blocks sit in lists by size class: the first level is the power of two
// of the size, the second splits each power of two into 16 classes, and
// two levels of bitmaps find the first non-empty class that surely fits in
// O(1). A freed block merges with free neighbours at once, so memory freed
// by small filters serves large ones later. A block that fits is split,
// and the rest goes back to its list. The waste of the rounding is at most
// 1/16 of a request, and the bound on total memory is what the soak test
// (test/heap.test.ts) checks. docs/MEMORY.md has the measurements.
//
// Blocks are whole granules of 64 bytes and start 16 bytes before a 64-byte
// boundary, so every payload is 64-byte aligned: an sbbf block never spans
// two cache lines, and the shared build's atomics stay aligned. A block
// begins with a 16-byte header:
//
//   +0  u32 size of the block in bytes, header included; bit 0 set when free
//   +4  u32 address of the block just before it in memory (0 for the first)
//   +8  u32 next block in its free list (free blocks only)
//   +12 u32 previous block in its free list (free blocks only)
//
// Memory grows when no free block fits, by what is missing or by an eighth
// of the memory (heapGrowth), whichever is more, so that a million small
// filters do not grow it a million times, nor leave more than 1/8 of it
// unused. It never shrinks
// (wasm memory cannot): freed blocks are reused, and the filters large
// enough to matter get an instance of their own (src/wasm/placement.ts).

import { HEAP_START } from "./layout";

/** Bytes in a granule: every block size is a multiple. */
const GRANULE: u32 = 64;
/** Bytes of a block header. */
export const HEADER: u32 = 16;
/** Second-level classes per power of two: log2 and count. */
const SL_LOG2: u32 = 4;
const SL_COUNT: u32 = 1 << SL_LOG2;
/** Sizes below this (16 granules) map to first level 0, one class per granule. */
const SMALL: u32 = GRANULE << SL_LOG2;
/** log2(SMALL): first level l > 0 holds sizes in [2^(l + 9), 2^(l + 10)). */
const SMALL_LOG2: u32 = 10;
/** First-level classes: sizes up to 2^32 - 1. */
const FL_COUNT: u32 = 32 - SMALL_LOG2 + 1;

/**
 * Memory grows by at least 1 / 2^growthShift of itself: an eighth by
 * default, so that a million filters kept alive grow it some fifty times,
 * not a million. (Dropped filters are kept in check by prompting the
 * garbage collector from JS, src/wasm/arena.ts's checkCollector, not by
 * the step.)
 */
let growthShift: i32 = 3;

/** Sets the growth step to 1 / 2^shift of memory (3 to 10). */
export function heapGrowth(shift: i32): void {
  growthShift = min<i32>(max<i32>(shift, 3), 10);
}

/** Bit 0 of the size word: the block is free. */
const FREE: u32 = 1;

/** The first-level bitmap: bit f is set when some list of level f is non-empty. */
let flBitmap: u32 = 0;
/** The second-level bitmaps, one u32 per first level. */
const SL_BITMAPS: usize = memory.data(<i32>(FL_COUNT << 2), 4);
/** The free-list heads, u32[FL_COUNT * SL_COUNT] (0 = empty). */
const HEADS: usize = memory.data(<i32>(FL_COUNT * SL_COUNT << 2), 4);

/** Where a block's header starts, modulo GRANULE: its payload then starts on a granule. */
const PHASE: u64 = <u64>(GRANULE - HEADER);

/** End of the heap: the end of the last block. 0 until the first allocation. */
let heapEnd: usize = 0;
/**
 * Memory from here on has never been any region's: it is zero, apart from
 * block headers. Fresh pages are zero, so a region allocated there needs
 * no clearing, and a 1 GB filter costs no 1 GB memset (nor its pages,
 * which stay unmapped until a bit is set).
 */
let cleanFrom: usize = 0;
/** The last block in memory (0 while the heap is empty). */
let lastBlock: usize = 0;
/** Bytes in blocks that are not free (headers included), for tests and docs. */
let usedBytes: u64 = 0;

// @ts-ignore: decorator
@inline function sizeOf(block: usize): u32 {
  return load<u32>(block) & ~FREE;
}

// @ts-ignore: decorator
@inline function isFree(block: usize): bool {
  return (load<u32>(block) & FREE) != 0;
}

// @ts-ignore: decorator
@inline function prevOf(block: usize): usize {
  return <usize>load<u32>(block, 4);
}

/** The block after `block` in memory, or 0 when it is the last. */
// @ts-ignore: decorator
@inline function nextOf(block: usize): usize {
  return block == lastBlock ? 0 : block + <usize>sizeOf(block);
}

/** The first and second level of a block of `size` bytes. */
// @ts-ignore: decorator
@inline function levelsOf(size: u32): u32 {
  if (size < SMALL) return size / GRANULE;
  const log = 31 - clz<u32>(size);
  const fl = log - SMALL_LOG2 + 1;
  const sl = (size >> (log - SL_LOG2)) - SL_COUNT;
  return (fl << SL_LOG2) | sl;
}

/** Adds a free block to the head of its list. */
function insertFree(block: usize): void {
  const size = sizeOf(block);
  store<u32>(block, size | FREE);
  const levels = levelsOf(size);
  const fl = levels >> SL_LOG2;
  const sl = levels & (SL_COUNT - 1);
  const headPtr = HEADS + (<usize>levels << 2);
  const head = <usize>load<u32>(headPtr);
  store<u32>(block, <u32>head, 8);
  store<u32>(block, 0, 12);
  if (head != 0) store<u32>(head, <u32>block, 12);
  store<u32>(headPtr, <u32>block);
  flBitmap |= <u32>1 << fl;
  const slPtr = SL_BITMAPS + (<usize>fl << 2);
  store<u32>(slPtr, load<u32>(slPtr) | (<u32>1 << sl));
}

/** Takes a free block out of its list (it stays marked free). */
function removeFree(block: usize): void {
  const levels = levelsOf(sizeOf(block));
  const next = <usize>load<u32>(block, 8);
  const prev = <usize>load<u32>(block, 12);
  if (next != 0) store<u32>(next, <u32>prev, 12);
  if (prev != 0) {
    store<u32>(prev, <u32>next, 8);
    return;
  }
  const headPtr = HEADS + (<usize>levels << 2);
  store<u32>(headPtr, <u32>next);
  if (next != 0) return;
  const fl = levels >> SL_LOG2;
  const slPtr = SL_BITMAPS + (<usize>fl << 2);
  const sl = load<u32>(slPtr) & ~(<u32>1 << (levels & (SL_COUNT - 1)));
  store<u32>(slPtr, sl);
  if (sl == 0) flBitmap &= ~(<u32>1 << fl);
}

/**
 * A free block of at least `size` bytes, taken out of its list, or 0. Past
 * one look at the head of its own class, the search starts at the class
 * above the one `size` falls in (unless size is a class's lower bound), so
 * that any block found fits without a scan.
 */
function takeFit(size: u32): usize {
  let search = size;
  if (size >= SMALL) {
    // The head of the class `size` falls in fits when it is at least as
    // large: one look, and filters of one size freed and made again reuse
    // each other's blocks instead of cutting new ones.
    const own = <usize>load<u32>(HEADS + (<usize>levelsOf(size) << 2));
    if (own != 0 && sizeOf(own) >= size) {
      removeFree(own);
      return own;
    }
    const round = (<u32>1 << (31 - clz<u32>(size) - SL_LOG2)) - 1;
    if (<u64>size + round > 0xffff_ffff) return 0;
    search = size + round;
  }
  const levels = levelsOf(search);
  let fl = levels >> SL_LOG2;
  if (fl >= FL_COUNT) return 0;
  let slMap = load<u32>(SL_BITMAPS + (<usize>fl << 2)) & (~(<u32>0) << (levels & (SL_COUNT - 1)));
  if (slMap == 0) {
    const flMap = fl + 1 >= 32 ? 0 : flBitmap & (~(<u32>0) << (fl + 1));
    if (flMap == 0) return 0;
    fl = ctz<u32>(flMap);
    slMap = load<u32>(SL_BITMAPS + (<usize>fl << 2));
  }
  const block = <usize>load<u32>(HEADS + (<usize>((fl << SL_LOG2) | ctz<u32>(slMap)) << 2));
  removeFree(block);
  return block;
}

/** Splits the used block `block` after `size` bytes when the rest makes a block; the rest is freed. */
function trim(block: usize, size: u32): void {
  const rest = sizeOf(block) - size;
  if (rest < GRANULE) return;
  const after = block + <usize>size;
  store<u32>(block, size);
  store<u32>(after, rest);
  store<u32>(after, <u32>block, 4);
  if (block == lastBlock) lastBlock = after;
  else store<u32>(after + <usize>rest, <u32>after, 4);
  insertFree(after);
}

/**
 * Grows memory so that a block of `size` bytes fits at the end of the heap
 * (the last block, if free, counts toward it), and makes the new room one
 * free block, merged with a free last block. Returns that block, taken out
 * of its list (it may sit in a class below the one takeFit searches), or
 * 0 when memory cannot grow.
 */
function growFor(size: u32): usize {
  const tailFree: u64 = lastBlock != 0 && isFree(lastBlock) ? <u64>sizeOf(lastBlock) : 0;
  const need: u64 = <u64>heapEnd + <u64>size - tailFree;
  if (need > usableEnd(65536)) return 0;
  if (need > usableEnd(memory.size())) {
    const have = memory.size();
    // Pages for `need` past the phase-aligned end (at most one granule short of a page end).
    const needPages = <i32>((need + <u64>GRANULE + 0xffff) >> 16) - have;
    const morePages = max<i32>(needPages, have >> growthShift);
    if (memory.grow(min<i32>(morePages, 65536 - have)) < 0 && memory.grow(needPages) < 0) return 0;
  }
  const room = <u32>min<u64>(usableEnd(memory.size()) - <u64>heapEnd, <u64>0xffff_ffc0 - tailFree);
  let block: usize;
  if (tailFree != 0) {
    block = lastBlock;
    removeFree(block);
    store<u32>(block, <u32>tailFree + room);
  } else {
    block = heapEnd;
    store<u32>(block, room);
    store<u32>(block, <u32>lastBlock, 4);
    lastBlock = block;
  }
  heapEnd += <usize>room;
  store<u32>(block, sizeOf(block) | FREE);
  return block;
}

/** The end of the last whole block that `pages` pages of memory can hold (a block boundary, PHASE past a granule). */
// @ts-ignore: decorator
@inline function usableEnd(pages: i32): u64 {
  return (((<u64>pages << 16) - PHASE) & ~(<u64>GRANULE - 1)) + PHASE;
}

/** Starts the heap on first use, at HEAP_START (16 bytes before a 64-byte boundary). */
// @ts-ignore: decorator
@inline function ensureStarted(): void {
  if (heapEnd == 0) {
    heapEnd = HEAP_START;
    cleanFrom = HEAP_START;
  }
}

/**
 * A zeroed region of `bytes` bytes, 64-byte aligned, or 0 when memory
 * cannot be had (the caller opens another instance).
 */
export function heapAlloc(bytes: u32): usize {
  ensureStarted();
  if (bytes > 0xffff_0000) return 0;
  const size = max<u32>(GRANULE, (bytes + HEADER + GRANULE - 1) & ~(GRANULE - 1));
  let block = takeFit(size);
  if (block == 0) block = growFor(size);
  if (block == 0) return 0;
  store<u32>(block, sizeOf(block));
  trim(block, size);
  usedBytes += <u64>sizeOf(block);
  const ptr = block + <usize>HEADER;
  // A reused block holds an earlier region's bytes; a filter starts at zero.
  if (ptr < cleanFrom) memory.fill(ptr, 0, min<usize>(<usize>bytes, cleanFrom - ptr));
  cleanFrom = max<usize>(cleanFrom, block + <usize>sizeOf(block));
  return ptr;
}

/** Frees the region at `ptr` (from heapAlloc) and merges it with free neighbours. */
export function heapFree(ptr: usize): void {
  let block = ptr - <usize>HEADER;
  let size = sizeOf(block);
  usedBytes -= <u64>size;
  const next = nextOf(block);
  // A header merged away is zeroed: it may lie past cleanFrom, inside what
  // a later region takes as clean.
  if (next != 0 && isFree(next)) {
    removeFree(next);
    if (next == lastBlock) lastBlock = block;
    size += sizeOf(next);
    memory.fill(next, 0, <usize>HEADER);
  }
  const prev = prevOf(block);
  if (prev != 0 && isFree(prev)) {
    removeFree(prev);
    if (block == lastBlock) lastBlock = prev;
    size += sizeOf(prev);
    memory.fill(block, 0, <usize>HEADER);
    block = prev;
  }
  store<u32>(block, size);
  if (block != lastBlock) store<u32>(block + <usize>size, <u32>block, 4);
  insertFree(block);
}

/** Bytes of the block at `ptr` (a region from heapAlloc), header included. */
export function heapBlockSize(ptr: usize): u32 {
  return sizeOf(ptr - <usize>HEADER);
}

/** Bytes in blocks that are in use, headers included. */
export function heapUsedBytes(): f64 {
  return <f64>usedBytes;
}

/**
 * Walks every block and returns 0 when the heap is consistent (sizes tile
 * it, back links match, no two free blocks touch, the lists hold exactly
 * the free blocks), or the address of the first bad block. For tests.
 */
export function heapCheck(): usize {
  if (heapEnd == 0) return 0;
  let block: usize = HEAP_START;
  let prev: usize = 0;
  let prevFree = false;
  let free: u32 = 0;
  while (block < heapEnd) {
    const size = sizeOf(block);
    if (size < GRANULE || size % GRANULE != 0 || prevOf(block) != prev) return block;
    if (isFree(block)) {
      if (prevFree) return block;
      free++;
    }
    prevFree = isFree(block);
    prev = block;
    block += <usize>size;
  }
  if (block != heapEnd || prev != lastBlock) return block;
  let listed: u32 = 0;
  for (let i: u32 = 0; i < FL_COUNT * SL_COUNT; i++) {
    for (let b = <usize>load<u32>(HEADS + (<usize>i << 2)); b != 0; b = <usize>load<u32>(b, 8)) {
      if (!isFree(b) || levelsOf(sizeOf(b)) != i) return b;
      listed++;
    }
  }
  return listed == free ? 0 : heapEnd;
}

/**
 * A zeroed heap region of `bytes` bytes that is not a record, or 0: a
 * binary fuse construction's keys or fingerprints, the command line's
 * lines region (JS frees it with regionFree).
 */
export function regionAlloc(bytes: f64): usize {
  if (bytes > <f64>0xffff0000) return 0;
  return heapAlloc(<u32>bytes);
}

/** Frees a region from regionAlloc. */
export function regionFree(ptr: usize): void {
  heapFree(ptr);
}
