// Attacks on the sbbf scheme: positions against the Parquet formula computed
// by hand in BigInt, bit 31 in every word, blocks at the top of the range,
// algebra, the format and Parquet round trips, and the fill estimates, on
// thousands of seeded random items in both twins.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { sbbfPositions } from '../src/reference/sbbf.js';
import { twins } from './helpers/twins.js';

const SALT = [0x47b6137bn, 0x44974d91n, 0x8824ad5bn, 0xa2b7289dn, 0x705495c7n, 0x2df1424bn, 0x9efc4947n, 0x5c6bfb31n];
const M32 = 0xffffffffn;

/** The Parquet positions of hash h in a filter of `bits` bits, from BloomFilter.md, in BigInt. */
function byHand(h: bigint, bits: number): number[] {
  const z = BigInt(bits / 256);
  const j = ((h >> 32n) * z) >> 32n;
  return SALT.map((s, i) => Number(256n * j + 32n * BigInt(i) + ((((h & M32) * s) & M32) >> 27n)));
}

function randomItems(seed: number, n: number): string[] {
  const r = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => `${i}:${Math.floor(r() * 2 ** 32).toString(36)}/${'é'.repeat(Math.floor(r() * 3))}`);
}

function random64(r: () => number): bigint {
  return (BigInt(Math.floor(r() * 2 ** 32)) << 32n) | BigInt(Math.floor(r() * 2 ** 32));
}

describe('sbbf positions against BigInt', () => {
  it('the reference sbbfPositions equals the hand formula, top blocks included', () => {
    const r = mulberry32(8);
    const maxBits = (2 ** 32 - 2 ** 17) * 8;
    for (let n = 0; n < 3000; n++) {
      const h = n < 4 ? [0n, (1n << 64n) - 1n, 0xffffffff00000000n, 0x80000000ffffffffn][n] : random64(r);
      for (const bits of [256, 256 * 3, 2 ** 32, maxBits]) expect(sbbfPositions(h, bits)).toEqual(byHand(h, bits));
    }
    // The last block of the largest filter is reachable.
    expect(Math.floor(sbbfPositions((1n << 64n) - 1n, maxBits)[0] / 256)).toBe(maxBits / 256 - 1);
  });
});

describe.each(twins)('$name sbbf under attack', ({ name, BloomFilter, digest, probeAll }) => {
  const items = randomItems(name === 'wasm' ? 1 : 2, 4000);

  it('positions() equal the Parquet formula on thousands of items and several sizes and seeds', () => {
    for (const [bits, seed] of [[256, 0n], [256 * 1000, 0n], [256 * 4099, 0xdeadbeefcafef00dn], [2 ** 20, 1n]] as const) {
      const f = new BloomFilter(bits, 8, { scheme: 'sbbf', seed });
      for (const item of items) expect(f.positions(item)).toEqual(byHand(digest(item, { seed }).value, bits));
    }
  });

  it('has, hasMany, hasDigest and probeAll agree and never miss an added item; bits are the hand-set ones', () => {
    const bits = 256 * 200;
    const f = new BloomFilter(bits, 8, { scheme: 'sbbf' });
    const expected = new Uint8Array(bits / 8);
    const added = items.slice(0, 2000);
    const fresh = f.addMany(added);
    let word31 = 0;
    added.forEach((item, i) => {
      let isNew = false;
      for (const p of byHand(digest(item).value, bits)) {
        if ((expected[p >> 3] & (1 << (p & 7))) === 0) isNew = true;
        expected[p >> 3] |= 1 << (p & 7);
        if (p % 32 === 31) word31++;
      }
      expect(fresh[i]).toBe(isNew ? 1 : 0);
    });
    expect(word31).toBeGreaterThan(100);
    expect(f.bitArray()).toEqual(expected);
    const many = f.hasMany(items);
    items.forEach((item, i) => {
      const want = byHand(digest(item).value, bits).every((p) => (expected[p >> 3] & (1 << (p & 7))) !== 0);
      if (i < 2000) expect(want).toBe(true);
      expect(f.has(item)).toBe(want);
      expect(many[i]).toBe(want ? 1 : 0);
      expect(f.hasDigest(digest(item))).toBe(want);
      expect(probeAll([f], item)[0]).toBe(want ? 1 : 0);
    });
  });

  it('a filter full of ones answers yes to all; a filter with only bit 31 words answers by the masks', () => {
    const bits = 256 * 64;
    const ones = new Uint8Array(bits / 8).fill(0xff);
    const full = BloomFilter.fromParquet(ones);
    expect(full.hasMany(items.slice(0, 500)).every((x) => x === 1)).toBe(true);
    expect(probeAll([full, full], items[0])).toEqual(new Uint8Array([1, 1]));
    // Only bit 31 of every word set: an item is present exactly when all eight masks are bit 31.
    const top = new Uint8Array(bits / 8);
    for (let w = 3; w < top.length; w += 4) top[w] = 0x80;
    const f = BloomFilter.fromParquet(top);
    for (const item of items) {
      const want = byHand(digest(item).value, bits).every((p) => p % 32 === 31);
      expect(f.has(item)).toBe(want);
      expect(probeAll([f], item)[0]).toBe(want ? 1 : 0);
    }
  });

  it('union and intersect equal the bitwise OR and AND, and union finds all of both', () => {
    const bits = 256 * 50;
    const a = new BloomFilter(bits, 8, { scheme: 'sbbf' });
    const b = new BloomFilter(bits, 8, { scheme: 'sbbf' });
    a.addMany(items.slice(0, 700));
    b.addMany(items.slice(500, 1200));
    const u = BloomFilter.union(a, b);
    const x = BloomFilter.intersect(a, b);
    const A = a.bitArray();
    const B = b.bitArray();
    expect(u.bitArray()).toEqual(A.map((v, i) => v | B[i]));
    expect(x.bitArray()).toEqual(A.map((v, i) => v & B[i]));
    expect(u.hasMany(items.slice(0, 1200)).every((v) => v === 1)).toBe(true);
    expect(x.hasMany(items.slice(500, 700)).every((v) => v === 1)).toBe(true);
    expect(u.scheme).toBe('sbbf');
  });

  it('format and Parquet round trips keep every bit, seed and count', () => {
    const f = new BloomFilter(256 * 33, 8, { scheme: 'sbbf', seed: 2n ** 63n + 5n });
    f.addMany(items.slice(0, 900));
    const g = BloomFilter.fromBytes(f.toBytes());
    expect([g.bits, g.hashes, g.scheme, g.seed, g.size]).toEqual([f.bits, 8, 'sbbf', f.seed, f.size]);
    expect(g.bitArray()).toEqual(f.bitArray());
    expect(g.hasMany(items.slice(0, 900)).every((v) => v === 1)).toBe(true);
    const p = new BloomFilter(256 * 33, 8, { scheme: 'sbbf' });
    p.addMany(items.slice(0, 900));
    const q = BloomFilter.fromParquet(p.toParquet());
    expect(q.toParquet()).toEqual(p.toParquet());
    expect(q.hasMany(items.slice(0, 900)).every((v) => v === 1)).toBe(true);
    expect(probeAll([q, p], items[3])).toEqual(new Uint8Array([1, 1]));
  });

  it('fromParquet refuses bad lengths and non-arrays with a typed error and allocates nothing huge', () => {
    for (const n of [0, 1, 31, 33, 63, 100]) expect(() => BloomFilter.fromParquet(new Uint8Array(n))).toThrow(/bitset|length/);
    expect(() => BloomFilter.fromParquet([1, 2, 3] as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => BloomFilter.fromParquet(null as unknown as Uint8Array)).toThrow(TypeError);
    // A view claiming a huge length is refused before any filter is made.
    const huge = { length: 2 ** 40, byteLength: 2 ** 40 } as unknown as Uint8Array;
    expect(() => BloomFilter.fromParquet(huge)).toThrow();
    // A subarray at an odd offset still reads the right bytes.
    const backing = new Uint8Array(1 + 64);
    backing.fill(0xff, 1);
    expect(BloomFilter.fromParquet(backing.subarray(1)).bitArray()).toEqual(new Uint8Array(64).fill(0xff));
    // Only sbbf filters with seed 0 export.
    expect(() => new BloomFilter(256, 8, { scheme: 'sbbf', seed: 1n }).toParquet()).toThrow();
    expect(() => new BloomFilter(256, 8).toParquet()).toThrow();
  });

  it('estimatedCount and currentFalsePositiveRate follow the fill for sbbf', () => {
    const bits = 256 * 2000;
    const f = new BloomFilter(bits, 8, { scheme: 'sbbf' });
    expect(f.estimatedCount()).toBe(0);
    expect(f.currentFalsePositiveRate()).toBe(0);
    const n = 4000;
    f.addMany(items.slice(0, n));
    const est = f.estimatedCount();
    expect(Math.abs(est - n) / n).toBeLessThan(0.05);
    const rate = f.currentFalsePositiveRate();
    const absent = randomItems(99, 20000).map((s) => `absent ${s}`);
    const measured = f.hasMany(absent).reduce((s, v) => s + v, 0) / absent.length;
    expect(rate).toBeGreaterThan(0);
    expect(Math.abs(measured - rate)).toBeLessThan(Math.max(0.3 * rate, 3 / absent.length * 10));
    // All ones: no estimate (as for the classic schemes) and the rate 1.
    const full = BloomFilter.fromParquet(new Uint8Array(bits / 8).fill(0xff));
    expect(full.estimatedCount()).toBe(Infinity);
    expect(full.currentFalsePositiveRate()).toBe(1);
  });
});

describe.each(twins)('$name sbbf sizing at rates no sbbf filter reaches', ({ sbbfOptimalBits, BloomFilter, CountingBloomFilter, ScalableBloomFilter, BloomRangeError }) => {
  // Below about 1e-28 even one item needs more than 2^53 bits under sbbf
  // (k = 8 is fixed, so the rate falls only as (8n/m)^8); the search must
  // end with an error, not loop on doubles too large to bisect.
  it('refuses them with BloomRangeError naming falsePositiveRate, at once', () => {
    for (const p of [1e-30, 1e-100, Number.MIN_VALUE]) {
      for (const n of [1, 1000, 1e9]) {
        expect(() => sbbfOptimalBits(n, p)).toThrow(BloomRangeError);
        expect(() => sbbfOptimalBits(n, p)).toThrow(/^falsePositiveRate must be/);
      }
      expect(() => BloomFilter.forCapacity(1000, p, { scheme: 'sbbf' })).toThrow(BloomRangeError);
      expect(() => CountingBloomFilter.forCapacity(1000, p, { scheme: 'sbbf' })).toThrow(BloomRangeError);
      expect(() => new ScalableBloomFilter({ capacity: 10, falsePositiveRate: p, scheme: 'sbbf' })).toThrow(BloomRangeError);
    }
    // The largest answer below the limit is still exact and a multiple of 256.
    const bits = sbbfOptimalBits(1, 1e-24);
    expect(Number.isSafeInteger(bits) && bits % 256 === 0).toBe(true);
  });

  it('a chain whose members tighten past reach stops growing with an error, not a hang', () => {
    const s = new ScalableBloomFilter({ capacity: 1, falsePositiveRate: 0.5, growth: 1, tightening: 0.05, scheme: 'sbbf' });
    let error: unknown;
    try {
      for (let i = 0; i < 200; i++) s.add(`grow ${i}`);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BloomRangeError);
    expect(String(error)).toMatch(/members\[\d+\]/);
    expect(s.has('grow 0')).toBe(true);
  });
});

describe.each(twins)('$name sbbfFalsePositiveRate at huge loads', ({ sbbfFalsePositiveRate }) => {
  // The Poisson walk took O(sqrt(n/z)) steps (20 s at 1e15 items per block)
  // and never ended once i + 1 === i in doubles (about 1e16).
  it('is 1 at once for any load past a few thousand items per block, and unchanged below', () => {
    for (const n of [3000, 1e7, 1e15, 1e20, 1e300, Number.MAX_VALUE]) expect(sbbfFalsePositiveRate(256, n)).toBe(1);
    expect(sbbfFalsePositiveRate(256 * 1000, 1e13)).toBe(1);
    expect(sbbfFalsePositiveRate(256, 1000)).toBe(0.9999999999997857);
    // Against the series summed naively, term by term from i = 0.
    for (const lambda of [1, 37.5, 400]) {
      let term = Math.exp(-lambda / 2); // split so that e^-400 does not underflow
      let naive = 0;
      for (let i = 0; i < 2000; i++) {
        naive += term * Math.exp(-lambda / 2) * Math.pow(1 - Math.pow(31 / 32, i), 8);
        term *= lambda / (i + 1);
      }
      expect(Math.abs(sbbfFalsePositiveRate(256 * 8, lambda * 8) / naive - 1)).toBeLessThan(1e-12);
    }
  });
});

describe.each(twins)('$name sbbf algebra and chains, refusals and round trips', ({ BloomFilter, ScalableBloomFilter, probeAll, BloomMismatchError }) => {
  it('union and intersect refuse a different scheme, size or seed, and change nothing', () => {
    const a = new BloomFilter(256 * 4, 8, { scheme: 'sbbf' });
    a.add('kept');
    const before = a.bitArray();
    for (const b of [new BloomFilter(256 * 4, 8), new BloomFilter(256 * 8, 8, { scheme: 'sbbf' }), new BloomFilter(256 * 4, 8, { scheme: 'sbbf', seed: 1n })]) {
      b.add('other');
      expect(() => a.union(b)).toThrow(BloomMismatchError);
      expect(() => a.intersect(b)).toThrow(BloomMismatchError);
      expect(a.bitArray()).toEqual(before);
    }
  });

  it('a chain of sbbf members survives toBytes/fromBytes with every item found by has, hasMany and probeAll', () => {
    const s = new ScalableBloomFilter({ capacity: 30, falsePositiveRate: 0.001, scheme: 'sbbf', seed: 12n });
    const items = randomItems(21, 3000);
    s.addMany(items);
    const t = ScalableBloomFilter.fromBytes(s.toBytes());
    expect(t.toBytes()).toEqual(s.toBytes());
    expect(t.members.length).toBe(s.members.length);
    expect(t.hasMany(items).every((v) => v === 1)).toBe(true);
    const absent = randomItems(22, 3000).map((x) => `absent ${x}`);
    expect(t.hasMany(absent)).toEqual(s.hasMany(absent));
    for (let i = 0; i < items.length; i += 7) expect(Array.from(probeAll([t, s], items[i]))).toEqual([1, 1]);
  });
});

describe('wasm positions at the top of the range, without the bits (a hash-only engine)', () => {
  it('sbbf and xxh64 positions at m near MAX_BITS equal the hand formula and the reference', async () => {
    const { Engine } = await import('../src/wasm/engine.js');
    const { MAX_BITS, digest } = await import('../src/index.js');
    const { probeEnhancedDouble } = await import('../src/reference/probe.js');
    const items = randomItems(5, 2000);
    const topSbbf = Math.floor(MAX_BITS / 256) * 256;
    for (const bits of [topSbbf, topSbbf - 256, 2 ** 32, 2 ** 31 + 256]) {
      const e = new Engine({ bits, hashes: 8, scheme: 'sbbf', schemeId: 3, seed: 0n }, true);
      for (const item of items) expect(e.positions(item)).toEqual(byHand(digest(item).value, bits));
    }
    for (const [bits, k] of [[MAX_BITS, 64], [MAX_BITS - 1, 7], [2 ** 32 + 1, 13], [2 ** 31 - 1, 5]]) {
      const e = new Engine({ bits, hashes: k, scheme: 'xxh64', schemeId: 0, seed: 99n }, true);
      for (const item of items.slice(0, 500)) expect(e.positions(item)).toEqual(probeEnhancedDouble(digest(item, { seed: 99n }).value, bits, k));
    }
  });
});
