// CuckooFilter, wasm and reference alike: sizing, add/has/count/remove,
// full means refused, growth, batches, clone/clear/dispose, bad input.
import { describe, expect, it } from 'vitest';
import { twins } from './helpers/twins.js';
import { fillBitsFor, fingerprintBitsFor, LOAD_FACTORS, memberShape } from '../src/cuckoo/shape.js';

const urls = (n: number, prefix = 'https://example.com/page/') => Array.from({ length: n }, (_, i) => `${prefix}${i}?q=${(i * 2654435761) % 1000003}`);

describe('sizing', () => {
  it('takes the narrowest fingerprint with 2b / 2^f <= p and no narrower than the fill needs, and buckets of any count for n + 4 sqrt(n) + 4 items', () => {
    expect(fingerprintBitsFor(0.001, 4)).toBe(13); // 8 / 8192 = 0.00098
    expect(fingerprintBitsFor(0.001, 2)).toBe(12);
    expect(fingerprintBitsFor(0.001, 8)).toBe(14);
    expect(fingerprintBitsFor(0.5, 4)).toBe(4);
    // max(8, 6 or 5 by b, 3 + ceil(log2(n) / 6)), never past a bucket word (7 bits for b = 8).
    expect([2, 4, 8].map((b) => fillBitsFor(10, b as 2 | 4 | 8))).toEqual([8, 6, 5]);
    expect([2, 4, 8].map((b) => fillBitsFor(1e6, b as 2 | 4 | 8))).toEqual([8, 7, 7]);
    expect([2, 4, 8].map((b) => fillBitsFor(1e9, b as 2 | 4 | 8))).toEqual([8, 8, 7]);
    expect(LOAD_FACTORS).toEqual({ 2: 0.8, 4: 0.92, 8: 0.95 });
    const shape = { capacity: 100_000, falsePositiveRate: 0.001, bucketSize: 4 as const, growth: 0, seed: 0n };
    const buckets = Math.ceil((100_000 + 4 * Math.sqrt(100_000) + 4) / (4 * 0.92));
    expect(memberShape(shape, 0)).toEqual({ capacity: 100_000, falsePositiveRate: 8 / 8192, buckets, fingerprintBits: 13 });
    expect(buckets).toBe(27519); // not a power of two
    expect(memberShape(shape, 1)).toBeUndefined();
    const grows = { ...shape, growth: 2 };
    expect([0, 1, 2, 3].map((j) => memberShape(grows, j)!.fingerprintBits)).toEqual([14, 15, 16, 17]);
    expect([0, 1, 2, 3].map((j) => memberShape(grows, j)!.capacity)).toEqual([100_000, 200_000, 400_000, 800_000]);
    // The fill, not the rate, sets f at large p: (10^6, 0.3) would have 4 bits in buckets of 2 and 5 in buckets of 4.
    expect(memberShape({ ...shape, capacity: 1e6, falsePositiveRate: 0.3, bucketSize: 2 }, 0)).toMatchObject({ buckets: 627503, fingerprintBits: 8, falsePositiveRate: 4 / 256 });
    expect(memberShape({ ...shape, capacity: 1e6, falsePositiveRate: 0.3 }, 0)).toMatchObject({ buckets: 272828, fingerprintBits: 7 });
  });

  it('every shape holds its n distinct items: a scan over n, p and bucketSize (wasm; the twin on the small ones)', () => {
    const ps = [0.6, 0.3, 0.1, 0.03, 0.01, 0.001, 1e-6];
    const ns = [1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 100, 200, 500, 1000, 3000, 10_000, 30_000];
    const short: string[] = [];
    let shapes = 0;
    for (const { name, CuckooFilter, BloomFullError } of twins) {
      for (const bucketSize of [2, 4, 8]) {
        for (const p of ps) {
          for (const n of ns) {
            if (name === 'reference' && n > 200) continue;
            for (const seed of [0n, 7n]) {
              const f = CuckooFilter.forCapacity(n, p, { bucketSize, seed });
              const items = Array.from({ length: n }, (_, i) => `scan/${bucketSize}/${p}/${seed}/${i}`);
              try {
                f.addMany(items);
              } catch (error) {
                expect(error).toBeInstanceOf(BloomFullError);
                short.push(`${name} (${n}, ${p}, b ${bucketSize}, seed ${seed}): refused items[${(error as { index: number }).index}]`);
              }
              shapes++;
              f.dispose();
            }
          }
        }
      }
    }
    expect(shapes).toBe(2 * 3 * 7 * 18 + 2 * 3 * 7 * 13);
    expect(short).toEqual([]);
  });

  it('large-p shapes of every bucket size hold n: (10^5, 0.1, b 2) and others, at 10^4 in the twin', () => {
    for (const { name, CuckooFilter } of twins) {
      const n = name === 'wasm' ? 100_000 : 10_000;
      for (const [p, bucketSize] of [[0.1, 2], [0.3, 2], [0.3, 4], [0.6, 8]] as const) {
        const f = CuckooFilter.forCapacity(n, p, { bucketSize });
        f.addMany(Array.from({ length: n }, (_, i) => `https://example.com/page/${i}`));
        expect(f.size).toBe(n);
        expect(f.members[0].falsePositiveRate).toBeLessThanOrEqual(p);
        f.dispose();
      }
    }
  });

  it('a shape whose table cannot take n at that rate is refused by forCapacity itself, saying why', () => {
    for (const { CuckooFilter, BloomRangeError } of twins) {
      const call = () => CuckooFilter.forCapacity(2 ** 36, 0.3, { bucketSize: 2 });
      expect(call).toThrow(BloomRangeError);
      expect(call).toThrow(/^capacity must be an integer in \[1, \d+\] at this rate and bucket size: a table that takes more would pass 34358689792 bits or 4294967295 buckets; got 68719476736$/);
      // The largest n it names is accepted (its shape; nothing is allocated to check it).
      const most = Number(/\[1, (\d+)\]/.exec((() => { try { call(); } catch (e) { return (e as Error).message; } return ''; })())![1]);
      const shape = { capacity: most, falsePositiveRate: 0.3, bucketSize: 2 as const, growth: 0, seed: 0n };
      expect(memberShape(shape, 0)).toBeDefined();
      expect(memberShape({ ...shape, capacity: most + 1 }, 0)).toBeUndefined();
      expect(() => CuckooFilter.forCapacity(most + 1, 0.3, { bucketSize: 2 })).toThrow(BloomRangeError);
    }
  });

  it('a table of each bucket size takes its whole capacity before it refuses an add', () => {
    const { CuckooFilter } = twins[0];
    for (const bucketSize of [2, 4, 8]) {
      for (const seed of [0n, 1n]) {
        const n = 20_000;
        const f = CuckooFilter.forCapacity(n, 0.001, { bucketSize, seed });
        let stored = 0;
        try {
          for (; stored < 2 * n; stored++) f.add(`https://x.example/${seed}/${stored}`);
        } catch (error) {
          expect(error).toBeInstanceOf(twins[0].BloomFullError);
        }
        expect(stored).toBeGreaterThanOrEqual(n);
        expect(stored / (f.members[0].buckets * bucketSize)).toBeLessThan(1);
      }
    }
  });

  for (const { name, CuckooFilter } of twins) {
    it(`${name}: at p = 0.001 the file takes fewer bits per item of capacity than a Bloom filter's, and at most a quarter of a counting filter's`, () => {
      const n = 1_000_000;
      const cuckoo = CuckooFilter.forCapacity(n, 0.001).toBytes().length * 8;
      expect(cuckoo / 8).toBe(88 + Math.ceil((272828 * 4 * 13) / 8)); // 272828 buckets of four 13-bit fingerprints, and the header
      expect(cuckoo / n).toBeLessThan(14.2);
      const wasm = twins[0];
      expect(cuckoo).toBeLessThan(wasm.BloomFilter.forCapacity(n, 0.001).toBytes().length * 8);
      expect(cuckoo).toBeLessThanOrEqual(wasm.CountingBloomFilter.forCapacity(n, 0.001).toBytes().length * 8 / 4);
    });
  }
});

for (const { name, CuckooFilter, BloomFullError, BloomRangeError, BloomTypeError, BloomDisposedError } of twins) {
  describe(`${name} CuckooFilter`, () => {
    it('stores copies: add returns true each time, count says how many, remove takes one at a time', () => {
      const f = CuckooFilter.forCapacity(1000, 0.001, { seed: 9n });
      expect(f.has('a')).toBe(false);
      expect(f.count('a')).toBe(0);
      expect(f.add('a')).toBe(true);
      expect(f.add('a')).toBe(true);
      expect(f.add(new TextEncoder().encode('b'))).toBe(true);
      expect(f.has('b')).toBe(true); // a string is its UTF-8 bytes
      expect(f.count('a')).toBe(2);
      expect(f.size).toBe(3);
      expect(f.remove('a')).toBe(true);
      expect(f.count('a')).toBe(1);
      expect(f.has('a')).toBe(true);
      expect(f.remove('a')).toBe(true);
      expect(f.has('a')).toBe(false);
      const bytes = f.toBytes();
      expect(f.remove('a')).toBe(false);
      expect(f.remove('never added')).toBe(false);
      expect(f.toBytes()).toEqual(bytes);
      expect(f.size).toBe(1);
    });

    it('addIfAbsent adds only what is not there (CF.ADDNX)', () => {
      const f = CuckooFilter.forCapacity(100, 0.01);
      expect(f.addIfAbsent('x')).toBe(true);
      expect(f.addIfAbsent('x')).toBe(false);
      expect(f.count('x')).toBe(1);
      expect(f.size).toBe(1);
    });

    it('holds its capacity with no false negative at 95% of it, and after removing half; the measured rate is at most p', () => {
      const n = 20_000;
      const f = CuckooFilter.forCapacity(n, 0.01, { seed: 3n });
      const items = urls(n);
      const part = items.slice(0, Math.floor(0.95 * n));
      f.addMany(part);
      expect(f.hasMany(part).every((x) => x === 1)).toBe(true);
      for (let i = part.length; i < n; i++) f.add(items[i]); // the whole capacity fits
      expect(f.size).toBe(n);
      for (let i = 0; i < n; i += 2) f.remove(items[i]);
      for (let i = 1; i < n; i += 2) expect(f.has(items[i])).toBe(true);
      expect(f.size).toBe(n / 2);
      if (name === 'reference') return; // the rate below is the wasm filter's; the parity tests tie the twin to it
      for (let i = 0; i < n; i += 2) f.add(items[i]);
      const probes = urls(200_000, 'https://absent.example.org/');
      const hits = f.hasMany(probes).reduce((a, b) => a + b, 0);
      expect(hits / probes.length).toBeLessThanOrEqual(0.01);
      expect(hits / probes.length).toBeGreaterThan(0.004);
    });

    it('full means refused, never lost: the refused add throws BloomFullError naming the capacity, and every stored item stays', () => {
      const f = CuckooFilter.forCapacity(200, 0.01, { bucketSize: 2 });
      const stored: string[] = [];
      let error: unknown;
      for (let i = 0; i < 1000; i++) {
        const before = f.toBytes();
        try {
          f.add(`item ${i}`);
          stored.push(`item ${i}`);
        } catch (e) {
          error = e;
          expect(f.toBytes()).toEqual(before);
          break;
        }
      }
      expect(error).toBeInstanceOf(BloomFullError);
      expect((error as InstanceType<typeof BloomFullError>).capacity).toBe(200);
      expect((error as Error).message).toMatch(/^cannot add "item \d+": the filter of capacity 200 is full \(no slot after the most kicks/);
      expect(stored.length).toBeGreaterThanOrEqual(200);
      for (const item of stored) expect(f.has(item)).toBe(true);
      expect(f.size).toBe(stored.length);
      // addMany: the items before the refused one stay stored.
      const g = CuckooFilter.forCapacity(50, 0.01);
      const many = urls(400);
      expect(() => g.addMany(many)).toThrow(BloomFullError);
      const held = g.size;
      expect(held).toBeGreaterThanOrEqual(50);
      expect(g.hasMany(many.slice(0, held)).every((x) => x === 1)).toBe(true);
    });

    it('a refused add leaves the filter byte for byte as it was, the kick generator included, in add and addMany', () => {
      const f = CuckooFilter.forCapacity(100, 0.01, { bucketSize: 2, seed: 3n });
      let refused = 0;
      for (let i = 0; i < 2000 && refused < 20; i++) {
        const before = f.toBytes();
        try {
          f.add(`fill ${i}`);
        } catch (error) {
          expect(error).toBeInstanceOf(BloomFullError);
          refused++;
          // The generator's state (bytes 64..72) and the header checksum (80..88) too.
          expect(f.toBytes()).toEqual(before);
          // Refused again the same way: nothing moved that the next attempt would see.
          expect(() => f.add(`fill ${i}`)).toThrow(BloomFullError);
          expect(f.toBytes()).toEqual(before);
        }
      }
      expect(refused).toBe(20);
      const g = CuckooFilter.forCapacity(100, 0.01, { bucketSize: 2, seed: 3n });
      const many = urls(2000, 'many/');
      let index = -1;
      try {
        g.addMany(many);
      } catch (error) {
        index = (error as { index: number }).index ?? g.size;
      }
      expect(index).toBeGreaterThan(0);
      // The same filter built by adds of the stored items alone: the refused item left no trace.
      const h = CuckooFilter.forCapacity(100, 0.01, { bucketSize: 2, seed: 3n });
      for (const item of many.slice(0, index)) h.add(item);
      expect(g.toBytes()).toEqual(h.toBytes());
    });

    it('BloomFullError from addMany gives the refused item its index in the batch, even among repeats', () => {
      // One item's 2b copies fill its two buckets: the next copy is refused, at a place its name cannot tell.
      const f = CuckooFilter.forCapacity(1000, 0.01, { seed: 4n });
      const batch = ['other', ...Array.from({ length: 12 }, () => 'same'), 'after'];
      let error: unknown;
      try {
        f.addMany(batch);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(BloomFullError);
      const full = error as InstanceType<typeof BloomFullError>;
      expect(full.index).toBe(9); // 'other', then 8 copies of 'same' (two buckets of 4), then the refused one
      expect(full.message).toMatch(/^cannot add items\[9\] \("same"\): the filter of capacity 1000 is full/);
      expect(f.count('same')).toBe(8);
      expect(f.has('after')).toBe(false);
      // Across chunks and after earlier refusals in a growing filter's batch the index counts from the batch's start.
      const g = CuckooFilter.forCapacity(100, 0.01, { bucketSize: 2, seed: 4n });
      const many = [...urls(3000, 'fill/'), ...Array.from({ length: 5 }, () => 'same')];
      let index = -1;
      try {
        g.addMany(many);
      } catch (e) {
        expect(e).toBeInstanceOf(BloomFullError);
        index = (e as InstanceType<typeof BloomFullError>).index!;
      }
      expect(index).toBe(g.size);
      expect(g.hasMany(many.slice(0, index)).every((x) => x === 1)).toBe(true);
      // add() alone has no index.
      const h = CuckooFilter.forCapacity(1000, 0.01);
      for (let i = 0; i < 8; i++) h.add('same');
      expect(() => h.add('same')).toThrow(BloomFullError);
      try {
        h.add('same');
      } catch (e) {
        expect((e as InstanceType<typeof BloomFullError>).index).toBeUndefined();
      }
    });

    it('a bad element of a batch is named by its index too: items[i], keys[i] and values[i]', () => {
      const f = CuckooFilter.forCapacity(100, 0.01);
      const errorOf = (call: () => unknown) => {
        try {
          call();
        } catch (e) {
          return e as { index?: number; parameter?: string };
        }
        throw new Error('no error');
      };
      expect(errorOf(() => f.addMany(['a', 'b', 7] as never))).toMatchObject({ parameter: 'items[2]', index: 2 });
      expect(errorOf(() => f.hasMany(['a', null] as never))).toMatchObject({ parameter: 'items[1]', index: 1 });
      const { BinaryFuseFilter, Bitmap } = twins.find((t) => t.name === name)!;
      expect(errorOf(() => BinaryFuseFilter.fromKeys([1n, 2n, -3n]))).toMatchObject({ parameter: 'keys[2]', index: 2 });
      expect(errorOf(() => BinaryFuseFilter.fromKeys([1n, 'x' as never]))).toMatchObject({ parameter: 'keys[1]', index: 1 });
      const bitmap = new Bitmap(100);
      expect(errorOf(() => bitmap.setMany([1, 2, 300]))).toMatchObject({ parameter: 'values[2]', index: 2 });
      expect(errorOf(() => bitmap.setMany(Uint32Array.of(1, 200)))).toMatchObject({ parameter: 'values[1]', index: 1 });
      expect(errorOf(() => f.add(5 as never))).toMatchObject({ parameter: 'item', index: undefined });
    });

    it('grows to 20 times its first capacity with no false negative, counting and removing across members, at most p', () => {
      const n = 1000;
      const f = CuckooFilter.forCapacity(n, 0.001, { growth: 2, seed: 5n });
      const items = urls(20 * n, 'k/');
      for (const item of items) f.add(item);
      expect(f.members.length).toBe(5);
      expect(f.members.map((m) => m.fingerprintBits)).toEqual([14, 15, 16, 17, 18]);
      expect(f.members.map((m) => m.capacity)).toEqual([1000, 2000, 4000, 8000, 16000]);
      expect(f.members.reduce((p, m) => p + m.falsePositiveRate, 0)).toBeLessThanOrEqual(0.001);
      expect(f.size).toBe(20 * n);
      expect(f.hasMany(items).every((x) => x === 1)).toBe(true);
      expect(f.count(items[0])).toBeGreaterThanOrEqual(1);
      // Only items whose count is 1: a newer member's fingerprint that matches an older item would be
      // taken in its place (the delete hazard, docs/CUCKOO.md), and count() shows that match.
      let removed = 0;
      for (let i = 0; i < items.length; i += 2) {
        if (f.count(items[i]) !== 1) continue;
        expect(f.remove(items[i])).toBe(true);
        removed++;
      }
      expect(removed).toBeGreaterThan(0.99 * 10 * n);
      for (let i = 1; i < items.length; i += 2) expect(f.has(items[i])).toBe(true);
      expect(f.size).toBe(20 * n - removed);
      if (name === 'reference') return;
      const probes = urls(100_000, 'absent/');
      expect(f.hasMany(probes).reduce((a, b) => a + b, 0) / probes.length).toBeLessThanOrEqual(0.001);
    });

    it('addMany and hasMany answer as add and has do, for lists and packed bytes', () => {
      const f = CuckooFilter.forCapacity(500, 0.01, { growth: 2 });
      const items = urls(1200);
      expect(Array.from(f.addMany(items))).toEqual(items.map(() => 1));
      expect(f.members.length).toBeGreaterThan(1);
      const bytes = new TextEncoder().encode(items.join(''));
      const offsets = [0];
      for (const it of items) offsets.push(offsets[offsets.length - 1] + it.length);
      expect(Array.from(f.hasMany({ bytes, offsets }))).toEqual(items.map(() => 1));
      const absent = urls(300, 'nope/');
      expect(Array.from(f.hasMany(absent))).toEqual(absent.map((a) => (f.has(a) ? 1 : 0)));
      const g = CuckooFilter.forCapacity(500, 0.01, { growth: 2 });
      g.addMany({ bytes, offsets });
      expect(g.toBytes()).toEqual(f.toBytes());
      expect(() => f.addMany(['ok', 5] as never)).toThrow(BloomTypeError);
    });

    it('clone is independent; clear empties back to one member', () => {
      const f = CuckooFilter.forCapacity(100, 0.01, { growth: 2 });
      for (const item of urls(400)) f.add(item);
      const c = f.clone();
      expect(c).toBeInstanceOf(CuckooFilter);
      expect(c.toBytes()).toEqual(f.toBytes());
      c.add('only in the clone');
      f.add('only in the clone'); // same generator state, same table: equal again
      expect(c.toBytes()).toEqual(f.toBytes());
      c.remove('only in the clone');
      expect(f.count('only in the clone')).toBeGreaterThanOrEqual(1);
      f.clear();
      expect(f.members.length).toBe(1);
      expect(f.size).toBe(0);
      expect(f.has(urls(1)[0])).toBe(false);
      expect(c.has(urls(1)[0])).toBe(true);
    });

    it('dispose() refuses later calls with BloomDisposedError; using disposes', () => {
      const f = CuckooFilter.forCapacity(10, 0.01);
      f.dispose();
      f.dispose();
      expect(() => f.has('a')).toThrow(BloomDisposedError);
      expect(() => f.add('a')).toThrow('CuckooFilter.add');
      {
        using g = CuckooFilter.forCapacity(10, 0.01);
        g.add('a');
      }
    });

    it('refuses bad capacities, rates, bucket sizes, growths, seeds and items, naming the parameter', () => {
      const bad: Array<[() => unknown, unknown, string]> = [
        [() => CuckooFilter.forCapacity(0, 0.01), BloomRangeError, 'capacity'],
        [() => CuckooFilter.forCapacity(1.5, 0.01), BloomRangeError, 'capacity'],
        [() => CuckooFilter.forCapacity(2 ** 40, 0.01), BloomRangeError, 'capacity'],
        [() => CuckooFilter.forCapacity('10' as never, 0.01), BloomTypeError, 'capacity'],
        [() => CuckooFilter.forCapacity(10, 0), BloomRangeError, 'falsePositiveRate'],
        [() => CuckooFilter.forCapacity(10, 1), BloomRangeError, 'falsePositiveRate'],
        [() => CuckooFilter.forCapacity(10, NaN), BloomRangeError, 'falsePositiveRate'],
        [() => CuckooFilter.forCapacity(10, 1e-10), BloomRangeError, 'falsePositiveRate'],
        [() => CuckooFilter.forCapacity(10, null as never), BloomTypeError, 'falsePositiveRate'],
        [() => CuckooFilter.forCapacity(10, 0.01, { bucketSize: 3 }), BloomRangeError, 'bucketSize'],
        [() => CuckooFilter.forCapacity(10, 0.01, { bucketSize: '4' as never }), BloomTypeError, 'bucketSize'],
        [() => CuckooFilter.forCapacity(10, 0.01, { growth: 0.5 }), BloomRangeError, 'growth'],
        [() => CuckooFilter.forCapacity(10, 0.01, { growth: 2000 }), BloomRangeError, 'growth'],
        [() => CuckooFilter.forCapacity(10, 0.01, { seed: -1 }), BloomRangeError, 'seed'],
        [() => CuckooFilter.forCapacity(10, 0.01, 5 as never), BloomTypeError, 'options'],
        [() => CuckooFilter.forCapacity(10, 0.01, { shared: true } as never), BloomTypeError, 'shared'],
        [() => CuckooFilter.forCapacity(10, 0.01, { scheme: 'poly' } as never), BloomTypeError, 'scheme'],
        [() => CuckooFilter.forCapacity(10, 0.01).add(5 as never), BloomTypeError, 'item'],
        [() => CuckooFilter.forCapacity(10, 0.01).has(null as never), BloomTypeError, 'item'],
        [() => CuckooFilter.forCapacity(10, 0.01).remove({} as never), BloomTypeError, 'item'],
        [() => CuckooFilter.forCapacity(10, 0.01).count([] as never), BloomTypeError, 'item'],
        [() => CuckooFilter.forCapacity(10, 0.01).hasMany('abc' as never), BloomTypeError, 'items'],
      ];
      for (const [call, type, parameter] of bad) {
        expect(call).toThrow(type as never);
        try {
          call();
        } catch (error) {
          expect((error as { parameter: string }).parameter).toBe(parameter);
        }
      }
      expect(() => CuckooFilter.forCapacity(10, 0.01, { bucketSize: 3 })).toThrow('bucketSize must be 2, 4 or 8; got 3');
    });
  });
}

describe('CuckooFilter memory', () => {
  it('dispose() gives every member back at once; the heap stays sound', async () => {
    const { sharedArenas } = await import('../src/wasm/placement.js');
    const memory = () => sharedArenas().reduce((n, a) => n + a.memoryBytes, 0);
    const used = () => sharedArenas().reduce((n, a) => n + a.x.heapUsedBytes(), 0);
    const warm = twins[0].CuckooFilter.forCapacity(1000, 0.01, { growth: 2 });
    warm.dispose();
    const before = [memory(), used()];
    for (let r = 0; r < 200; r++) {
      const f = twins[0].CuckooFilter.forCapacity(1000, 0.01, { growth: 2 });
      for (let i = 0; i < 3000; i++) f.add(`r${r} ${i}`);
      expect(f.members.length).toBe(2);
      f.dispose();
    }
    expect([memory(), used()]).toEqual(before);
    expect(sharedArenas().every((a) => a.x.heapCheck() === 0)).toBe(true);
  });

  it('a dropped filter is given back by the garbage collector (dist/, in a child with --expose-gc)', async () => {
    const { execFileSync } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = `import { CuckooFilter } from ${JSON.stringify(dist)};
      import { sharedArenas } from ${JSON.stringify(dist.replace('index.js', 'wasm/placement.js'))};
      const memory = () => sharedArenas().reduce((n, a) => n + a.memoryBytes, 0);
      const turn = () => new Promise((r) => setImmediate(r));
      const round = async () => { for (let i = 0; i < 1000; i++) { const f = CuckooFilter.forCapacity(2000, 0.001); f.add('x' + i); } globalThis.gc(); await turn(); await turn(); };
      for (let r = 0; r < 5; r++) await round();
      const early = memory();
      for (let r = 0; r < 50; r++) await round();
      console.log(JSON.stringify({ early, late: memory(), ok: sharedArenas().every((a) => a.x.heapCheck() === 0) }));`;
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
    const result = JSON.parse(out.trim().split('\n').pop()!) as { early: number; late: number; ok: boolean };
    expect(result.ok).toBe(true);
    // 5 * 10^4 filters of 3.5 KB held at once would be 175 MB.
    expect(result.late).toBe(result.early);
  });
});
