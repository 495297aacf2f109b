// The sizing math of seeds 000, 003 and 004, and forCapacity built on it.
import { describe, expect, it } from 'vitest';
import { twins } from './helpers/twins.js';
import { falsePositiveRate, minimumBits, optimalBits, optimalHashes } from '../src/index.js';

describe('sizing math', () => {
  it('sizes 1,000,000 items at 1% to 9,585,059 bits and 7 hashes', () => {
    expect(optimalBits(1_000_000, 0.01)).toBe(9_585_059);
    expect(optimalHashes(9_585_059, 1_000_000)).toBe(7);
  });

  it('gives about 0.8% at 10 bits per item and k = 7 (the SeenFilter exercise)', () => {
    expect(falsePositiveRate(10_000_000_000, 1_000_000_000, 7)).toBeCloseTo(0.00819, 5);
  });

  it('gives (1 - e^(-9/100))^3 for the SSTable exercise (m = 100, k = 3, three keys)', () => {
    expect(falsePositiveRate(100, 3, 3)).toBeCloseTo(Math.pow(1 - Math.exp(-9 / 100), 3), 15);
    expect(falsePositiveRate(100, 3, 3)).toBeCloseTo(0.00064, 5); // "≈ 0.0006" in the seed
  });

  it('is 0 for an empty filter and approaches 1 when overfilled', () => {
    expect(falsePositiveRate(1000, 0, 5)).toBe(0);
    expect(falsePositiveRate(1000, 1_000_000, 5)).toBeCloseTo(1, 10);
  });

  it('puts the lower bound at 1.44 n log2(1/p) (the visited-queue article)', () => {
    expect(minimumBits(1000, 0.5)).toBeCloseTo(1000 / Math.LN2, 9);
    expect(minimumBits(1_000_000, 0.01) / (1_000_000 * Math.log2(100))).toBeCloseTo(1.4427, 4);
    // The optimal Bloom filter size equals the bound: -n ln p / ln2^2 = n log2(1/p) / ln 2.
    expect(optimalBits(1_000_000, 0.01)).toBe(Math.ceil(minimumBits(1_000_000, 0.01)));
  });

  it('keeps k within [1, 64]', () => {
    expect(optimalHashes(10, 1000)).toBe(1);
    expect(optimalHashes(1_000_000, 10)).toBe(64);
  });
});

describe.each(twins)('forCapacity ($name)', ({ BloomFilter }) => {
  it('builds m = ceil(-n ln p / ln2^2) and k = round((m/n) ln 2)', () => {
    const f = BloomFilter.forCapacity(1_000_000, 0.01);
    expect([f.bits, f.hashes, f.scheme, f.seed]).toEqual([9_585_059, 7, 'xxh64', 0n]);
  });

  it('passes the scheme and seed through', () => {
    // 624 bits by the formula; poly's step b is 0 mod m with chance 1/m, which
    // costs 624 bits 0.05 x 1.06, so the small-n sizing takes 640 (test/small-n-sizing.test.ts).
    const f = BloomFilter.forCapacity(100, 0.05, { scheme: 'poly' });
    expect([f.bits, f.hashes, f.scheme]).toEqual([640, 4, 'poly']);
    expect(BloomFilter.forCapacity(100, 0.05, { seed: 9n }).seed).toBe(9n);
  });

  it('keeps k <= m for a single item at a tiny rate', () => {
    const f = BloomFilter.forCapacity(1, 0.4);
    expect(f.hashes).toBeLessThanOrEqual(f.bits);
    // The formula's m = 2, k = 1 reports an absent item with chance 1/2 (its one
    // position is the item's); 3 bits and 2 distinct positions give 1/3.
    expect([f.bits, f.hashes]).toEqual([3, 2]);
  });
});

describe('a size asked again', () => {
  it('is the same size, frozen so that no caller changes it for the next, whatever was asked between', async () => {
    const { schemeSize } = await import('../src/filter/sizing.js');
    const first = schemeSize(1000, 0.01, 'xxh64');
    expect(first).toEqual({ bits: 9586, hashes: 7 });
    expect(() => {
      (first as { bits: number }).bits = 1;
    }).toThrow(TypeError);
    expect(schemeSize(1000, 0.01, 'xxh64')).toEqual({ bits: 9586, hashes: 7 });
    expect(schemeSize(1000, 0.01, 'sbbf')).toEqual(schemeSize(1000, 0.01, 'sbbf', 2));
    expect(schemeSize(1000, 0.01, 'sbbf').hashes).toBe(8);
    expect(schemeSize(1000, 0.01, 'xxh64')).toEqual({ bits: 9586, hashes: 7 });
    expect(() => schemeSize(Number.NaN, 0.01, 'xxh64')).toThrow(/capacity/);
    expect(() => schemeSize(1000, Number.NaN, 'xxh64')).toThrow(/falsePositiveRate/);
  });
});
