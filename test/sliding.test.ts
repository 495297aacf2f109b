// SlidingBloomFilter (docs/SLIDING.md): the API against both twins, the
// positions shared with BloomFilter, wasm-equals-reference parity (golden
// vectors and a fast-check property over adds, rotations and clock moves),
// the memory bound, and dispose().
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { BloomDisposedError, BloomRangeError, BloomTypeError } from '../src/errors.js';
import { xxh64 } from '../src/reference/hash.js';
import { twins } from './helpers/twins.js';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000): { now: () => number; set: (t: number) => void; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, set: (v) => void (t = v), advance: (ms) => void (t += ms) };
}

/** The planes whose bit is set at position p of a fresh filter's word bytes. */
function wordAt(words: Uint8Array, p: number, generations: number): number {
  return generations === 8 ? words[p] : words[2 * p] | (words[2 * p + 1] << 8);
}

for (const twin of twins) {
  describe(`SlidingBloomFilter (${twin.name})`, () => {
    it('add says whether the item was new within the window; has finds it', () => {
      const f = new twin.SlidingBloomFilter({ window: 100, falsePositiveRate: 0.01 });
      expect(f.has('a')).toBe(false);
      expect(f.add('a')).toBe(true);
      expect(f.add('a')).toBe(false);
      expect(f.has('a')).toBe(true);
      expect(f.add(new TextEncoder().encode('a'))).toBe(false);
      expect(f.addCount).toBe(3);
      expect(f.bits).toBe(f.shape.bits * 8);
      expect(f.window).toBe(100);
      expect(f.windowMs).toBe(0);
      expect(f.capacity).toBe(100);
    });

    it("uses BloomFilter's xxh64 positions, the same in every generation", () => {
      const f = new twin.SlidingBloomFilter({ window: 700, falsePositiveRate: 0.01 });
      const plain = new twin.BloomFilter(f.shape.bits, f.hashes, { scheme: 'xxh64', seed: 0 });
      f.add('https://example.com/a');
      const words = f.words();
      const positions = new Set(plain.positions('https://example.com/a'));
      for (let p = 0; p < f.shape.bits; p++) expect(wordAt(words, p, 8)).toBe(positions.has(p) ? 1 : 0);
    });

    it('a count window rotates every c adds, forgetting the oldest generation', () => {
      const f = new twin.SlidingBloomFilter({ window: 7, falsePositiveRate: 0.01 });
      expect(f.shape.generationCapacity).toBe(1);
      f.add('first');
      for (let i = 0; i < 7; i++) f.add(`x${i}`);
      expect(f.has('first')).toBe(true); // 7 adds since: still in the window
      f.add('y');
      expect(f.has('first')).toBe(false); // 8 adds since: its plane was cleared
    });

    it('a re-seen item is refreshed: remembered for a full window from its latest add', () => {
      const f = new twin.SlidingBloomFilter({ window: 14, falsePositiveRate: 0.001 });
      f.add('kept');
      for (let i = 0; i < 13; i++) f.add(`a${i}`);
      expect(f.add('kept')).toBe(false);
      for (let i = 0; i < 14; i++) f.add(`b${i}`);
      expect(f.has('kept')).toBe(true);
    });

    it('a time window forgets by the clock, and queries ignore an expired generation at once', () => {
      const clock = manualClock();
      const f = new twin.SlidingBloomFilter({ windowMs: 7000, capacity: 70, falsePositiveRate: 0.01, clock: clock.now });
      expect(f.shape).toMatchObject({ generations: 16, periodMs: 1000, generationCapacity: 10 });
      f.add('old');
      clock.advance(6999);
      expect(f.has('old')).toBe(true);
      clock.advance(1);
      expect(f.has('old')).toBe(false); // no add since: the generation left the window by the clock alone
      expect(f.add('old')).toBe(true);
    });

    it('a clock that steps back is held at its latest value; a non-finite clock is a typed error naming clock', () => {
      const clock = manualClock();
      const f = new twin.SlidingBloomFilter({ windowMs: 1000, capacity: 10, falsePositiveRate: 0.01, clock: clock.now });
      f.add('a');
      clock.advance(5000);
      expect(f.has('a')).toBe(false);
      clock.set(0);
      expect(f.has('a')).toBe(false);
      clock.set(NaN);
      expect(() => f.add('b')).toThrow(BloomRangeError);
      expect(() => f.has('b')).toThrow(/clock/);
      // Read once at construction, before anything is allocated.
      expect(() => new twin.SlidingBloomFilter({ windowMs: 1000, capacity: 10, falsePositiveRate: 0.01, clock: (() => '5') as unknown as () => number })).toThrow(BloomTypeError);
    });

    it('bad options are refused naming the option', () => {
      expect(() => new twin.SlidingBloomFilter({ window: 0, falsePositiveRate: 0.01 })).toThrow(/window/);
      expect(() => new twin.SlidingBloomFilter({ window: 10, falsePositiveRate: 2 })).toThrow(BloomRangeError);
      expect(() => new twin.SlidingBloomFilter({ windowMs: -5, capacity: 1, falsePositiveRate: 0.1 })).toThrow(/windowMs/);
      expect(() => new twin.SlidingBloomFilter({} as never)).toThrow(BloomTypeError);
      expect(() => new twin.SlidingBloomFilter({ windowMs: 5, capacity: 1, falsePositiveRate: 0.1, clock: () => Infinity })).toThrow(/clock/);
    });

    it('forCapacity(n, p, options?) is the filter the options constructor makes, for count and time windows', () => {
      const count = twin.SlidingBloomFilter.forCapacity(700, 0.01);
      const byOptions = new twin.SlidingBloomFilter({ window: 700, falsePositiveRate: 0.01 });
      for (let i = 0; i < 2000; i++) expect(count.add(`c${i % 900}`)).toBe(byOptions.add(`c${i % 900}`));
      expect(count.toBytes()).toEqual(byOptions.toBytes());
      expect([count.window, count.windowMs, count.capacity, count.falsePositiveRate]).toEqual([700, 0, 700, 0.01]);
      const clock = manualClock();
      const time = twin.SlidingBloomFilter.forCapacity(100, 0.001, { windowMs: 60_000, clock: clock.now });
      const timeByOptions = new twin.SlidingBloomFilter({ windowMs: 60_000, capacity: 100, falsePositiveRate: 0.001, clock: clock.now });
      for (let i = 0; i < 500; i++) {
        clock.advance(997);
        expect(time.add(`t${i % 150}`)).toBe(timeByOptions.add(`t${i % 150}`));
      }
      expect(time.toBytes()).toEqual(timeByOptions.toBytes());
      expect([time.window, time.windowMs, time.capacity]).toEqual([0, 60_000, 100]);
      expect(() => twin.SlidingBloomFilter.forCapacity(0, 0.01)).toThrow(BloomRangeError);
      expect(() => twin.SlidingBloomFilter.forCapacity(10, 0.01, { clock: clock.now })).toThrow('clock must be absent for a count window');
      expect(() => twin.SlidingBloomFilter.forCapacity(10, 0.01, { window: 5 } as never)).toThrow(
        "options.window must be absent: forCapacity takes the window's items and the rate as its arguments; got 5",
      );
    });

    it('a number where the options object goes names forCapacity', () => {
      const call = () => new (twin.SlidingBloomFilter as unknown as new (...a: unknown[]) => unknown)(1000, 0.01);
      expect(call).toThrow(BloomTypeError);
      expect(call).toThrow(/call SlidingBloomFilter\.forCapacity\(n, p, options\?\); got 1000$/);
    });

    it('addMany and hasMany answer as add and has one at a time, across rotations and with repeats', () => {
      const items = Array.from({ length: 300 }, (_, i) => `u${i % 170}`);
      const one = new twin.SlidingBloomFilter({ window: 50, falsePositiveRate: 0.01 });
      const many = new twin.SlidingBloomFilter({ window: 50, falsePositiveRate: 0.01 });
      const expected = Uint8Array.from(items, (item) => (one.add(item) ? 1 : 0));
      expect(many.addMany(items)).toEqual(expected);
      expect(many.words()).toEqual(one.words());
      const queries = Array.from({ length: 200 }, (_, i) => `u${i}`);
      expect(many.hasMany(queries)).toEqual(Uint8Array.from(queries, (q) => (one.has(q) ? 1 : 0)));
      const bytes = new TextEncoder().encode(queries.join(''));
      const offsets = [0];
      for (const q of queries) offsets.push(offsets[offsets.length - 1] + q.length);
      expect(many.hasMany({ bytes, offsets: Uint32Array.from(offsets) })).toEqual(many.hasMany(queries));
      expect(() => many.addMany([1] as never)).toThrow(/items\[0\]/);
    });

    it('dispose() makes every later call throw naming it; [Symbol.dispose] too', () => {
      const f = new twin.SlidingBloomFilter({ window: 10, falsePositiveRate: 0.01 });
      f.dispose();
      expect(() => f.add('a')).toThrow(BloomDisposedError);
      expect(() => f.has('a')).toThrow(/SlidingBloomFilter\.has/);
      f.dispose();
      const g = new twin.SlidingBloomFilter({ window: 10, falsePositiveRate: 0.01 });
      g[Symbol.dispose]();
      expect(() => g.toBytes()).toThrow(BloomDisposedError);
    });

    it('toBytes and fromBytes keep the words, the generations and the clock', () => {
      const clock = manualClock();
      const f = new twin.SlidingBloomFilter({ windowMs: 7000, capacity: 35, falsePositiveRate: 0.01, clock: clock.now });
      for (let i = 0; i < 60; i++) {
        f.add(`item${i}`);
        clock.advance(333);
      }
      const copy = twin.SlidingBloomFilter.fromBytes(f.toBytes(), { clock: clock.now });
      expect(copy.toBytes()).toEqual(f.toBytes());
      for (let i = 0; i < 60; i++) expect(copy.has(`item${i}`)).toBe(f.has(`item${i}`));
      clock.advance(5000);
      copy.add('later');
      f.add('later');
      expect(copy.toBytes()).toEqual(f.toBytes());
      const counted = new twin.SlidingBloomFilter({ window: 1000, falsePositiveRate: 0.001 });
      counted.addMany(Array.from({ length: 1500 }, (_, i) => `c${i}`));
      expect(twin.SlidingBloomFilter.fromBytes(counted.toBytes()).toBytes()).toEqual(counted.toBytes());
    });
  });
}

describe('SlidingBloomFilter memory', () => {
  it('a window of 10^5 at 0.01 takes at most 2x the bits of forCapacity(10^5, 0.01): 1.66x for a count window', () => {
    const plain = wasm.BloomFilter.forCapacity(100_000, 0.01);
    const count = new wasm.SlidingBloomFilter({ window: 100_000, falsePositiveRate: 0.01 });
    const ratio = count.bits / plain.bits;
    expect(ratio).toBeLessThanOrEqual(2);
    expect(ratio).toBeCloseTo(1.657855, 5);
    // A time window has 16 planes of the same m: twice a count window's bits (docs/SLIDING.md says why).
    const time = new wasm.SlidingBloomFilter({ windowMs: 86_400_000, capacity: 100_000, falsePositiveRate: 0.01 });
    expect(time.bits).toBe(2 * count.bits);
    expect(count.words().length).toBe(count.shape.bits);
    expect(time.words().length).toBe(2 * time.shape.bits);
  });
});

/** A step of the parity property: adds, has, batches, clock moves. */
type Step =
  | { kind: 'add'; item: string }
  | { kind: 'has'; item: string }
  | { kind: 'addMany'; items: string[] }
  | { kind: 'tick'; ms: number };

const pool = Array.from({ length: 40 }, (_, i) => `k${i}`);
const item = fc.oneof(fc.constantFrom(...pool), fc.string({ maxLength: 8 }));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('add' as const), item }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('has' as const), item }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('addMany' as const), items: fc.array(item, { maxLength: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.oneof(fc.integer({ min: -50, max: 400 }), fc.constant(3000)) }) },
);

describe('SlidingBloomFilter parity: wasm equals the reference', () => {
  it('golden: words after a fixed stream, count and time windows', () => {
    const clockA = manualClock();
    const clockB = manualClock();
    const a = new wasm.SlidingBloomFilter({ windowMs: 2000, capacity: 21, falsePositiveRate: 0.05, clock: clockA.now });
    const b = new reference.SlidingBloomFilter({ windowMs: 2000, capacity: 21, falsePositiveRate: 0.05, clock: clockB.now });
    for (let i = 0; i < 200; i++) {
      expect(a.add(`g${i % 37}`)).toBe(b.add(`g${i % 37}`));
      clockA.advance(i % 5 === 0 ? 250 : 10);
      clockB.advance(i % 5 === 0 ? 250 : 10);
    }
    expect(a.toBytes()).toEqual(b.toBytes());
    // The file's XXH64, pinned: a change to the layout, the sizing, the positions or the rotation shows here.
    expect({ bits: a.shape.bits, hashes: a.hashes }).toEqual({ bits: 42, hashes: 10 });
    expect(xxh64(a.toBytes(), 0n).toString(16)).toBe('e6faab8997a98efc');
    const c = new wasm.SlidingBloomFilter({ window: 30, falsePositiveRate: 0.01 });
    const d = new reference.SlidingBloomFilter({ window: 30, falsePositiveRate: 0.01 });
    const stream = Array.from({ length: 100 }, (_, i) => `s${(i * 7) % 45}`);
    expect(c.addMany(stream)).toEqual(d.addMany(stream));
    expect(c.toBytes()).toEqual(d.toBytes());
    expect({ bits: c.shape.bits, hashes: c.hashes }).toEqual({ bits: 97, hashes: 13 });
    expect(xxh64(c.toBytes(), 0n).toString(16)).toBe('ee9b6f6a79a05f67');
  });

  it('property: any stream of adds, queries, batches and clock moves leaves equal bytes and answers', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 1, max: 60 }),
        fc.array(step, { maxLength: 120 }),
        (timed, capacity, steps) => {
          const clocks = [manualClock(), manualClock()];
          const options = timed
            ? (c: { now: () => number }) => ({ windowMs: 1400, capacity, falsePositiveRate: 0.02, clock: c.now })
            : () => ({ window: capacity, falsePositiveRate: 0.02 });
          const a = new wasm.SlidingBloomFilter(options(clocks[0]));
          const b = new reference.SlidingBloomFilter(options(clocks[1]));
          for (const s of steps) {
            if (s.kind === 'add') expect(a.add(s.item)).toBe(b.add(s.item));
            else if (s.kind === 'has') expect(a.has(s.item)).toBe(b.has(s.item));
            else if (s.kind === 'addMany') expect(a.addMany(s.items)).toEqual(b.addMany(s.items));
            else for (const c of clocks) c.advance(s.ms);
          }
          expect(a.toBytes()).toEqual(b.toBytes());
          expect(a.currentFalsePositiveRate()).toBe(b.currentFalsePositiveRate());
        },
      ),
      { numRuns: 150 },
    );
  });
});
