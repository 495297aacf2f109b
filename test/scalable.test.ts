// ScalableBloomFilter (Almeida et al., 2007): the chain grows in the planned
// sizes, keeps its compound false-positive bound, never loses an item, and
// the wasm chain equals its reference twin.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BloomRangeError, BloomTypeError, MAX_BITS, ScalableBloomFilter, optimalBits, optimalHashes,
  type ScalableOptions,
} from '../src/index.js';
import { ScalableBloomFilter as ReferenceScalable } from '../src/reference/index.js';

const implementations = [
  ['wasm', ScalableBloomFilter],
  ['reference', ReferenceScalable],
] as const;

describe('ScalableBloomFilter grows in the planned sizes', () => {
  it('capacity n_0 2^i, rate p (1 - r) r^i, and forCapacity m and k for each member', () => {
    const s = new ScalableBloomFilter({ capacity: 1000, falsePositiveRate: 0.01 });
    expect(s.members.length).toBe(1);
    let fresh = 0;
    for (let i = 0; i < 10_000; i++) if (s.add(`item-${i}`)) fresh++;
    const f = s.members;
    expect(f.map((m) => m.capacity)).toEqual([1000, 2000, 4000, 8000]);
    expect(f.map((m) => m.falsePositiveRate)).toEqual([0.005, 0.0025, 0.00125, 0.000625]);
    expect(f.map((m) => m.bits)).toEqual([11_028, 24_941, 55_653, 122_847]);
    expect(f.map((m) => m.hashes)).toEqual([8, 9, 10, 11]);
    for (const m of f) {
      expect(m.bits).toBe(optimalBits(m.capacity, m.falsePositiveRate));
      expect(m.hashes).toBe(optimalHashes(m.bits, m.capacity));
    }
    // Full members hold exactly their capacity; 83 of the 10,000 items were
    // reported by an older member and so were not added (the fixed items).
    expect(f.map((m) => m.size)).toEqual([1000, 2000, 4000, 2917]);
    expect(fresh).toBe(9917);
    expect(s.size).toBe(9917);
    expect(f[3].bitsSet).toBe(28_186);
    expect(f[3].fill).toBe(28_186 / 122_847);
    expect(Object.isFrozen(f) && Object.isFrozen(f[0])).toBe(true);
  });

  it('starts a member only when an item must be inserted into a full newest one', () => {
    const s = new ScalableBloomFilter({ capacity: 3, falsePositiveRate: 0.01, growth: 3, tightening: 0.25 });
    for (const item of ['a', 'b', 'c']) expect(s.add(item)).toBe(true);
    expect(s.members.length).toBe(1);
    expect(s.add('a')).toBe(false); // present: no new member
    expect(s.members.length).toBe(1);
    expect(s.add('d')).toBe(true);
    expect(s.members.map((m) => [m.capacity, m.falsePositiveRate, m.size])).toEqual([
      [3, 0.0075, 3],
      [9, 0.001875, 1],
    ]);
  });

  it('rounds n_0 s^i for a fractional growth', () => {
    const s = new ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.05, growth: 1.5 });
    for (let i = 0; i < 200; i++) s.add(`x${i}`);
    expect(s.members.map((m) => m.capacity).slice(0, 5)).toEqual([10, 15, 23, 34, 51]);
  });
});

describe.each([
  { capacity: 10_000, falsePositiveRate: 0.01 },
  { capacity: 10_000, falsePositiveRate: 0.001, growth: 4, tightening: 0.9 },
] as ScalableOptions[])('ScalableBloomFilter(%o) after 10 times its capacity', (options) => {
  it('keeps the measured false-positive rate over 100,000 absent items at or below the requested rate', () => {
    const s = new ScalableBloomFilter(options);
    const n = options.capacity * 10;
    const added = new Uint8Array(n);
    for (let i = 0; i < n; i++) added[i] = s.add(`https://example.com/page/${i}`) ? 1 : 0;
    // No added item is missing, whether its add reported new or not.
    const present = s.hasMany(Array.from({ length: n }, (_, i) => `https://example.com/page/${i}`));
    expect(present.indexOf(0)).toBe(-1);
    const absent = s.hasMany(Array.from({ length: 100_000 }, (_, i) => `https://example.org/absent/${i}`));
    const falsePositives = absent.reduce((a, b) => a + b, 0);
    expect(falsePositives / 100_000).toBeLessThanOrEqual(options.falsePositiveRate);
    expect(s.currentFalsePositiveRate()).toBeLessThanOrEqual(options.falsePositiveRate);
    // The measured rate agrees with the compound estimate (binomial, 4 sigma).
    const p = s.currentFalsePositiveRate();
    expect(Math.abs(falsePositives - 100_000 * p)).toBeLessThan(4 * Math.sqrt(100_000 * p) + 5);
    // The Swamidass-Baldi sum is within 2% of the adds that reported new.
    const fresh = added.reduce((a, b) => a + b, 0);
    expect(s.size).toBe(fresh);
    expect(Math.abs(s.estimatedCount() / fresh - 1)).toBeLessThan(0.02);
  });
});

describe.each(implementations)('%s ScalableBloomFilter', (_name, Impl) => {
  it('add reports new items once; has finds them in any member', () => {
    const s = new Impl({ capacity: 4, falsePositiveRate: 0.0001 });
    const items = Array.from({ length: 40 }, (_, i) => `k${i}`);
    for (const item of items) expect(s.add(item)).toBe(true); // at 10^-4, none of these 40 collides
    for (const item of items) expect(s.add(item)).toBe(false);
    for (const item of items) expect(s.has(item)).toBe(true);
    expect(s.add(new Uint8Array([1, 2, 3]))).toBe(true);
    expect(s.has(new Uint8Array([1, 2, 3]))).toBe(true);
    expect(s.members.length).toBe(4); // 4 + 8 + 16 < 41 <= 4 + 8 + 16 + 32
    expect(s.size).toBe(41);
    expect(s.estimatedCount()).toBeGreaterThan(35);
    expect(s.estimatedCount()).toBeLessThan(47);
  });

  it('keeps its options as read-only fields', () => {
    const s = new Impl({ capacity: 7, falsePositiveRate: 0.02, scheme: 'poly' });
    expect([s.capacity, s.falsePositiveRate, s.growth, s.tightening, s.scheme, s.seed]).toEqual([
      7, 0.02, 2, 0.5, 'poly', 0n,
    ]);
    const t = new Impl({ capacity: 7, falsePositiveRate: 0.02, seed: 2n ** 64n - 1n });
    expect(t.seed).toBe(2n ** 64n - 1n);
  });

  it('forCapacity(n, p, options?) is the chain the options constructor makes', () => {
    const a = Impl.forCapacity(1000, 0.01);
    expect(a).toBeInstanceOf(Impl);
    expect(a.toBytes()).toEqual(new Impl({ capacity: 1000, falsePositiveRate: 0.01 }).toBytes());
    const options = { growth: 4, tightening: 0.25, scheme: 'sbbf', seed: 9n } as const;
    const b = Impl.forCapacity(50, 0.001, options);
    const c = new Impl({ capacity: 50, falsePositiveRate: 0.001, ...options });
    for (let i = 0; i < 300; i++) expect(b.add(`u${i}`)).toBe(c.add(`u${i}`));
    expect(b.toBytes()).toEqual(c.toBytes());
    expect([b.capacity, b.falsePositiveRate, b.growth, b.tightening, b.scheme, b.seed]).toEqual([50, 0.001, 4, 0.25, 'sbbf', 9n]);
    expect(() => Impl.forCapacity(0, 0.01)).toThrow('capacity must be a positive integer; got 0');
    expect(() => Impl.forCapacity(10, 1)).toThrow('falsePositiveRate must be a number in (0, 1); got 1');
    expect(() => Impl.forCapacity(10, 0.01, { capacity: 5 } as never)).toThrow(BloomTypeError);
    expect(() => Impl.forCapacity(10, 0.01, { capacity: 5 } as never)).toThrow('options.capacity must be absent: forCapacity takes the capacity and rate as its arguments; got 5');
    expect(() => Impl.forCapacity(10, 0.01, [] as never)).toThrow(BloomTypeError);
  });

  it('a number where the options object goes names forCapacity', () => {
    const call = () => new (Impl as unknown as new (...a: unknown[]) => unknown)(1000, 0.01);
    expect(call).toThrow(BloomTypeError);
    expect(call).toThrow(
      'options must be an object with capacity and falsePositiveRate; for n items at rate p, call ScalableBloomFilter.forCapacity(n, p, options?); got 1000',
    );
  });

  it('still reads the old option name initialCapacity when capacity is absent', () => {
    const old = new Impl({ initialCapacity: 7, falsePositiveRate: 0.02 } as unknown as ScalableOptions);
    expect(old.capacity).toBe(7);
    expect(old.toBytes()).toEqual(new Impl({ capacity: 7, falsePositiveRate: 0.02 }).toBytes());
  });

  it('addMany and hasMany equal single operations, for arrays, iterables and packed bytes', () => {
    const a = new Impl({ capacity: 5, falsePositiveRate: 0.01 });
    const b = new Impl({ capacity: 5, falsePositiveRate: 0.01 });
    const items = ['x', 'y', 'x', 'z', 'w', 'v', 'u', 't', 'y', 's'];
    expect(Array.from(a.addMany(items))).toEqual(items.map((i) => (b.add(i) ? 1 : 0)));
    expect(Array.from(a.addMany(new Set(['q', 'x'])))).toEqual([1, 0]);
    const bytes = new TextEncoder().encode('xqnope');
    expect(Array.from(a.hasMany({ bytes, offsets: [0, 1, 2, 6] }))).toEqual([1, 1, 0]);
    expect(Array.from(a.hasMany({ bytes, offsets: new Uint32Array([0]) }))).toEqual([]);
    expect(a.members.map((m) => m.size)).toEqual([5, 4]); // 8 distinct letters, then q
  });

  it('refuses a bad batch before adding anything', () => {
    const s = new Impl({ capacity: 5, falsePositiveRate: 0.01 });
    expect(() => s.addMany(['a', 3 as unknown as string])).toThrow('items[1] must be a string or a Uint8Array; got 3');
    expect(() => s.addMany({ bytes: new Uint8Array(4), offsets: [0, 2, 5] })).toThrow(
      'items.offsets[2] must be an integer in [2, 4]; got 5',
    );
    expect(() => s.addMany('abc' as unknown as string[])).toThrow(BloomTypeError);
    expect(s.size).toBe(0);
    expect(s.has('a')).toBe(false);
  });

  it('clear() goes back to one empty member', () => {
    const s = new Impl({ capacity: 2, falsePositiveRate: 0.01 });
    for (let i = 0; i < 20; i++) s.add(`i${i}`);
    s.clear();
    expect(s.members.length).toBe(1);
    expect(s.size).toBe(0);
    expect(s.has('i0')).toBe(false);
    expect(s.currentFalsePositiveRate()).toBe(0);
  });

  it('refuses bad options with typed errors naming the option', () => {
    const base = { capacity: 100, falsePositiveRate: 0.01 };
    const cases: [unknown, string][] = [
      [undefined, 'options must be an object with capacity and falsePositiveRate; got undefined'],
      [{ ...base, capacity: 0 }, 'capacity must be a positive integer; got 0'],
      [{ ...base, capacity: 2.5 }, 'capacity must be a positive integer; got 2.5'],
      [{ ...base, falsePositiveRate: 1 }, 'falsePositiveRate must be a number in (0, 1); got 1'],
      [{ ...base, falsePositiveRate: NaN }, 'falsePositiveRate must be a number in (0, 1); got NaN'],
      [{ ...base, growth: 0.5 }, 'growth must be a number in [1, 1024]; got 0.5'],
      [{ ...base, tightening: 1 }, 'tightening must be a number in (0, 1); got 1'],
      [{ ...base, tightening: 0 }, 'tightening must be a number in (0, 1); got 0'],
      [{ ...base, scheme: 'md5' }, 'scheme must be one of xxh64, poly, bytesum, sbbf; got "md5"'],
      [{ ...base, scheme: 'poly', seed: 1 }, 'seed must be 0 under poly, which has no seed; got 1'],
      [{ ...base, seed: -1 }, 'seed must be an integer in [0, 2^64 - 1] (a bigint, or a safe-integer number); got -1'],
      [{ ...base, capacity: 4e9 }, `members[0].bits must be at most ${MAX_BITS}`],
    ];
    for (const [options, message] of cases) {
      expect(() => new Impl(options as ScalableOptions)).toThrow(message);
    }
    expect(() => new Impl({ ...base, growth: '2' as unknown as number })).toThrow(BloomTypeError);
    expect(() => new Impl({ ...base, tightening: -1 })).toThrow(BloomRangeError);
  });
});

describe('wasm ScalableBloomFilter equals the reference', () => {
  const options = fc.record({
    capacity: fc.integer({ min: 1, max: 20 }),
    falsePositiveRate: fc.double({ min: 0.001, max: 0.5, noNaN: true }),
    growth: fc.double({ min: 1, max: 3, noNaN: true }),
    tightening: fc.double({ min: 0.1, max: 0.95, noNaN: true }),
    scheme: fc.constantFrom('xxh64' as const, 'poly' as const, 'bytesum' as const),
  });
  // A small alphabet, so items repeat and some are false positives.
  const item = fc.oneof(fc.string({ maxLength: 4, unit: fc.constantFrom('a', 'b', 'c', 'é', '😀') }), fc.uint8Array({ maxLength: 4 }));

  it('gives the same answers, members and fills for any sequence of adds', () => {
    fc.assert(
      fc.property(options, fc.array(item, { maxLength: 120 }), fc.array(item, { maxLength: 30 }), (o, adds, probes) => {
        const w = new ScalableBloomFilter(o);
        const r = new ReferenceScalable(o);
        for (const x of adds) expect(w.add(x)).toBe(r.add(x));
        expect(w.hasMany(probes)).toEqual(r.hasMany(probes));
        expect(w.members).toEqual(r.members);
        expect(w.size).toBe(r.size);
        expect(w.estimatedCount()).toBe(r.estimatedCount());
        expect(w.currentFalsePositiveRate()).toBe(r.currentFalsePositiveRate());
      }),
      { numRuns: 150 },
    );
  });

  it('addMany in batches that cross member boundaries equals add one by one', () => {
    fc.assert(
      fc.property(options, fc.array(fc.array(item, { maxLength: 40 }), { maxLength: 6 }), fc.boolean(), (o, batches, packed) => {
        const w = new ScalableBloomFilter(o);
        const r = new ReferenceScalable(o);
        for (const batch of batches) {
          const expected = Uint8Array.from(batch, (x) => (r.add(x) ? 1 : 0));
          if (packed) {
            const parts = batch.map((x) => (typeof x === 'string' ? new TextEncoder().encode(x) : x));
            const offsets = [0];
            for (const p of parts) offsets.push(offsets[offsets.length - 1] + p.length);
            const bytes = new Uint8Array(offsets[offsets.length - 1]);
            parts.forEach((p, i) => bytes.set(p, offsets[i]));
            // Under poly a string and its UTF-8 bytes hash differently: compare against the bytes added one by one.
            const w2 = new ScalableBloomFilter(o);
            const r2 = new ReferenceScalable(o);
            expect(w2.addMany({ bytes, offsets })).toEqual(Uint8Array.from(parts, (x) => (r2.add(x) ? 1 : 0)));
            expect(w2.members).toEqual(r2.members);
          }
          expect(w.addMany(batch)).toEqual(expected);
          expect(w.members).toEqual(r.members);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("a chain's walk in wasm (assembly/chain.ts) at the edges of m and k", () => {
  // Tiny first members (m down to a few bits, where positions 2 and 3 often
  // repeat an earlier one and move on), rates that make k up to 30, and
  // fills from empty to saturated: has and hasMany of present and absent
  // items against the reference twin, under both schemes of the walk.
  const cases: ScalableOptions[] = [];
  for (const scheme of ['xxh64', 'sbbf'] as const) {
    for (const falsePositiveRate of [0.5, 0.3, 0.01, 1e-9]) {
      for (const capacity of [1, 2, 5]) cases.push({ capacity, falsePositiveRate, growth: 2, scheme, seed: 9n });
    }
  }
  it.each(cases.map((o) => [`${o.scheme} capacity ${o.capacity} rate ${o.falsePositiveRate}`, o] as const))('%s', (_name, o) => {
    const w = new ScalableBloomFilter(o);
    const r = new ReferenceScalable(o);
    const present = Array.from({ length: 300 }, (_, i) => `in:${i}`);
    const absent = Array.from({ length: 600 }, (_, i) => `out:${i}`);
    present.forEach((x, i) => {
      expect(w.add(x)).toBe(r.add(x));
      // Asked as the chain grows, member by member.
      if (i % 7 === 0) for (const y of absent.slice(0, 40)) expect(w.has(y)).toBe(r.has(y));
    });
    expect(w.members).toEqual(r.members);
    for (const x of [...present, ...absent]) expect(w.has(x)).toBe(r.has(x));
    expect(w.hasMany(absent)).toEqual(r.hasMany(absent));
    expect(w.hasMany(present)).toEqual(Uint8Array.from(present, () => 1));
  });
});
