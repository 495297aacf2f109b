// The exported ABI of the counting Bloom filter's module: its records of
// KIND_COUNTING (assembly/counting.ts) in the memory of the core instance
// that holds them. A module of its own, so that only a bundle that uses
// the counting filter carries it. Like every family module
// (assembly/lines-module.ts says how), it imports the core instance's
// memory and the core's createRecord (assembly/core-calls.ts) and has no
// statics (assembly/layout.ts's STATICS_END). It hashes every scheme,
// poly and bytesum included, which the core leaves out: an item streamed
// into a counting filter is begun, fed and finished here. The core's walks over many records (probeAll,
// assembly/digest.ts) leave counting filters to JS, which asks each here.
// src/wasm/counting.ts instantiates it, once per core instance, at a
// counting filter's first record there.

export {
  countingBatch, countingBitsChunk, countingChecksumCounters, countingClear, countingCreate, countingDigest, countingHeld,
  countingItem, countingNonzero, countingPositions, countingRestore, countingSaturated, countingStream, countingStreamBegin,
  countingStreamPositions, countingStreamUpdate,
} from "./counting";
