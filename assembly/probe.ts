// From an item's hash values to its k bit positions, per scheme. Positions
// are written, in probe order, to a u64 array at `out` (PROBES_PTR for a
// single item, a slot of BATCH_PROBES_PTR for a batch item).
// The pure-TypeScript twin is src/reference/probe.ts.

import { getBit } from "./bit-array";
import { splitmix64 } from "./hash";

/**
 * The xxh64 scheme's probes: enhanced double hashing (Dillinger and
 * Manolios, "Bloom Filters in Probabilistic Verification", FMCAD 2004).
 * a = h mod m, b = splitmix64(h) mod m; each step i = 1..k-1 runs
 * a = (a + b) mod m, then b = (b + i) mod m.
 *
 * Source 002 demands k distinct spots: a probe that repeats an earlier
 * position of the same item moves forward by +1 mod m until it is unused.
 * Only the emitted position moves; a and b carry on unchanged. k <= m, so
 * a free spot always exists.
 */
// @ts-ignore: decorator
@inline function enhancedDouble(h: u64, m: u64, k: i32, out: usize): void {
  enhancedDoubleFrom(0, h % m, splitmix64(h) % m, m, k, out, false);
}

/**
 * Enhanced double hashing from its start state a = h mod m and
 * b = splitmix64(h) mod m (position 0 is a): for a walk that has made them
 * already (assembly/chain.ts's first step), so a survivor's later positions
 * cost no remainder. Position 0 is written and not tested: a caller that
 * tests has found it set.
 */
// @ts-ignore: decorator
@inline function enhancedDoubleFrom(base: usize, a: u64, b: u64, m: u64, k: i32, out: usize, test: bool): bool {
  store<u64>(out, a);
  // seen: bit (p & 63) is set for every position emitted so far. A clear bit
  // proves p is not among them, so the scan below is skipped for most
  // probes; a set bit may be a different position, and the scan decides.
  let seen: u64 = <u64>1 << (a & 63);
  for (let i = 1; i < k; i++) {
    // A select: a wraps about half the time, which a branch would mispredict.
    a += b;
    a = select<u64>(a - m, a, a >= m);
    b += <u64>i;
    if (b >= m) b %= m;
    let p = a;
    // Linear scan: k <= 64, and repeats are rare once m is much larger than k.
    while ((seen >> (p & 63)) & 1) {
      let j = 0;
      while (j < i && load<u64>(out + (<usize>j << 3)) != p) j++;
      if (j == i) break;
      p = p + 1 == m ? 0 : p + 1;
    }
    seen |= <u64>1 << (p & 63);
    store<u64>(out + (<usize>i << 3), p);
    if (test && !getBit(base, p)) return false;
  }
  return true;
}

/** testEnhancedDouble from the start state a, b, whose position 0 (a) the caller has found set. */
export function testEnhancedDoubleFrom(base: usize, a: u64, b: u64, m: u64, k: i32, out: usize): bool {
  return enhancedDoubleFrom(base, a, b, m, k, out, true);
}

/** Writes the k positions of hash h to `out`, in probe order. */
export function probeEnhancedDouble(h: u64, m: u64, k: i32, out: usize): void {
  enhancedDouble(h, m, k, out);
}

/**
 * has() of one item in one pass: each position is tested as soon as it is
 * made, and the first 0 ends the call, so an absent item costs only the
 * probes up to its first clear bit (the positions made so far are still
 * written to `out`, for the repeat rule). The same answer as probing all k
 * first; the reference twin does that.
 */
export function testEnhancedDouble(base: usize, h: u64, m: u64, k: i32, out: usize): bool {
  return testEnhancedDoubleAt(base, h % m, h, m, k, out);
}

/**
 * testEnhancedDouble from a = h mod m, made already (a batch's touch
 * pass): one remainder fewer. Every has of the xxh64 scheme ends here. A
 * call, not inlined: the walk is long, and its callers (every single,
 * streamed and digest has) would each carry a copy.
 */
export function testEnhancedDoubleAt(base: usize, a: u64, h: u64, m: u64, k: i32, out: usize): bool {
  if (!getBit(base, a)) return false;
  return enhancedDoubleFrom(base, a, splitmix64(h) % m, m, k, out, true);
}

/**
 * The poly and bytesum schemes' probes: plain double hashing,
 * position i = (h1 + i*h2) mod m for i = 0..k-1, repeats allowed, exactly
 * as seeds 000 and 001 define them. Computed incrementally: with
 * a = h1 mod m and b = h2 mod m, (h1 + i*h2) mod m = (a + i*b) mod m, so
 * each step adds b and subtracts m at most once instead of dividing.
 */
export function probeDouble(h1: u64, h2: u64, m: u64, k: i32, out: usize): void {
  let a = h1 % m;
  const b = h2 % m;
  store<u64>(out, a);
  for (let i = 1; i < k; i++) {
    a += b;
    a = select<u64>(a - m, a, a >= m);
    store<u64>(out + (<usize>i << 3), a);
  }
}

/**
 * has() by plain double hashing in one pass, from a = h1 mod m (made
 * already, for a batch's touch pass), stopping at the first clear bit;
 * nothing is written. Every has of the poly and bytesum schemes ends here.
 */
// @ts-ignore: decorator
@inline export function testDoubleAt(base: usize, a: u64, h2: u64, m: u64, k: i32): bool {
  if (!getBit(base, a)) return false;
  const b = h2 % m;
  for (let i = 1; i < k; i++) {
    a += b;
    a = select<u64>(a - m, a, a >= m);
    if (!getBit(base, a)) return false;
  }
  return true;
}
