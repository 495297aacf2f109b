// Attacks on CountingBloomFilter: thousands of seeded random adds, removes,
// has and count calls in both twins against a model of the counters built
// from positions() alone (4-bit, saturating at 15, distinct positions count
// once, a refused remove changes nothing), checked byte for byte; batch
// paths against single paths; digests against items; toBloomFilter; and
// crafted files.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { twins } from './helpers/twins.js';

const get = (c: Uint8Array, p: number) => (p % 2 === 0 ? c[p >> 1] & 15 : c[p >> 1] >> 4);
const set = (c: Uint8Array, p: number, v: number) => {
  c[p >> 1] = p % 2 === 0 ? (c[p >> 1] & 0xf0) | v : (c[p >> 1] & 0x0f) | (v << 4);
};

const configs = [
  { bits: 97, hashes: 5, scheme: 'xxh64', seed: 0n },
  { bits: 1001, hashes: 7, scheme: 'xxh64', seed: 0xfeedfacecafebeefn },
  { bits: 256 * 5, hashes: 8, scheme: 'sbbf', seed: 3n },
  { bits: 61, hashes: 9, scheme: 'poly', seed: 0n },
  { bits: 33, hashes: 4, scheme: 'bytesum', seed: 0n },
] as const;

describe.each(twins)('$name CountingBloomFilter under attack', ({ name, CountingBloomFilter, BloomFilter, digest }) => {
  it.each(configs)('matches the counter model over thousands of random operations ($scheme, m = $bits)', ({ bits, hashes, scheme, seed }) => {
    const r = mulberry32(bits * 7 + hashes + (name === 'wasm' ? 0 : 1));
    const f = new CountingBloomFilter(bits, hashes, { scheme, seed });
    const model = new Uint8Array(Math.ceil(bits / 2));
    let held = 0;
    const pool = Array.from({ length: 60 }, (_, i) => `item ${i} ${'x'.repeat(i % 7)}`);
    for (let step = 0; step < 3000; step++) {
      const item = pool[Math.floor(r() * pool.length)];
      const distinct = [...new Set(f.positions(item))];
      const op = r();
      if (op < 0.45) {
        const isNew = distinct.some((p) => get(model, p) === 0);
        for (const p of distinct) if (get(model, p) < 15) set(model, p, get(model, p) + 1);
        held++;
        expect(f.add(item)).toBe(isNew);
      } else if (op < 0.8) {
        const before = f.toBytes();
        if (distinct.some((p) => get(model, p) === 0)) {
          expect(f.remove(item)).toBe(false);
          expect(f.toBytes()).toEqual(before);
        } else {
          for (const p of distinct) if (get(model, p) < 15) set(model, p, get(model, p) - 1);
          held = Math.max(0, held - 1);
          expect(f.remove(item)).toBe(true);
        }
      } else {
        const min = Math.min(...distinct.map((p) => get(model, p)));
        expect(f.count(item)).toBe(min);
        expect(f.has(item)).toBe(min > 0);
      }
      if (step % 97 === 0) {
        expect(f.counters()).toEqual(model);
        const all = Array.from({ length: bits }, (_, p) => get(model, p));
        expect(f.bitsSet()).toBe(all.filter((v) => v > 0).length);
        expect(f.saturatedCount()).toBe(all.filter((v) => v === 15).length);
        expect(f.size).toBe(held);
      }
    }
    expect(f.counters()).toEqual(model);
    // The loaded copy and the clone carry the same counters and tallies.
    for (const g of [CountingBloomFilter.fromBytes(f.toBytes()), f.clone()]) {
      expect(g.counters()).toEqual(model);
      expect([g.bitsSet(), g.saturatedCount(), g.size]).toEqual([f.bitsSet(), f.saturatedCount(), f.size]);
    }
    // toBloomFilter: bit p set exactly when counter p is above 0.
    const plain = f.toBloomFilter();
    const want = new Uint8Array(Math.ceil(bits / 8));
    for (let p = 0; p < bits; p++) if (get(model, p) > 0) want[p >> 3] |= 1 << (p & 7);
    expect(plain.bitArray()).toEqual(want);
    expect(plain.bitsSet()).toBe(f.bitsSet());
  });

  it('a saturated counter never decrements: 40 adds and 40 removes leave the item present', () => {
    const f = new CountingBloomFilter(1000, 6);
    for (let i = 0; i < 40; i++) f.add('hot');
    const sat = f.counters();
    for (const p of f.positions('hot')) expect(get(sat, p)).toBe(15);
    expect(f.saturatedCount()).toBe(6);
    for (let i = 0; i < 40; i++) f.remove('hot');
    expect(f.counters()).toEqual(sat);
    expect(f.has('hot')).toBe(true);
    expect(f.count('hot')).toBe(15);
    expect(f.size).toBe(0);
    // More removes than adds (the counters are saturated, so they succeed): held stays at 0.
    for (let i = 0; i < 3; i++) f.remove('hot');
    expect(f.size).toBe(0);
    expect(CountingBloomFilter.fromBytes(f.toBytes()).size).toBe(0);
    expect(f.toBloomFilter().size).toBe(0);
  });

  it('addMany/hasMany equal add/has one by one, flags and counters', () => {
    for (const { bits, hashes, scheme, seed } of configs) {
      const r = mulberry32(bits);
      const items = Array.from({ length: 5000 }, () => `u${Math.floor(r() * 3000)}`);
      const a = new CountingBloomFilter(bits * 40, hashes, { scheme, seed });
      const b = new CountingBloomFilter(bits * 40, hashes, { scheme, seed });
      const flags = a.addMany(items);
      items.forEach((it, i) => expect(b.add(it) ? 1 : 0).toBe(flags[i]));
      expect(a.counters()).toEqual(b.counters());
      expect([a.bitsSet(), a.saturatedCount(), a.size]).toEqual([b.bitsSet(), b.saturatedCount(), b.size]);
      const probe = Array.from({ length: 3000 }, (_, i) => `u${i * 2}`);
      const many = a.hasMany(probe);
      probe.forEach((it, i) => expect(many[i]).toBe(b.has(it) ? 1 : 0));
    }
  });

  it('digest paths equal item paths, removes included', () => {
    const seed = 77n;
    const a = new CountingBloomFilter(5000, 7, { seed });
    const b = new CountingBloomFilter(5000, 7, { seed });
    const s = new CountingBloomFilter(256 * 20, 8, { scheme: 'sbbf', seed });
    const t = new CountingBloomFilter(256 * 20, 8, { scheme: 'sbbf', seed });
    for (let i = 0; i < 2000; i++) {
      const item = `d${i % 300}`;
      const d = digest(item, { seed });
      if (i % 3 === 2) {
        for (const [x, y] of [[a, b], [s, t]] as const) {
          expect(y.removeDigest(d)).toBe(x.remove(item));
        }
      } else {
        expect(b.addDigest(d)).toBe(a.add(item));
        expect(t.addDigest(d)).toBe(s.add(item));
      }
      expect(b.countDigest(d)).toBe(a.count(item));
      expect(t.hasDigest(d)).toBe(s.has(item));
    }
    expect(b.counters()).toEqual(a.counters());
    expect(t.counters()).toEqual(s.counters());
  });

  it('toBloomFilter equals a BloomFilter of the items still held, while none saturated', () => {
    for (const { scheme, seed, hashes } of [{ scheme: 'xxh64', seed: 5n, hashes: 7 }, { scheme: 'sbbf', seed: 0n, hashes: 8 }] as const) {
      const c = new CountingBloomFilter(256 * 400, hashes, { scheme, seed });
      const items = Array.from({ length: 3000 }, (_, i) => `k${i}`);
      c.addMany(items);
      for (let i = 0; i < 3000; i += 2) c.remove(items[i]);
      expect(c.saturatedCount()).toBe(0);
      const plain = new BloomFilter(256 * 400, hashes, { scheme, seed });
      plain.addMany(items.filter((_, i) => i % 2 === 1));
      const got = c.toBloomFilter();
      expect(got.bitArray()).toEqual(plain.bitArray());
      expect([got.bits, got.hashes, got.scheme, got.seed, got.size]).toEqual([plain.bits, plain.hashes, plain.scheme, plain.seed, 1500]);
    }
  });

  it('reports the fill estimates of its plain filter, the blocked rate under sbbf', () => {
    for (const { scheme, hashes } of [{ scheme: 'sbbf', hashes: 8 }, { scheme: 'xxh64', hashes: 7 }] as const) {
      const c = new CountingBloomFilter(256 * 100, hashes, { scheme });
      c.addMany(Array.from({ length: 3000 }, (_, i) => `fill ${i}`));
      const plain = c.toBloomFilter();
      expect(c.estimatedCount()).toBe(plain.estimatedCount());
      expect(c.currentFalsePositiveRate()).toBe(plain.currentFalsePositiveRate());
    }
    // Under sbbf the rate is the blocked formula at the estimated count, not (X/m)^8.
    const c = new CountingBloomFilter(256 * 100, 8, { scheme: 'sbbf' });
    c.addMany(Array.from({ length: 3000 }, (_, i) => `fill ${i}`));
    const x = c.bitsSet() / c.bits;
    expect(c.currentFalsePositiveRate()).toBeGreaterThan(1.2 * x ** 8);
  });

  it('refuses crafted files: bad lengths, padding, bitsSet, checksum, and changes nothing when loading fails', () => {
    const f = new CountingBloomFilter(101, 5);
    for (let i = 0; i < 40; i++) f.add(`c${i}`);
    const good = f.toBytes();
    expect(CountingBloomFilter.fromBytes(good).counters()).toEqual(f.counters());
    for (const cut of [0, 1, 55, 56, good.length - 1]) expect(() => CountingBloomFilter.fromBytes(good.subarray(0, cut))).toThrow();
    const longer = new Uint8Array(good.length + 1);
    longer.set(good);
    expect(() => CountingBloomFilter.fromBytes(longer)).toThrow();
    // Every single-byte change anywhere is refused (checksum, or a field check before it).
    const r = mulberry32(5);
    for (let n = 0; n < 300; n++) {
      const bad = good.slice();
      const i = Math.floor(r() * bad.length);
      bad[i] ^= 1 + Math.floor(r() * 255);
      expect(() => CountingBloomFilter.fromBytes(bad)).toThrow();
    }
    // A plain filter file is not a counting file.
    expect(() => CountingBloomFilter.fromBytes(new BloomFilter(101, 5).toBytes())).toThrow(/BLM4|counting/);
  });
});

describe.each(twins)('$name CountingBloomFilter options and messages', ({ CountingBloomFilter, BloomFilter, BloomTypeError, probeAll }) => {
  it('refuses { shared: true } (it has no shared form) instead of ignoring it', () => {
    for (const make of [() => new CountingBloomFilter(100, 3, { shared: true }), () => CountingBloomFilter.forCapacity(100, 0.01, { shared: true })]) {
      expect(make).toThrow(BloomTypeError);
      expect(make).toThrow(/^shared must be false or absent: a CountingBloomFilter cannot be shared between threads/);
    }
    expect(new CountingBloomFilter(100, 3, { shared: false }).bits).toBe(100);
  });

  it('names a function or class given where a filter or item goes by its name, not its source', () => {
    expect(() => probeAll([BloomFilter] as never, 'x')).toThrow(/^filters\[0\] must be a filter .*; got class BloomFilter$/);
    expect(() => new CountingBloomFilter(100, 3).add((() => 1) as never)).toThrow(/; got function$|; got function \(anonymous\)$/);
  });
});
