// The exported ABI of the shared build: the filter of assembly/index.ts,
// compiled a second time with threads over an imported shared memory
// (asconfig.json, target "shared"). The sources are the same; with
// ASC_FEATURE_THREADS true, bit-array.ts sets bits with atomic OR,
// filter.ts keeps the counters in the shared header, algebra.ts combines
// words atomically, and layout.ts places this instance's scratch in its own
// work area (see the layout there). One instance runs per thread; the bits
// are common to all of them. docs/SHARED.md states the memory model.
//
// Line-by-line dedupe, the Bitmap, the counting filter and the records of
// many filters in one memory (assembly/record.ts, assembly/heap.ts) are not
// part of this build: its memory holds one filter.

export {
  SCHEME_BYTESUM, SCHEME_POLY, SCHEME_SBBF, SCHEME_XXH64, batchFlagsPtr, batchMax, batchOffsetsPtr, bitsPtr, bitsSet,
  checksumBits, checksumEnd, checksumScratch, checksumStart, clear,
  addedCount, intersectScratch, popcountScratch, positionsPtr, recountBits, scratchPtr, scratchSize,
  setCounters, unionScratch,
} from "./index";

// The calls on an item and a batch are the exercise module's
// (assembly/exercise.ts): the one filter may be of any scheme.
export {
  has, hasBatch, positions, shardPositions, streamBegin, streamHas, streamPositions, streamShardPositions, streamUpdate,
} from "./exercise";

export { configure } from "./filter";

import { SHARED_HEADER_PTR, WORK_AREA_SIZE } from "./layout";
import { flushCounts } from "./filter";
import { add as addOne, addBatch as addChunk, streamAdd as streamAddOne } from "./exercise";
import { addDigest as addDigestOne } from "./digest";

export { hasDigest } from "./digest";

// The ways to add: each counts its adds in the instance, then adds the
// counts to the shared header once (assembly/filter.ts, flushCounts), so the
// counters are up to date when the call returns.

// The shared build holds one filter and no records: the record and
// generation every export takes are JS's (0, 1), and each export acts on
// this instance's own record of the one filter (assembly/record.ts's
// named(), assembly/filter.ts's configure).

/** Adds the item in scratch (as assembly/index.ts add). */
export function add(r: usize, generation: u32, len: u32, wide: bool): i32 {
  const fresh = addOne(r, generation, len, wide);
  flushCounts();
  return fresh;
}

/** Ends a streamed item and adds it (as assembly/index.ts streamAdd). */
export function streamAdd(r: usize, generation: u32): i32 {
  const fresh = streamAddOne(r, generation);
  flushCounts();
  return fresh;
}

/** Adds a staged chunk (as assembly/batch.ts addBatch). */
export function addBatch(r: usize, generation: u32, count: u32, wide: bool): i32 {
  const fresh = addChunk(r, generation, count, wide);
  flushCounts();
  return fresh;
}

/** Adds the item whose digest is hi:lo (as assembly/digest.ts addDigest). */
export function addDigest(r: usize, generation: u32, lo: u32, hi: u32): i32 {
  const fresh = addDigestOne(r, generation, lo, hi);
  flushCounts();
  return fresh;
}

/** Offset of the shared header (counters and the free work-area table). */
export function sharedHeaderPtr(): usize {
  return SHARED_HEADER_PTR;
}

/** Bytes of one instance's work area. */
export function workAreaSize(): u32 {
  return <u32>WORK_AREA_SIZE;
}
