// The Bitmap (the bitmap article's set of integers): behaviour, bad input, and parity of the wasm
// Bitmap with its reference twin. The article's 10^7-value case is in
// test/bitmap-article.test.ts, apart because it maps about 100 MB.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bitmap, BloomRangeError, BloomTypeError } from '../src/index.js';
import { Bitmap as ReferenceBitmap } from '../src/reference/index.js';

const implementations = [
  ['wasm', Bitmap],
  ['reference', ReferenceBitmap],
] as const;

describe.each(implementations)('%s Bitmap', (_name, Impl) => {
  it('sets, tests and clears single values, counting in O(1)', () => {
    const b = new Impl(100);
    expect(b.bits).toBe(100);
    expect(b.size).toBe(0);
    expect(b.set(0)).toBe(true);
    expect(b.set(99)).toBe(true);
    expect(b.set(42)).toBe(true);
    expect(b.set(42)).toBe(false);
    expect(b.size).toBe(3);
    expect(b.has(42)).toBe(true);
    expect(b.has(41)).toBe(false);
    expect(b.delete(42)).toBe(true);
    expect(b.delete(42)).toBe(false);
    expect(b.has(42)).toBe(false);
    expect(b.size).toBe(2);
    expect([...b]).toEqual([0, 99]);
    expect(b.clear()).toBe(undefined);
    expect(b.size).toBe(0);
    expect([...b]).toEqual([]);
    expect(Array.from(b.bitArray())).toEqual(new Array(13).fill(0));
  });

  it('clear with an argument throws BloomTypeError naming delete, and empties nothing', () => {
    const b = new Impl(100);
    b.setMany([3, 5, 64]);
    const bits = b.bitArray();
    const clearOne = b.clear as unknown as (value: number) => void;
    expect(() => clearOne.call(b, 5)).toThrow(BloomTypeError);
    expect(() => clearOne.call(b, 5)).toThrow('value must be absent: clear() empties the bitmap; to remove one value, call delete(value); got 5');
    expect(() => (clearOne as (value?: number) => void).call(b, undefined)).toThrow(BloomTypeError);
    expect(b.bitArray()).toEqual(bits);
    expect(b.size).toBe(3);
    expect((b as unknown as Record<string, unknown>).clearAll).toBe(undefined);
  });

  it('lays bits out as the filter does: value v is bit v & 7 of byte v >> 3', () => {
    const b = new Impl(20);
    b.set(0);
    b.set(9);
    b.set(19);
    expect(Array.from(b.bitArray())).toEqual([0b0000_0001, 0b0000_0010, 0b0000_1000]);
  });

  it('holds one value when size is 1', () => {
    const b = new Impl(1);
    expect(b.set(0)).toBe(true);
    expect([...b]).toEqual([0]);
    expect(() => b.set(1)).toThrow('value must be an integer in [0, 0]; got 1');
  });

  it('takes batches as Int32Array, Uint32Array or number[]', () => {
    const b = new Impl(1000);
    expect(b.setMany(new Int32Array([5, 3, 5, 999]))).toBe(3);
    expect(b.setMany(new Uint32Array([3, 4]))).toBe(1);
    expect(b.setMany([7, 0])).toBe(2);
    expect(b.setMany([])).toBe(0);
    expect(Array.from(b.hasMany(new Uint32Array([0, 1, 3, 4, 5, 6, 7, 999])))).toEqual([1, 0, 1, 1, 1, 0, 1, 1]);
    expect(Array.from(b.hasMany(new Int32Array([2, 3])))).toEqual([0, 1]);
    expect(Array.from(b.hasMany([998, 999]))).toEqual([0, 1]);
    expect(b.hasMany([])).toEqual(new Uint8Array(0));
    expect(b.toArray()).toEqual(new Uint32Array([0, 3, 4, 5, 7, 999]));
  });

  it('batches and iterates across chunk boundaries', () => {
    // 50,000 values: more than one 16,384-value scratch chunk each way.
    const size = 200_000;
    const values = new Uint32Array(50_000);
    for (let i = 0; i < values.length; i++) values[i] = (i * 7919 + 13) % size;
    const b = new Impl(size);
    expect(b.setMany(values)).toBe(50_000);
    const sorted = values.slice().sort();
    expect(b.toArray()).toEqual(sorted);
    expect(Uint32Array.from(b)).toEqual(sorted);
    const probe = new Uint32Array(size);
    for (let i = 0; i < size; i++) probe[i] = i;
    const answers = b.hasMany(probe);
    const member = new Set(values);
    for (let i = 0; i < size; i += 1) {
      if (answers[i] !== (member.has(i) ? 1 : 0)) throw new Error(`hasMany wrong at ${i}`);
    }
  });

  describe('refuses bad input with typed errors', () => {
    it('in the constructor', () => {
      for (const size of [0, -1, 1.5, 2 ** 32 + 1, NaN, Infinity]) {
        expect(() => new Impl(size)).toThrow(BloomRangeError);
      }
      expect(() => new Impl(0)).toThrow('bits must be an integer in [1, 4294967296]; got 0');
      expect(() => new Impl('10' as unknown as number)).toThrow(BloomTypeError);
    });

    it('for single values', () => {
      const b = new Impl(10);
      expect(() => b.set(-1)).toThrow(BloomRangeError);
      expect(() => b.set(-1)).toThrow('value must be an integer in [0, 9]; got -1');
      expect(() => b.has(2.5)).toThrow('value must be an integer in [0, 9]; got 2.5');
      expect(() => b.delete(10)).toThrow('value must be an integer in [0, 9]; got 10');
      expect(() => b.set(NaN)).toThrow(BloomRangeError);
      expect(() => b.set(2 ** 32)).toThrow(BloomRangeError);
      expect(() => b.has('3' as unknown as number)).toThrow(BloomTypeError);
      expect(() => b.set(3n as unknown as number)).toThrow(BloomTypeError);
      expect(b.size).toBe(0);
    });

    it('for batches, naming the element and changing nothing', () => {
      const b = new Impl(100_000);
      const values = new Int32Array(40_000);
      for (let i = 0; i < values.length; i++) values[i] = i;
      values[35_000] = -7; // in the third scratch chunk
      expect(() => b.setMany(values)).toThrow('values[35000] must be an integer in [0, 99999]; got -7');
      expect(b.size).toBe(0);
      expect(b.toArray()).toEqual(new Uint32Array(0));
      expect(() => b.hasMany(values)).toThrow(BloomRangeError);
      expect(() => b.setMany(new Uint32Array([1, 100_000]))).toThrow('values[1] must be an integer in [0, 99999]; got 100000');
      expect(() => b.setMany([1, 2.5])).toThrow('values[1] must be an integer in [0, 99999]; got 2.5');
      expect(() => b.hasMany([1, -0.5])).toThrow('values[1] must be an integer in [0, 99999]; got -0.5');
      expect(() => b.setMany([1, '2' as unknown as number])).toThrow(BloomTypeError);
      expect(() => b.setMany(new Float64Array([1]) as unknown as number[])).toThrow(
        'values must be an Int32Array, a Uint32Array or an array of numbers; got [object Float64Array]',
      );
      expect(b.size).toBe(0);
    });
  });
});

describe('wasm Bitmap equals the reference', () => {
  const op = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('setMany' as const), list: fc.array(fc.nat(), { maxLength: 40 }) }),
    fc.record({ kind: fc.constant('hasMany' as const), list: fc.array(fc.nat(), { maxLength: 40 }) }),
  );

  it('after any sequence of operations: answers, count, bits and iteration', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.array(op, { maxLength: 60 }), (size, ops) => {
        const w = new Bitmap(size);
        const r = new ReferenceBitmap(size);
        for (const o of ops) {
          if (o.kind === 'set') expect(w.set(o.at % size)).toBe(r.set(o.at % size));
          else if (o.kind === 'delete') expect(w.delete(o.at % size)).toBe(r.delete(o.at % size));
          else if (o.kind === 'setMany') {
            const batch = new Uint32Array(o.list.map((v) => v % size));
            expect(w.setMany(batch)).toBe(r.setMany(batch));
          } else {
            const batch = new Int32Array(o.list.map((v) => v % size));
            expect(w.hasMany(batch)).toEqual(r.hasMany(batch));
          }
          expect(w.size).toBe(r.size);
        }
        expect(w.bitArray()).toEqual(r.bitArray());
        expect([...w]).toEqual([...r]);
        expect(w.toArray()).toEqual(r.toArray());
      }),
      { numRuns: 300 },
    );
  });
});
