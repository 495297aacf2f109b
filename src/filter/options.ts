// Parameter checks and the scheme registry, shared by the wasm filter and
// its reference twin so that both refuse exactly the same inputs.

import { BloomMismatchError, BloomRangeError, BloomTypeError } from '../errors.js';
import { isBytes } from '../wasm/typed-arrays.js';
import { readOptions, type OptionRecord } from './read-options.js';

export { SCHEMES, type FilterParams, type Scheme } from '../wasm/inputs.js';
import { SCHEMES, type FilterParams, type Scheme } from '../wasm/inputs.js';

/** The schemes that hash with XXH64 and so take a seed. */
const SEEDED: readonly Scheme[] = ['xxh64', 'sbbf'];

/** Bits per sbbf block: eight 32-bit words (Parquet BloomFilter.md). */
export const SBBF_BLOCK_BITS = 256;

/** Hashes per item under sbbf: one bit in each of a block's eight words. */
export const SBBF_HASHES = 8;

/**
 * The largest addedCount a file holds: 2^53 - 1, the largest integer a JS
 * number keeps exact. Counts saturate there (union sums two counts, so 53
 * self-unions of a one-item filter would pass it), and so every count a
 * filter reports is one that toBytes writes and fromBytes reads back.
 */
export const MAX_ADDED_COUNT = Number.MAX_SAFE_INTEGER;

/**
 * The most bits a filter may have: what fits in the 4 GiB of a wasm32 memory
 * after 128 KiB kept for the scratch region and statics (2^35 - 2^20).
 */
export const MAX_BITS = (2 ** 32 - 2 ** 17) * 8;

/** The most hash positions per item. */
export const MAX_HASHES = 64;

/** The most shards a split filter (bloomwasm/redis) may have. */
export const MAX_SHARDS = 65536;

/** Construction options shared by every filter. */
export interface FilterOptions {
  /** Hash scheme; default `xxh64`. */
  scheme?: Scheme;
  /** XXH64 seed, an unsigned 64-bit integer; default 0. Only `xxh64` and `sbbf` use it (sbbf is Parquet's only at 0). */
  seed?: number | bigint;
  /**
   * Put the bits in shared memory from the start, for share() and attach()
   * across threads (docs/SHARED.md); default false.
   */
  shared?: boolean;
}

/** The fields of FilterOptions, as readFilterOptions reads them. */
const FILTER_OPTION_NAMES = ['scheme', 'seed', 'shared'] as const;

/** FilterOptions read once (readFilterOptions): what the checks below take. */
export type FilterOptionRecord = OptionRecord<(typeof FILTER_OPTION_NAMES)[number]>;

/**
 * Reads a filter's options once; a class reads them with this first and
 * hands the record to checkParams, checkShared and schemeOption, which
 * then read nothing of the caller's again. BloomTypeError naming `options`
 * for anything but an object (not an array) or undefined.
 */
export function readFilterOptions(options: FilterOptions | FilterOptionRecord | undefined): FilterOptionRecord {
  return readOptions(options, FILTER_OPTION_NAMES, 'an object or undefined');
}

const U64_LIMIT = 1n << 64n;

/** Checks `value` is an integer in [min, max]; the error names `parameter`. */
export function checkInteger(parameter: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number') throw new BloomTypeError(parameter, value, `an integer in [${min}, ${max}]`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new BloomRangeError(parameter, value, `an integer in [${min}, ${max}]`);
  }
  return value;
}

/** Checks and normalises the constructor's arguments. */
export function checkParams(bits: unknown, hashes: unknown, options: FilterOptions | FilterOptionRecord | undefined): FilterParams {
  const m = checkInteger('bits', bits, 1, MAX_BITS);
  const k = checkInteger('hashes', hashes, 1, MAX_HASHES);
  const o = readFilterOptions(options);
  const scheme = schemeOption(o);
  const schemeId = SCHEMES.indexOf(scheme);
  const seed = checkSeed(o.seed);
  if (scheme === 'xxh64' && k > m) {
    throw new BloomRangeError('hashes', k, `at most bits (${m}) under xxh64, whose positions are distinct`);
  }
  checkSchemeSeed(scheme, seed, o.seed);
  if (scheme === 'sbbf') checkSbbfShape(m, k);
  return { bits: m, hashes: k, scheme, schemeId, seed };
}

/** The `shared` option, checked: a boolean or undefined (false). */
export function checkShared(options: FilterOptions | FilterOptionRecord | undefined): boolean {
  const shared = readFilterOptions(options).shared;
  if (shared !== undefined && typeof shared !== 'boolean') throw new BloomTypeError('shared', shared, 'a boolean');
  return shared === true;
}

/** Throws unless `seed` is 0 or the scheme takes a seed; the error shows `given`. */
export function checkSchemeSeed(scheme: Scheme, seed: bigint, given: unknown): void {
  if (!SEEDED.includes(scheme) && seed !== 0n) {
    throw new BloomRangeError('seed', given, `0 under ${scheme}, which has no seed`);
  }
}

/** Throws unless m and k fit sbbf: k = 8 and m a multiple of 256 (whole blocks). */
export function checkSbbfShape(bits: number, hashes: number): void {
  if (hashes !== SBBF_HASHES) {
    throw new BloomRangeError('hashes', hashes, `exactly ${SBBF_HASHES} under sbbf (one bit in each word of a block)`);
  }
  if (bits % SBBF_BLOCK_BITS !== 0) {
    throw new BloomRangeError('bits', bits, `a multiple of ${SBBF_BLOCK_BITS} under sbbf (whole 256-bit blocks), at most ${MAX_BITS}`);
  }
}

/** The scheme an options object asks for (default xxh64), checked; for sizing before construction. */
export function schemeOption(options: FilterOptions | FilterOptionRecord | undefined): Scheme {
  const scheme = readFilterOptions(options).scheme;
  if (scheme === undefined) return 'xxh64';
  if (!SCHEMES.includes(scheme as Scheme)) throw new BloomRangeError('scheme', scheme, `one of ${SCHEMES.join(', ')}`);
  return scheme as Scheme;
}

/**
 * Checks a seed is an unsigned 64-bit integer, given as a number or a
 * bigint; undefined (an absent option) is seed 0, the constant 0n rather
 * than a BigInt made on every construction.
 */
export function checkSeed(seed: unknown): bigint {
  if (seed === undefined) return 0n;
  const allowed = 'an integer in [0, 2^64 - 1] (a bigint, or a safe-integer number)';
  if (typeof seed === 'bigint') {
    if (seed < 0n || seed >= U64_LIMIT) throw new BloomRangeError('seed', seed, allowed);
    return seed;
  }
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new BloomRangeError('seed', seed, allowed);
    return BigInt(seed);
  }
  throw new BloomTypeError('seed', seed, allowed);
}

/** Throws unless `item` is a string or a Uint8Array. */
export function checkItem(item: unknown): asserts item is string | Uint8Array {
  if (typeof item !== 'string' && !isBytes(item)) {
    throw new BloomTypeError('item', item, 'a string or a Uint8Array');
  }
}

/** What set algebra compares. */
interface Shape {
  bits: number;
  hashes: number;
  scheme: Scheme;
  seed: bigint;
}

/**
 * Throws BloomMismatchError unless the two filters have equal bits, hashes,
 * scheme and seed: only then does one item map to the same positions in
 * both, so that OR and AND of the bits mean union and intersection.
 */
export function checkCompatible(operation: string, a: Shape, b: Shape): void {
  const differences: Array<[string, unknown, unknown]> = [];
  for (const key of ['bits', 'hashes', 'scheme', 'seed'] as const) {
    if (a[key] !== b[key]) differences.push([key, a[key], b[key]]);
  }
  if (differences.length > 0) throw new BloomMismatchError(operation, differences);
}
