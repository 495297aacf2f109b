// The reference twin of assembly/shard.ts: which shard of a split filter
// (bloomwasm/redis) an item belongs to, from a mix of its hash that the
// positions do not use.

import { splitmix64 } from './hash.js';

const MASK64 = (1n << 64n) - 1n;

/** splitmix64's state increment, the golden-ratio gamma (Steele, Lea and Flood, 2014). */
const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;

/** splitmix64 of the state after h: independent of h mod m and splitmix64(h) mod m. */
export function shardMix(h: bigint): bigint {
  return splitmix64((h + GOLDEN_GAMMA) & MASK64);
}

/** The top 32 bits of the mix mapped onto [0, shards) by multiply-shift (Lemire, 2019). */
export function shardIndex(h: bigint, shards: number): number {
  return Number(((shardMix(h) >> 32n) * BigInt(shards)) >> 32n);
}

/** poly's and bytesum's two probe values packed into one u64, h1 in the high half. */
export function pairKey(h1: number, h2: number): bigint {
  return ((BigInt(h1) << 32n) ^ BigInt(h2)) & MASK64;
}
