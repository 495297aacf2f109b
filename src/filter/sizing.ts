// Sizing math for a Bloom filter of m bits, n items and k hashes.
// False-positive rate: Bloom, "Space/Time Trade-offs in Hash Coding with
// Allowable Errors", CACM 13(7), 1970; the optimum and the lower bound are
// derived in Broder and Mitzenmacher, "Network Applications of Bloom
// Filters: A Survey", Internet Mathematics 1(4), 2004. The blocked (sbbf)
// rate is Putze, Sanders and Singler, "Cache-, Hash- and Space-Efficient
// Bloom Filters", 2007, with the block layout of Apache Parquet's
// BloomFilter.md.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { binomialBlockedRate, blockRate, generatorRate, generatorRateBound } from './exact-rate.js';
import { MAX_BITS, MAX_HASHES, SBBF_BLOCK_BITS, SBBF_HASHES, type Scheme } from './options.js';

/** Checks `value` is a positive safe integer; the error names `parameter`. */
export function checkCount(parameter: string, value: unknown): number {
  if (typeof value !== 'number') throw new BloomTypeError(parameter, value, 'a positive integer');
  if (!Number.isSafeInteger(value) || value < 1) throw new BloomRangeError(parameter, value, 'a positive integer');
  return value;
}

/** Checks `value` is a number in (0, 1); the error names `parameter`. */
export function checkRate(parameter: string, value: unknown): number {
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
  return sbbfBitsFor(n, p, (blocks) => blockedRate(n / blocks));
}

/**
 * The fewest bits, a multiple of 256, whose rateAt(blocks) is at most p.
 * Starts from Parquet's estimate of -8 / ln(1 - p^(1/8)) bits per item
 * (BloomFilter.md, "Build a Bloom filter") and bisects on the block count,
 * the rate falling as blocks grow.
 */
function sbbfBitsFor(n: number, p: number, rateAt: (blocks: number) => number): number {
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
 * How m and k follow from n, p and the scheme. Chain files derive their
 * members' sizes from a rule and record which (docs/FORMAT.md, chain
 * version), so a rule, once released, never changes:
 * - 1: the asymptotic formulas (formulaSize), as bloomwasm sized every
 *   filter before rule 2.
 * - 2: rule 1 where its m and k already meet p under the scheme's own
 *   position generator (within FORMULA_TOLERANCE), else the fewest bits at
 *   or above rule 1's that meet p exactly (smallSize; docs/SCHEMES.md,
 *   "Sizing small filters").
 */
export type SizingRule = 1 | 2;

/** The rule new filters and chains are sized by. */
export const SIZING_RULE: SizingRule = 2;

/**
 * How far above p rule 2 lets rule 1's m and k stay. At p = 0.01 the
 * rounded k = 7 of rule 1 has (1 - e^(-7/9.585))^7 = 1.0036 p at any n, so
 * a tolerance below 0.4% would resize every filter at that rate; at 1% big
 * filters keep their m and k (at p = 0.01 from n = 109, at p = 0.001 from
 * n = 1,190, measured) while small ones, whose generator rate runs 5% to
 * 140% above p, are resized.
 */
export const FORMULA_TOLERANCE = 0.01;

/**
 * The lowest p that rule 2 sizes by the generator's rate; below it rule 2
 * is rule 1. Two items share all k positions when they share the pair
 * (a, b) of Z_m x Z_m (docs/SCHEMES.md), which puts a floor of about n/m^2
 * under the rate (and 1/(2m) under plain double hashing, whose step b is 0
 * mod m with chance 1/m). Meeting p = 1e-9 for 10^6 items would take
 * sqrt(2n/p) = 4.5e7 bits instead of 4.3e7 under xxh64, and 1e-12 would take
 * 1.4e9 instead of 5.8e7; below 2^-64 no m meets p, since the 64-bit hash
 * itself collides with chance n/2^64. Those sizes are refused or resized
 * by no rule yet: docs/SCHEMES.md, "Sizing small filters", states the floor.
 */
export const SMALLEST_SEARCHED_RATE = 1e-6;

/**
 * The last size rule 2 gave: an application makes its filters of one shape
 * (one per SSTable, per user), and rule 2's exact rate of the generator
 * costs a 1,000-item filter more than the rest of its construction.
 */
let lastSize: { capacity: number; rate: number; scheme: Scheme; size: Readonly<{ bits: number; hashes: number }> } | undefined;

/**
 * The m and k that forCapacity builds for `scheme` under `rule` (default
 * SIZING_RULE). Not yet checked against any limit. The object may be the
 * one a later call returns too (frozen, so that no caller changes it for
 * the next): callers read its two fields.
 */
export function schemeSize(capacity: number, rate: number, scheme: Scheme, rule: SizingRule = SIZING_RULE): Readonly<{ bits: number; hashes: number }> {
  if (rule === 1) return formulaSize(capacity, rate, scheme);
  // Arguments that were sized before were valid then (NaN never matches).
  if (lastSize !== undefined && lastSize.capacity === capacity && lastSize.rate === rate && lastSize.scheme === scheme) return lastSize.size;
  const size = Object.freeze(ruleTwoSize(capacity, rate, scheme));
  lastSize = { capacity, rate, scheme, size };
  return size;
}

/** Rule 2 (SIZING_RULE): rule 1's size where the rate the scheme's positions give meets p, else the searched one. */
function ruleTwoSize(capacity: number, rate: number, scheme: Scheme): { bits: number; hashes: number } {
  if (scheme === 'sbbf') {
    // Rule 2 takes the larger of Putze's Poisson load and the exact binomial
    // one. The Poisson mixture is the larger below rates of about 0.7 (it is
    // the more spread, and the block rate is convex there), so sizes below
    // that are rule 1's; near rate 1 the binomial is the larger.
    const n = checkCount('capacity', capacity);
    const p = checkRate('falsePositiveRate', rate);
    const bits = sbbfBitsFor(n, p, (blocks) => Math.max(blockedRate(n / blocks), binomialBlockedRate(n, blocks)));
    return { bits, hashes: SBBF_HASHES };
  }
  const formula = formulaSize(capacity, rate, scheme);
  // Below SMALLEST_SEARCHED_RATE, or past MAX_BITS where no filter is built, rule 1 stands.
  if (rate < SMALLEST_SEARCHED_RATE || formula.bits > MAX_BITS) return formula;
  if (generatorRate(scheme, formula.bits, formula.hashes, capacity) <= rate * (1 + FORMULA_TOLERANCE)) return formula;
  const key = `${scheme} ${capacity} ${rate}`;
  let size = smallSizes.get(key);
  if (size === undefined) {
    if (smallSizes.size >= SMALL_SIZES_CACHED) smallSizes.clear();
    size = smallSize(capacity, rate, scheme, formula.bits);
    smallSizes.set(key, size);
  }
  return size;
}

/**
 * Rule 1: m = optimalBits(n, p) and k = optimalHashes(m, n), at most m;
 * under sbbf sbbfOptimalBits(n, p) and k = 8.
 */
function formulaSize(capacity: number, rate: number, scheme: Scheme): { bits: number; hashes: number } {
  if (scheme === 'sbbf') return { bits: sbbfOptimalBits(capacity, rate), hashes: SBBF_HASHES };
  const bits = optimalBits(capacity, rate);
  const hashes = optimalHashes(bits, capacity);
  if (hashes < MAX_HASHES || falsePositiveRate(bits, capacity, hashes) <= rate) return { bits, hashes: Math.min(bits, hashes) };
  // Below about 2^-64.5 the optimal k is above MAX_HASHES: with k capped at
  // 64, the optimal m would miss the rate (100 items at 1e-30 would get
  // 3.5e-29), so m grows to the least that meets it with 64 hashes, solving
  // (1 - e^(-kn/m))^k = p for m: m = -kn / ln(1 - p^(1/k)).
  return { bits: Math.ceil((-MAX_HASHES * capacity) / Math.log1p(-Math.pow(rate, 1 / MAX_HASHES))), hashes: MAX_HASHES };
}

/** Searched sizes by scheme, n and p: the search costs up to some 10^2 ms where it enumerates. */
const smallSizes = new Map<string, { bits: number; hashes: number }>();
const SMALL_SIZES_CACHED = 4096;

type RateOf = (scheme: 'xxh64' | 'poly' | 'bytesum', bits: number, hashes: number, capacity: number) => number;

/**
 * The k that meets p at m bits by `rate`, or 0: round((m/n) ln 2), then one
 * more (more hashes lower the random part of the rate and leave the shared
 * sets' n/m^2 as it is); within [1, min(m, 64)].
 */
function hashesMeeting(scheme: 'xxh64' | 'poly' | 'bytesum', bits: number, n: number, p: number, rate: RateOf): number {
  const most = Math.min(bits, MAX_HASHES);
  const best = Math.min(most, Math.max(1, Math.round((bits / n) * Math.LN2)));
  if (rate(scheme, bits, best, n) <= p) return best;
  if (best < most && rate(scheme, bits, best + 1, n) <= p) return best + 1;
  return 0;
}

/**
 * The least m at or above `from` where `rate` lets some k meet p, by
 * doubling the step and then bisecting; its k. The rate falls with m, if
 * not strictly (double hashing does worse at m with many small divisors),
 * so the m found meets p but need not be the least that does.
 */
function searchBits(scheme: 'xxh64' | 'poly' | 'bytesum', n: number, p: number, from: number, to: number, rate: RateOf): { bits: number; hashes: number } {
  let hashes = hashesMeeting(scheme, from, n, p, rate);
  if (hashes > 0) return { bits: from, hashes };
  let low = from; // no k meets p here
  let high = to;
  if (high <= low || (hashes = hashesMeeting(scheme, high, n, p, rate)) === 0) {
    for (let step = 1; ; step *= 2) {
      high = from + step;
      if (high > Number.MAX_SAFE_INTEGER) {
        throw new BloomRangeError('falsePositiveRate', p, `a rate the ${scheme} positions can reach for capacity ${n} within 2^53 bits (${scheme === 'xxh64' ? 'n/m^2' : 'n/m^2 and 1/m'} bounds it from below)`);
      }
      if ((hashes = hashesMeeting(scheme, high, n, p, rate)) > 0) break;
      low = high;
    }
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    const k = hashesMeeting(scheme, mid, n, p, rate);
    if (k > 0) [high, hashes] = [mid, k];
    else low = mid;
  }
  return { bits: high, hashes };
}

/**
 * Rule 2 where rule 1's m (`from`) misses p: the cheap generatorRateBound
 * finds an m that meets p, then the search with generatorRate (exact where
 * it enumerates) runs between `from` and that m.
 */
function smallSize(n: number, p: number, scheme: 'xxh64' | 'poly' | 'bytesum', from: number): { bits: number; hashes: number } {
  const bounded = searchBits(scheme, n, p, from, from, generatorRateBound);
  return searchBits(scheme, n, p, from, bounded.bits, generatorRate);
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
