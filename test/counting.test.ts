// The counting filter: behaviour asserted on both twins (4-bit saturating
// counters, remove refusal, count, toBloomFilter), and the wasm filter held
// counter for counter to the reference twin over random add/remove runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { twins } from './helpers/twins.js';

type Counting = InstanceType<typeof wasm.CountingBloomFilter> | InstanceType<typeof reference.CountingBloomFilter>;

/** Counter p as the documented layout says: low nibble of byte p >> 1 for even p, high nibble for odd p. */
const nibble = (counters: Uint8Array, p: number) => (p % 2 === 0 ? counters[p >> 1] & 15 : counters[p >> 1] >> 4);

describe.each(twins)('$name CountingBloomFilter', ({ CountingBloomFilter, BloomFilter, BloomRemoveError, COUNTER_MAX }) => {
  it('uses the positions of a BloomFilter with the same parameters, under every scheme', () => {
    for (const [scheme, m, k] of [['xxh64', 1000, 7], ['poly', 97, 5], ['bytesum', 100, 3], ['sbbf', 1024, 8]] as const) {
      const c = new CountingBloomFilter(m, k, { scheme });
      const b = new BloomFilter(m, k, { scheme });
      for (const item of ['apple', 'cats.io', 'ünïcödé', new Uint8Array([0, 1, 2])]) {
        expect(c.positions(item)).toEqual(b.positions(item));
      }
    }
  });

  it('packs counters two per byte, even positions in the low nibble', () => {
    const c = new CountingBloomFilter(101, 4, { seed: 7n });
    c.add('apple');
    c.add('apple');
    c.add('pear');
    const counters = c.counters();
    expect(counters.length).toBe(51);
    const expected = new Array<number>(101).fill(0);
    for (const p of c.positions('apple')) expected[p] += 2;
    for (const p of c.positions('pear')) expected[p] += 1;
    for (let p = 0; p < 101; p++) expect(nibble(counters, p)).toBe(expected[p]);
    expect(counters[50] >> 4).toBe(0); // the padding nibble past an odd m
  });

  it('add, has, count and remove round-trip; count is the smallest counter', () => {
    const c = new CountingBloomFilter(10_000, 6);
    expect(c.add('k')).toBe(true);
    expect(c.add('k')).toBe(false);
    expect(c.count('k')).toBe(2);
    expect(c.count('absent')).toBe(0);
    expect(c.remove('k')).toBe(true);
    expect(c.count('k')).toBe(1);
    expect(c.has('k')).toBe(true);
    expect(c.remove('k')).toBe(true);
    expect(c.has('k')).toBe(false);
    expect(c.bitsSet()).toBe(0);
    expect(c.size).toBe(0);
  });

  it('remove of an item with a zero counter returns false and changes nothing', () => {
    const c = new CountingBloomFilter(64, 3);
    c.add('a');
    c.add('b');
    const before = c.counters();
    const bytes = c.toBytes();
    const absent = Array.from({ length: 200 }, (_, i) => `x${i}`).find((x) => c.count(x) === 0)!;
    expect(c.remove(absent)).toBe(false);
    expect(c.remove(absent)).toBe(false);
    expect(c.counters()).toEqual(before);
    expect(c.toBytes()).toEqual(bytes);
    expect(c.size).toBe(2);
    expect(c.remove('a')).toBe(true);
    expect(c.size).toBe(1);
    expect(c.remove('a')).toBe(c.count('a') > 0);
  });

  it('BloomRemoveError stays exported, though remove no longer throws it', () => {
    expect(new BloomRemoveError('x', 3)).toBeInstanceOf(Error);
    expect(new BloomRemoveError('x', 3).name).toBe('BloomRemoveError');
  });

  it('saturates at 15 and never decrements a saturated counter, so no false negatives', () => {
    expect(COUNTER_MAX).toBe(15);
    const c = new CountingBloomFilter(1000, 5);
    for (let i = 0; i < 20; i++) c.add('hot');
    c.add('cold');
    expect(c.count('hot')).toBe(15);
    expect(c.saturatedCount()).toBe(5);
    for (let i = 0; i < 20; i++) c.remove('hot');
    expect(c.count('hot')).toBe(15);
    expect(c.has('hot')).toBe(true);
    expect(c.has('cold')).toBe(true);
    const shared = c.positions('hot');
    for (const p of shared) expect(nibble(c.counters(), p)).toBe(15);
  });

  it('counts a repeated position once under poly and bytesum', () => {
    // bytesum with m = 1: every position is 0, so k = 4 probes hit one counter.
    const c = new CountingBloomFilter(1, 4, { scheme: 'bytesum' });
    c.add('a');
    expect(c.counters()).toEqual(Uint8Array.of(1));
    expect(c.count('a')).toBe(1);
    c.remove('a');
    expect(c.counters()).toEqual(Uint8Array.of(0));
  });

  it('toBloomFilter equals a BloomFilter holding the items still present, when none saturated', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('xxh64', 'poly', 'bytesum', 'sbbf'),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20 })), { maxLength: 60 }),
        (scheme, m0, k0, ops) => {
          const m = scheme === 'sbbf' ? 256 * (1 + (m0 % 4)) : m0;
          const k = scheme === 'sbbf' ? 8 : k0;
          fc.pre(scheme !== 'xxh64' || k <= m);
          const c = new CountingBloomFilter(m, k, { scheme });
          const held = new Map<string, number>();
          for (const [add, n] of ops) {
            const item = `item-${n}`;
            if (add) {
              c.add(item);
              held.set(item, (held.get(item) ?? 0) + 1);
            } else if ((held.get(item) ?? 0) > 0) {
              c.remove(item);
              held.set(item, held.get(item)! - 1);
            }
          }
          fc.pre(c.saturatedCount() === 0);
          const plain = new BloomFilter(m, k, { scheme });
          for (const [item, n] of held) if (n > 0) plain.add(item);
          const derived = c.toBloomFilter();
          expect(derived).toBeInstanceOf(BloomFilter);
          expect(derived.bitArray()).toEqual(plain.bitArray());
          expect(derived.bitsSet()).toBe(plain.bitsSet());
          expect(derived.bitsSet()).toBe(c.bitsSet());
          expect(derived.size).toBe([...held.values()].reduce((a, b) => a + b, 0));
          for (const [item, n] of held) if (n > 0) expect(derived.has(item)).toBe(true);
        },
      ),
      { numRuns: 150, seed: 14 },
    );
  });

  it('toBloomFilter carries bits over several scratch chunks, odd m included', () => {
    const m = 1_200_003;
    const c = new CountingBloomFilter(m, 5);
    const plain = new BloomFilter(m, 5);
    for (let i = 0; i < 3000; i++) {
      c.add(`u${i}`);
      plain.add(`u${i}`);
    }
    for (let i = 0; i < 3000; i += 2) c.remove(`u${i}`);
    for (let i = 0; i < 3000; i += 2) c.add(`u${i}`);
    expect(c.toBloomFilter().bitArray()).toEqual(plain.bitArray());
  });

  it('clone is independent; clear empties', () => {
    const c = new CountingBloomFilter(500, 4);
    c.add('a');
    const d = c.clone();
    d.add('b');
    expect(c.has('b')).toBe(c.count('b') > 0);
    expect(d.counters()).not.toEqual(c.counters());
    expect(d.size).toBe(2);
    d.clear();
    expect(d.bitsSet()).toBe(0);
    expect(d.size).toBe(0);
    expect(d.counters().every((b) => b === 0)).toBe(true);
  });

  it('addMany and hasMany give what add and has give, one item at a time', () => {
    const a = new CountingBloomFilter(2000, 5);
    const b = new CountingBloomFilter(2000, 5);
    const items = ['x', 'y', 'x', new Uint8Array([1, 2]), 'z'.repeat(70_000)];
    expect(Array.from(a.addMany(items))).toEqual(items.map((i) => (b.add(i) ? 1 : 0)));
    expect(a.counters()).toEqual(b.counters());
    expect(Array.from(a.hasMany(['x', 'nope']))).toEqual([1, b.has('nope') ? 1 : 0]);
  });

  it('addMany and hasMany equal single calls under every scheme, for lists, packed bytes and chunks past 4096 items', () => {
    for (const [scheme, m, k] of [['xxh64', 5000, 5], ['poly', 4001, 4], ['bytesum', 3000, 3], ['sbbf', 4096, 8]] as const) {
      const a = new CountingBloomFilter(m, k, { scheme });
      const b = new CountingBloomFilter(m, k, { scheme });
      const items: (string | Uint8Array)[] = [];
      for (let i = 0; i < 5000; i++) items.push(i % 7 === 0 ? `ünï-${i % 300}` : i % 5 === 0 ? Uint8Array.of(i & 255, i >> 8) : `k${i % 900}`);
      expect(Array.from(a.addMany(items))).toEqual(items.map((x) => (b.add(x) ? 1 : 0)));
      expect(a.counters()).toEqual(b.counters());
      const bytes = new TextEncoder().encode('abcdefgh');
      const packed = { bytes, offsets: [0, 3, 3, 8] };
      expect(Array.from(a.addMany(packed))).toEqual(['abc', '', 'defgh'].map((x) => (b.add(new TextEncoder().encode(x)) ? 1 : 0)));
      expect(Array.from(a.hasMany(items))).toEqual(items.map((x) => (b.has(x) ? 1 : 0)));
      expect([a.size, a.bitsSet()]).toEqual([b.size, b.bitsSet()]);
    }
  });

  it('streams items longer than the scratch region to the same counters', () => {
    const c = new CountingBloomFilter(4096, 7, { scheme: 'poly' });
    const long = 'é'.repeat(100_000);
    c.add(long);
    expect(c.count(long)).toBe(1);
    c.remove(long);
    expect(c.bitsSet()).toBe(0);
  });

  it('refuses bad arguments with typed errors naming the parameter', () => {
    expect(() => new CountingBloomFilter(wasm.MAX_COUNTING_BITS + 1, 3)).toThrow(/bits must be an integer in \[1, 8589672448\] for a counting filter/);
    expect(() => new CountingBloomFilter(0, 3)).toThrow(wasm.BloomRangeError);
    expect(() => new CountingBloomFilter(10, 3).add(5 as never)).toThrow(wasm.BloomTypeError);
    expect(() => new CountingBloomFilter(10, 3).remove(null as never)).toThrow(wasm.BloomTypeError);
  });

  it('forCapacity sizes as BloomFilter.forCapacity does', () => {
    const c = CountingBloomFilter.forCapacity(1000, 0.01);
    const b = BloomFilter.forCapacity(1000, 0.01);
    expect([c.bits, c.hashes]).toEqual([b.bits, b.hashes]);
    const cs = CountingBloomFilter.forCapacity(1000, 0.01, { scheme: 'sbbf' });
    const bs = BloomFilter.forCapacity(1000, 0.01, { scheme: 'sbbf' });
    expect([cs.bits, cs.hashes]).toEqual([bs.bits, bs.hashes]);
  });
});

// ------------------------------------------------------------------ parity

type Op = { kind: 'add' | 'remove' | 'count' | 'has'; item: string | Uint8Array };

const pool = ['a', 'b', 'c', 'd', 'e', 'ünï', 'long-' + 'x'.repeat(40), '', 'cats.io'];
const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('add', 'add', 'remove', 'count', 'has'),
  item: fc.oneof(fc.constantFrom(...pool), fc.uint8Array({ maxLength: 6 })),
});

function apply(f: Counting, o: Op): unknown {
  try {
    if (o.kind === 'add') return f.add(o.item);
    if (o.kind === 'has') return f.has(o.item);
    if (o.kind === 'count') return f.count(o.item);
    f.remove(o.item);
    return 'removed';
  } catch (error) {
    return (error as Error).name;
  }
}

describe('wasm and reference counting filters agree', () => {
  it('counter for counter after every step of random add/remove runs (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('xxh64', 'poly', 'bytesum', 'sbbf'),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 8 }),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.array(op, { maxLength: 80 }),
        (scheme, m0, k0, seed, ops) => {
          // sbbf: k = 8 and whole 256-bit blocks (1 to 3 of them here).
          const m = scheme === 'sbbf' ? 256 * (1 + (m0 % 3)) : m0;
          const k = scheme === 'sbbf' ? 8 : k0;
          fc.pre(scheme !== 'xxh64' || k <= m);
          const options = { scheme, seed: scheme === 'xxh64' || scheme === 'sbbf' ? seed : 0n };
          const w = new wasm.CountingBloomFilter(m, k, options);
          const r = new reference.CountingBloomFilter(m, k, options);
          for (const o of ops) {
            expect(apply(w, o)).toEqual(apply(r, o));
            expect(w.counters()).toEqual(r.counters());
            expect([w.bitsSet(), w.saturatedCount(), w.size]).toEqual([r.bitsSet(), r.saturatedCount(), r.size]);
          }
          expect(w.toBloomFilter().bitArray()).toEqual(r.toBloomFilter().bitArray());
          expect(w.toBytes()).toEqual(r.toBytes());
        },
      ),
      { numRuns: 300, seed: 1414 },
    );
  });
});
