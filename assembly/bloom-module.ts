// The exported ABI of the Bloom filter's module: the calls on an item and a
// batch of a filter of the xxh64 family (assembly/bloom.ts), a digest's
// test and add (assembly/digest.ts), and the set algebra over its bits
// (assembly/filter.ts), whose record is in the memory of the core instance
// that holds it (the core's create makes it). A module of its own, so that
// a bundle of another family does not carry the Bloom filter's hashing and
// probing. Like every family module (assembly/lines-module.ts says how), it
// imports the core instance's memory and has no statics
// (assembly/layout.ts's STATICS_END). src/wasm/bloom-module.ts
// instantiates it, once per core instance, at the first Bloom filter there.

export {
  add, addBatch, addString, has, hasBatch, hasString, positions, shardPositions, streamAdd, streamBegin, streamHas,
  streamPositions, streamShardPositions, streamUpdate,
} from "./bloom";
export { addDigest, hasDigest } from "./digest";
export { combineAt, intersectScratch, unionScratch } from "./filter";
