// forCapacity at rates so low that the optimal k is above MAX_HASHES (64):
// with k capped, the optimal m alone missed the target (100 items at 1e-30
// got an expected rate of 3.5e-29), so m must grow until the formula rate
// (1 - e^(-kn/m))^k is at most the target. Above that threshold nothing
// changes (m = ceil(-n ln p / (ln 2)^2)).
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';

describe.each([['wasm', wasm], ['reference', reference]] as const)('forCapacity below 2^-64.5 (%s)', (_name, lib) => {
  it.each([
    [100, 1e-30],
    [100, 1e-300],
    [1, 1e-25],
    [1000, 1e-200],
    [12345, 1e-40],
  ])('%i items at %s: k = 64 and the expected rate meets the target with the least such m', (n, p) => {
    const f = lib.BloomFilter.forCapacity(n, p);
    expect(f.hashes).toBe(64);
    expect(lib.falsePositiveRate(f.bits, n, 64)).toBeLessThanOrEqual(p);
    // One bit fewer would miss it (up to the rounding of the closed form).
    expect(lib.falsePositiveRate(f.bits - 2, n, 64)).toBeGreaterThan(p);
  });

  it('100 items at 1e-30 take 15,413 bits (the plain formula gave 14,378, whose rate with 64 hashes is 3.5e-29)', () => {
    expect(lib.optimalBits(100, 1e-30)).toBe(14378);
    expect(lib.falsePositiveRate(14378, 100, 64)).toBeGreaterThan(3.5e-29);
    const f = lib.BloomFilter.forCapacity(100, 1e-30);
    expect([f.bits, f.hashes]).toEqual([15413, 64]);
  });

  it.each([[1_000_000, 0.01], [100, 1e-19], [1, 0.5], [100, 3e-20]])('%i items at %s: unchanged, m = optimalBits and k = optimalHashes', (n, p) => {
    const f = lib.BloomFilter.forCapacity(n, p);
    expect(f.bits).toBe(lib.optimalBits(n, p));
    expect(f.hashes).toBe(Math.min(f.bits, lib.optimalHashes(f.bits, n)));
  });

  it('a chain whose late members fall below 2^-64.5 keeps every member at its own rate', () => {
    const chain = new lib.ScalableBloomFilter({ capacity: 1, growth: 1, falsePositiveRate: 1e-18, tightening: 0.5 });
    for (let i = 0; i < 12; i++) chain.add(`item-${i}`);
    chain.members.forEach((member, i) => {
      const target = 1e-18 * 0.5 * 0.5 ** i;
      expect(lib.falsePositiveRate(member.bits, 1, member.hashes)).toBeLessThanOrEqual(target);
    });
  });
});

it('the smallest rate a double holds (5e-324) is met or refused, never silently missed', () => {
  for (const lib of [wasm, reference]) {
    const f = lib.BloomFilter.forCapacity(1000, 5e-324);
    expect(f.hashes).toBe(64);
    expect(lib.falsePositiveRate(f.bits, 1000, 64)).toBeLessThanOrEqual(5e-324);
  }
});
