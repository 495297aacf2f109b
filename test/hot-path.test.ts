// The single-op hot path stages items in several ways (a charCodeAt copy
// for short ASCII strings, encodeInto for longer ones, UTF-16 code units
// for poly's non-ASCII strings, streaming past the 64 KiB scratch region),
// and the poly and bytesum probes are computed incrementally in wasm. Every
// path must give the reference twin's positions exactly.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BloomFilter, type Scheme } from '../src/index.js';
import { BloomFilter as ReferenceFilter } from '../src/reference/index.js';
import { shapeFor } from './helpers/shape.js';

const SCHEMES: Scheme[] = ['xxh64', 'poly', 'bytesum', 'sbbf'];

/** Positions, has (whose single-item form stops at the first clear bit in wasm) and add agree, item by item. */
function samePositions(scheme: Scheme, m: number, k: number, items: (string | Uint8Array)[]): void {
  const [bits, hashes] = shapeFor(scheme, m, k);
  const wasm = new BloomFilter(bits, hashes, { scheme });
  const ref = new ReferenceFilter(bits, hashes, { scheme });
  for (const item of items) {
    expect(wasm.positions(item)).toEqual(ref.positions(item));
    expect(wasm.has(item)).toBe(ref.has(item));
    expect(wasm.add(item)).toBe(ref.add(item));
  }
  expect(wasm.bitArray()).toEqual(ref.bitArray());
}

describe('single-op staging paths match the reference', () => {
  // Lengths around the 24-unit short-string cut-over, ASCII and not.
  const around = [0, 1, 5, 6, 7, 12, 23, 24, 25, 26, 47, 48, 49, 64, 70];
  const items: string[] = [];
  for (const n of around) {
    items.push('u'.repeat(n));
    items.push('é' + 'a'.repeat(n));
    items.push('a'.repeat(n) + '\u{1F600}');
    items.push('a'.repeat(n) + '\ud800'); // a lone surrogate: U+FFFD in UTF-8, 0xD800 as a poly code unit
    items.push('\u007f'.repeat(n) + '\u0080');
  }

  for (const scheme of SCHEMES) {
    it(`${scheme}: strings around the short-string cut-over, ASCII or not`, () => {
      samePositions(scheme, 10_007, 7, items);
    });
  }

  it('poly: extreme code units keep the six-at-once fold exact', () => {
    const extremes: string[] = [];
    for (let n = 1; n <= 40; n++) {
      extremes.push('\uffff'.repeat(n));
      extremes.push('\u0000\uffff'.repeat(n));
      extremes.push('~'.repeat(n));
    }
    samePositions('poly', 99_991, 16, extremes);
  });

  it('poly: the SeenFilter exercise example, positions (h1 + i*h2) mod m', () => {
    const f = new BloomFilter(16, 3, { scheme: 'poly' });
    expect(f.positions('cats.io')).toEqual([1, 2, 3]);
    expect(f.positions('dogs.io')).toEqual([9, 8, 7]);
    expect(f.positions('owls.io')).toEqual([11, 5, 15]);
  });

  for (const scheme of SCHEMES) {
    it(`${scheme}: random strings and bytes, any m and k`, () => {
      fc.assert(
        fc.property(
          fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.uint8Array({ maxLength: 40 })), {
            maxLength: 20,
          }),
          fc.integer({ min: 64, max: 100_000 }),
          fc.integer({ min: 1, max: 64 }),
          (xs, m, k) => {
            const [bits, hashes] = shapeFor(scheme, m, k);
            const wasm = new BloomFilter(bits, hashes, { scheme });
            const ref = new ReferenceFilter(bits, hashes, { scheme });
            for (const x of xs) expect(wasm.positions(x)).toEqual(ref.positions(x));
          },
        ),
        { numRuns: scheme === 'xxh64' ? 40 : 120, seed: 0x3b12 },
      );
    });
  }

  for (const scheme of SCHEMES) {
    it(`${scheme}: items longer than the scratch region are streamed with the same result`, () => {
      const long = ['x'.repeat(70_000), 'ü'.repeat(25_000), '\u{1F600}'.repeat(12_000) + 'a', new Uint8Array(140_000).fill(200)];
      samePositions(scheme, 65_537, 5, long);
    });
  }
});

describe('single has stops at the first clear bit and still answers as the reference', () => {
  for (const scheme of SCHEMES) {
    it(`${scheme}: a half-full filter, present and absent items`, () => {
      const [bits, hashes] = shapeFor(scheme, 2_048, 7);
      const wasm = new BloomFilter(bits, hashes, { scheme });
      const ref = new ReferenceFilter(bits, hashes, { scheme });
      for (let i = 0; i < 150; i++) {
        wasm.add(`in ${i}`);
        ref.add(`in ${i}`);
      }
      let maybe = 0;
      for (let i = 0; i < 3_000; i++) {
        const item = i % 3 === 0 ? `in ${i % 150}` : `out ${i}`;
        const answer = wasm.has(item);
        expect(answer).toBe(ref.has(item));
        maybe += answer ? 1 : 0;
      }
      // Both answers occur: present items are found, and some absent ones are not.
      expect(maybe).toBeGreaterThanOrEqual(1_000);
      expect(maybe).toBeLessThan(3_000);
    });
  }
});
