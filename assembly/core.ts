// The lean build: the Bloom filter's part of the ABI of assembly/index.ts
// and nothing else (no counting filter, Bitmap, sliding window, cuckoo or
// binary fuse filter, no file checksum, no set algebra), so that a user of
// `bloomwasm/core` (src/core.ts) ships only these bytes. The functions are
// index.ts's own, re-exported: one copy of every rule. An instance of this
// build holds its records in its own heap, as any instance does
// (assembly/heap.ts keeps the heap's state in the instance's globals).
// What the lean class never calls is left out: addDigest, the heap's
// checks, the scheme and kind ids (test/abi.test.ts holds this list
// against the full ABI).

export {
  create, createdGeneration, release, heapUsedBytes,
  streamBegin, addBatch, hasBatch,
  add, has, stageString, addString, hasString, streamUpdate, streamAdd, streamHas,
  bitsSet, addedCount, scratchPtr, scratchSize, positionsPtr, bitsPtr, batchOffsetsPtr, batchFlagsPtr, chainRecordsPtr, batchMax,
  digestBegin, digestItem, digestStream, digestUpdate, hasDigest, probeRecords,
} from "./index";
