// The shard choice for split filters (bloomwasm/redis): the wasm export and
// the reference twin agree, the shard spreads items evenly, and it is
// independent of the positions inside the shard.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BloomFilter, MAX_SHARDS, SCHEMES } from '../src/index.js';
import { seedFor, shapeFor } from './helpers/shape.js';
import { BloomFilter as ReferenceFilter } from '../src/reference/index.js';
import { shardIndex, shardMix } from '../src/reference/shard.js';

const item = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.uint8Array({ maxLength: 80 }));

describe('shardOf', () => {
  it('wasm equals reference for every scheme, seed and shard count', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SCHEMES),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: MAX_SHARDS }),
        fc.array(item, { maxLength: 20 }),
        (scheme, seed, bits, hashes, shards, items) => {
          const options = { scheme, seed: seedFor(scheme, seed) };
          const wasm = new BloomFilter(...shapeFor(scheme, bits, hashes), options);
          const ref = new ReferenceFilter(...shapeFor(scheme, bits, hashes), options);
          for (const x of items) {
            const s = wasm.shardOf(x, shards);
            expect(s).toBe(ref.shardOf(x, shards));
            expect(s).toBeGreaterThanOrEqual(0);
            expect(s).toBeLessThan(shards);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('streams long items to the same shard as the reference', () => {
    const long = 'x'.repeat(70_000) + 'é'.repeat(30_000);
    for (const scheme of SCHEMES) {
      const wasm = new BloomFilter(...shapeFor(scheme, 1009, 3), { scheme });
      const ref = new ReferenceFilter(...shapeFor(scheme, 1009, 3), { scheme });
      expect(wasm.shardOf(long, 97)).toBe(ref.shardOf(long, 97));
      expect(wasm.positions(long)).toEqual(ref.positions(long));
    }
  });

  it('pins golden values (the shard choice is part of the Redis layout)', () => {
    for (const F of [BloomFilter, ReferenceFilter]) {
      const f = new F(1000, 7);
      expect(['a', 'b', 'https://example.com/'].map((x) => f.shardOf(x, 16))).toEqual([3, 4, 3]);
      expect(new F(1000, 3, { scheme: 'poly' }).shardOf('apple', 16)).toBe(2);
      expect(new F(100, 3, { scheme: 'bytesum' }).shardOf('apple', 16)).toBe(13);
    }
    expect(shardMix(0n)).toBe(0xe220a8397b1dcdafn); // splitmix64's first output from state 0
    expect(shardIndex(0n, 1)).toBe(0);
  });

  it('spreads 40,000 items over 8 shards evenly, independent of the first position', () => {
    const f = new BloomFilter(1 << 20, 7);
    const counts = new Array(8).fill(0);
    // Cross table: shard x (first position mod 2); dependence would skew a row.
    const cross = Array.from({ length: 8 }, () => [0, 0]);
    for (let i = 0; i < 40_000; i++) {
      const x = `https://example.com/page/${i}`;
      const s = f.shardOf(x, 8);
      counts[s]++;
      cross[s][f.positions(x)[0] % 2]++;
    }
    // 5,000 expected per shard; sd ~ 66, so +-400 is > 6 sd.
    for (const c of counts) expect(Math.abs(c - 5000)).toBeLessThan(400);
    for (const [even, odd] of cross) expect(Math.abs(even - odd)).toBeLessThan(400);
  });

  it('refuses a bad shard count', () => {
    const f = new BloomFilter(100, 3);
    expect(() => f.shardOf('a', 0)).toThrow('shards must be an integer in [1, 65536]; got 0');
    expect(() => new ReferenceFilter(100, 3).shardOf('a', 1.5)).toThrow(RangeError);
  });
});
