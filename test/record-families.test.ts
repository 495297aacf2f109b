// Every family's record in one instance, calls interleaved: each family
// reads its own record's fields, never a value another family's record left
// in the bound globals, so each answer equals its reference twin's. A Bloom
// filter under poly (a scheme that hashes UTF-16 units) is bound between
// the calls, and items longer than scratch are streamed, under the cuckoo
// table's or the fuse filter's own seed, or the sliding filter's scheme:
// the core begins each stream and the family's module finishes it.
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';

const long = (i: number) => `long item ${i} `.repeat(6_000);
const items = Array.from({ length: 300 }, (_, i) => (i % 50 === 7 ? long(i) : `https://example.com/${i}`));
const probes = [...items, ...Array.from({ length: 300 }, (_, i) => (i % 50 === 9 ? long(1000 + i) : `https://example.org/${i}`))];

describe('a record per family', () => {
  it('answers as the twins with every family bound in turn', () => {
    const poly = new wasm.BloomFilter(4099, 5, { scheme: 'poly' });
    const polyTwin = new reference.BloomFilter(4099, 5, { scheme: 'poly' });
    const cuckoo = wasm.CuckooFilter.forCapacity(1000, 0.001, { seed: 123456789n });
    const cuckooTwin = reference.CuckooFilter.forCapacity(1000, 0.001, { seed: 123456789n });
    const counting = new wasm.CountingBloomFilter(3001, 3, { seed: 5n });
    const countingTwin = new reference.CountingBloomFilter(3001, 3, { seed: 5n });
    const bitmap = new wasm.Bitmap(1000);
    const bitmapTwin = new reference.Bitmap(1000);
    const sliding = new wasm.SlidingBloomFilter({ window: 1000, falsePositiveRate: 0.01 });
    const slidingTwin = new reference.SlidingBloomFilter({ window: 1000, falsePositiveRate: 0.01 });
    for (let i = 0; i < items.length; i++) {
      poly.add(items[i]);
      polyTwin.add(items[i]);
      expect(cuckoo.add(items[i])).toBe(cuckooTwin.add(items[i]));
      counting.add(items[i]);
      countingTwin.add(items[i]);
      bitmap.setMany([i * 3]);
      bitmapTwin.setMany([i * 3]);
      expect(sliding.add(items[i])).toBe(slidingTwin.add(items[i]));
    }
    const fuse = wasm.BinaryFuseFilter.from(items);
    const fuseTwin = reference.BinaryFuseFilter.from(items);
    for (const p of probes) {
      expect(poly.has(p)).toBe(polyTwin.has(p));
      expect(cuckoo.has(p)).toBe(cuckooTwin.has(p));
      expect(fuse.has(p)).toBe(fuseTwin.has(p));
      expect(counting.has(p)).toBe(countingTwin.has(p));
      expect(sliding.has(p)).toBe(slidingTwin.has(p));
    }
    expect(cuckoo.toBytes()).toEqual(cuckooTwin.toBytes());
    expect(fuse.toBytes()).toEqual(fuseTwin.toBytes());
    expect(counting.toBytes()).toEqual(countingTwin.toBytes());
    expect(sliding.toBytes()).toEqual(slidingTwin.toBytes());
    expect(bitmap.hasMany(Uint32Array.from({ length: 999 }, (_, v) => v))).toEqual(bitmapTwin.hasMany(Uint32Array.from({ length: 999 }, (_, v) => v)));
    expect(bitmap.toArray()).toEqual(bitmapTwin.toArray());
    for (const f of [poly, cuckoo, counting, bitmap, fuse, sliding]) f.dispose();
  });
});
