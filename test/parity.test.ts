// The wasm path and the reference twin must set the same bits for every
// scheme, m, k and item: this suite is what keeps them from drifting.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BloomFilter, SCHEMES, type Scheme } from '../src/index.js';
import { BloomFilter as ReferenceFilter } from '../src/reference/index.js';
import { shapeFor } from './helpers/shape.js';
import { engineOf } from '../src/filter/filter.js';

type Item = string | Uint8Array;

/** Lone surrogates and every other code unit, which fc.string never mixes this freely. */
const codeUnitString = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((u) => String.fromCharCode(...u));

/** Items around and beyond the 64 KiB scratch region (21,845 UTF-16 units fit as UTF-8, 32,768 as units). */
const longItems: Item[] = [
  'a'.repeat(21_845),
  'a'.repeat(21_846),
  'é'.repeat(32_769),
  'x'.repeat(21_844) + '😀' + 'y'.repeat(50_000), // a surrogate pair across the UTF-8 chunk boundary
  'x'.repeat(32_767) + '😀' + 'z'.repeat(40_000), // and across the UTF-16 chunk boundary
  'q'.repeat(21_844) + '\ud800' + 'r'.repeat(30_000), // a lone high surrogate at the boundary
  new Uint8Array(65_536).map((_, i) => (i * 31) & 255),
  new Uint8Array(200_003).map((_, i) => (i * 7 + 3) & 255),
];

const item: fc.Arbitrary<Item> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 30 }), weight: 12 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 9 },
  { arbitrary: codeUnitString, weight: 9 },
  { arbitrary: fc.constantFrom('', '😀', '\ud800', '\udfff', 'a\ud83d', 'cats.io', 'apple'), weight: 3 },
  { arbitrary: fc.uint8Array({ maxLength: 80 }), weight: 9 },
  { arbitrary: fc.string({ minLength: 32, maxLength: 300 }), weight: 6 },
);
// The long items are not drawn here: each streams tens of kilobytes through
// the BigInt hashing of the reference, and drawn one time in 40 they took
// most of these properties' time to test the same eight items again. They
// have a test of their own, over several shapes (below).

/** m: tiny, small non-powers of two, up to 2^32 (the filters are allocated, so beyond that is its own suite). */
const bits = fc.oneof(
  fc.integer({ min: 1, max: 70 }),
  fc.integer({ min: 71, max: 100_000 }),
  fc.integer({ min: 100_001, max: 4_000_000 }),
  fc.constantFrom(1, 2, 63, 64, 65, 100, 1_024, 10_007),
);

function samePositionsAndBits(scheme: Scheme, m: number, k: number, items: Item[]): void {
  const wasm = new BloomFilter(m, k, { scheme });
  const ref = new ReferenceFilter(m, k, { scheme });
  // Each item's positions, has before its add, add, and has after it, in
  // each twin, compared in one expect: vitest's expect costs more than the
  // calls it checks, ten thousand cases over.
  const wasmAnswers = items.map((it) => [wasm.positions(it), wasm.has(it), wasm.add(it), wasm.has(it)]);
  const refAnswers = items.map((it) => [ref.positions(it), ref.has(it), ref.add(it), true]);
  expect(wasmAnswers).toEqual(refAnswers);
  expect(wasm.bitsSet()).toBe(ref.bitsSet());
  // The wasm bits in place (bitArray() is a copy of this view): up to 500 KB a case.
  expect(Buffer.compare(engineOf(wasm).bitsView(), ref.bitArray())).toBe(0);
  // Given back at once: ten thousand filters of up to 4 million bits left to
  // the collector would fill the arena with dead regions between collections.
  wasm.dispose();
}

describe.each(SCHEMES)('wasm equals reference: %s', (scheme) => {
  it('agrees on positions, answers, bits and bitsSet over 10,000 random cases', () => {
    fc.assert(
      fc.property(bits, fc.integer({ min: 1, max: 64 }), fc.array(item, { minLength: 1, maxLength: 6 }), (m, k, items) => {
        samePositionsAndBits(scheme, ...shapeFor(scheme, m, k), items);
      }),
      { numRuns: 10_000, seed: 0x5eed + SCHEMES.indexOf(scheme) },
    );
  }, 400_000);

  it.each([[1_000_003, 7], [64, 3], [10_007, 30], [4_000_000, 1]])('agrees on every long item (streamed through the scratch region), m %i, k %i', (m, k) => {
    samePositionsAndBits(scheme, ...shapeFor(scheme, m, k), longItems);
  });

});

describe('wasm equals reference with a seed', () => {
  it.each(['xxh64', 'sbbf'] as const)('%s: agrees across the whole u64 seed range', (scheme) => {
    const [m, k] = shapeFor(scheme, 100_003, 9);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), item, (seed, it) => {
        const wasm = new BloomFilter(m, k, { scheme, seed });
        const ref = new ReferenceFilter(m, k, { scheme, seed });
        expect(wasm.positions(it)).toEqual(ref.positions(it));
        expect(wasm.add(it)).toBe(ref.add(it));
        expect(Buffer.compare(wasm.bitArray(), ref.bitArray())).toBe(0);
      }),
      { numRuns: 2_000, seed: 7 },
    );
  });
});

describe('wasm equals reference above 2^32 bits', () => {
  // Two filters of about 2^32 + 2^30 bits (640 MiB each, per twin): positions
  // past 2^32 must survive the 64-bit index math on both sides.
  const m = 2 ** 32 + 2 ** 30 + 7;

  it.each(SCHEMES)('%s: same positions, answers and bits', (scheme) => {
    const [bits, hashes] = shapeFor(scheme, m, 64);
    const wasm = new BloomFilter(bits, hashes, { scheme });
    const ref = new ReferenceFilter(bits, hashes, { scheme });
    const set = new Set<number>();
    fc.assert(
      fc.property(item, (it) => {
        const positions = wasm.positions(it);
        expect(positions).toEqual(ref.positions(it));
        for (const p of positions) set.add(p);
        expect(wasm.add(it)).toBe(ref.add(it));
        expect(wasm.has(it)).toBe(true);
      }),
      { numRuns: 1_000, seed: 11 },
    );
    // The bits, without copying 640 MiB out of each twin: the wasm filter's
    // bit of every position is set, and its exact popcount (in wasm) is the
    // number of positions, so it has no other 1 bit; the twin's count agrees.
    const view = engineOf(wasm).bitsView();
    expect([...set].filter((p) => (view[Math.floor(p / 8)] & (1 << p % 8)) === 0), 'positions whose bit is 0').toEqual([]);
    expect(engineOf(wasm).recountBits()).toBe(set.size);
    expect(wasm.bitsSet()).toBe(set.size);
    expect(ref.bitsSet()).toBe(set.size);
    // bytesum of short items never reaches 2^32, poly's h1 + i*h2 and xxh64 do.
    if (scheme !== 'bytesum') expect([...set].filter((p) => p >= 2 ** 32).length).toBeGreaterThan(1_000);
    wasm.dispose();
  });
});

describe('no false negatives', () => {
  it.each(SCHEMES)('%s: every added item is found, in both twins', (scheme) => {
    fc.assert(
      fc.property(fc.integer({ min: 64, max: 50_000 }), fc.array(item, { maxLength: 200 }), (m, items) => {
        for (const Filter of [BloomFilter, ReferenceFilter]) {
          const f = new Filter(...shapeFor(scheme, m, 7), { scheme });
          for (const it of items) f.add(it);
          for (const it of items) expect(f.has(it)).toBe(true);
        }
      }),
      { numRuns: 300, seed: 3 },
    );
  });
});
