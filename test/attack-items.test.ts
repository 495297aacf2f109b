// Attacks on item staging in the newest paths (counting filters, digests,
// probeAll, sbbf chains): strings with lone and paired surrogates, items
// longer than the scratch region and batches whose bytes cross a chunk
// boundary, compared between the twins and with the same item as UTF-8 bytes.
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { mulberry32 } from '../src/cli/mulberry32.js';

type Lib = typeof wasm;
const ref = reference as unknown as Lib;
const encoder = new TextEncoder();

function nasty(seed: number, count: number): string[] {
  const r = mulberry32(seed);
  const pieces = ['a', 'é', '€', '😀', '\ud800', '\udc00', '\udbff\udfff', 'x'.repeat(50), '\u0000', '\uffff'];
  const lengths = [0, 1, 2, 23, 24, 25, 21845, 21846, 32768, 65537, 70000];
  return Array.from({ length: count }, (_, i) => {
    const target = i % 7 === 0 ? lengths[Math.floor(r() * lengths.length)] : Math.floor(r() * 40);
    let s = '';
    while (s.length < target) s += pieces[Math.floor(r() * pieces.length)];
    return s.slice(0, target);
  });
}

describe('nasty items in the newest paths', () => {
  const items = nasty(1, 300);
  const bytes = items.map((s) => encoder.encode(s));

  it('counting filters (xxh64, sbbf): batch = single = bytes = reference, counters equal', () => {
    for (const [m, k, scheme] of [[20_000, 7, 'xxh64'], [256 * 80, 8, 'sbbf']] as const) {
      const a = new wasm.CountingBloomFilter(m, k, { scheme, seed: 9n });
      const b = new wasm.CountingBloomFilter(m, k, { scheme, seed: 9n });
      const c = new ref.CountingBloomFilter(m, k, { scheme, seed: 9n });
      const flags = a.addMany(items);
      items.forEach((s, i) => {
        expect(b.add(bytes[i]) ? 1 : 0).toBe(flags[i]);
        expect(c.add(s) ? 1 : 0).toBe(flags[i]);
      });
      expect(a.counters()).toEqual(b.counters());
      expect(a.counters()).toEqual(c.counters());
      expect(a.hasMany(bytes).every((v) => v === 1)).toBe(true);
      items.forEach((s, i) => {
        expect(a.positions(s)).toEqual(c.positions(bytes[i]));
        expect(a.count(s)).toBe(c.count(s));
      });
      for (let i = 0; i < items.length; i += 3) {
        a.remove(items[i]);
        c.remove(bytes[i]);
      }
      expect(a.counters()).toEqual(c.counters());
    }
  });

  it('digest and probeAll: the string and its bytes give one digest, in both twins', () => {
    const filters = [new wasm.BloomFilter(256 * 40, 8, { scheme: 'sbbf' }), new wasm.BloomFilter(5000, 5), new wasm.BloomFilter(777, 4, { scheme: 'poly' })];
    items.forEach((s, i) => {
      const d = wasm.digest(s);
      expect(wasm.digest(bytes[i]).value).toBe(d.value);
      expect(ref.digest(s).value).toBe(d.value);
      filters[i % 3].add(s);
    });
    items.forEach((s, i) => {
      const got = wasm.probeAll(filters, s);
      expect(got[i % 3]).toBe(1);
      expect(Array.from(got)).toEqual(filters.map((f) => (f.has(s) ? 1 : 0)));
      if (i % 3 !== 2) expect(wasm.probeAll(filters, bytes[i])[i % 3]).toBe(1);
    });
  });

  it('sbbf and xxh64 chains: addMany over strings = add over bytes = reference, and every item found by every path', () => {
    for (const scheme of ['sbbf', 'xxh64'] as const) {
      const opts = { capacity: 20, falsePositiveRate: 0.01, scheme, seed: 4n };
      const a = new wasm.ScalableBloomFilter(opts);
      const b = new wasm.ScalableBloomFilter(opts);
      const c = new ref.ScalableBloomFilter(opts);
      const flags = a.addMany(items);
      items.forEach((s, i) => {
        expect(b.add(bytes[i]) ? 1 : 0).toBe(flags[i]);
        expect(c.add(s) ? 1 : 0).toBe(flags[i]);
      });
      expect(a.toBytes()).toEqual(b.toBytes());
      expect(a.toBytes()).toEqual(c.toBytes());
      expect(a.hasMany(bytes).every((v) => v === 1)).toBe(true);
      expect(c.hasMany(items).every((v) => v === 1)).toBe(true);
      items.forEach((s) => expect(wasm.probeAll([a], s)[0]).toBe(1));
    }
  });
});

describe('packed batches with long items and offsets not from 0', () => {
  it('addMany/hasMany of packed bytes equal add/has of each slice, every kind and both twins', () => {
    const r = mulberry32(44);
    const lengths = [0, 3, 70_000, 1, 65_536, 65_535, 10, 200_000, 0, 7];
    const total = 11 + lengths.reduce((a, b) => a + b, 0);
    const bytes = Uint8Array.from({ length: total }, () => Math.floor(r() * 256));
    const offsets = [11];
    for (const n of lengths) offsets.push(offsets[offsets.length - 1] + n);
    const slices = lengths.map((_, i) => bytes.subarray(offsets[i], offsets[i + 1]));
    for (const lib of [wasm, ref]) {
      const makers = [
        () => new lib.BloomFilter(256 * 10, 8, { scheme: 'sbbf', seed: 5n }),
        () => new lib.BloomFilter(3000, 6, { seed: 5n }),
        () => new lib.BloomFilter(3001, 4, { scheme: 'poly' }),
        () => new lib.CountingBloomFilter(256 * 10, 8, { scheme: 'sbbf' }),
        () => new lib.CountingBloomFilter(3000, 6, { scheme: 'bytesum' }),
        () => new lib.ScalableBloomFilter({ capacity: 2, falsePositiveRate: 0.01, scheme: 'sbbf' }),
      ];
      for (const make of makers) {
        const a = make();
        const b = make();
        const flags = a.addMany({ bytes, offsets: Uint32Array.from(offsets) });
        slices.forEach((s, i) => expect(b.add(s) ? 1 : 0).toBe(flags[i]));
        expect(a.hasMany({ bytes, offsets })).toEqual(Uint8Array.from(slices, (s) => (b.has(s) ? 1 : 0)));
        expect(a.hasMany({ bytes, offsets }).every((v) => v === 1)).toBe(true);
        const strip = (f: { toBytes(): Uint8Array }) => f.toBytes();
        expect(strip(a)).toEqual(strip(b));
      }
    }
  });
});
