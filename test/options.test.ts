// Options objects, for every class that takes them, in both twins: each
// option is read once (a getter that answers differently the second time
// changes nothing), undefined is absent, and anything else, null included,
// is checked; an array is not a set of options.
import { describe, expect, it } from 'vitest';
import { twins, type Twin } from './helpers/twins.js';

/** Every way a class takes an options object, as a call on `options`. */
function makers(t: Twin): Array<[string, (options: unknown) => unknown, Record<string, unknown>]> {
  const fuseItems = ['a', 'b', 'c'];
  return [
    ['new BloomFilter', (o) => new t.BloomFilter(1024, 7, o as never), { scheme: 'xxh64', seed: 5, shared: false }],
    ['BloomFilter.forCapacity', (o) => t.BloomFilter.forCapacity(100, 0.01, o as never), { scheme: 'poly', seed: 0, shared: false }],
    ['new CountingBloomFilter', (o) => new t.CountingBloomFilter(1024, 7, o as never), { scheme: 'xxh64', seed: 5, shared: false }],
    ['CountingBloomFilter.forCapacity', (o) => t.CountingBloomFilter.forCapacity(100, 0.01, o as never), { scheme: 'bytesum', seed: 0, shared: false }],
    ['CuckooFilter.forCapacity', (o) => t.CuckooFilter.forCapacity(100, 0.01, o as never), { bucketSize: 2, growth: 2, seed: 5, shared: false, scheme: 'xxh64' }],
    ['new ScalableBloomFilter', (o) => new t.ScalableBloomFilter(o as never), { capacity: 100, falsePositiveRate: 0.01, growth: 3, tightening: 0.6, scheme: 'xxh64', seed: 5, shared: false }],
    ['new SlidingBloomFilter (count)', (o) => new t.SlidingBloomFilter(o as never), { window: 100, falsePositiveRate: 0.01 }],
    ['new SlidingBloomFilter (time)', (o) => new t.SlidingBloomFilter(o as never), { windowMs: 1000, capacity: 100, falsePositiveRate: 0.01, clock: () => 0 }],
    ['BinaryFuseFilter.from', (o) => t.BinaryFuseFilter.from(fuseItems, o as never), { fingerprintBits: 16 }],
    ['BinaryFuseFilter.fromKeys', (o) => t.BinaryFuseFilter.fromKeys([1n, 2n, 3n], o as never), { fingerprintBits: 16 }],
    ['digest', (o) => t.digest('x', o as never), { seed: 5 }],
  ];
}

/** What a made object says of its options, to compare a counted call with a plain one. */
function describeMade(made: unknown): unknown {
  if (made === null || typeof made !== 'object') return made;
  const m = made as Record<string, unknown>;
  if (typeof m.toBytes === 'function') return Buffer.from((m.toBytes as () => Uint8Array)()).toString('hex');
  return JSON.stringify(made, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

/** `base` behind getters that answer its value on the first read and `later` after; `reads` counts them. */
function counted(base: Record<string, unknown>, later: unknown) {
  const reads: Record<string, number> = {};
  const options = {};
  for (const [key, value] of Object.entries(base)) {
    Object.defineProperty(options, key, {
      enumerable: true,
      get() {
        reads[key] = (reads[key] ?? 0) + 1;
        return reads[key] === 1 ? value : later;
      },
    });
  }
  return { options, reads };
}

for (const t of twins) {
  describe(`${t.name}: options are read once`, () => {
    for (const [name, make, base] of makers(t)) {
      it(`${name} reads each option once and uses what it read`, () => {
        for (const later of [undefined, null, -3, 'poly', [], 0.5]) {
          const { options, reads } = counted(base, later);
          const made = make(options);
          expect(Object.values(reads).every((n) => n === 1)).toBe(true);
          expect(describeMade(made)).toEqual(describeMade(make({ ...base })));
        }
      });
    }

    it('CuckooFilter: a growth getter answering 0.5 (or -3), then undefined, is refused, never used', () => {
      for (const first of [0.5, -3]) {
        const { options } = counted({ growth: first }, undefined);
        expect(() => t.CuckooFilter.forCapacity(100, 0.01, options as never)).toThrow(t.BloomRangeError);
        expect(() => t.CuckooFilter.forCapacity(100, 0.01, counted({ growth: first }, undefined).options as never)).toThrow(`growth must be a number in [1, 1024], or absent for a fixed filter; got ${first}`);
      }
      // And 2, then 0.5: members grow by 2, as read.
      const f = t.CuckooFilter.forCapacity(10, 0.01, counted({ growth: 2 }, 0.5).options as never);
      for (let i = 0; i < 100; i++) f.add(`grow ${i}`);
      expect(f.members.map((m) => m.capacity)).toEqual(f.members.map((_, j) => 10 * 2 ** j));
      expect(t.CuckooFilter.fromBytes(f.toBytes()).toBytes()).toEqual(f.toBytes());
    });

    it('SlidingBloomFilter.fromBytes reads its clock once', () => {
      const f = new t.SlidingBloomFilter({ windowMs: 1000, capacity: 100, falsePositiveRate: 0.01, clock: () => 0 });
      const { options, reads } = counted({ clock: () => 0 }, 'not a clock');
      t.SlidingBloomFilter.fromBytes(f.toBytes(), options as never).add('x');
      expect(reads).toEqual({ clock: 1 });
    });
  });
}

for (const t of twins) {
  describe(`${t.name}: the same rules for every option of every class`, () => {
    for (const [name, make, base] of makers(t)) {
      it(`${name} refuses an array as its options, and null for each option, with a typed error saying "got null"`, () => {
        for (const list of [[], [base]]) {
          expect(() => make(list)).toThrow(t.BloomTypeError);
          expect(() => make(list)).toThrow(/^options must be .*; got \[object Array\]$/);
        }
        for (const key of Object.keys(base)) {
          let error: unknown;
          try {
            make({ ...base, [key]: null });
          } catch (e) {
            error = e;
          }
          expect(error, `${name} { ${key}: null }`).toBeInstanceOf(Error);
          expect([t.BloomTypeError, t.BloomRangeError].some((E) => error instanceof E), `${name} { ${key}: null }: ${String(error)}`).toBe(true);
          expect((error as Error).message, `${name} { ${key}: null }`).toMatch(/; got null$/);
          expect((error as { parameter: string }).parameter, `${name} { ${key}: null }`).toMatch(new RegExp(`^(options\\.)?${key}$`));
        }
      });
    }

    it('an option a class does not have is refused, named, with the options it has: a misspelt one never gives the default', () => {
      const calls: Array<[string, (o: unknown) => unknown, string, string]> = [
        // Each maker's first option with an s on the end, beside its valid options.
        ...makers(t).map(([name, make, base]): [string, (o: unknown) => unknown, string, string] => {
          const real = Object.keys(base)[0];
          return [name, (o) => make({ ...base, ...(o as object) }), real, `${real}s`];
        }),
        ['ScalableBloomFilter.forCapacity', (o) => t.ScalableBloomFilter.forCapacity(100, 0.01, o as never), 'growth', 'grwoth'],
        ['SlidingBloomFilter.forCapacity', (o) => t.SlidingBloomFilter.forCapacity(100, 0.01, o as never), 'windowMs', 'windowMS'],
        ['SlidingBloomFilter.fromBytes', (o) => t.SlidingBloomFilter.fromBytes(new t.SlidingBloomFilter({ window: 10, falsePositiveRate: 0.1 }).toBytes(), o as never), 'clock', 'clocks'],
      ];
      for (const [name, call, real, misspelt] of calls) {
        let error: unknown;
        try {
          call({ [misspelt]: 7 });
        } catch (e) {
          error = e;
        }
        expect(error, `${name} { ${misspelt} }`).toBeInstanceOf(t.BloomTypeError);
        expect((error as { parameter: string }).parameter).toBe(`options.${misspelt}`);
        expect((error as Error).message).toMatch(new RegExp(`^options\\.${misspelt} must be absent: the options here are (\\w+, )*${real}(, \\w+)*; got 7$`));
      }
      expect(() => t.BloomFilter.forCapacity(100, 0.01, { sceme: 'sbbf' } as never)).toThrow('options.sceme must be absent: the options here are scheme, seed, shared; got "sbbf"');
      // undefined is absent, whatever the name.
      expect(t.BloomFilter.forCapacity(100, 0.01, { sceme: undefined } as never).scheme).toBe('xxh64');
    });

    it('CuckooFilter: { bucketSize: null } and { growth: null } are refused as null, an array of options too', () => {
      expect(() => t.CuckooFilter.forCapacity(100, 0.01, { bucketSize: null } as never)).toThrow('bucketSize must be 2, 4 or 8; got null');
      expect(() => t.CuckooFilter.forCapacity(100, 0.01, { growth: null } as never)).toThrow('growth must be a number in [1, 1024], or absent for a fixed filter; got null');
      expect(() => t.CuckooFilter.forCapacity(100, 0.01, [] as never)).toThrow(t.BloomTypeError);
      // Absent is undefined: the defaults.
      expect(t.CuckooFilter.forCapacity(100, 0.01, { bucketSize: undefined, growth: undefined, seed: undefined }).bucketSize).toBe(4);
    });
  });
}
