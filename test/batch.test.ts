// addMany/hasMany: a batch must give exactly what the same single calls give,
// in order, on both twins, for the list, iterable and packed forms; and it
// must leave the same bits. Bad batches fail before any bit changes, with
// errors naming the item or offset at fault.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BloomFilter, BloomRangeError, BloomTypeError, type Scheme } from '../src/index.js';
import { BloomFilter as ReferenceFilter } from '../src/reference/index.js';
import { engineOf } from '../src/filter/filter.js';
import { reserveLines } from '../src/wasm/lines-region.js';


const SCHEMES: Scheme[] = ['xxh64', 'poly', 'bytesum'];
const encoder = new TextEncoder();

type Filter = BloomFilter | ReferenceFilter;
type Item = string | Uint8Array;

/** Items that exercise every staging path: ASCII short and long, non-ASCII, lone surrogates, bytes. */
const itemArb: fc.Arbitrary<Item> = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.uint8Array({ maxLength: 80 }),
  fc.constantFrom('', 'https://example.com/', 'a'),
  // Longer than the 256 units a batch joins into one encodeInto call.
  fc.string({ minLength: 257, maxLength: 400 }),
  fc.string({ unit: 'grapheme', minLength: 150, maxLength: 300 }),
);

function pack(items: Uint8Array[]): { bytes: Uint8Array; offsets: number[] } {
  const offsets = [0];
  for (const item of items) offsets.push(offsets[offsets.length - 1] + item.length);
  const bytes = new Uint8Array(offsets[offsets.length - 1]);
  items.forEach((item, i) => bytes.set(item, offsets[i]));
  return { bytes, offsets };
}

function singles(filter: Filter, items: Item[], op: 'add' | 'has'): number[] {
  return items.map((item) => (filter[op](item) ? 1 : 0));
}

describe('addMany and hasMany equal the same single calls', () => {
  for (const scheme of SCHEMES) {
    it(`${scheme}: wasm batch = wasm singles = reference batch = reference singles, results and bits`, () => {
      fc.assert(
        fc.property(
          fc.array(itemArb, { maxLength: 60 }),
          fc.array(itemArb, { maxLength: 60 }),
          fc.integer({ min: 1, max: 5000 }),
          fc.integer({ min: 1, max: 12 }),
          (added, probed, bits, hashes) => {
            fc.pre(scheme !== 'xxh64' || hashes <= bits);
            // Repeats inside one batch: the later copy must report "not new".
            const toAdd = [...added, ...added.slice(0, 5)];
            const filters = [
              new BloomFilter(bits, hashes, { scheme }),
              new BloomFilter(bits, hashes, { scheme }),
              new ReferenceFilter(bits, hashes, { scheme }),
              new ReferenceFilter(bits, hashes, { scheme }),
            ];
            const addFlags = [
              Array.from(filters[0].addMany(toAdd)),
              singles(filters[1], toAdd, 'add'),
              Array.from(filters[2].addMany(toAdd)),
              singles(filters[3], toAdd, 'add'),
            ];
            for (const flags of addFlags) expect(flags).toEqual(addFlags[3]);
            const query = [...probed, ...added];
            const hasFlags = [
              Array.from(filters[0].hasMany(query)),
              singles(filters[1], query, 'has'),
              Array.from(filters[2].hasMany(query)),
              singles(filters[3], query, 'has'),
            ];
            for (const flags of hasFlags) expect(flags).toEqual(hasFlags[3]);
            // No false negatives through the batch path.
            expect(hasFlags[0].slice(probed.length).every((f) => f === 1)).toBe(true);
            const bitsNow = filters[3].bitArray();
            for (const f of filters) {
              expect(f.bitArray()).toEqual(bitsNow);
              expect(f.bitsSet()).toBe(filters[3].bitsSet());
            }
          },
        ),
        { numRuns: 60, seed: 0x3b10 },
      );
    });
  }

  it('the packed form equals the list of the same byte items, on both twins', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 80 }),
        fc.constantFrom(...SCHEMES),
        fc.boolean(),
        (items, scheme, typed) => {
          const packed = pack(items);
          const offsets = typed ? Uint32Array.from(packed.offsets) : packed.offsets;
          const wasm = new BloomFilter(3001, 5, { scheme });
          const ref = new ReferenceFilter(3001, 5, { scheme });
          const viaList = new BloomFilter(3001, 5, { scheme });
          const half = items.slice(0, items.length >> 1);
          const halfPacked = pack(half);
          const a = Array.from(wasm.addMany(halfPacked));
          expect(Array.from(ref.addMany(halfPacked))).toEqual(a);
          expect(Array.from(viaList.addMany(half))).toEqual(a);
          const h = Array.from(wasm.hasMany({ bytes: packed.bytes, offsets }));
          expect(Array.from(ref.hasMany({ bytes: packed.bytes, offsets }))).toEqual(h);
          expect(Array.from(viaList.hasMany(items))).toEqual(h);
          expect(wasm.bitArray()).toEqual(ref.bitArray());
        },
      ),
      { numRuns: 80, seed: 0x3b11 },
    );
  });

  it('a string and its UTF-8 bytes set the same bits under xxh64 and bytesum, in batches too', () => {
    for (const scheme of ['xxh64', 'bytesum'] as const) {
      const words = ['apple', 'banana', 'naïve', '日本語', 'a\u{1F600}b', 'x'.repeat(300)];
      const a = new BloomFilter(1009, 4, { scheme });
      const b = new BloomFilter(1009, 4, { scheme });
      expect(Array.from(a.addMany(words))).toEqual(Array.from(b.addMany(pack(words.map((w) => encoder.encode(w))))));
      expect(a.bitArray()).toEqual(b.bitArray());
    }
  });

  it('accepts any iterable: a Set and a generator give the array results', () => {
    const words = ['a', 'b', 'c', 'a', 'd'];
    const viaArray = new BloomFilter(997, 3).addMany(words);
    const viaSet = new BloomFilter(997, 3).addMany(new Set(words));
    function* gen(): Generator<string> {
      yield* words;
    }
    const viaGen = new BloomFilter(997, 3).addMany(gen());
    expect(Array.from(viaArray)).toEqual([1, 1, 1, 0, 1]);
    expect(Array.from(viaSet)).toEqual([1, 1, 1, 1]);
    expect(Array.from(viaGen)).toEqual(Array.from(viaArray));
  });

  it('an empty batch gives an empty result and changes nothing', () => {
    for (const Ctor of [BloomFilter, ReferenceFilter]) {
      const f = new Ctor(100, 3);
      expect(f.addMany([])).toEqual(new Uint8Array(0));
      expect(f.hasMany({ bytes: new Uint8Array(0), offsets: [0] })).toEqual(new Uint8Array(0));
      expect(f.bitsSet()).toBe(0);
    }
  });
});

describe('batches that span several wasm chunks', () => {
  // 10,000 URLs are more than one chunk (4,096 items, 65,532 string units);
  // items longer than the 64 KiB scratch region go through on their own.
  const urls = Array.from({ length: 10_000 }, (_, i) => `https://example.com/page/${i}?q=${(i * 7919) % 10007}`);
  const long = ['L'.repeat(70_000), 'é'.repeat(30_000), new Uint8Array(70_000).fill(7)];

  for (const scheme of SCHEMES) {
    it(`${scheme}: 10,000 URLs with long items and kind changes match single adds and the reference`, () => {
      const items: Item[] = [...urls.slice(0, 3000), ...long, ...urls.slice(3000), encoder.encode('bytes'), 'tail'];
      const wasm = new BloomFilter(200_003, 7, { scheme });
      const single = new BloomFilter(200_003, 7, { scheme });
      const ref = new ReferenceFilter(200_003, 7, { scheme });
      const flags = wasm.addMany(items);
      expect(Array.from(flags)).toEqual(singles(single, items, 'add'));
      expect(wasm.bitArray()).toEqual(single.bitArray());
      // The BigInt reference is slow: check its batch on a slice that still spans a chunk and the long items.
      const slice = items.slice(2900, 3100);
      const refWasm = new BloomFilter(200_003, 7, { scheme });
      expect(Array.from(ref.addMany(slice))).toEqual(Array.from(refWasm.addMany(slice)));
      expect(ref.bitArray()).toEqual(refWasm.bitArray());
      expect(Array.from(wasm.hasMany(items)).every((f) => f === 1)).toBe(true);
    });
  }

  // A chunk of strings takes up to 65,532 units as if all were ASCII; its
  // one UTF-8 write then tells whether they were, and if not the strings go
  // again in parts that fit whatever the characters. At the edge: chunks
  // filled to the last unit with an 'é' or five, and chunks whose UTF-8 is
  // three times their units.
  const near = (first: string): string[] => {
    const out = [first];
    let units = first.length;
    for (let i = 0; units + 255 <= 65_532; i++) {
      const s = `${i}:`.padEnd(255, 'abcdefghij'[i % 10]);
      out.push(s);
      units += s.length;
    }
    out.push('x'.repeat(65_532 - units));
    return out;
  };
  const edges: [string, string[]][] = [
    // 65,537 bytes of UTF-8: the write is cut at the end of scratch.
    ['five é first in a chunk filled to its last unit', near('ééééé'.padEnd(255, 'z'))],
    ['one é last in a chunk filled to its last unit', [...near('q'.repeat(255)).slice(0, -1), 'é'.padStart(near('q'.repeat(255)).at(-1)!.length, 'y')]],
    ['chunks of three-byte characters only', Array.from({ length: 600 }, (_, i) => `€${i}`.padEnd(256, '€'))],
    ['an all-ASCII chunk filled to its last unit, then one more string', [...near('a'.repeat(255)), 'next']],
  ];
  for (const scheme of [...SCHEMES, 'sbbf' as const]) {
    it.each(edges)(`${scheme}: %s: the same answers and bits as single calls`, (_, items) => {
      const k = scheme === 'sbbf' ? 8 : 7;
      const wasm = new BloomFilter(400_128, k, { scheme });
      const single = new BloomFilter(400_128, k, { scheme });
      expect(Array.from(wasm.addMany(items))).toEqual(singles(single, items, 'add'));
      expect(wasm.bitArray()).toEqual(single.bitArray());
      const asked = [...items.slice(0, 40), ...items.map((s) => s + '!')];
      expect(Array.from(wasm.hasMany(asked))).toEqual(singles(single, asked, 'has'));
      wasm.dispose();
      single.dispose();
    });
  }

  it('packed bytes across chunks equal the list form', () => {
    const bytes = urls.map((u) => encoder.encode(u));
    const a = new BloomFilter(100_000, 5);
    const b = new BloomFilter(100_000, 5);
    const flagsA = a.addMany(pack(bytes));
    expect(Array.from(flagsA)).toEqual(Array.from(b.addMany(bytes)));
    expect(a.bitArray()).toEqual(b.bitArray());
    expect(Array.from(a.hasMany(urls)).every((f) => f === 1)).toBe(true);
  });
});

describe('repeats inside one touched group', () => {
  // A wasm batch hashes and touches up to 64 items before it sets any; an
  // item whose earlier copy is in the same group must still report 0, as a
  // second single add would, at every offset in the group (bits above 31 of the group's mask too).
  it.each(['sbbf', 'xxh64', 'poly'] as Scheme[])('%s: flags equal single adds when item i repeats item i - d', (scheme) => {
    for (const d of [1, 7, 31, 33, 63, 64]) {
      const items = Array.from({ length: 300 }, (_, i) => `item-${i % d === 0 || i < d ? i : i - d}`);
      const f = new BloomFilter(1 << 20, 8, { scheme });
      const g = new BloomFilter(1 << 20, 8, { scheme });
      const singles = Uint8Array.from(items, (item) => (g.add(item) ? 1 : 0));
      expect(Array.from(f.addMany(items)), `d = ${d}`).toEqual(Array.from(singles));
      expect(f.toBytes()).toEqual(g.toBytes());
      expect(Array.from(f.hasMany(items)).every((x) => x === 1)).toBe(true);
    }
  });
});

describe("xxh64's batch has, a position at a time", () => {
  // assembly/batch.ts's testXxh64Group tests position 0 of a whole group,
  // then position 1 of its survivors, then walks the rest: each stage must
  // keep exactly the items a single has keeps. Filled to their design load
  // (half the bits set), so that every stage has survivors and losers, and
  // at tiny m, where b = splitmix64(h) mod m is often 0 and position 1 then
  // repeats position 0 (moved on by one, wrapping at m).
  const cases: [number, number, number][] = [
    [9_586, 7, 1_000], [10_007, 1, 1_000], [10_007, 2, 1_000], [20_011, 12, 1_500], [2, 1, 1], [2, 2, 1], [3, 2, 1], [3, 3, 1], [5, 2, 2], [7, 4, 1],
  ];
  it.each(cases)('m = %i, k = %i, %i added: flags equal single has on both twins', (bits, hashes, added) => {
    const wasm = new BloomFilter(bits, hashes);
    const ref = new ReferenceFilter(bits, hashes);
    const items = Array.from({ length: added }, (_, i) => `https://example.com/added/${i}`);
    wasm.addMany(items);
    ref.addMany(items);
    // 64 a group: 4,000 queries fill 62 groups and leave a partial one; the added ones are in the middle.
    const query = [...Array.from({ length: 2_000 }, (_, i) => `absent-${i}`), ...items, ...Array.from({ length: 1_999 }, (_, i) => `absent-more-${i}`)];
    const singles = Uint8Array.from(query, (item) => (wasm.has(item) ? 1 : 0));
    expect(Array.from(wasm.hasMany(query))).toEqual(Array.from(singles));
    expect(Array.from(ref.hasMany(query))).toEqual(Array.from(singles));
    expect(Array.from(wasm.hasMany(query.map((s) => encoder.encode(s))))).toEqual(Array.from(singles));
    // Every stage was reached: some absent items answered 1 and some 0 (beyond the tiny filters, which hold every bit).
    if (bits > 100) expect(new Set(singles.slice(0, 2_000))).toEqual(new Set([0, 1]));
  });
});

describe('bad batches', () => {
  for (const Ctor of [BloomFilter, ReferenceFilter]) {
    const name = Ctor === BloomFilter ? 'wasm' : 'reference';

    it(`${name}: names the bad item by index and changes no bits`, () => {
      const f = new Ctor(1000, 3);
      expect(() => f.addMany(['a', 'b', 42 as unknown as string])).toThrow(BloomTypeError);
      expect(() => f.addMany(['a', 'b', 42 as unknown as string])).toThrow(
        'items[2] must be a string or a Uint8Array; got 42',
      );
      expect(() => f.hasMany([null as unknown as string])).toThrow('items[0] must be a string or a Uint8Array; got null');
      expect(f.bitsSet()).toBe(0);
    });

    it(`${name}: refuses a lone string, a lone Uint8Array, null and plain objects as the batch`, () => {
      const f = new Ctor(1000, 3);
      for (const bad of ['abc', new Uint8Array(3), null, undefined, 7, {}]) {
        expect(() => f.addMany(bad as never)).toThrow(BloomTypeError);
        expect(() => f.hasMany(bad as never)).toThrow(/^items must be an array or iterable/);
      }
    });

    it(`${name}: checks the packed form's bytes and every offset`, () => {
      const f = new Ctor(1000, 3);
      const bytes = new Uint8Array(10);
      expect(() => f.addMany({ bytes: [1, 2] as never, offsets: [0, 2] })).toThrow(
        'items.bytes must be a Uint8Array; got [object Array]',
      );
      expect(() => f.addMany({ bytes, offsets: 'x' as never })).toThrow(
        'items.offsets must be a Uint32Array or an array of numbers; got "x"',
      );
      expect(() => f.addMany({ bytes, offsets: [] })).toThrow(BloomRangeError);
      expect(() => f.addMany({ bytes, offsets: [] })).toThrow('items.offsets.length must be at least 1');
      expect(() => f.addMany({ bytes, offsets: [0, 4, 3] })).toThrow(
        'items.offsets[2] must be an integer in [4, 10]; got 3',
      );
      expect(() => f.addMany({ bytes, offsets: [0, 11] })).toThrow('items.offsets[1] must be an integer in [0, 10]; got 11');
      expect(() => f.addMany({ bytes, offsets: [-1, 2] })).toThrow('items.offsets[0] must be an integer in [0, 10]; got -1');
      expect(() => f.addMany({ bytes, offsets: [0, 1.5] })).toThrow('items.offsets[1] must be an integer in [0, 10]; got 1.5');
      expect(() => f.addMany({ bytes, offsets: [0, '2' as never] })).toThrow(BloomTypeError);
      expect(() => f.addMany({ bytes, offsets: [0, 2, 3, Number.NaN] })).toThrow('items.offsets[3]');
      expect(f.bitsSet()).toBe(0);
      // A non-zero first offset is allowed: bytes before it are not an item.
      expect(Array.from(f.addMany({ bytes, offsets: Uint32Array.of(2, 4, 4) }))).toEqual([1, 1]);
    });
  }
});

describe('batches after memory grows', () => {
  it('addMany and hasMany still match single calls after the lines region (bloom dedupe) grows memory', () => {
    const grown = new BloomFilter(100_003, 7);
    const plain = new BloomFilter(100_003, 7);
    expect(reserveLines(engineOf(grown), 1 << 20, false)).toBe(true);
    const items = Array.from({ length: 5000 }, (_, i) => `item-${i}`);
    expect(Array.from(grown.addMany(items))).toEqual(singles(plain, items, 'add'));
    expect(Array.from(grown.hasMany(['item-1', 'nope']))).toEqual([1, 0]);
    expect(grown.bitArray()).toEqual(plain.bitArray());
  });
});
