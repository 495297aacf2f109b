// The false-positive rate of small filters under each scheme's own position
// generator, where the asymptotic (1 - e^(-kn/m))^k is too optimistic.
//
// Bose, Guo, Kranakis, Maheshwari, Morin, Morrison, Smid and Tang, "On the
// false-positive rate of Bloom filters", Information Processing Letters
// 108(4), 2008, and Christensen, Roginsky and Jimeno, "A new analysis of the
// false positive rate of a Bloom filter", IPL 110(21), 2010, show that the
// classic formula underestimates the rate of small filters. Ours are worse
// still: xxh64, poly and bytesum derive all k positions from one pair
// (a, b) in Z_m x Z_m (docs/SCHEMES.md), so there are only m^2 position
// sets, and two items share theirs with chance 1/m^2, not 1/C(m,k). That
// floor, n/m^2, is 2.2% for one item in 10 bits, whatever k is.
//
// The rates here take (a, b) uniform on Z_m x Z_m and independent between
// items, as XXH64 and splitmix64 give them (poly and bytesum only on keys
// whose hashes spread; docs/SCHEMES.md, "Rates").

import { SBBF_HASHES } from './options.js';
import { doubleHashing } from './double-rates.js';

/**
 * The position set of the pair (0, b) under enhanced double hashing with
 * the +1 repeat rule (xxh64; assembly/probe.ts). The pair (a, b) gives this
 * set shifted by a, since every step, the repeat rule included, commutes
 * with adding a mod m.
 */
export function enhancedPattern(b: number, bits: number, hashes: number): number[] {
  let a = 0;
  const out = [0];
  for (let i = 1; i < hashes; i++) {
    a = (a + b) % bits;
    b = (b + i) % bits;
    let p = a;
    while (out.includes(p)) p = (p + 1) % bits;
    out.push(p);
  }
  return out;
}

function popcount(x: number): number {
  let c = 0;
  for (; x !== 0; x &= x - 1) c++;
  return c;
}

/**
 * Where generatorRate enumerates (exactGeneratorRate) rather than bounds.
 * Its work is m^2 k^2 + m k 2^k steps under xxh64, enumerated while that is
 * at most 2^18 (under a millisecond, measured) and k <= 12; under plain
 * double hashing only one b per divisor of m is asked, so m may reach 256
 * for less. A chain file makes its reader size every member, so this work
 * is also what a crafted 256-member chain costs to check (under a second,
 * measured, most of it in generatorRateBound's divisor walks at large m).
 */
export const ENUMERATED_MAX_HASHES = 12;
const ENUMERATED_XXH64_WORK = 2 ** 18;
const ENUMERATED_DOUBLE_MAX_BITS = 256;

/** Whether generatorRate enumerates this m and k. */
export function enumerated(scheme: 'xxh64' | 'poly' | 'bytesum', bits: number, hashes: number): boolean {
  if (hashes > ENUMERATED_MAX_HASHES) return false;
  if (scheme !== 'xxh64') return bits <= ENUMERATED_DOUBLE_MAX_BITS;
  return bits * hashes * (bits * hashes + 2 ** hashes) <= ENUMERATED_XXH64_WORK;
}

/**
 * The exact false-positive rate after n items of a generator whose pair
 * (a, b) is uniform on Z_m x Z_m. The union U of the items' sets is as
 * likely as any shift of it, so the query may take a = 0: the rate is the
 * mean over b of P(T_b ⊆ U). By inclusion-exclusion over the subsets R of T,
 *   P(T ⊆ U) = sum_R (-1)^|R| P(one item's set misses R)^n,
 * and P(misses R) comes from a histogram, over all m^2 pairs, of which
 * positions of T each set covers (a subset-sum transform turns it into the
 * miss chance of every R at once). Under plain double hashing the set of
 * (u a, u b) is u times that of (a, b) for a unit u, so only one b per
 * gcd(b, m) is asked, weighted by phi(m / gcd). Work: m^2 k^2 + m k 2^k.
 */
export function exactGeneratorRate(scheme: 'xxh64' | 'poly' | 'bytesum', bits: number, hashes: number, capacity: number): number {
  const m = bits;
  const pattern = scheme === 'xxh64' ? enhancedPattern : doubleHashing.pattern;
  const sets: number[][] = [];
  for (let b = 0; b < m; b++) sets.push(pattern(b, m, hashes));
  const queries: Array<[number, number]> = scheme === 'xxh64' ? sets.map((_, b) => [b, 1]) : doubleHashing.queries(m);
  const index = new Int32Array(m).fill(-1); // a position's bit in the query's mask, or -1
  const mask = new Int32Array(m); // per shift a: the query positions the set shifted by a covers
  const seen = new Int32Array(m).fill(-1); // per shift a: the last set that touched mask[a]
  const touched = new Int32Array(m);
  let total = 0;
  let weights = 0;
  let stamp = 0;
  for (const [qb, weight] of queries) {
    const query = sets[qb];
    const size = 1 << query.length;
    query.forEach((t, i) => (index[t] = i));
    const covers = new Float64Array(size); // covers[M]: pairs whose set meets the query exactly in M
    for (const set of sets) {
      stamp++;
      let count = 0;
      for (const t of query) {
        for (const s of set) {
          const d = t - s;
          const a = d < 0 ? d + m : d;
          if (seen[a] !== stamp) {
            seen[a] = stamp;
            mask[a] = 0;
            touched[count++] = a;
          }
          mask[a] |= 1 << index[t];
        }
      }
      covers[0] += m - count;
      for (let j = 0; j < count; j++) covers[mask[touched[j]]]++;
    }
    query.forEach((t) => (index[t] = -1));
    // within[X] = sum of covers[M] over M ⊆ X: the pairs whose set misses the complement of X.
    for (let i = 0; i < query.length; i++) {
      for (let x = 0; x < size; x++) if (x & (1 << i)) covers[x] += covers[x ^ (1 << i)];
    }
    let sum = 0;
    for (let r = 0; r < size; r++) {
      const miss = covers[(size - 1) ^ r] / (m * m);
      sum += (popcount(r) & 1 ? -1 : 1) * Math.pow(miss, capacity);
    }
    total += weight * sum;
    weights += weight;
  }
  return Math.min(1, Math.max(0, total / weights));
}

/**
 * What the pairs' shared sets add, as c n/m^2. The share of pairs whose set
 * equals a given one is 1/m^2 under xxh64 and 2/m^2 under plain double
 * hashing (the progression from a with step b is also the one from
 * a + (k-1) b with step -b). The rest is measured, not derived: under
 * xxh64 exactGeneratorRate exceeds the random-subset rate by 1.2 to 1.6
 * n/m^2 for m up to 256, so c = 2; under plain double hashing, steps whose
 * order divides m confine sets to cosets of a subgroup, and composite m
 * (60, 120, 270, 420) fell short of the bound by up to 4.7 n/m^2 with c = 4
 * and by about k n/m^2 with c = 8 at k = 10, so c = max(8, 2k).
 * test/small-n-sizing.test.ts checks the bound against the enumeration.
 */
function structureFloor(scheme: 'xxh64' | 'poly' | 'bytesum', bits: number, hashes: number, capacity: number): number {
  const c = scheme === 'xxh64' ? 2 : Math.max(8, 2 * hashes);
  return (c * capacity) / (bits * bits);
}

/**
 * An upper estimate of the false-positive rate after n items for filters
 * too large to enumerate. For k distinct uniformly random positions the
 * bits' indicators are negatively associated (Dubhashi and Ranjan, "Balls
 * and bins: a study in negative dependence", Random Structures and
 * Algorithms 13(2), 1998), so the chance that the k query bits are all set
 * is at most the product of their marginals: (1 - (1 - k/m)^n)^k. Under
 * plain double hashing a step b of order L < k in Z_m (chance phi(L)/m)
 * leaves the query only L distinct positions, so its term has the
 * exponent min(k, L). structureFloor adds the pairs' shared sets, which no
 * random-subset model holds; test/small-n-sizing.test.ts checks that the sum
 * stays above exactGeneratorRate.
 */
export function generatorRateBound(scheme: 'xxh64' | 'poly' | 'bytesum', bits: number, hashes: number, capacity: number): number {
  const fill = 1 - Math.pow(1 - Math.min(1, hashes / bits), capacity);
  let rate = Math.pow(fill, hashes);
  if (scheme !== 'xxh64') rate = doubleHashing.shortOrders(bits, hashes, fill, rate);
  return Math.min(1, rate + structureFloor(scheme, bits, hashes, capacity));
}

/**
 * The rate the small-n sizing holds a classic-scheme filter to: exact
 * where the enumeration is affordable (enumerated), generatorRateBound
 * beyond.
 */
export function generatorRate(scheme: 'xxh64' | 'poly' | 'bytesum', bits: number, hashes: number, capacity: number): number {
  if (capacity === 0) return 0;
  if (enumerated(scheme, bits, hashes)) return exactGeneratorRate(scheme, bits, hashes, capacity);
  return generatorRateBound(scheme, bits, hashes, capacity);
}

/** The chance an absent item hits 8 set bits in one block of i items: (1 - (31/32)^i)^8. */
export function blockRate(i: number): number {
  return Math.pow(1 - Math.pow(31 / 32, i), SBBF_HASHES);
}

/**
 * The sbbf rate with the exact block load: the query's block holds
 * i ~ Binomial(n, 1/z) of the n items, so the rate is
 *   sum_i C(n, i) z^-i (1 - 1/z)^(n-i) (1 - (31/32)^i)^8,
 * Putze, Sanders and Singler's blocked rate with the binomial their
 * Poisson approximates. The weights are walked outward from the mode with
 * the ratio w(i+1)/w(i) = (n - i)/(i + 1) * q/(1 - q), q = 1/z, and
 * normalised by their own sum, as blockedRate in sizing.ts does.
 */
export function binomialBlockedRate(capacity: number, blocks: number): number {
  if (capacity === 0) return 0;
  if (blocks === 1) return blockRate(capacity);
  const odds = 1 / (blocks - 1); // q / (1 - q)
  const mode = Math.floor((capacity + 1) / blocks);
  let weights = 1;
  let sum = blockRate(mode);
  for (let i = mode, w = 1; i < capacity && w > 1e-17; i++) {
    w *= ((capacity - i) / (i + 1)) * odds;
    weights += w;
    sum += w * blockRate(i + 1);
  }
  for (let i = mode, w = 1; i > 0 && w > 1e-17; i--) {
    w *= i / ((capacity - i + 1) * odds);
    weights += w;
    sum += w * blockRate(i - 1);
  }
  return sum / weights;
}
