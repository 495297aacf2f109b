// The bitmap article's case for the bitmap: 10,000,000 integers in [1, 100,000,000]
// fit in about 12 MB, every one is found, and iterating the bitmap yields
// them sorted (the bitmap sort). Kept apart from test/bitmap.test.ts
// because it holds about 100 MB of arrays.

import { describe, expect, it } from 'vitest';
import { Bitmap } from '../src/index.js';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { Bitmap as ReferenceBitmap } from '../src/reference/index.js';

/** A fixed, seedable stream of u32s (mulberry32's outputs, scaled back from [0, 1)). */
function u32s(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() * 2 ** 32;
}

/** Element-wise equality; expect().toEqual is far too slow on arrays of millions. */
function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

describe('the bitmap article: 10^7 integers in [1, 10^8]', () => {
  it('fit in 12.5 MB, are all found, and iterate in sorted order', () => {
    const next = u32s(4);
    const values = new Uint32Array(10_000_000);
    for (let i = 0; i < values.length; i++) values[i] = 1 + (next() % 100_000_000);

    const bitmap = new Bitmap(100_000_001); // values 0..10^8; 0 is never set
    expect(bitmap.bitArray().length).toBe(12_500_001); // about 12 MB, as the article says

    const fresh = bitmap.setMany(values);
    const sorted = values.slice().sort();
    let distinct = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinct++] = sorted[i];
    const unique = sorted.subarray(0, distinct);
    expect(fresh).toBe(distinct);
    expect(bitmap.size).toBe(distinct);
    // The draws repeat: about 10^8 (1 - e^(-0.1)) = 9,516,258 distinct, a
    // little fewer here because next() % 10^8 slightly favours low values.
    expect(distinct).toBe(9_503_757);

    // Every value is found, through the batch path and through has().
    expect(bitmap.hasMany(values).indexOf(0)).toBe(-1);
    for (let i = 0; i < values.length; i += 97) {
      if (!bitmap.has(values[i])) throw new Error(`value ${values[i]} missing`);
    }

    // Iteration yields exactly the distinct values in ascending order, so
    // nothing absent is reported either.
    let at = 0;
    for (const v of bitmap) {
      if (v !== unique[at]) throw new Error(`iteration gave ${v} at ${at}; expected ${unique[at]}`);
      at++;
    }
    expect(at).toBe(distinct);
    expect(same(bitmap.toArray(), unique)).toBe(true);
  });

  it('the reference twin ends with the same bits', () => {
    const next = u32s(4);
    const values = new Uint32Array(10_000_000);
    for (let i = 0; i < values.length; i++) values[i] = 1 + (next() % 100_000_000);
    const wasm = new Bitmap(100_000_001);
    const reference = new ReferenceBitmap(100_000_001);
    expect(wasm.setMany(values)).toBe(reference.setMany(values));
    expect(same(wasm.bitArray(), reference.bitArray())).toBe(true);
  });
});

describe.each([
  ['wasm', Bitmap],
  ['reference', ReferenceBitmap],
] as const)('%s Bitmap past 2^31', (_name, Impl) => {
  it('keeps values above 2^31 unsigned', () => {
    // 2^31 + 64 bits = 256 MiB: the u32 range past i32 without mapping 512 MiB.
    const size = 2 ** 31 + 64;
    const b = new Impl(size);
    expect(b.set(2 ** 31 + 63)).toBe(true);
    expect(b.set(2 ** 31)).toBe(true);
    expect(b.setMany(new Uint32Array([2 ** 31 + 1]))).toBe(1);
    expect(b.has(2 ** 31 + 1)).toBe(true);
    expect(Array.from(b.hasMany(new Uint32Array([2 ** 31 + 63, 2 ** 31 + 2])))).toEqual([1, 0]);
    expect(() => b.setMany(new Int32Array([-1]))).toThrow('values[0] must be an integer in [0, 2147483711]; got -1');
    expect([...b]).toEqual([2 ** 31, 2 ** 31 + 1, 2 ** 31 + 63]);
  });
});

describe('the largest Bitmap', () => {
  it('holds 0 and 2^32 - 1 in 2^32 bits (512 MiB of wasm memory)', () => {
    const b = new Bitmap(2 ** 32);
    expect(b.set(2 ** 32 - 1)).toBe(true);
    expect(b.set(0)).toBe(true);
    expect(b.has(2 ** 32 - 1)).toBe(true);
    expect(Array.from(b.hasMany(new Uint32Array([0, 1, 2 ** 32 - 1])))).toEqual([1, 0, 1]);
    expect([...b]).toEqual([0, 2 ** 32 - 1]);
    expect(() => b.set(2 ** 32)).toThrow('value must be an integer in [0, 4294967295]; got 4294967296');
    expect(() => new Bitmap(2 ** 32 + 1)).toThrow('bits must be an integer in [1, 4294967296]; got 4294967297');
  });
});
