// Attacks on probeAll and digests: thousands of seeded random keys over
// filters of widely different sizes, schemes, seeds and kinds (counting
// filters and chains mixed in), compared with each filter's has() and with
// the reference twin; and probeAll when the array or a filter changes
// between calls (moved into shared memory, memory grown, replaced).
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { engineOf } from '../src/filter/filter.js';
import { twins } from './helpers/twins.js';
import { reserveLines } from '../src/wasm/lines-region.js';

// The shared-memory build loads on first use (src/wasm/shared-build.ts).
await wasm.loadSharedMemory();

type Lib = typeof wasm;

/** A mixed list of filters, the same in either twin for the same `seed`. */
function mixedFilters(lib: Lib, seed: number, count: number) {
  const r = mulberry32(seed);
  const seeds = [0n, 0n, 0n, 0xffffffffffffffffn, 0x8000000000000001n];
  return Array.from({ length: count }, (_, i) => {
    const kind = Math.floor(r() * 9);
    const s = seeds[Math.floor(r() * seeds.length)];
    const k = 1 + Math.floor(r() * 20);
    const m = Math.max(k, Math.floor(2 ** (3 + r() * 15)));
    switch (kind) {
      case 0: return new lib.BloomFilter(256 * (1 + Math.floor(r() * 300)), 8, { scheme: 'sbbf', seed: s });
      case 1: return new lib.CountingBloomFilter(256 * (1 + Math.floor(r() * 40)), 8, { scheme: 'sbbf', seed: s });
      case 2: return new lib.CountingBloomFilter(m, k, { seed: s });
      case 3: return new lib.BloomFilter(m, k, { scheme: 'poly' });
      case 4: return new lib.BloomFilter(m, k, { scheme: 'bytesum' });
      case 5: return new lib.ScalableBloomFilter({ capacity: 4 + i, falsePositiveRate: 0.01, scheme: i % 2 ? 'sbbf' : 'xxh64', seed: s });
      case 6: return new lib.BloomFilter(Math.min(m, 64), Math.min(k, m, 64), { seed: s });
      default: return new lib.BloomFilter(m, k, { seed: s });
    }
  });
}

const keys = (seed: number, n: number) => {
  const r = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => (i % 5 === 4 ? Uint8Array.from({ length: i % 13 }, () => Math.floor(r() * 256)) : `k${i}:${Math.floor(r() * 1e9)}`));
};

describe('probeAll under attack', () => {
  it('wasm = reference = has() on 60 mixed filters and 1,500 keys, each filter fed a share of them', () => {
    const w = mixedFilters(wasm, 2026, 60);
    const ref = mixedFilters(reference as unknown as Lib, 2026, 60);
    const items = keys(9, 1500);
    items.forEach((item, j) => {
      for (const i of [j % 60, (j * 7) % 60]) {
        w[i].add(item);
        ref[i].add(item);
      }
    });
    const absent = keys(10, 1500).map((k) => (typeof k === 'string' ? `absent ${k}` : Uint8Array.of(255, ...k)));
    for (const item of [...items, ...absent]) {
      const got = wasm.probeAll(w, item);
      expect(Array.from(got)).toEqual(w.map((f) => (f.has(item) ? 1 : 0)));
      expect(reference.probeAll(ref as never, item)).toEqual(got);
    }
    items.forEach((item, j) => {
      const got = wasm.probeAll(w, item);
      expect([got[j % 60], got[(j * 7) % 60]]).toEqual([1, 1]);
    });
  });

  it('a digest serves only its own seed: refused by the others, right for its own, across both twins', () => {
    for (const lib of [wasm, reference as unknown as Lib]) {
      const a = new lib.BloomFilter(10_000, 7, { seed: 1n });
      const b = new lib.BloomFilter(256 * 10, 8, { scheme: 'sbbf', seed: 2n });
      const c = new lib.CountingBloomFilter(10_000, 7, { seed: 1n });
      const s = new lib.ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01, seed: 2n, scheme: 'sbbf' });
      for (let i = 0; i < 500; i++) {
        const d1 = lib.digest(`x${i}`, { seed: 1n });
        const d2 = wasm.digest(`x${i}`, { seed: 2n });
        expect(() => b.addDigest(d1)).toThrow(lib.BloomDigestError);
        expect(() => s.addDigest(d1)).toThrow(lib.BloomDigestError);
        expect(() => a.hasDigest(d2)).toThrow(lib.BloomDigestError);
        expect(() => c.addDigest(d2)).toThrow(lib.BloomDigestError);
        a.addDigest(d1);
        c.addDigest(d1);
        b.addDigest(d2);
        s.addDigest(d2);
      }
      for (let i = 0; i < 500; i++) expect(Array.from(lib.probeAll([a, b, c, s], `x${i}`))).toEqual([1, 1, 1, 1]);
    }
  });

  it('follows a filter that moved into shared memory (share()) between calls', () => {
    const plain = new wasm.BloomFilter(1000, 5);
    const blocked = new wasm.BloomFilter(256 * 4, 8, { scheme: 'sbbf' });
    const filters = [plain, blocked];
    expect(Array.from(wasm.probeAll(filters, 'y'))).toEqual([0, 0]);
    plain.share();
    blocked.share();
    plain.add('y');
    blocked.add('y');
    expect(Array.from(wasm.probeAll(filters, 'y'))).toEqual([1, 1]);
    for (let i = 0; i < 300; i++) {
      plain.add(`z${i}`);
      blocked.add(`z${i}`);
      expect(Array.from(wasm.probeAll(filters, `z${i}`))).toEqual([1, 1]);
    }
  });

  it('follows filters whose memory grew (line dedupe reserves its region) and attached filters', () => {
    const filters = [new wasm.BloomFilter(5000, 6), new wasm.BloomFilter(256 * 30, 8, { scheme: 'sbbf' }), new wasm.BloomFilter(256 * 30, 8, { scheme: 'sbbf', shared: true })];
    const other = wasm.BloomFilter.attach(filters[2].share());
    for (let i = 0; i < 100; i++) filters.forEach((f) => f.add(`before ${i}`));
    expect(wasm.probeAll(filters, 'before 1')).toEqual(Uint8Array.of(1, 1, 1));
    expect(reserveLines(engineOf(filters[0]), 1 << 20, false)).toBe(true);
    expect(reserveLines(engineOf(filters[1]), 1 << 20, false)).toBe(true);
    for (let i = 0; i < 300; i++) {
      filters[0].add(`after ${i}`);
      filters[1].add(`after ${i}`);
      other.add(`after ${i}`);
      expect(wasm.probeAll(filters, `after ${i}`)).toEqual(Uint8Array.of(1, 1, 1));
      expect(wasm.probeAll(filters, `before ${i % 100}`)).toEqual(Uint8Array.of(1, 1, 1));
    }
  });

  it('follows filters replaced, swapped and repeated in the same array, across seeds', () => {
    const r = mulberry32(77);
    const pool = mixedFilters(wasm, 5, 30);
    const items = keys(3, 400);
    items.forEach((item, j) => pool[j % 30].add(item));
    const filters = pool.slice(0, 10);
    for (let round = 0; round < 200; round++) {
      const i = Math.floor(r() * filters.length);
      const op = r();
      if (op < 0.5) filters[i] = pool[Math.floor(r() * pool.length)];
      else if (op < 0.7) [filters[0], filters[i]] = [filters[i], filters[0]];
      else if (op < 0.85) filters.push(filters[i]);
      else if (filters.length > 1) filters.splice(i, 1);
      const item = items[Math.floor(r() * items.length)];
      expect(Array.from(wasm.probeAll(filters, item))).toEqual(filters.map((f) => (f.has(item) ? 1 : 0)));
    }
  });
});

describe.each(twins)('$name ScalableBloomFilter with sbbf members and many items', ({ ScalableBloomFilter, probeAll, digest }) => {
  it('has = hasMany = probeAll = hasDigest across growth, and never a false negative', () => {
    for (const scheme of ['sbbf', 'xxh64'] as const) {
      const s = new ScalableBloomFilter({ capacity: 50, falsePositiveRate: 0.01, scheme, seed: 3n });
      const items = keys(12, 3000);
      const flags = s.addMany(items.slice(0, 1500));
      items.slice(1500, 3000).forEach((it) => {
        s.add(it);
        expect(s.has(it)).toBe(true);
      });
      expect(flags.length).toBe(1500);
      expect(s.members.length).toBeGreaterThan(4);
      const probe = [...items, ...keys(13, 2000).map((k) => (typeof k === 'string' ? `no ${k}` : Uint8Array.of(7, ...k)))];
      const many = s.hasMany(probe);
      probe.forEach((item, i) => {
        const one = s.has(item) ? 1 : 0;
        if (i < items.length) expect(one).toBe(1);
        expect(many[i]).toBe(one);
        expect(probeAll([s], item)[0]).toBe(one);
        expect(s.hasDigest(digest(item, { seed: 3n })) ? 1 : 0).toBe(one);
      });
    }
  });
});

describe('extreme digests (Digest.fromValue) in both twins', () => {
  it('addDigest/hasDigest at digests 0, 2^64 - 1, 2^63 and random agree bit for bit, plain and counting', () => {
    const r = mulberry32(64);
    const values = [0n, (1n << 64n) - 1n, 1n << 63n, (1n << 32n) - 1n, 1n << 32n];
    for (let i = 0; i < 2000; i++) values.push((BigInt(Math.floor(r() * 2 ** 32)) << 32n) | BigInt(Math.floor(r() * 2 ** 32)));
    for (const [bits, k, scheme] of [[256 * 77, 8, 'sbbf'], [100_003, 9, 'xxh64'], [64, 64, 'xxh64']] as const) {
      const w = new wasm.BloomFilter(bits, k, { scheme, seed: 5n });
      const f = new reference.BloomFilter(bits, k, { scheme, seed: 5n });
      const wc = new wasm.CountingBloomFilter(bits, k, { scheme, seed: 5n });
      const fc = new reference.CountingBloomFilter(bits, k, { scheme, seed: 5n });
      values.forEach((v, i) => {
        const d = wasm.Digest.fromValue(v, 5n);
        if (i % 2 === 0) {
          expect(w.addDigest(d)).toBe(f.addDigest(d));
          expect(wc.addDigest(d)).toBe(fc.addDigest(d));
        } else {
          expect(w.hasDigest(d)).toBe(f.hasDigest(d));
          expect(wc.countDigest(d)).toBe(fc.countDigest(d));
        }
      });
      expect(w.bitArray()).toEqual(f.bitArray());
      expect(wc.counters()).toEqual(fc.counters());
      expect(wc.toBloomFilter().bitArray()).toEqual(w.bitArray());
    }
  });
});
