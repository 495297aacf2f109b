// The exported ABI of the exercise module: the calls of a Bloom filter of
// the poly or bytesum scheme (assembly/exercise.ts), whose record is in the
// memory of the core instance that holds it (the core's create makes it,
// as any Bloom filter's). A module of its own, so that only a bundle that
// uses those schemes carries their hashing. Like every family module
// (assembly/lines-module.ts says how), it imports the core instance's
// memory and has no statics (assembly/layout.ts's STATICS_END).
// src/wasm/exercise.ts instantiates it, once per core instance, at the
// first call on such a filter there.

export {
  add, addBatch, addString, has, hasBatch, hasString, positions, shardPositions, streamAdd, streamBegin, streamHas,
  streamPositions, streamShardPositions, streamUpdate,
} from "./exercise";
