// Hash once, probe many: digest() equals XXH64 (spec vectors) in both twins,
// hasDigest/addDigest equal has/add on filters of any size, poly/bytesum and
// a wrong seed are refused with BloomDigestError, and probeAll and the
// ScalableBloomFilter encode the item once whatever the number of filters.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { twins } from './helpers/twins.js';

afterEach(() => vi.restoreAllMocks());

describe.each(twins)('$name digest', ({ digest, Digest, BloomFilter, CountingBloomFilter, ScalableBloomFilter, BloomDigestError, BloomTypeError }) => {
  it('is XXH64 of the UTF-8 bytes (xxHash spec vectors)', () => {
    expect(digest('').value).toBe(0xef46db3751d8e999n);
    expect(digest('abc').value).toBe(0x44bc2cf5ad770999n);
    expect(digest(new Uint8Array([0x61, 0x62, 0x63])).value).toBe(0x44bc2cf5ad770999n);
    const d = digest('abc', { seed: 5n });
    expect(d.seed).toBe(5n);
    expect(Digest.fromValue(d.value, 5n)).toEqual(d);
  });

  it('serves filters of any size: hasDigest/addDigest equal has/add', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 })), { minLength: 1, maxLength: 20 }),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        (items, seed) => {
          const sizes = [[64, 3, 'xxh64'], [1000, 7, 'xxh64'], [100_003, 11, 'xxh64'], [256, 8, 'sbbf'], [25_600, 8, 'sbbf']] as const;
          for (const [m, k, scheme] of sizes) {
            const byItem = new BloomFilter(m, k, { seed, scheme });
            const byDigest = new BloomFilter(m, k, { seed, scheme });
            for (const item of items) expect(byDigest.addDigest(digest(item, { seed }))).toBe(byItem.add(item));
            expect(byDigest.bitArray()).toEqual(byItem.bitArray());
            expect(byDigest.size).toBe(byItem.size);
            for (const item of [...items, 'absent?']) expect(byItem.hasDigest(digest(item, { seed }))).toBe(byItem.has(item));
          }
        },
      ),
      { numRuns: 25, seed: 64 },
    );
  });

  it('hashes items longer than the scratch region to the same digest as the other twin', () => {
    const long = 'ü'.repeat(50_000) + 'x';
    expect(digest(long, { seed: 9n }).value).toBe(reference.digest(long, { seed: 9n }).value);
    const f = new BloomFilter(10_000, 5, { seed: 9n });
    f.add(long);
    expect(f.hasDigest(digest(long, { seed: 9n }))).toBe(true);
  });

  it('refuses poly and bytesum filters, naming why', () => {
    for (const scheme of ['poly', 'bytesum'] as const) {
      const f = new BloomFilter(100, 3, { scheme });
      let caught: unknown;
      try {
        f.hasDigest(digest('a'));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(BloomDigestError);
      expect(caught).toMatchObject({ reason: 'scheme' });
      expect((caught as Error).message).toMatch(new RegExp(`hasDigest: the ${scheme} scheme has no digest, because its hashes depend on the filter's bits`));
      expect(() => f.addDigest(digest('a'))).toThrow(BloomDigestError);
      expect(() => new CountingBloomFilter(100, 3, { scheme }).hasDigest(digest('a'))).toThrow(BloomDigestError);
      expect(f.bitsSet()).toBe(0);
    }
  });

  it('refuses a digest whose seed is not the filter\'s, and a non-digest', () => {
    const f = new BloomFilter(100, 3, { seed: 1n });
    expect(() => f.addDigest(digest('a', { seed: 2n }))).toThrow(/computed with seed 2n but the filter's seed is 1n/);
    expect(() => f.hasDigest(digest('a'))).toThrow(BloomDigestError);
    expect(() => f.hasDigest({ lo: 1, hi: 2, seed: 1n } as never)).toThrow(BloomTypeError);
    expect(() => digest(3 as never)).toThrow(BloomTypeError);
    expect(() => digest('a', { seed: -1 })).toThrow(wasm.BloomRangeError);
    expect(f.bitsSet()).toBe(0);
  });

  it('drives a CountingBloomFilter as its item methods do', () => {
    const c = new CountingBloomFilter(500, 4, { seed: 3n });
    const d = digest('k', { seed: 3n });
    c.addDigest(d);
    c.add('k');
    expect(c.countDigest(d)).toBe(2);
    expect(c.removeDigest(d)).toBe(true);
    expect(c.count('k')).toBe(1);
    expect(c.hasDigest(d)).toBe(true);
    expect(c.remove('k')).toBe(true);
    const bytes = c.toBytes();
    expect(c.removeDigest(d)).toBe(false);
    expect(c.toBytes()).toEqual(bytes);
  });

  it('drives a ScalableBloomFilter as has/add do', () => {
    const s = new ScalableBloomFilter({ capacity: 8, falsePositiveRate: 0.01, seed: 4n });
    for (let i = 0; i < 100; i++) s.addDigest(digest(`i${i}`, { seed: 4n }));
    expect(s.members.length).toBeGreaterThan(3);
    for (let i = 0; i < 100; i++) expect(s.has(`i${i}`)).toBe(true);
    for (let i = 0; i < 100; i++) expect(s.hasDigest(digest(`j${i}`, { seed: 4n }))).toBe(s.has(`j${i}`));
  });
});

describe.each(twins)('$name probeAll', ({ probeAll, BloomFilter, CountingBloomFilter, ScalableBloomFilter, BloomTypeError, BloomRangeError }) => {
  it('answers for each filter as its has() would, across sizes, seeds, schemes and kinds', () => {
    const filters = [
      ...Array.from({ length: 30 }, (_, i) => new BloomFilter(64 + 37 * i, 1 + (i % 9))),
      new BloomFilter(500, 3, { seed: 77n }),
      new BloomFilter(97, 3, { scheme: 'poly' }),
      new BloomFilter(100, 3, { scheme: 'bytesum' }),
      new CountingBloomFilter(300, 4),
      new BloomFilter(2048, 8, { scheme: 'sbbf' }),
      new BloomFilter(512, 8, { scheme: 'sbbf', seed: 77n }),
      new CountingBloomFilter(1024, 8, { scheme: 'sbbf' }),
      new ScalableBloomFilter({ capacity: 4, falsePositiveRate: 0.01 }),
      new ScalableBloomFilter({ capacity: 4, falsePositiveRate: 0.01, scheme: 'sbbf' }),
    ];
    filters.forEach((f, i) => {
      for (let j = 0; j < 10; j++) if ((i + j) % 3 === 0) f.add(`key${j}`);
    });
    for (let j = 0; j < 20; j++) {
      const got = probeAll(filters, `key${j}`);
      expect(got).toBeInstanceOf(Uint8Array);
      expect(Array.from(got)).toEqual(filters.map((f) => (f.has(`key${j}`) ? 1 : 0)));
    }
    expect(probeAll([], 'x')).toEqual(new Uint8Array(0));
  });

  it('finds every added key in full sbbf filters (masks of bit 31 included)', () => {
    // A word mask of bit 31 is 2^31 in a Uint32Array and negative after &:
    // 1,000 keys give masks of every bit many times over.
    const filters = Array.from({ length: 5 }, (_, i) => new BloomFilter(256 * (40 + i), 8, { scheme: 'sbbf' }));
    const keys = Array.from({ length: 1000 }, (_, j) => `key${j}`);
    keys.forEach((k, j) => filters[j % 5].add(k));
    keys.forEach((k, j) => {
      const got = probeAll(filters, k);
      expect(got[j % 5]).toBe(1);
      expect(Array.from(got)).toEqual(filters.map((f) => (f.has(k) ? 1 : 0)));
    });
  });

  it('answers right past one placement group (more than 4096 positions), counting filters mixed in', () => {
    const filters = Array.from({ length: 640 }, (_, i) =>
      i % 5 === 0 ? new CountingBloomFilter(50 + 13 * i, 1 + (i % 8)) : new BloomFilter(50 + 13 * i, 1 + (i % 8)),
    );
    filters.forEach((f, i) => f.add(`key${i % 11}`));
    for (let j = 0; j < 12; j++) {
      expect(Array.from(probeAll(filters, `key${j}`))).toEqual(filters.map((f) => (f.has(`key${j}`) ? 1 : 0)));
    }
  });

  it('writes every answer into a given array and returns it, whatever it held', () => {
    const filters = [
      ...Array.from({ length: 70 }, (_, i) => new BloomFilter(64 + 37 * i, 1 + (i % 9))),
      new BloomFilter(97, 3, { scheme: 'poly' }),
      new BloomFilter(500, 3, { seed: 77n }),
      new BloomFilter(1024, 8, { scheme: 'sbbf' }),
    ];
    filters.forEach((f, i) => f.add(`key${i % 7}`));
    const into = new Uint8Array(filters.length);
    for (let j = 0; j < 14; j++) {
      // Stale values, 2 included (the wasm walk's own "ask it" mark), must not survive.
      into.fill(j % 2 === 0 ? 2 : 255);
      expect(probeAll(filters, `key${j}`, into)).toBe(into);
      expect(Array.from(into)).toEqual(filters.map((f) => (f.has(`key${j}`) ? 1 : 0)));
      expect(Array.from(into)).toEqual(Array.from(probeAll(filters, `key${j}`)));
    }
  });

  it('refuses an answers array that is not a Uint8Array of one element per filter', () => {
    const filters = [new BloomFilter(64, 2), new BloomFilter(128, 3)];
    expect(() => probeAll(filters, 'x', new Uint8Array(3))).toThrow(BloomRangeError);
    expect(() => probeAll(filters, 'x', new Uint8Array(1))).toThrow(/into\.length must be 2, the number of filters; got 1/);
    expect(() => probeAll(filters, 'x', [0, 0] as never)).toThrow(BloomTypeError);
    expect(() => probeAll(filters, 'x', new Uint16Array(2) as never)).toThrow(/into must be a Uint8Array/);
    expect(Array.from(probeAll(filters, 'x', undefined))).toEqual([0, 0]);
  });

  it('refuses what is not a list of filters', () => {
    expect(() => probeAll('x' as never, 'x')).toThrow(BloomTypeError);
    expect(() => probeAll([new BloomFilter(8, 1), {} as never], 'x')).toThrow(/filters\[1\] must be a filter/);
    expect(() => probeAll([], 5 as never)).toThrow(BloomTypeError);
  });
});

describe('encoding once (wasm)', () => {
  const item = 'https://example.com/a/fairly/long/path/ünïcode?q=' + 'x'.repeat(30);

  it('probeAll encodes the item once for 200 xxh64 filters of different sizes', () => {
    const filters = Array.from({ length: 200 }, (_, i) => new wasm.BloomFilter(1000 + 61 * i, 7));
    filters[17].add(item);
    const spy = vi.spyOn(TextEncoder.prototype, 'encodeInto');
    const got = wasm.probeAll(filters, item);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(got[17]).toBe(1);
  });

  it('probeAll encodes once for in-place filters, chains and counting filters of one seed together', () => {
    const chain = new wasm.ScalableBloomFilter({ capacity: 4, falsePositiveRate: 0.01 });
    for (let i = 0; i < 50; i++) chain.add(`c${i}`);
    chain.add(item);
    const filters = [new wasm.BloomFilter(5000, 7), chain, new wasm.CountingBloomFilter(4000, 5)];
    const spy = vi.spyOn(TextEncoder.prototype, 'encodeInto');
    expect(Array.from(wasm.probeAll(filters, item))).toEqual([0, 1, 0]);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('ScalableBloomFilter.has and add encode the item once whatever the number of members', () => {
    const s = new wasm.ScalableBloomFilter({ capacity: 4, falsePositiveRate: 0.01 });
    for (let i = 0; i < 200; i++) s.add(`m${i}`);
    expect(s.members.length).toBeGreaterThan(5);
    const spy = vi.spyOn(TextEncoder.prototype, 'encodeInto');
    s.add(item);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(s.has(item)).toBe(true);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('ScalableBloomFilter.addMany and hasMany encode each item once whatever the number of members', () => {
    const s = new wasm.ScalableBloomFilter({ capacity: 4, falsePositiveRate: 0.01 });
    for (let i = 0; i < 200; i++) s.add(`m${i}`);
    const members = s.members.length;
    expect(members).toBeGreaterThan(5);
    const items = Array.from({ length: 10 }, (_, i) => `${item}#${i}`);
    const spy = vi.spyOn(TextEncoder.prototype, 'encodeInto');
    // One encodeInto of the joined chunk (this entry, src/index.ts, has no
    // Buffer#write: src/wasm/chunk-staging.ts's encodeJoined) and then, since
    // it was not all ASCII, one per item: never one per member.
    expect(Array.from(s.addMany(items))).toEqual(items.map(() => 1));
    expect(spy).toHaveBeenCalledTimes(11);
    expect(Array.from(s.hasMany(items))).toEqual(items.map(() => 1));
    expect(spy).toHaveBeenCalledTimes(22);
  });
});
