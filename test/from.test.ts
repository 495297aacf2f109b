// BloomFilter.from(items, p, options): the filter forCapacity(n, p, options)
// makes, with every item added, where n is the array's length or the Set's
// size, read once. Both twins, the same bytes.

import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BloomRangeError, BloomTypeError, type FilterOptions } from '../src/index.js';
import { twins } from './helpers/twins.js';

const encoder = new TextEncoder();
const urls = Array.from({ length: 1000 }, (_, i) => `https://example.com/page/${i}`);

describe.each(twins)('BloomFilter.from ($name)', ({ BloomFilter }) => {
  /** What from() must equal: forCapacity(n, p, options), then addMany(items). */
  const expected = (items: Array<string | Uint8Array>, n: number, p: number, options?: FilterOptions): Uint8Array => {
    const f = BloomFilter.forCapacity(n, p, options);
    f.addMany(items);
    return f.toBytes();
  };

  it.each<[string, FilterOptions | undefined]>([
    ['xxh64', undefined],
    ['xxh64 with a seed', { seed: 42n }],
    ['sbbf', { scheme: 'sbbf' }],
    ['poly', { scheme: 'poly' }],
    ['bytesum', { scheme: 'bytesum' }],
  ])('sizes an array as forCapacity(length, p) and adds it all (%s)', (_, options) => {
    const items: Array<string | Uint8Array> = [...urls.slice(0, 500), ...urls.slice(500).map((u) => encoder.encode(u))];
    const f = BloomFilter.from(items, 0.01, options);
    const sized = BloomFilter.forCapacity(1000, 0.01, options);
    expect([f.bits, f.hashes, f.scheme, f.seed]).toEqual([sized.bits, sized.hashes, sized.scheme, sized.seed]);
    expect(f.toBytes()).toEqual(expected(items, 1000, 0.01, options));
    expect(items.every((item) => f.has(item))).toBe(true);
    expect(Array.from(f.hasMany(items)).every((flag) => flag === 1)).toBe(true);
  });

  it('sizes the 1,000,000 URLs of the README as forCapacity does: m = 9,585,059, k = 7', () => {
    const many = Array.from({ length: 1_000_000 }, (_, i) => `u${i}`);
    const f = BloomFilter.from(many, 0.01);
    expect([f.bits, f.hashes]).toEqual([9_585_059, 7]);
    expect(f.has('u0') && f.has('u999999')).toBe(true);
    f.dispose();
  });

  it('sizes a Set by its size', () => {
    const set = new Set(urls.slice(0, 300));
    const f = BloomFilter.from(set, 0.001);
    expect(f.toBytes()).toEqual(expected([...set], 300, 0.001));
    expect([...set].every((item) => f.has(item))).toBe(true);
  });

  it("counts an array's duplicates in n: the array's length, not its distinct items", () => {
    const items = ['a', 'b', 'a', 'a', 'c', 'b'];
    const f = BloomFilter.from(items, 0.01);
    const six = BloomFilter.forCapacity(6, 0.01);
    const three = BloomFilter.forCapacity(3, 0.01);
    expect([f.bits, f.hashes]).toEqual([six.bits, six.hashes]);
    expect(f.bits).toBeGreaterThan(three.bits);
    expect(f.toBytes()).toEqual(expected(items, 6, 0.01));
    // addMany's count: the repeats were not new.
    expect(f.size).toBe(3);
    // The Set of the same items is sized for 3.
    expect(BloomFilter.from(new Set(items), 0.01).bits).toBe(three.bits);
  });

  it('refuses an empty array or Set as forCapacity(0) is refused, naming its length or size', () => {
    expect(() => BloomFilter.forCapacity(0, 0.01)).toThrow(BloomRangeError);
    const empty = [(): unknown => BloomFilter.from([], 0.01), (): unknown => BloomFilter.from(new Set(), 0.01)];
    const names = empty.map((make) => {
      try {
        make();
      } catch (error) {
        expect(error).toBeInstanceOf(BloomRangeError);
        return [(error as BloomRangeError).parameter, (error as Error).message];
      }
      throw new Error('not refused');
    });
    expect(names).toEqual([
      ['items.length', 'items.length must be at least 1 (forCapacity sizes for a positive capacity); got 0'],
      ['items.size', 'items.size must be at least 1 (forCapacity sizes for a positive capacity); got 0'],
    ]);
  });

  it('refuses other iterables and non-collections with BloomTypeError naming items', () => {
    function* generate(): Generator<string> {
      yield 'a';
    }
    const others: unknown[] = [
      generate(), new Map([['a', 1]]), 'abc', encoder.encode('abc'), { length: 1, 0: 'a' }, null, undefined, 3,
      { bytes: encoder.encode('a'), offsets: [0, 1] }, new Proxy(new Set(['a']), {}),
    ];
    for (const items of others) {
      let caught: unknown;
      try {
        BloomFilter.from(items as string[], 0.01);
      } catch (error) {
        caught = error;
      }
      expect(caught, String(items)).toBeInstanceOf(BloomTypeError);
      expect((caught as BloomTypeError).parameter).toBe('items');
      expect((caught as Error).message).toMatch(/^items must be an array or a Set of strings and Uint8Arrays \(an iterator has no count to size the filter by\)/);
    }
  });

  it('names a bad item by its index, and checks the rate and options as forCapacity does', () => {
    expect(() => BloomFilter.from(['a', 5 as unknown as string, 'c'], 0.01)).toThrow(
      expect.objectContaining({ name: 'BloomTypeError', parameter: 'items[1]', index: 1 }),
    );
    expect(() => BloomFilter.from(new Set(['a', 'b', null as unknown as string]), 0.01)).toThrow(
      expect.objectContaining({ name: 'BloomTypeError', parameter: 'items[2]' }),
    );
    expect(() => BloomFilter.from(['a'], 1.5)).toThrow(expect.objectContaining({ name: 'BloomRangeError', parameter: 'falsePositiveRate' }));
    expect(() => BloomFilter.from(['a'], 0.01, { scheme: 'nope' as 'xxh64' })).toThrow(expect.objectContaining({ parameter: 'scheme' }));
  });

  it("reads an array's length and each element once, and ignores what a getter appends", () => {
    const target = ['a', 'b', 'c'];
    const reads = new Map<PropertyKey, number>();
    const items = new Proxy(target, {
      get(t, key, receiver) {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        // Caller code that runs while the array is read: it grows the array.
        if (key === '0') t.push('late');
        return Reflect.get(t, key, receiver);
      },
    });
    const f = BloomFilter.from(items, 0.01);
    expect(reads.get('length')).toBe(1);
    expect([reads.get('0'), reads.get('1'), reads.get('2'), reads.get('3')]).toEqual([1, 1, 1, undefined]);
    expect(f.toBytes()).toEqual(expected(['a', 'b', 'c'], 3, 0.01));
  });

  it("reads a Set through its own slot, not a subclass's size or iterator", () => {
    class Lying extends Set<string> {
      override get size(): number {
        throw new Error('size read');
      }
      override [Symbol.iterator](): SetIterator<string> {
        throw new Error('iterator read');
      }
      override values(): SetIterator<string> {
        throw new Error('values read');
      }
      override forEach(): void {
        throw new Error('forEach read');
      }
    }
    const set = new Lying(['x', 'y']);
    const f = BloomFilter.from(set, 0.01);
    expect(f.toBytes()).toEqual(expected(['x', 'y'], 2, 0.01));
  });

  it("takes a Set or an array from another realm", () => {
    const set = runInNewContext('new Set(["p", "q", "r"])') as Set<string>;
    const array = runInNewContext('["p", "q", "r"]') as string[];
    const bytes = expected(['p', 'q', 'r'], 3, 0.01);
    expect(BloomFilter.from(set, 0.01).toBytes()).toEqual(bytes);
    expect(BloomFilter.from(array, 0.01).toBytes()).toEqual(bytes);
  });
});

describe('BloomFilter.from in both twins', () => {
  it('gives the same bytes', () => {
    const [wasm, reference] = twins;
    for (const options of [undefined, { scheme: 'sbbf' as const }, { scheme: 'poly' as const, seed: 0n }]) {
      expect(wasm.BloomFilter.from(urls, 0.02, options).toBytes()).toEqual(reference.BloomFilter.from(urls, 0.02, options).toBytes());
    }
  });
});
