// The value that "hash once, probe many" passes around: an item's 64-bit
// XXH64 digest and the seed it was computed with. Shared by the wasm path
// (src/filter/digest.ts) and the reference twin (src/reference/digest.ts),
// so a digest from either serves filters of either.

import { BloomDigestError, BloomRangeError, BloomTypeError } from '../errors.js';
import { checkItem } from './options.js';
import { checkNoneDisposed } from './dispose.js';
import type { Item } from './items.js';
import { high32, low32 } from '../wasm/inputs.js';

/**
 * An item's XXH64 digest under `seed`, as two u32 halves (no BigInt on the
 * hot path). Its fields are readonly; it is not frozen, because
 * Object.freeze in a constructor costs more than the hash (measured).
 */
export class Digest {
  /** Bits 0..31 of the digest. */
  readonly lo: number;
  /** Bits 32..63 of the digest. */
  readonly hi: number;
  /** The XXH64 seed it was computed with; it serves only filters with this seed. */
  readonly seed: bigint;

  /** A digest from its halves; use digest(item, { seed }) or Digest.fromValue rather than this. */
  constructor(lo: number, hi: number, seed: bigint) {
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
    this.seed = seed;
  }

  /** A digest from its 64-bit value, e.g. one stored earlier as `digest.value`. */
  static fromValue(value: bigint, seed: bigint = 0n): Digest {
    if (typeof value !== 'bigint' || value < 0n || value >= 1n << 64n) {
      throw new BloomTypeError('value', value, 'a bigint in [0, 2^64 - 1]');
    }
    if (typeof seed !== 'bigint' || seed < 0n || seed >= 1n << 64n) {
      throw new BloomTypeError('seed', seed, 'a bigint in [0, 2^64 - 1]');
    }
    return new Digest(low32(value), high32(value), seed);
  }

  /** The 64-bit digest. */
  get value(): bigint {
    return (BigInt(this.hi) << 32n) | BigInt(this.lo);
  }
}

/** Options of digest(). */
export interface DigestOptions {
  /** The XXH64 seed of the filters the digest is for; default 0. */
  seed?: number | bigint;
}

/**
 * The schemes whose positions come from one 64-bit hash of the item alone
 * (XXH64 under the filter's seed), so that a digest serves filters of any
 * size. poly and bytesum are not among them: their hashes are reduced mod m
 * as they are computed.
 */
export const DIGEST_SCHEMES: readonly string[] = ['xxh64', 'sbbf'];

/** What a digest needs to know of a filter. */
interface Seeded {
  readonly scheme: string;
  readonly seed: bigint;
}

/** Throws unless `d` is a Digest that `filter` can use for `operation`. */
export function checkDigest(filter: Seeded, d: unknown, operation: string): asserts d is Digest {
  if (!(d instanceof Digest)) throw new BloomTypeError('digest', d, 'a Digest from digest(item, { seed })');
  if (!DIGEST_SCHEMES.includes(filter.scheme)) {
    throw new BloomDigestError(
      operation,
      'scheme',
      `the ${filter.scheme} scheme has no digest, because its hashes depend on the filter's bits (m); ` +
        `use has/add with the item (digests serve the ${DIGEST_SCHEMES.join(' and ')} schemes)`,
    );
  }
  if (d.seed !== filter.seed) {
    throw new BloomDigestError(
      operation,
      'seed',
      `the digest was computed with seed ${d.seed}n but the filter's seed is ${filter.seed}n; ` +
        `compute it with digest(item, { seed: filter.seed })`,
    );
  }
}

/** A filter probeAll can ask: by digest under the xxh64 family, by item otherwise. */
export interface ProbeTarget {
  readonly scheme: string;
  readonly seed: bigint;
  has(item: Item): boolean;
  hasDigest(d: Digest): boolean;
}

/**
 * The answers array of probeAll for `n` filters: `into` when given (a
 * Uint8Array of exactly n elements, refused by name otherwise), else a new
 * one. A caller that asks key after key passes the same array each time:
 * a new Uint8Array of more than 64 bytes lives outside the JS heap, and
 * making one (calloc, and its free on the collector's thread) costs a
 * large share of a probeAll (docs/BENCHMARKS.md has the figures).
 */
export function probeAnswers(n: number, into: Uint8Array | undefined): Uint8Array {
  if (into === undefined) return new Uint8Array(n);
  if (!(into instanceof Uint8Array)) throw new BloomTypeError('into', into, 'a Uint8Array (or undefined)');
  if (into.length !== n) throw new BloomRangeError('into.length', into.length, `${n}, the number of filters`);
  return into;
}

/**
 * probeAll over a digest function: the item is encoded and hashed once per
 * distinct seed among the filters (once when they share one), and each
 * xxh64-family filter is asked with that digest; a poly or bytesum filter
 * is asked with the item itself (its hash depends on its own m).
 */
export function probeAllWith(
  digestOf: (item: Item, seed: bigint) => Digest,
  filters: readonly ProbeTarget[],
  item: Item,
  into?: Uint8Array,
): Uint8Array {
  if (!Array.isArray(filters)) throw new BloomTypeError('filters', filters, 'an array of filters');
  checkItem(item);
  const out = probeAnswers(filters.length, into);
  checkNoneDisposed('probeAll', filters);
  let d: Digest | undefined;
  for (let i = 0; i < filters.length; i++) {
    const f = filters[i];
    if (f === null || typeof f !== 'object' || typeof f.hasDigest !== 'function') {
      throw new BloomTypeError(`filters[${i}]`, f, 'a filter (BloomFilter, CountingBloomFilter or ScalableBloomFilter)');
    }
    if (!DIGEST_SCHEMES.includes(f.scheme)) {
      out[i] = f.has(item) ? 1 : 0;
      continue;
    }
    if (d === undefined || d.seed !== f.seed) d = digestOf(item, f.seed);
    out[i] = f.hasDigest(d) ? 1 : 0;
  }
  return out;
}
