// m and k as each scheme accepts them, for suites that run every scheme over
// arbitrary sizes: sbbf takes whole 256-bit blocks and exactly 8 hashes, and
// xxh64 at most m (distinct) positions.
import type { Scheme } from '../../src/index.js';

/** The nearest [bits, hashes] at or above (m, k) that `scheme` accepts. */
export function shapeFor(scheme: Scheme, m: number, k: number): [number, number] {
  if (scheme === 'sbbf') return [Math.max(1, Math.ceil(m / 256)) * 256, 8];
  return [m, scheme === 'xxh64' ? Math.min(k, m) : k];
}

/** The seed option a scheme accepts: `seed` under the XXH64 schemes, else 0. */
export function seedFor(scheme: Scheme, seed: bigint): bigint {
  return scheme === 'xxh64' || scheme === 'sbbf' ? seed : 0n;
}
