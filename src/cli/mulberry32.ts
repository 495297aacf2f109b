// mulberry32 (Tommy Ettinger, 2017): a small, fast, seedable 32-bit
// generator. Shared by the demo's synthetic web, the benchmarks' inputs and
// the tests that need a fixed stream of numbers, so all of them stay
// reproducible from one definition.

/** A generator of doubles in [0, 1), each a multiple of 2^-32, from `seed` (taken mod 2^32). */
export function mulberry32(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
