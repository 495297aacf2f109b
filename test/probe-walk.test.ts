// probeAll's walk in wasm (assembly/digest.ts's probeRecords, over
// assembly/chain.ts's first-two pass) against the reference twin and each
// filter's has(): moduli and k at their edges (m = 1, k = 1, m around
// powers of two, k = 64), both kinds (bits and 4-bit counters), both
// schemes, filters the walk must hand back (another seed, poly, bytesum,
// chains, another arena, shared memory), lists longer than one walk, items
// longer than scratch, and the array or a filter's memory changing between
// calls.
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { twins } from './helpers/twins.js';
import { engineOf } from '../src/filter/filter.js';
import { reserveLines } from '../src/wasm/lines-region.js';
import { chainParts } from '../src/scalable/scalable.js';

await wasm.loadSharedMemory();

type Lib = typeof wasm;

/** Filters at the edges of the walk's arithmetic, the same in either twin. */
function edgeFilters(lib: Lib): (wasm.ProbeTarget & { add(item: string | Uint8Array): boolean })[] {
  const out: (wasm.ProbeTarget & { add(item: string | Uint8Array): boolean })[] = [];
  for (const m of [1, 2, 3, 7, 63, 64, 65, 127, 1000, 2 ** 13 - 1, 2 ** 13, 2 ** 13 + 1, 2 ** 16 - 1, 2 ** 16 + 1, 2 ** 20 + 7, 2 ** 26 + 5]) {
    for (const k of [1, 2, 3, 7, 64]) {
      if (k > m) continue;
      out.push(new lib.BloomFilter(m, k, { seed: 5n }));
      if (m >= 8) out.push(new lib.CountingBloomFilter(m, k, { seed: 5n }));
    }
  }
  for (const blocks of [1, 2, 3, 255, 4097]) {
    out.push(new lib.BloomFilter(256 * blocks, 8, { scheme: 'sbbf', seed: 5n }));
    out.push(new lib.CountingBloomFilter(256 * blocks, 8, { scheme: 'sbbf', seed: 5n }));
  }
  return out;
}

describe('probeAll walked in wasm', () => {
  it('answers as has() and the reference twin at the edges of m and k, bits and counters, both schemes', () => {
    const w = edgeFilters(wasm);
    const r = edgeFilters(reference as unknown as Lib);
    const rand = mulberry32(11);
    const items = Array.from({ length: 600 }, (_, i) => (i % 7 === 6 ? Uint8Array.from({ length: i % 40 }, () => Math.floor(rand() * 256)) : `e${i}:${Math.floor(rand() * 1e9)}`));
    items.forEach((item, i) => {
      // Each item goes to a share of the filters, so that answers differ.
      for (let j = i % 5; j < w.length; j += 5) {
        w[j].add(item);
        r[j].add(item);
      }
    });
    for (const item of [...items, 'absent', Uint8Array.of()]) {
      const expected = w.map((f) => (f.has(item) ? 1 : 0));
      expect(Array.from(wasm.probeAll(w, item))).toEqual(expected);
      expect(Array.from(reference.probeAll(r, item))).toEqual(expected);
    }
  });

  it('hands back what it cannot walk: other seeds, poly, bytesum, chains, another arena, shared memory', () => {
    const filters: wasm.ProbeTarget[] = [
      new wasm.BloomFilter(5000, 5, { seed: 1n }),
      new wasm.BloomFilter(5000, 5, { seed: 2n }),
      new wasm.BloomFilter(5000, 5, { scheme: 'poly' }),
      new wasm.BloomFilter(5000, 5, { scheme: 'bytesum' }),
      new wasm.ScalableBloomFilter({ capacity: 8, falsePositiveRate: 0.01, seed: 1n }),
      // 2^28 bits: a region of its own, in an arena of its own.
      new wasm.BloomFilter(2 ** 28, 3, { seed: 1n }),
      new wasm.BloomFilter(5000, 5, { seed: 1n, shared: true }),
      new wasm.CountingBloomFilter(5000, 5, { seed: 2n }),
      new reference.BloomFilter(5000, 5, { seed: 1n }) as unknown as wasm.ProbeTarget,
    ];
    const items = Array.from({ length: 300 }, (_, i) => `h${i}`);
    items.forEach((item, i) => {
      for (let j = i % 3; j < filters.length; j += 3) (filters[j] as unknown as wasm.BloomFilter).add(item);
    });
    for (const item of [...items, 'nope']) {
      expect(Array.from(wasm.probeAll(filters, item))).toEqual(filters.map((f) => (f.has(item) ? 1 : 0)));
    }
    (filters[5] as wasm.BloomFilter).dispose();
  });

  it('walks lists longer than one call (4096 records) and items longer than scratch', () => {
    const filters = Array.from({ length: 4500 }, (_, i) => new wasm.BloomFilter(64 + (i % 97), 1 + (i % 4)));
    const long = 'L'.repeat(70_000);
    const bytes = new Uint8Array(70_000).fill(7);
    filters.forEach((f, i) => {
      if (i % 3 === 0) f.add(long);
      if (i % 4 === 0) f.add(bytes);
      f.add(`k${i % 10}`);
    });
    for (const item of [long, bytes, 'k3', 'none']) {
      expect(Array.from(wasm.probeAll(filters, item))).toEqual(filters.map((f) => (f.has(item) ? 1 : 0)));
    }
    for (const f of filters) f.dispose();
  });
});

describe('walks over records that are no longer live', () => {
  it('probeAll refuses a disposed filter by name, and the others keep their answers', () => {
    const kept = new wasm.BloomFilter(1000, 4);
    const gone = new wasm.BloomFilter(1000, 4);
    kept.add('x');
    gone.add('x');
    gone.dispose();
    expect(() => wasm.probeAll([kept, gone], 'x')).toThrow(wasm.BloomDisposedError);
    expect(Array.from(wasm.probeAll([kept], 'x'))).toEqual([1]);
    const after = new wasm.BloomFilter(1000, 4);
    expect(Array.from(wasm.probeAll([kept, after], 'x'))).toEqual([1, 0]);
  });

  it('a chain whose member was released under it refuses has, hasMany and addMany by name', () => {
    for (const scheme of ['xxh64', 'sbbf'] as const) {
      const chain = new wasm.ScalableBloomFilter({ capacity: 4, falsePositiveRate: 0.01, scheme });
      for (let i = 0; i < 40; i++) chain.add(`c${i}`);
      const bystander = new wasm.BloomFilter(2000, 5);
      bystander.add('c1');
      chainParts(chain).members[1].dispose();
      expect(() => chain.has('c1')).toThrow(wasm.BloomDisposedError);
      expect(() => chain.hasMany(['c1', 'c2'])).toThrow(wasm.BloomDisposedError);
      expect(() => chain.addMany(['new1', 'new2'])).toThrow(wasm.BloomDisposedError);
      expect(bystander.has('c1')).toBe(true);
      expect(bystander.bitsSet()).toBeLessThanOrEqual(5);
    }
  });

  it('a chain asked before its member was released, whose pairs are kept from that call, refuses by name too', () => {
    for (const scheme of ['xxh64', 'sbbf'] as const) {
      const chain = new wasm.ScalableBloomFilter({ capacity: 4, falsePositiveRate: 0.01, scheme });
      for (let i = 0; i < 40; i++) chain.add(`c${i}`);
      // Asked twice: the second call finds the pairs the first one wrote.
      expect(chain.has('c1')).toBe(true);
      expect(chain.has('c2')).toBe(true);
      const bystander = new wasm.BloomFilter(2000, 5);
      bystander.add('c1');
      chainParts(chain).members[1].dispose();
      expect(() => chain.has('c1')).toThrow(wasm.BloomDisposedError);
      expect(() => chain.hasMany(['c1', 'c2'])).toThrow(wasm.BloomDisposedError);
      expect(bystander.has('c1')).toBe(true);
      expect(bystander.bitsSet()).toBeLessThanOrEqual(5);
    }
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
  it('sees bits added between calls on the same array', () => {
    const f = new wasm.BloomFilter(1000, 5);
    const filters = [f, new wasm.BloomFilter(2048, 8, { scheme: 'sbbf' })];
    expect(Array.from(wasm.probeAll(filters, 'x'))).toEqual([0, 0]);
    filters[0].add('x');
    filters[1].add('x');
    expect(Array.from(wasm.probeAll(filters, 'x'))).toEqual([1, 1]);
  });
});

describe('probeAll after a filter\'s memory grows', () => {
  it('answers from the new memory', () => {
    const grown = new wasm.BloomFilter(100_003, 7);
    const blocked = new wasm.BloomFilter(25_600, 8, { scheme: 'sbbf' });
    const filters = [grown, blocked, new wasm.BloomFilter(5000, 3)];
    const keys = Array.from({ length: 200 }, (_, i) => `key-${i}`);
    keys.forEach((k, i) => filters[i % 3].add(k));
    const answers = () => keys.map((k) => Array.from(wasm.probeAll(filters, k)));
    const before = answers();
    expect(before).toEqual(keys.map((k) => filters.map((f) => (f.has(k) ? 1 : 0))));
    // The lines region of `bloom dedupe` grows the filter's memory, detaching every view of its bits.
    expect(reserveLines(engineOf(grown), 1 << 20, false)).toBe(true);
    expect(answers()).toEqual(before);
  });
});
