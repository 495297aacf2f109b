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
  addedCount, popcountScratch, positionsPtr, recountBits, scratchPtr, scratchSize,
  setCounters,
} from "./index";

export { configure, intersectScratch, unionScratch } from "./filter";

import { SHARED_HEADER_PTR, WORK_AREA_SIZE } from "./layout";
import { flushCounts } from "./filter";
import { addDigest as addDigestOne } from "./digest";
import { addBatchCall, addCall, streamAddCall } from "./bloom-calls";
import { EVERY_SCHEME } from "./scheme";

export { hasDigest } from "./digest";

// The ways to add: each counts its adds in the instance, then adds the
// counts to the shared header once (assembly/filter.ts, flushCounts), so the
// counters are up to date when the call returns.

// The shared build holds one filter and no records: the record and
// generation every export takes are JS's (0, 1), and each export acts on
// this instance's own record of the one filter (assembly/record.ts's
// named(), assembly/filter.ts's configure).

// The calls on an item and a batch (assembly/bloom-calls.ts), for every
// scheme: the one filter may be of any.

/** Adds the item in scratch (as assembly/bloom.ts add). */
export function add(r: usize, generation: u32, len: u32, wide: bool): i32 {
  const fresh = addCall(r, generation, len, wide, EVERY_SCHEME);
  flushCounts();
  return fresh;
}

/** Ends a streamed item and adds it (as assembly/bloom.ts streamAdd). */
export function streamAdd(r: usize, generation: u32): i32 {
  const fresh = streamAddCall(r, generation, EVERY_SCHEME);
  flushCounts();
  return fresh;
}

/** Adds a staged chunk (as assembly/bloom.ts addBatch). */
export function addBatch(r: usize, generation: u32, count: u32, wide: bool): i32 {
  const fresh = addBatchCall(r, generation, count, wide, EVERY_SCHEME);
  flushCounts();
  return fresh;
}

// The calls that set no bit are the Bloom filter's module's own (assembly/bloom.ts), which hashes every scheme too.
export {
  has, hasBatch, positions, shardPositions, streamBegin, streamHas, streamPositions, streamShardPositions, streamUpdate,
} from "./bloom";

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
