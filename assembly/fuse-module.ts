// The exported ABI of the binary fuse filter's module: its records of
// KIND_FUSE and their queries (assembly/binary-fuse.ts) and its
// construction (assembly/binary-fuse-construction.ts), in the memory of
// the core instance that holds them. A module of its own, so that only a
// bundle that uses the binary fuse filter carries it. Like every family
// module (assembly/lines-module.ts says how), it imports the core
// instance's memory and the core's createRecord, regionAlloc and
// regionFree (assembly/core-calls.ts: the construction's temporaries are
// heap regions), and has no statics (assembly/layout.ts's STATICS_END).
// src/wasm/binary-fuse.ts instantiates it, once per core instance, at a
// binary fuse filter's first record there.

export { fuseChecksumFingerprints, fuseCreate, fuseHasBatch, fuseHasItem, fuseHasKey, fuseHasStream, fuseHasString, fuseKeyBatch, fuseKeyItem, fuseKeyStream, fuseSetShape } from "./binary-fuse";
export { fusePopulate } from "./binary-fuse-construction";
