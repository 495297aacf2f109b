// The exported ABI of one instance, which holds many filters. JS copies an
// item into the scratch region (assembly/layout.ts) and calls one of these
// with the filter's record and generation, which the call checks first
// (assembly/record.ts's named()) and refuses with REFUSED when they name no
// live record; the work is in the helpers they name, each given the record.

import {
  BATCH_FLAGS_PTR, BATCH_MAX, BATCH_OFFSETS_PTR, CHAIN_RECORDS_PTR, POSITIONS_OUT_PTR, SCRATCH_PTR, SCRATCH_SIZE, SHARED_BITS_PTR,
} from "./layout";
import { addedCountNow, byteLength, recount, restoreCounters, setCountNow } from "./filter";
import { popcount } from "./algebra";
import { streamBeginCall, streamUpdateCall } from "./bloom-calls";
import { XXH64_FAMILY } from "./scheme";
import { checksumBegin, checksumDigest, checksumUpdate } from "./checksum";
import { copyUnits, encodeUtf8 } from "./js-string";

// The scheme ids (assembly/scheme.ts), exported as globals so a test can
// check them against the TypeScript side's SCHEMES (src/filter/options.ts).
export { SCHEME_BYTESUM, SCHEME_POLY, SCHEME_SBBF, SCHEME_XXH64 } from "./scheme";
export { clear } from "./filter";
export { KIND_BITMAP, KIND_COUNTING, KIND_CUCKOO, KIND_FILTER, KIND_FUSE, KIND_HASHING, KIND_SLIDING } from "./record";
export { create, createdGeneration, createRecord, recordPayload, release } from "./record-life";
import { named, payloadOf, REFUSED } from "./record";
export { heapBlockSize, heapCheck, heapGrowth, heapUsedBytes, regionAlloc, regionFree } from "./heap";

/**
 * Copies the string `s` (an externref, read in place: assembly/js-string.ts)
 * into scratch at byte `at`: its UTF-16 code units when `units` (the poly
 * scheme), else its UTF-8. Returns its length in those units; the caller
 * left 3 bytes of room per code unit.
 */
export function stageString(s: externref, at: u32, units: bool): u32 {
  const ptr = SCRATCH_PTR + <usize>at;
  return <u32>(units ? copyUnits(s, ptr) : encodeUtf8(s, ptr));
}

// An item of the xxh64 family streamed in pieces begins here whatever its
// family (the cuckoo, binary fuse and sliding-window filters' modules
// finish it): the stream's state is in the work area. The Bloom and
// counting filters' modules begin their own, under every scheme.
export function streamBegin(r: usize, generation: u32, wide: bool): i32 {
  return streamBeginCall(r, generation, wide, XXH64_FAMILY);
}

export function streamUpdate(r: usize, generation: u32, len: u32): i32 {
  return streamUpdateCall(r, generation, len, XXH64_FAMILY);
}

/** Bits that are 1, kept as a counter raised on each 0-to-1 transition. */
export function bitsSet(r: usize, generation: u32): f64 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <f64>setCountNow(r);
}

/** addedCount: the adds that set at least one bit. */
export function addedCount(r: usize, generation: u32): f64 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <f64>addedCountNow(r);
}

/** Offset of the scratch region. */
export function scratchPtr(): usize {
  return SCRATCH_PTR;
}

/** Size of the scratch region in bytes. */
export function scratchSize(): u32 {
  return SCRATCH_SIZE;
}

/** Offset of the f64 positions region. */
export function positionsPtr(): usize {
  return POSITIONS_OUT_PTR;
}

/** Offset of the packed bits of the shared build's one filter (a record's follow it, at record + 64). */
export function bitsPtr(): usize {
  return SHARED_BITS_PTR;
}

/** Offset of the batch offsets region (u32[batchMax() + 1], byte offsets into scratch). */
export function batchOffsetsPtr(): usize {
  return BATCH_OFFSETS_PTR;
}

/** Offset of the batch results region (u8[batchMax()]). */
export function batchFlagsPtr(): usize {
  return BATCH_FLAGS_PTR;
}

/** Offset of the chain records region (u32[2 * 256]: a chain's members as (record, generation) pairs, assembly/chain.ts). */
export function chainRecordsPtr(): usize {
  return CHAIN_RECORDS_PTR;
}

/** The most items in one batch chunk. */
export function batchMax(): u32 {
  return BATCH_MAX;
}

/** Recounts the 1 bits exactly (popcnt over the whole array); returns the count. */
export function recountBits(r: usize, generation: u32): f64 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  const ones = recount(r);
  return <f64>ones;
}

/** Sets the counters of set bits and of added items (both below 2^53); REFUSED or 0. */
export function setCounters(r: usize, generation: u32, set: f64, added: f64): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  restoreCounters(r, <u64>set, <u64>added);
  return 0;
}

/** The 1 bits among the first `len` bytes of scratch. */
export function popcountScratch(len: u32): f64 {
  return <f64>popcount(SCRATCH_PTR, <usize>min<u32>(len, SCRATCH_SIZE));
}

/** Starts the file checksum (XXH64, seed 0). */
export function checksumStart(): void {
  checksumBegin();
}

/** Feeds the first `len` bytes of scratch to the checksum. */
export function checksumScratch(len: u32): void {
  checksumUpdate(SCRATCH_PTR, <usize>min<u32>(len, SCRATCH_SIZE));
}

/** Feeds record r's whole packed bit array to the checksum, straight from memory; REFUSED or 0. */
export function checksumBits(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  checksumUpdate(payloadOf(r), <usize>byteLength(r));
  return 0;
}

/** Finishes the checksum and stores it, a little-endian u64, in the first 8 bytes of scratch. */
export function checksumEnd(): void {
  store<u64>(SCRATCH_PTR, checksumDigest());
}

// Line-by-line dedupe (assembly/lines.ts) is not here: only the command
// line uses it, and it is a module of its own over this module's memory
// (assembly/lines-module.ts), so the library's module does not carry it.

// Hash once, probe many (assembly/digest.ts): the digest of an item; a
// Bloom filter's test and add of one are its module's.
export { digestBegin, digestItem, digestStream, digestUpdate } from "./digest";

// A chain's walk (assembly/chain-module.ts), the counting filter, the
// sliding-window filter, the Bitmap, the cuckoo filter and the binary fuse
// filter are modules of their own (assembly/counting-module.ts,
// sliding-module.ts, bitmap-module.ts, cuckoo-module.ts, fuse-module.ts)
// over this instance's memory; they make
// their records with createRecord. A long item still begins its stream
// here (streamBegin, streamUpdate) whatever its family, and its family's
// module finishes it.
