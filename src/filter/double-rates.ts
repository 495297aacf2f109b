// The parts of the small-filter rates (src/filter/exact-rate.ts) that only
// plain double hashing needs, the exercises' poly and bytesum schemes:
// their position sets, and the units and divisors of Z_m that let the
// enumeration ask one step b per divisor and bound the steps of small
// order.

/** What plain double hashing adds to the small-filter rates. */
export interface DoubleHashingRates {
  /** The distinct positions of the pair (0, b), i b mod m. */
  pattern(b: number, bits: number, hashes: number): number[];
  /** The steps b exactGeneratorRate asks, each with its weight. */
  queries(bits: number): Array<[number, number]>;
  /** generatorRateBound's `rate` (fill^k) with the terms of the steps of order below k added, one at a time, in order. */
  shortOrders(bits: number, hashes: number, fill: number, rate: number): number;
}

/** The distinct positions of the pair (0, b) under plain double hashing, i b mod m (poly, bytesum). */
export function doublePattern(b: number, bits: number, hashes: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < hashes; i++) {
    const p = (i * b) % bits;
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** Euler's phi: the units of Z_x. */
function phi(x: number): number {
  let result = x;
  for (let q = 2; q * q <= x; q++) {
    if (x % q !== 0) continue;
    while (x % q === 0) x /= q;
    result -= result / q;
  }
  if (x > 1) result -= result / x;
  return result;
}

/** The divisors of x, ascending. */
function divisors(x: number): number[] {
  const low: number[] = [];
  const high: number[] = [];
  for (let d = 1; d * d <= x; d++) {
    if (x % d !== 0) continue;
    low.push(d);
    if (d * d !== x) high.unshift(x / d);
  }
  return low.concat(high);
}

/** Plain double hashing's part of the small-filter rates. */
export const doubleHashing: DoubleHashingRates = {
  pattern: doublePattern,
  // The set of (u a, u b) is u times that of (a, b) for a unit u: one b per gcd(b, m), weighted by phi(m / gcd).
  queries: (m) => divisors(m).map((g): [number, number] => [g % m, phi(m / g)]),
  // phi(L) steps b have order L, for each divisor L of m, and they sum to
  // m; only orders below k leave the query fewer than k positions, so
  // those are the only terms that differ from fill^k.
  shortOrders: (bits, hashes, fill, rate) => {
    for (let order = 1; order < hashes; order++) {
      if (bits % order === 0) rate += (phi(order) / bits) * (Math.pow(fill, order) - Math.pow(fill, hashes));
    }
    return rate;
  },
};
