// Which shard of a split filter an item belongs to (bloomwasm/redis keeps one
// Redis bitmap per shard). The shard must not depend on the item's positions:
// if it did, the items of one shard would crowd a subset of its bits and raise
// its false-positive rate. So it comes from a separate mix of the item's hash.
// The pure-TypeScript twin is src/reference/shard.ts.

import { splitmix64 } from "./hash";

/** splitmix64's state increment, the golden-ratio gamma (Steele, Lea and Flood, 2014). */
const GOLDEN_GAMMA: u64 = 0x9e3779b97f4a7c15;

/**
 * The shard's own 64 random-looking bits: splitmix64 of the next state after
 * h. The xxh64 probes use h mod m and splitmix64(h) mod m; consecutive
 * splitmix64 outputs are statistically independent (they pass BigCrush), so
 * this mix carries no information about the positions.
 */
// @ts-ignore: decorator
@inline export function shardMix(h: u64): u64 {
  return splitmix64(h + GOLDEN_GAMMA);
}

/**
 * Maps the top 32 bits of the mix onto [0, shards) by multiply-shift
 * (Lemire, "Fast Random Integer Generation in an Interval", 2019): no
 * division, and the low bits that a mod would use are not consulted.
 */
// @ts-ignore: decorator
@inline export function shardIndex(h: u64, shards: u32): u32 {
  return <u32>(((shardMix(h) >> 32) * <u64>shards) >> 32);
}

/**
 * The single u64 that poly and bytesum items are sharded by: the two values
 * their probes start from (poly's h1 and h2; bytesum's h1 mod m and h2),
 * h1 in the high half, since those schemes compute no 64-bit hash.
 */
// @ts-ignore: decorator
@inline export function pairKey(h1: u64, h2: u64): u64 {
  return (h1 << 32) ^ h2;
}
