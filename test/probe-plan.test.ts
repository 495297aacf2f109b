// probeAll's in-place walks (src/filter/probe-plan.ts) against the reference
// twin: startAll's remainders, the lazy xxh64 walk (int and double paths),
// the sbbf block and masks, and the plan cache when the same array changes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import { sbbfBlock, sbbfMasks, walkWide, walkXxh64 } from '../src/filter/probe-plan.js';
import { theHasher } from '../src/wasm/digest.js';
import { startAll } from '../src/reference/digest.js';
import { probeEnhancedDouble } from '../src/reference/probe.js';
import { sbbfPositions } from '../src/reference/sbbf.js';
import { twins } from './helpers/twins.js';

const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const halves = (h: bigint): [number, number] => [Number(h & 0xffffffffn), Number(h >> 32n)];

/** A packed bit array (width 1) or 4-bit counters (width 4) with `positions` set. */
function viewWith(m: number, width: 1 | 4, positions: number[]): Uint8Array {
  const v = new Uint8Array(Math.ceil((m * width) / 8));
  for (const p of positions) {
    if (width === 1) v[p >>> 3] |= 1 << (p & 7);
    else v[p >>> 1] |= 3 << ((p & 1) << 2);
  }
  return v;
}

describe('probeAll in place', () => {
  it('startAll equals the reference: h mod m and splitmix64(h) mod m, up to 2^40 bits', () => {
    fc.assert(
      fc.property(u64, fc.array(fc.integer({ min: 1, max: 2 ** 40 }), { minLength: 1, maxLength: 50 }), (h, bits) => {
        const [lo, hi] = halves(h);
        const starts = theHasher(0n).starts(lo, hi, Float64Array.from(bits.flatMap((m) => [m, 0])), bits.length);
        const want = startAll(h, bits);
        bits.forEach((_, j) => expect([starts[2 * j], starts[2 * j + 1]]).toEqual(want[j]));
      }),
      { numRuns: 200, seed: 14 },
    );
  });

  it('the xxh64 walk answers as the reference positions do, repeats included (int and double paths, both widths)', () => {
    fc.assert(
      fc.property(u64, fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 64 }), fc.nat(), fc.constantFrom<1 | 4>(1, 4), (h, m, k, drop, width) => {
        k = Math.min(k, m);
        const positions = probeEnhancedDouble(h, m, k);
        const [a, b] = startAll(h, [m])[0];
        for (const walk of [walkXxh64, walkWide]) {
          expect(walk(a, b, m, k, viewWith(m, width, positions), width)).toBe(true);
          const missing = positions[drop % k];
          expect(walk(a, b, m, k, viewWith(m, width, positions.filter((p) => p !== missing)), width)).toBe(false);
        }
      }),
      { numRuns: 500, seed: 15 },
    );
  });

  it('the sbbf block (exact from 16-bit halves) and masks equal the reference positions', () => {
    fc.assert(
      fc.property(u64, fc.integer({ min: 1, max: 2 ** 27 }), (h, blocks) => {
        const [lo, hi] = halves(h);
        expect(sbbfBlock(hi, blocks)).toBe(Number(((h >> 32n) * BigInt(blocks)) >> 32n));
        const masks = new Uint32Array(8);
        sbbfMasks(lo, masks);
        const positions = sbbfPositions(h, 256 * blocks);
        masks.forEach((mask, i) => expect(mask).toBe(2 ** (positions[i] % 32)));
      }),
      { numRuns: 500, seed: 16 },
    );
    expect(sbbfBlock(0xffffffff, 2 ** 27)).toBe(2 ** 27 - 1);
  });
});

describe.each(twins)('$name probeAll on one array, changed between calls', ({ probeAll, BloomFilter, CountingBloomFilter }) => {
  it('answers as has() after elements are replaced, added and removed', () => {
    const make = (i: number) =>
      i % 4 === 0 ? new BloomFilter(256 * (1 + i), 8, { scheme: 'sbbf' })
        : i % 4 === 1 ? new CountingBloomFilter(300 + i, 3 + (i % 5))
          : i % 4 === 2 ? new BloomFilter(97 + i, 3, { scheme: 'poly' }) : new BloomFilter(400 + 7 * i, 1 + (i % 9));
    const filters = Array.from({ length: 12 }, (_, i) => make(i));
    const check = () => {
      filters.forEach((f, i) => f.add(`k${i % 5}`));
      for (let j = 0; j < 8; j++) expect(Array.from(probeAll(filters, `k${j}`))).toEqual(filters.map((f) => (f.has(`k${j}`) ? 1 : 0)));
    };
    check();
    filters[3] = new BloomFilter(5000, 7, { seed: 9n });
    check();
    filters.push(make(13), make(16));
    check();
    filters.splice(0, 3);
    check();
    filters.length = 0;
    expect(probeAll(filters, 'k1')).toEqual(new Uint8Array(0));
  });
});

describe('probeAll reads live bits', () => {
  it('sees bits added between calls on the same array (the cached views are live)', () => {
    const f = new wasm.BloomFilter(1000, 5);
    const filters = [f, new wasm.BloomFilter(2048, 8, { scheme: 'sbbf' })];
    expect(Array.from(wasm.probeAll(filters, 'x'))).toEqual([0, 0]);
    filters[0].add('x');
    filters[1].add('x');
    expect(Array.from(wasm.probeAll(filters, 'x'))).toEqual([1, 1]);
  });
});
