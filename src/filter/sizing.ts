// Sizing math for a Bloom filter of m bits, capacity n items and k hashes.
// False-positive rate: Bloom, "Space/Time Trade-offs in Hash Coding with
// Allowable Errors", CACM 13(7), 1970; the optimum and the lower bound are
// derived in Broder and Mitzenmacher, "Network Applications of Bloom
// Filters: A Survey", Internet Mathematics 1(4), 2004.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { MAX_HASHES } from './options.js';

function checkCount(parameter: string, value: unknown): number {
  if (typeof value !== 'number') throw new BloomTypeError(parameter, value, 'a positive integer');
  if (!Number.isSafeInteger(value) || value < 1) throw new BloomRangeError(parameter, value, 'a positive integer');
  return value;
}

function checkRate(parameter: string, value: unknown): number {
  if (typeof value !== 'number') throw new BloomTypeError(parameter, value, 'a number in (0, 1)');
  if (!(value > 0 && value < 1)) throw new BloomRangeError(parameter, value, 'a number in (0, 1)');
  return value;
}

/** Bits for n items at false-positive rate p: ceil(-n ln p / (ln 2)^2). */
export function optimalBits(capacity: number, falsePositiveRate: number): number {
  const n = checkCount('capacity', capacity);
  const p = checkRate('falsePositiveRate', falsePositiveRate);
  return Math.ceil((-n * Math.log(p)) / (Math.LN2 * Math.LN2));
}

/** Hashes that minimise the false-positive rate: max(1, round((m/n) ln 2)), at most 64. */
export function optimalHashes(bits: number, capacity: number): number {
  const m = checkCount('bits', bits);
  const n = checkCount('capacity', capacity);
  return Math.min(MAX_HASHES, Math.max(1, Math.round((m / n) * Math.LN2)));
}

/** Expected false-positive rate once n = capacity items are in: (1 - e^(-kn/m))^k. */
export function falsePositiveRate(bits: number, capacity: number, hashes: number): number {
  const m = checkCount('bits', bits);
  const k = checkCount('hashes', hashes);
  if (typeof capacity !== 'number') throw new BloomTypeError('capacity', capacity, 'a non-negative integer');
  if (!Number.isSafeInteger(capacity) || capacity < 0) {
    throw new BloomRangeError('capacity', capacity, 'a non-negative integer');
  }
  return Math.pow(1 - Math.exp((-k * capacity) / m), k);
}

/**
 * The information-theoretic lower bound on bits for n items at rate p,
 * n log2(1/p) / ln 2 = 1.44 n log2(1/p): no filter with these guarantees
 * can be smaller (the visited-queue article derives it). A real value, not rounded.
 */
export function minimumBits(capacity: number, falsePositiveRate: number): number {
  const n = checkCount('capacity', capacity);
  const p = checkRate('falsePositiveRate', falsePositiveRate);
  return (n * Math.log2(1 / p)) / Math.LN2;
}

/**
 * The m and k that forCapacity builds: m = optimalBits(n, p) and
 * k = optimalHashes(m, n), refused when m exceeds `maxBits`.
 */
export function capacityParams(capacity: number, rate: number, maxBits: number): { bits: number; hashes: number } {
  const bits = optimalBits(capacity, rate);
  if (bits > maxBits) {
    throw new BloomRangeError(
      'capacity',
      capacity,
      `small enough that ${bits} bits (needed at falsePositiveRate ${rate}) stay within ${maxBits}`,
    );
  }
  return { bits, hashes: Math.min(bits, optimalHashes(bits, capacity)) };
}

/**
 * The number of distinct items behind X set bits out of m with k hashes:
 * n ≈ -(m/k) ln(1 - X/m) (Swamidass and Baldi, "Mathematical correction for
 * fingerprint similarity measures to improve chemical retrieval", Journal of
 * Chemical Information and Modeling 47(3), 952-964, 2007). Infinity once
 * every bit is set, where the estimate has no finite answer.
 */
export function estimatedCountOf(bits: number, hashes: number, bitsSet: number): number {
  if (bitsSet >= bits) return Infinity;
  return (-bits / hashes) * Math.log1p(-bitsSet / bits);
}

/** The false-positive rate the filter has now: (X/m)^k, the chance that k probes all land on set bits. */
export function currentFalsePositiveRateOf(bits: number, hashes: number, bitsSet: number): number {
  return Math.pow(bitsSet / bits, hashes);
}
