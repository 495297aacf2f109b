// Where a split filter lives in Redis.
//
//   {name}:config     hash: format, m, k, scheme, seed, shards, ... (one per filter)
//   {name:s}          string: shard s's bitmap, ceil(shardBits / 8) bytes
//   {name:s}:meta     hash: config (fingerprint), added (new adds counted)
//
// A shard's two keys share the hash tag {name:s}, so every script call
// touches one cluster slot (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#hash-tags),
// and different shards spread over the cluster's nodes.

import { BloomRangeError, BloomTypeError } from '../errors.js';

/** The layout version stored in the configuration hash. */
export const FORMAT_VERSION = 1;

/** Bits in one shard at most: a Redis string holds 512 MiB, and BITFIELD offsets stop at 2^32 - 1. */
export const MAX_SHARD_BITS = 2 ** 32;

/** Checks a filter name: 1 to 200 characters, no braces (they would break the hash tags). */
export function checkName(name: unknown): string {
  const allowed = 'a string of 1 to 200 characters without { or }';
  if (typeof name !== 'string') throw new BloomTypeError('name', name, allowed);
  if (name.length < 1 || name.length > 200 || /[{}]/.test(name)) throw new BloomRangeError('name', name, allowed);
  return name;
}

/** The configuration hash's key. */
export function configKey(name: string): string {
  return `{${name}}:config`;
}

/** Shard s's bitmap key. */
export function bitmapKey(name: string, shard: number): string {
  return `{${name}:${shard}}`;
}

/** Shard s's meta hash key (same hash tag as its bitmap). */
export function metaKey(name: string, shard: number): string {
  return `{${name}:${shard}}:meta`;
}

/** The parameters every shard's meta hash must match, as one string the scripts compare. */
export function fingerprint(shardBits: number, hashes: number, scheme: string, seed: bigint, shards: number): string {
  return `bloomwasm/${FORMAT_VERSION} bits=${shardBits} hashes=${hashes} scheme=${scheme} seed=${seed} shards=${shards}`;
}

/**
 * The Redis bit offset of position p. Redis numbers bits from the most
 * significant bit of each byte (SETBIT), the local filter from the least
 * (bit p is bit p & 7 of byte p >> 3); flipping the low three bits (p ^ 7)
 * makes a shard's string byte-for-byte equal to BloomFilter.bitArray().
 * Written without ^ because JS bit operators truncate p >= 2^31.
 */
export function redisOffset(p: number): number {
  return p + 7 - 2 * (p & 7);
}
