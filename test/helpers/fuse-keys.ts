// The keys of the binary fuse vectors (test/golden/binary-fuse-reference.json):
// n successive outputs of splitmix64 (Steele, Lea and Flood, OOPSLA 2014)
// from state `seed`, the same generator as the reference's seed sequence.
const MASK = (1n << 64n) - 1n;

/** n keys: splitmix64's outputs from state `seed`. */
export function splitmixKeys(n: number, seed: bigint): BigUint64Array {
  const out = new BigUint64Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s + 0x9e3779b97f4a7c15n) & MASK;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    out[i] = z ^ (z >> 31n);
  }
  return out;
}

/** The keys of a repeats case: `distinct` keys from `seed`, then `repeated` of them again `times` more times each, in order. */
export function repeatedKeys(distinct: number, repeated: number, times: number, seed: bigint): BigUint64Array {
  const base = splitmixKeys(distinct, seed);
  const out = new BigUint64Array(distinct + repeated * times);
  out.set(base);
  let at = distinct;
  for (let t = 0; t < times; t++) for (let i = 0; i < repeated; i++) out[at++] = base[i];
  return out;
}
