// Sizing math for a Bloom filter of m bits, n items and k hashes.
// False-positive rate: Bloom, "Space/Time Trade-offs in Hash Coding with
// Allowable Errors", CACM 13(7), 1970; the optimum and the lower bound are
// derived in Broder and Mitzenmacher, "Network Applications of Bloom
// Filters: A Survey", Internet Mathematics 1(4), 2004. The blocked (sbbf)
// rate is Putze, Sanders and Singler, "Cache-, Hash- and Space-Efficient
// Bloom Filters", 2007, with the block layout of Apache Parquet's
// BloomFilter.md.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { MAX_HASHES, SBBF_BLOCK_BITS, SBBF_HASHES, type Scheme } from './options.js';

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

/** Expected false-positive rate after n items: (1 - e^(-kn/m))^k. */
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
 * The expected false-positive rate of an sbbf filter of `bits` bits
 * (z = bits / 256 blocks) after n distinct items. A block's load is
 * Poisson with mean n / z; a block holding i items has, in each of its eight
 * 32-bit words, a given bit still 0 with chance (1 - 1/32)^i, and an absent
 * item is reported when its eight bits are all 1:
 *   sum over i of Pois(i; n/z) * (1 - (1 - 1/32)^i)^8
 * (Putze, Sanders and Singler 2007, section 3, with one bit per word as in
 * Parquet's BloomFilter.md).
 */
export function sbbfFalsePositiveRate(bits: number, capacity: number): number {
  const m = checkCount('bits', bits);
  if (m % SBBF_BLOCK_BITS !== 0) throw new BloomRangeError('bits', bits, `a multiple of ${SBBF_BLOCK_BITS}`);
  if (typeof capacity !== 'number') throw new BloomTypeError('capacity', capacity, 'a non-negative number');
  if (!(capacity >= 0)) throw new BloomRangeError('capacity', capacity, 'a non-negative number');
  if (capacity === Infinity) return 1;
  return blockedRate(capacity / (m / SBBF_BLOCK_BITS));
}

/** The chance an absent item hits 8 set bits in one block of i items: (1 - (31/32)^i)^8. */
function blockRate(i: number): number {
  return Math.pow(1 - Math.pow(31 / 32, i), SBBF_HASHES);
}

/**
 * A block load from which blockedRate is 1 in doubles: blockRate(i) rounds
 * to 1 for i >= 1225 (8 (31/32)^i < 2^-53), and a Poisson load of mean 3000
 * falls below 1225 with chance under e^-600 (Chernoff bound).
 */
const BLOCK_LOAD_ALL_SET = 3000;

/**
 * sum_i Pois(i; lambda) blockRate(i). The Poisson weights are walked outward
 * from the mode with the ratio p(i+1)/p(i) = lambda/(i+1) and normalised by
 * their own sum, so no factorial or log-gamma is needed; the walk stops once
 * a weight is below 1e-17 of the mode's (blockRate is at most 1), which
 * takes O(sqrt(lambda)) steps.
 */
function blockedRate(lambda: number): number {
  if (lambda === 0) return 0;
  // Past BLOCK_LOAD_ALL_SET items per block the sum is 1 in doubles, and the
  // walk would take O(sqrt(lambda)) steps (and never end once i + 1 === i).
  if (lambda >= BLOCK_LOAD_ALL_SET) return 1;
  const mode = Math.floor(lambda);
  let weights = 1;
  let sum = blockRate(mode);
  for (let i = mode, w = 1; w > 1e-17; i++) {
    w *= lambda / (i + 1);
    weights += w;
    sum += w * blockRate(i + 1);
  }
  for (let i = mode, w = 1; i > 0 && w > 1e-17; i--) {
    w *= i / lambda;
    weights += w;
    sum += w * blockRate(i - 1);
  }
  return sum / weights;
}

/** The most blocks whose bits (256 per block) are still a safe integer. */
const MAX_SAFE_BLOCKS = Math.floor(Number.MAX_SAFE_INTEGER / SBBF_BLOCK_BITS);

/**
 * The fewest bits, a multiple of 256, at which an sbbf filter holding n items
 * has sbbfFalsePositiveRate at most p. Starts from Parquet's estimate of
 * -8 / ln(1 - p^(1/8)) bits per item (BloomFilter.md, "Build a Bloom
 * filter") and bisects on the block count, the rate falling as blocks grow.
 */
export function sbbfOptimalBits(capacity: number, falsePositiveRate: number): number {
  const n = checkCount('capacity', capacity);
  const p = checkRate('falsePositiveRate', falsePositiveRate);
  const rateAt = (blocks: number) => blockedRate(n / blocks);
  // k = 8 is fixed, so the rate falls only as about (8n/m)^8: below about
  // 1e-28 even one item needs more than 2^53 bits. The search stays at or
  // below MAX_SAFE_BLOCKS, where block counts are exact and the bisection ends.
  let high = Math.min(MAX_SAFE_BLOCKS, Math.max(1, Math.ceil((-SBBF_HASHES / Math.log1p(-Math.pow(p, 1 / SBBF_HASHES)) * n) / SBBF_BLOCK_BITS)));
  while (rateAt(high) > p) {
    if (high === MAX_SAFE_BLOCKS) {
      throw new BloomRangeError(
        'falsePositiveRate',
        p,
        `at least ${rateAt(MAX_SAFE_BLOCKS)} under sbbf for capacity ${n} (a lower rate needs more than 2^53 bits)`,
      );
    }
    high = Math.min(MAX_SAFE_BLOCKS, high * 2);
  }
  let low = 0; // rateAt(low) > p, or low = 0
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (rateAt(mid) > p) low = mid;
    else high = mid;
  }
  return high * SBBF_BLOCK_BITS;
}

/**
 * The m and k that forCapacity builds for `scheme`: under sbbf,
 * sbbfOptimalBits(n, p) and k = 8; otherwise m = optimalBits(n, p) and
 * k = optimalHashes(m, n), at most m. Not yet checked against any limit.
 */
export function schemeSize(capacity: number, rate: number, scheme: Scheme): { bits: number; hashes: number } {
  if (scheme === 'sbbf') return { bits: sbbfOptimalBits(capacity, rate), hashes: SBBF_HASHES };
  const bits = optimalBits(capacity, rate);
  return { bits, hashes: Math.min(bits, optimalHashes(bits, capacity)) };
}

/**
 * The m and k that forCapacity builds (schemeSize), refused when m exceeds
 * `maxBits`.
 */
export function capacityParams(
  capacity: number, rate: number, maxBits: number, scheme: Scheme = 'xxh64',
): { bits: number; hashes: number } {
  const { bits, hashes } = schemeSize(capacity, rate, scheme);
  if (bits > maxBits) {
    throw new BloomRangeError(
      'capacity',
      capacity,
      `small enough that ${bits} bits (needed at falsePositiveRate ${rate}) stay within ${maxBits}`,
    );
  }
  return { bits, hashes };
}

/**
 * The number of distinct items behind X set bits out of m with k hashes:
 * n ≈ -(m/k) ln(1 - X/m) (Swamidass and Baldi, "Mathematical correction for
 * fingerprint similarity measures to improve chemical retrieval", Journal of
 * Chemical Information and Modeling 47(3), 952-964, 2007). Infinity once
 * every bit is set, where the estimate has no finite answer. It holds for
 * sbbf (k = 8) as it is: a block of i items keeps a given bit of a word 0
 * with chance (31/32)^i, and over a Poisson load of mean n/z that averages
 * e^(-n/(32z)) = e^(-8n/m), the classic filter's e^(-kn/m).
 */
export function estimatedCountOf(bits: number, hashes: number, bitsSet: number): number {
  if (bitsSet >= bits) return Infinity;
  return (-bits / hashes) * Math.log1p(-bitsSet / bits);
}

/**
 * The false-positive rate the filter has now. Classic schemes: (X/m)^k, the
 * chance that k probes all land on set bits. sbbf: its eight probes share
 * one block, and blocks fill unevenly, so (X/m)^8 would understate it; the
 * rate is sbbfFalsePositiveRate at the estimated count instead.
 */
export function currentFalsePositiveRateOf(bits: number, hashes: number, bitsSet: number, scheme: Scheme = 'xxh64'): number {
  if (scheme === 'sbbf') return bitsSet >= bits ? 1 : blockedRate(estimatedCountOf(bits, hashes, bitsSet) / (bits / SBBF_BLOCK_BITS));
  return Math.pow(bitsSet / bits, hashes);
}
