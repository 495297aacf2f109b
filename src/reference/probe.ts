// The reference twin of assembly/probe.ts: hash values to k positions.
// assembly/probe.ts also has testEnhancedDoubleAt and testDoubleAt, has() fused
// with the probe loop so that the first clear bit ends it; they give the
// answer of testing every position, which is what the reference's has() does,
// so they have no twin here.

import { splitmix64 } from './hash.js';

/**
 * Enhanced double hashing (Dillinger and Manolios, FMCAD 2004) with the
 * distinct-positions rule: a = h mod m, b = splitmix64(h) mod m; step i
 * runs a = (a + b) mod m, then b = (b + i) mod m; a repeated position moves
 * +1 mod m until unused, without changing a or b.
 */
export function probeEnhancedDouble(h: bigint, m: number, k: number): number[] {
  const big = BigInt(m);
  let a = Number(h % big);
  let b = Number(splitmix64(h) % big);
  const out = [a];
  for (let i = 1; i < k; i++) {
    a = (a + b) % m;
    b = (b + i) % m;
    let p = a;
    while (out.includes(p)) p = (p + 1) % m;
    out.push(p);
  }
  return out;
}

/** Plain double hashing, (h1 + i*h2) mod m for i = 0..k-1, repeats allowed (seeds 000 and 001). */
export function probeDouble(h1: number, h2: number, m: number, k: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < k; i++) out.push((h1 + i * h2) % m);
  return out;
}
