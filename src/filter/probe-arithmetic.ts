// The exact arithmetic of probeAll's walks (src/filter/probe-walks.ts), in
// doubles and int32s: what assembly/hash.ts, assembly/probe.ts and
// assembly/sbbf.ts compute with 64-bit integers, without BigInt and without
// a division. Each function is tested against BigInt (test/probe-plan.test.ts).

/** 2^e mod m, exactly (e <= 53, m < 2^31): doubling below m. */
export function powerMod(e: number, m: number): number {
  let r = 1 % m;
  for (let i = 0; i < e; i++) r = (r * 2) % m;
  return r;
}

/** The low and high halves of splitmix64 of the last digest given to splitmix64Halves. */
export const mixed = new Int32Array(2);

/** The high 32 bits of x * y for x, y < 2^32, exactly: from 16-bit halves every partial sum stays below 2^53. */
function multiplyHigh(x: number, y: number): number {
  const x1 = x >>> 16;
  const x0 = x & 0xffff;
  const y1 = y >>> 16;
  const y0 = y & 0xffff;
  const middle = x1 * y0 + x0 * y1 + Math.floor((x0 * y0) / 65536);
  return x1 * y1 + Math.floor(middle / 65536);
}

/**
 * splitmix64's output function (assembly/hash.ts) of the digest hi:lo, in
 * 32-bit halves (mixed[0] low, mixed[1] high): the 64-bit products keep
 * their low 64 bits, (xH·2^32 + xL)(cH·2^32 + cL) mod 2^64 =
 * xL·cL + ((xL·cH + xH·cL + high(xL·cL)) mod 2^32)·2^32.
 */
export function splitmix64Halves(lo: number, hi: number): void {
  let l = (lo ^ ((lo >>> 30) | (hi << 2))) >>> 0;
  let h = (hi ^ (hi >>> 30)) >>> 0;
  // * 0xbf58476d1ce4e5b9
  let high = (multiplyHigh(l, 0x1ce4e5b9) + Math.imul(l, 0xbf58476d) + Math.imul(h, 0x1ce4e5b9)) >>> 0;
  l = Math.imul(l, 0x1ce4e5b9) >>> 0;
  h = high;
  l = (l ^ ((l >>> 27) | (h << 5))) >>> 0;
  h = (h ^ (h >>> 27)) >>> 0;
  // * 0x94d049bb133111eb
  high = (multiplyHigh(l, 0x133111eb) + Math.imul(l, 0x94d049bb) + Math.imul(h, 0x133111eb)) >>> 0;
  l = Math.imul(l, 0x133111eb) >>> 0;
  h = high;
  mixed[0] = l ^ ((l >>> 31) | (h << 1));
  mixed[1] = h ^ (h >>> 31);
}

/** 1.5 · 2^52: x + ROUNDER - ROUNDER is x rounded to the nearest integer for |x| < 2^51. */
const ROUNDER = 6755399441055744;

/**
 * (hh·2^48 + hl·2^32 + lo) mod m, exactly, for hh, hl < 2^16, lo < 2^32 and
 * 64 <= m < 2^30, with r32 = 2^32 mod m, r48 = 2^48 mod m, inverse = 1/m:
 * x = hh·r48 + hl·r32 + lo is congruent and below 2^49, so it is an exact
 * double; x · inverse is within 2^-9 of x / m (two roundings of relative
 * error 2^-53, times x / m < 2^43), so q = round(x · inverse) is within 3/4
 * of x / m, r = x - q·m (exact: below 2^50) lies in (-m, m), and one
 * conditional add brings it into [0, m), in int32. No division: a 64-bit
 * remainder costs tens of cycles, this a few.
 */
export function reduce(hh: number, hl: number, lo: number, m: number, r32: number, r48: number, inverse: number): number {
  const x = hh * r48 + hl * r32 + lo;
  // Adding and taking away 1.5·2^52 rounds to the nearest integer (below
  // 2^51, a double's last bit is then the units); Math.round costs more
  // (measured: a third of the walk's arithmetic).
  const r = (x - (x * inverse + ROUNDER - ROUNDER) * m) | 0;
  return r + (m & (r >> 31));
}

/** The sbbf block ((hi * z) >>> 32) for hi < 2^32 and z < 2^32 blocks, exact: from hi's 16-bit halves, every product stays below 2^53 (walkSbbf computes it inline). */
export function sbbfBlock(hi: number, z: number): number {
  const high = Math.floor((hi >>> 16) * z);
  const low = (hi & 0xffff) * z;
  return Math.floor((high + Math.floor(low / 65536)) / 65536);
}

/** The sbbf SALT constants (Parquet BloomFilter.md), as assembly/sbbf.ts has them. */
export const SALT = [0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31];

/** The eight word masks of an sbbf item, from the digest's low half, written to `masks`. */
export function sbbfMasks(lo: number, masks: Uint32Array): void {
  for (let i = 0; i < 8; i++) masks[i] = (1 << (Math.imul(lo, SALT[i]) >>> 27)) >>> 0;
}
