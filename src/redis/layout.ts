// Where a split filter lives in Redis.
//
//   {name}:config     hash: format, m, k, scheme, seed, shards, epoch, ... (one per filter)
//   {name:s}          string: shard s's bitmap, ceil(shardBits / 8) bytes
//   {name:s}:meta     hash: config (fingerprint), added (new adds counted)
//
// A shard's two keys share the hash tag {name:s}, so every script call
// touches one cluster slot (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#hash-tags),
// and different shards spread over the cluster's nodes.

import { randomBytes } from 'node:crypto';
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

/**
 * The parameters every shard's meta hash must match, as one string the
 * scripts compare. The epoch (random, drawn by the reserve that stored the
 * configuration) tells one incarnation of a name from the next: a handle of
 * a filter that was dropped or recreated with the same parameters is
 * refused by the new shards instead of reading them as its own. Filters
 * reserved before epochs existed have none, and keep their fingerprint.
 */
export function fingerprint(shardBits: number, hashes: number, scheme: string, seed: bigint, shards: number, epoch: string | null): string {
  const base = `bloomwasm/${FORMAT_VERSION} bits=${shardBits} hashes=${hashes} scheme=${scheme} seed=${seed} shards=${shards}`;
  return epoch === null ? base : `${base} epoch=${epoch}`;
}

/** A fresh epoch: 64 random bits in hex. */
export function newEpoch(): string {
  return randomBytes(8).toString('hex');
}

/** Whether a stored epoch has newEpoch's form. */
export function isEpoch(text: string): boolean {
  return /^[0-9a-f]{16}$/.test(text);
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
