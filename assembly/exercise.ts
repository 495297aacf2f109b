// The calls of a Bloom filter of the exercise schemes, poly and bytesum
// (the SeenFilter and SSTable exercises' hashes, assembly/hash.ts): the
// bodies of assembly/bloom-calls.ts for EXERCISE_FAMILY alone, so that the
// poly and bytesum hashing is compiled here and not into the core module
// (assembly/index.ts), and none of the xxh64 family's walks, which are the
// core's. Their names and parameters are the core's, so that JS calls
// either module the same way (src/wasm/exercise.ts's callsFor).

import {
  addBatchCall, addCall, addStringCall, hasBatchCall, hasCall, hasStringCall, positionsCall, shardPositionsCall, streamAddCall,
  streamBeginCall, streamHasCall, streamPositionsCall, streamShardPositionsCall, streamUpdateCall,
} from "./bloom-calls";
import { EXERCISE_FAMILY } from "./scheme";

export function add(r: usize, generation: u32, len: u32, wide: bool): i32 {
  return addCall(r, generation, len, wide, EXERCISE_FAMILY);
}

export function has(r: usize, generation: u32, len: u32, wide: bool): i32 {
  return hasCall(r, generation, len, wide, EXERCISE_FAMILY);
}

export function addString(s: externref, r: usize, generation: u32): i32 {
  return addStringCall(s, r, generation, EXERCISE_FAMILY);
}

export function hasString(s: externref, r: usize, generation: u32): i32 {
  return hasStringCall(s, r, generation, EXERCISE_FAMILY);
}

export function positions(r: usize, generation: u32, len: u32, wide: bool): i32 {
  return positionsCall(r, generation, len, wide, EXERCISE_FAMILY);
}

export function shardPositions(r: usize, generation: u32, len: u32, wide: bool, shards: u32): i32 {
  return shardPositionsCall(r, generation, len, wide, shards, EXERCISE_FAMILY);
}

export function streamShardPositions(r: usize, generation: u32, shards: u32): i32 {
  return streamShardPositionsCall(r, generation, shards, EXERCISE_FAMILY);
}

export function streamBegin(r: usize, generation: u32, wide: bool): i32 {
  return streamBeginCall(r, generation, wide, EXERCISE_FAMILY);
}

export function streamUpdate(r: usize, generation: u32, len: u32): i32 {
  return streamUpdateCall(r, generation, len, EXERCISE_FAMILY);
}

export function streamAdd(r: usize, generation: u32): i32 {
  return streamAddCall(r, generation, EXERCISE_FAMILY);
}

export function streamHas(r: usize, generation: u32): i32 {
  return streamHasCall(r, generation, EXERCISE_FAMILY);
}

export function streamPositions(r: usize, generation: u32): i32 {
  return streamPositionsCall(r, generation, EXERCISE_FAMILY);
}

export function addBatch(r: usize, generation: u32, count: u32, wide: bool): i32 {
  return addBatchCall(r, generation, count, wide, EXERCISE_FAMILY);
}

export function hasBatch(r: usize, generation: u32, count: u32, wide: bool): i32 {
  return hasBatchCall(r, generation, count, wide, EXERCISE_FAMILY);
}
