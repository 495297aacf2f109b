// The lean build: the Bloom filter's part of the ABI of assembly/index.ts
// and nothing else (no counting filter, Bitmap, sliding window, cuckoo or
// binary fuse filter, no file checksum, no set algebra), so that a user of
// `bloomwasm/core` (src/core.ts) ships only these bytes. The functions are
// index.ts's own, re-exported: one copy of every rule. An instance of this
// build holds its records in its own heap, as any instance does
// (assembly/heap.ts keeps the heap's state in the instance's globals).

export {
  SCHEME_BYTESUM, SCHEME_POLY, SCHEME_SBBF, SCHEME_XXH64,
  KIND_FILTER, create, createdGeneration, recordPayload, release, select,
  heapBlockSize, heapCheck, heapGrowth, heapUsedBytes,
  streamBegin, addBatch, hasBatch,
  add, has, stageString, addString, hasString, streamUpdate, streamAdd, streamHas,
  bitsSet, addedCount, scratchPtr, scratchSize, positionsPtr, bitsPtr, batchOffsetsPtr, batchFlagsPtr, chainRecordsPtr, batchMax,
  addDigest, digestBegin, digestItem, digestStream, digestUpdate, hasDigest, probeRecords,
} from "./index";
