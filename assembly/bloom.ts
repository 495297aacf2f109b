// The Bloom filter's calls on one item and on a batch
// (assembly/bloom-calls.ts), under every scheme: the xxh64 family (xxh64,
// sbbf) and the exercise schemes (poly, bytesum). The Bloom filter's
// module exports them (assembly/bloom-module.ts).

import {
  addBatchCall, addCall, addStringCall, hasBatchCall, hasCall, hasStringCall, positionsCall, shardPositionsCall, streamAddCall,
  streamBeginCall, streamHasCall, streamPositionsCall, streamShardPositionsCall, streamUpdateCall,
} from "./bloom-calls";
import { EVERY_SCHEME } from "./scheme";

export function add(r: usize, generation: u32, len: u32, wide: bool): i32 {
  return addCall(r, generation, len, wide, EVERY_SCHEME);
}

export function has(r: usize, generation: u32, len: u32, wide: bool): i32 {
  return hasCall(r, generation, len, wide, EVERY_SCHEME);
}

export function addString(s: externref, r: usize, generation: u32): i32 {
  return addStringCall(s, r, generation, EVERY_SCHEME);
}

export function hasString(s: externref, r: usize, generation: u32): i32 {
  return hasStringCall(s, r, generation, EVERY_SCHEME);
}

export function positions(r: usize, generation: u32, len: u32, wide: bool): i32 {
  return positionsCall(r, generation, len, wide, EVERY_SCHEME);
}

export function shardPositions(r: usize, generation: u32, len: u32, wide: bool, shards: u32): i32 {
  return shardPositionsCall(r, generation, len, wide, shards, EVERY_SCHEME);
}

export function streamShardPositions(r: usize, generation: u32, shards: u32): i32 {
  return streamShardPositionsCall(r, generation, shards, EVERY_SCHEME);
}

export function streamBegin(r: usize, generation: u32, wide: bool): i32 {
  return streamBeginCall(r, generation, wide, EVERY_SCHEME);
}

export function streamUpdate(r: usize, generation: u32, len: u32): i32 {
  return streamUpdateCall(r, generation, len, EVERY_SCHEME);
}

export function streamAdd(r: usize, generation: u32): i32 {
  return streamAddCall(r, generation, EVERY_SCHEME);
}

export function streamHas(r: usize, generation: u32): i32 {
  return streamHasCall(r, generation, EVERY_SCHEME);
}

export function streamPositions(r: usize, generation: u32): i32 {
  return streamPositionsCall(r, generation, EVERY_SCHEME);
}

export function addBatch(r: usize, generation: u32, count: u32, wide: bool): i32 {
  return addBatchCall(r, generation, count, wide, EVERY_SCHEME);
}

export function hasBatch(r: usize, generation: u32, count: u32, wide: bool): i32 {
  return hasBatchCall(r, generation, count, wide, EVERY_SCHEME);
}
