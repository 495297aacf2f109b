// The sbbf scheme against Apache Parquet's specification (BloomFilter.md in
// apache/parquet-format): positions computed here by hand from the formula
// with BigInt, the bitset as little-endian 32-bit words, and the parameter
// rules. Both twins must match every vector.
import { describe, expect, it } from 'vitest';
import { BloomRangeError, MAX_BITS } from '../src/index.js';
import { twins } from './helpers/twins.js';

/** The spec's eight SALT constants, copied from BloomFilter.md by hand. */
const SALT = [0x47b6137bn, 0x44974d91n, 0x8824ad5bn, 0xa2b7289dn, 0x705495c7n, 0x2df1424bn, 0x9efc4947n, 0x5c6bfb31n];
const M32 = (1n << 32n) - 1n;

/** Published XXH64 values (seed 0) from the xxHash test suite. */
const XXH64: Array<[string, bigint]> = [
  ['', 0xef46db3751d8e999n],
  ['a', 0xd24ec4f1a98c6e5bn],
  ['abc', 0x44bc2cf5ad770999n],
];

/** Positions straight from the specification's formula. */
function specPositions(h: bigint, bits: number): number[] {
  const z = BigInt(bits / 256);
  const block = ((h >> 32n) * z) >> 32n;
  return SALT.map((salt, i) => Number(256n * block + 32n * BigInt(i) + ((((h & M32) * salt) & M32) >> 27n)));
}

describe.each(twins)('sbbf ($name)', ({ BloomFilter }) => {
  it.each(XXH64)('positions of %j follow the specification at several sizes', (item, h) => {
    for (const bits of [256, 1024, 256 * 1000, 256 * 12_345, 2 ** 32]) {
      expect(new BloomFilter(bits, 8, { scheme: 'sbbf' }).positions(item)).toEqual(specPositions(h, bits));
    }
  });

  it('pins the bits of three items (worked out once from the formula)', () => {
    expect(new BloomFilter(1024, 8, { scheme: 'sbbf' }).positions('abc')).toEqual([269, 299, 343, 373, 390, 430, 477, 509]);
    expect(new BloomFilter(256, 8, { scheme: 'sbbf' }).positions('')).toEqual([29, 32, 89, 124, 142, 182, 221, 254]);
    expect(new BloomFilter(256_000, 8, { scheme: 'sbbf' }).positions('a'))
      .toEqual([210194, 210225, 210241, 210284, 210321, 210360, 210395, 210431]);
  });

  it('bitArray() is the Parquet bitset: little-endian u32 words, bit b of a word is 1 << b', () => {
    const bits = 256 * 64;
    const f = new BloomFilter(bits, 8, { scheme: 'sbbf' });
    const words = new Uint32Array(bits / 32);
    const encoder = new TextEncoder();
    for (let i = 0; i < 300; i++) {
      const item = i % 2 === 0 ? `https://example.com/page/${i}` : encoder.encode(`bytes ${i}`);
      f.add(item);
      for (const p of f.positions(item)) words[Math.floor(p / 32)] |= 1 << p % 32;
    }
    const expected = new Uint8Array(words.byteLength);
    const view = new DataView(expected.buffer);
    words.forEach((w, i) => view.setUint32(4 * i, w, true));
    expect(Buffer.compare(f.bitArray(), expected)).toBe(0);
  });

  it('one item sets one bit in each of the eight words of one block', () => {
    const f = new BloomFilter(256 * 100, 8, { scheme: 'sbbf' });
    const ps = f.positions('https://example.com/');
    const block = Math.floor(ps[0] / 256);
    ps.forEach((p, i) => expect(Math.floor((p - 256 * block) / 32)).toBe(i));
  });

  it('add is true when any of the eight bits went from 0 to 1', () => {
    const f = new BloomFilter(256, 8, { scheme: 'sbbf' });
    expect(f.add('abc')).toBe(true);
    expect(f.bitsSet()).toBe(8);
    expect(f.add('abc')).toBe(false);
    expect(f.size).toBe(1);
    // Fill the one block, then every item is already there.
    for (let i = 0; i < 2000; i++) f.add(`fill ${i}`);
    expect(f.bitsSet()).toBe(256);
    expect(f.add('something new')).toBe(false);
    expect(f.has('never added')).toBe(true);
  });

  it('honours the seed: positions follow XXH64 with that seed', () => {
    const seed = 2_654_435_761n;
    const seeded = new BloomFilter(1024, 8, { scheme: 'sbbf', seed });
    const plain = new BloomFilter(1024, 8, { scheme: 'sbbf' });
    expect(seeded.seed).toBe(seed);
    expect(seeded.positions('abc')).not.toEqual(plain.positions('abc'));
    // XXH64("", seed PRIME32_1), from the xxHash sanity table (test/hash.test.ts has it too).
    expect(seeded.positions('')).toEqual(specPositions(0xac75fda2929b17efn, 1024));
  });

  it('refuses hashes other than 8 and bits that are not whole blocks, naming the parameter', () => {
    for (const k of [1, 7, 9, 64]) {
      expect(() => new BloomFilter(1024, k, { scheme: 'sbbf' })).toThrow(BloomRangeError);
      expect(() => new BloomFilter(1024, k, { scheme: 'sbbf' })).toThrow(/hashes/);
    }
    for (const m of [1, 255, 257, 1000, MAX_BITS - 8]) {
      expect(() => new BloomFilter(m, 8, { scheme: 'sbbf' })).toThrow(BloomRangeError);
      expect(() => new BloomFilter(m, 8, { scheme: 'sbbf' })).toThrow(/bits.*multiple of 256/);
    }
    expect(() => new BloomFilter(MAX_BITS + 256, 8, { scheme: 'sbbf' })).toThrow(/bits/);
  });
});

describe.each(twins)('sbbf everywhere a scheme goes ($name)', ({ BloomFilter }) => {
  const items = Array.from({ length: 3_000 }, (_, i) => `https://example.com/${i % 7}/item/${i}`);

  it('addMany and hasMany answer exactly as single adds and has do', () => {
    const single = new BloomFilter(256 * 50, 8, { scheme: 'sbbf' });
    const batched = new BloomFilter(256 * 50, 8, { scheme: 'sbbf' });
    const mixed = [...items.slice(0, 1_500), ...items.slice(0, 100), ...items.slice(1_500).map((s) => new TextEncoder().encode(s))];
    const flags = batched.addMany(mixed);
    expect(Array.from(flags)).toEqual(mixed.map((item) => (single.add(item) ? 1 : 0)));
    expect(Buffer.compare(batched.bitArray(), single.bitArray())).toBe(0);
    expect([batched.bitsSet(), batched.size]).toEqual([single.bitsSet(), single.size]);
    const probes = [...items, ...items.map((s) => `${s}?absent`)];
    expect(Array.from(batched.hasMany(probes))).toEqual(probes.map((item) => (single.has(item) ? 1 : 0)));
  });

  it('union and intersect are the OR and AND of the blocks', () => {
    const a = new BloomFilter(256 * 20, 8, { scheme: 'sbbf' });
    const b = new BloomFilter(256 * 20, 8, { scheme: 'sbbf' });
    a.addMany(items.slice(0, 200));
    b.addMany(items.slice(100, 300));
    const union = BloomFilter.union(a, b);
    const intersection = BloomFilter.intersect(a, b);
    const bytesA = a.bitArray();
    const bytesB = b.bitArray();
    expect(Array.from(union.bitArray())).toEqual(Array.from(bytesA, (x, i) => x | bytesB[i]));
    expect(Array.from(intersection.bitArray())).toEqual(Array.from(bytesA, (x, i) => x & bytesB[i]));
    for (const item of items.slice(0, 300)) expect(union.has(item)).toBe(true);
    for (const item of items.slice(100, 200)) expect(intersection.has(item)).toBe(true);
    expect(() => a.union(new BloomFilter(256 * 20, 8, { scheme: 'sbbf', seed: 1 }))).toThrow(/seed/);
    expect(() => a.union(new BloomFilter(256 * 21, 8, { scheme: 'sbbf' }))).toThrow(/bits/);
  });
});
