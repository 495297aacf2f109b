// Set algebra and the counters behind it: union/intersect laws, refusals,
// clone, addedCount, the Swamidass–Baldi estimate and the current rate.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { twins } from './helpers/twins.js';


const or = (a: Uint8Array, b: Uint8Array) => a.map((x, i) => x | b[i]);
const and = (a: Uint8Array, b: Uint8Array) => a.map((x, i) => x & b[i]);
const POP = Uint8Array.from({ length: 256 }, (_, b) => b.toString(2).replaceAll('0', '').length);
const ones = (bytes: Uint8Array) => bytes.reduce((n, b) => n + POP[b], 0);
/** Byte equality without vitest's element-by-element diffing, which is slow on 200 KB arrays. */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));

describe.each(twins)('union and intersect ($name)', ({ BloomFilter, BloomMismatchError, BloomTypeError }) => {
  const filled = (bits: number, prefix: string, count: number, scheme: 'xxh64' | 'poly' | 'bytesum' = 'xxh64') => {
    const f = new BloomFilter(bits, 4, { scheme });
    for (let i = 0; i < count; i++) f.add(`${prefix}${i}`);
    return f;
  };

  // 3 scratch chunks and a 5-byte tail: the chunked copy and the word loop's byte tail both run.
  const BIG = (3 * 65536 + 5) * 8 - 3;

  it.each([1000, BIG])('union at m = %i: the bits are the OR, bitsSet is exact, everything added to either is found', (bits) => {
    const a = filled(bits, 'a', 300);
    const b = filled(bits, 'b', 300);
    const expected = or(a.bitArray(), b.bitArray());
    const addedA = a.size;
    const u = a.union(b);
    expect(u).toBe(a);
    expect(same(a.bitArray(), expected)).toBe(true);
    expect(a.bitsSet()).toBe(ones(expected));
    expect(a.size).toBe(addedA + b.size);
    for (let i = 0; i < 300; i++) expect(a.has(`a${i}`) && a.has(`b${i}`)).toBe(true);
  });

  it.each([1000, BIG])('intersect at m = %i: the bits are the AND, bitsSet is exact, items in both are found', (bits) => {
    const a = filled(bits, 'x', 300);
    const b = filled(bits, 'x', 150);
    for (let i = 0; i < 100; i++) b.add(`only-b${i}`);
    const expected = and(a.bitArray(), b.bitArray());
    const adds = Math.min(a.size, b.size);
    expect(a.intersect(b)).toBe(a);
    expect(same(a.bitArray(), expected)).toBe(true);
    expect(a.bitsSet()).toBe(ones(expected));
    expect(a.size).toBe(adds);
    for (let i = 0; i < 150; i++) expect(a.has(`x${i}`)).toBe(true);
  });

  it('static union and intersect return new filters and leave both operands unchanged', () => {
    const a = filled(777, 'a', 40, 'poly');
    const b = filled(777, 'b', 40, 'poly');
    const [bytesA, bytesB] = [a.toBytes(), b.toBytes()];
    const u = BloomFilter.union(a, b);
    const n = BloomFilter.intersect(a, b);
    expect(a.toBytes()).toEqual(bytesA);
    expect(b.toBytes()).toEqual(bytesB);
    expect(u.bitArray()).toEqual(or(a.bitArray(), b.bitArray()));
    expect(n.bitArray()).toEqual(and(a.bitArray(), b.bitArray()));
    expect([u.bits, u.hashes, u.scheme, u.seed]).toEqual([777, 4, 'poly', 0n]);
  });

  it('a filter combined with itself is unchanged', () => {
    const a = filled(999, 'self', 50, 'bytesum');
    const before = a.toBytes();
    a.intersect(a);
    expect(a.bitArray()).toEqual(before.subarray(56));
    a.union(a);
    expect(a.bitArray()).toEqual(before.subarray(56));
    expect(a.bitsSet()).toBe(ones(a.bitArray()));
  });

  it.each([
    ['bits', () => new BloomFilter(100, 3), () => new BloomFilter(101, 3), /bits 100 vs 101/],
    ['hashes', () => new BloomFilter(100, 3), () => new BloomFilter(100, 4), /hashes 3 vs 4/],
    ['scheme', () => new BloomFilter(100, 3), () => new BloomFilter(100, 3, { scheme: 'poly' }), /scheme "xxh64" vs "poly"/],
    ['seed', () => new BloomFilter(100, 3, { seed: 1 }), () => new BloomFilter(100, 3, { seed: 2n }), /seed 1n vs 2n/],
  ])('refuses filters whose %s differs, naming it', (parameter, make, other, message) => {
    for (const run of [
      (a: any, b: any) => a.union(b),
      (a: any, b: any) => a.intersect(b),
      (a: any, b: any) => BloomFilter.union(a, b),
      (a: any, b: any) => BloomFilter.intersect(a, b),
    ]) {
      const a = make();
      a.add('kept');
      const before = a.toBytes();
      let error: unknown;
      try {
        run(a, other());
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(BloomMismatchError);
      expect((error as InstanceType<typeof BloomMismatchError>).parameters).toEqual([parameter]);
      expect((error as Error).message).toMatch(message);
      expect(a.toBytes()).toEqual(before);
    }
  });

  it('names every parameter that differs', () => {
    const a = new BloomFilter(100, 3, { seed: 5 });
    const b = new BloomFilter(64, 2, { scheme: 'bytesum' });
    expect(() => a.union(b)).toThrow(
      'cannot union filters that differ in bits 100 vs 64, hashes 3 vs 2, scheme "xxh64" vs "bytesum", seed 5n vs 0n',
    );
  });

  it('refuses the other implementation and non-filters with BloomTypeError', () => {
    const other = BloomFilter === wasm.BloomFilter ? reference.BloomFilter : wasm.BloomFilter;
    const a = new BloomFilter(100, 3);
    expect(() => a.union(new other(100, 3) as any)).toThrow(BloomTypeError);
    expect(() => a.intersect({ bits: 100 } as any)).toThrow(/other must be a BloomFilter/);
    expect(() => BloomFilter.union(a, null as any)).toThrow(BloomTypeError);
  });
});

describe('wasm and reference agree on union and intersect (fast-check)', () => {
  it('gives byte-identical files', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('xxh64', 'poly', 'bytesum' as const),
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.string(), { maxLength: 40 }),
        fc.array(fc.string(), { maxLength: 40 }),
        (scheme, bits, hashes, left, right) => {
          const k = Math.min(hashes, bits);
          const make = (F: typeof wasm.BloomFilter | typeof reference.BloomFilter, items: string[]) => {
            const f = new F(bits, k, { scheme });
            for (const item of items) f.add(item);
            return f;
          };
          const wu = wasm.BloomFilter.union(make(wasm.BloomFilter, left) as wasm.BloomFilter, make(wasm.BloomFilter, right) as wasm.BloomFilter);
          const ru = reference.BloomFilter.union(make(reference.BloomFilter, left) as reference.BloomFilter, make(reference.BloomFilter, right) as reference.BloomFilter);
          expect(wu.toBytes()).toEqual(ru.toBytes());
          const wi = wasm.BloomFilter.intersect(make(wasm.BloomFilter, left) as wasm.BloomFilter, make(wasm.BloomFilter, right) as wasm.BloomFilter);
          const ri = reference.BloomFilter.intersect(make(reference.BloomFilter, left) as reference.BloomFilter, make(reference.BloomFilter, right) as reference.BloomFilter);
          expect(wi.toBytes()).toEqual(ri.toBytes());
        },
      ),
      { numRuns: 100, seed: 44 },
    );
  });
});

describe.each(twins)('counters, clone and estimates ($name)', ({ BloomFilter }) => {
  it('addedCount counts the adds that reported new, and clear resets it', () => {
    const f = new BloomFilter(1000, 3, { scheme: 'bytesum' });
    expect(f.size).toBe(0);
    let reported = 0;
    for (const item of ['apple', 'banana', 'apple', 'cherry', 'banana', 'date']) if (f.add(item)) reported++;
    expect(reported).toBe(4);
    expect(f.size).toBe(4);
    f.clear();
    expect([f.size, f.bitsSet()]).toEqual([0, 0]);
  });

  it('addedCount skips adds whose bits were all set already (k = m: the first add fills the filter)', () => {
    const f = new BloomFilter(8, 8);
    expect([f.add('a'), f.add('b'), f.add('c')]).toEqual([true, false, false]);
    expect([f.size, f.bitsSet()]).toEqual([1, 8]);
  });

  it('clone copies bits and counters, and the copy is independent', () => {
    const f = new BloomFilter(5000, 5, { seed: 99n });
    for (let i = 0; i < 200; i++) f.add(`c${i}`);
    const g = f.clone();
    expect(g.toBytes()).toEqual(f.toBytes());
    g.add('only in the clone');
    expect(f.has('only in the clone')).toBe(g.has('only in the clone') && f.bitsSet() === g.bitsSet());
    expect(g.size).toBe(f.size + 1);
    f.clear();
    expect(g.has('c7')).toBe(true);
  });

  it('estimatedCount is -(m/k) ln(1 - X/m) and currentFalsePositiveRate is (X/m)^k, exactly', () => {
    const f = new BloomFilter(10_000, 4);
    for (let i = 0; i < 700; i++) f.add(`e${i}`);
    const [m, k, x] = [10_000, 4, f.bitsSet()];
    expect(f.estimatedCount()).toBe((-m / k) * Math.log1p(-x / m));
    expect(f.currentFalsePositiveRate()).toBe((x / m) ** k);
    const empty = new BloomFilter(10_000, 4);
    expect([empty.estimatedCount(), empty.currentFalsePositiveRate()]).toEqual([0, 0]);
  });

  it('estimates n = 100,000 within 5% at m = 10n, and the current rate matches the measured one', () => {
    const n = 100_000;
    const f = BloomFilter.forCapacity(n, 0.0082); // m ≈ 10n
    expect(f.bits).toBeGreaterThanOrEqual(9.95 * n);
    expect(f.bits).toBeLessThanOrEqual(10.05 * n);
    for (let i = 0; i < n; i++) f.add(`https://example.com/page/${i}`);
    expect(Math.abs(f.estimatedCount() - n) / n).toBeLessThan(0.05);
    let hits = 0;
    const queries = 100_000;
    for (let i = 0; i < queries; i++) if (f.has(`https://example.org/absent/${i}`)) hits++;
    // About 800 expected hits; ±20% is over 5 standard deviations.
    expect(Math.abs(hits / queries - f.currentFalsePositiveRate()) / f.currentFalsePositiveRate()).toBeLessThan(0.2);
  });
});
