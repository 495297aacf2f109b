// The billion-URL configuration: 10^10 bits (1.25 GB) in one wasm filter.
// Memory-heavy, so kept apart from the fast suites; CI still runs it.
import { describe, expect, it } from 'vitest';
import { BloomFilter } from '../../src/index.js';

describe('a 10^10-bit filter', () => {
  it('adds items whose positions exceed 2^32 and finds them again', () => {
    const m = 10_000_000_000;
    const f = new BloomFilter(m, 7);
    const items = Array.from({ length: 50_000 }, (_, i) => `https://crawl.example/${i}`);
    const distinct = new Set<number>();
    let beyond = 0;
    let highest = 0;
    let outOfRange = 0;
    let notNew = 0;
    for (const item of items) {
      if (!f.add(item)) notNew++;
      for (const p of f.positions(item)) {
        distinct.add(p);
        if (p >= 2 ** 32) beyond++;
        highest = Math.max(highest, p);
        if (!Number.isInteger(p) || p < 0 || p >= m) outOfRange++;
      }
    }
    expect([notNew, outOfRange]).toEqual([0, 0]);
    // Uniform positions land past 2^32 about 57% of the time.
    expect(beyond).toBeGreaterThan(0.5 * 7 * items.length);
    // ... and reach the last few thousandths of the array.
    expect(highest).toBeGreaterThan(0.999 * m);
    expect(items.filter((item) => !f.has(item))).toEqual([]);
    expect(f.bitsSet()).toBe(distinct.size);
    expect(f.has('https://crawl.example/never-added')).toBe(false);
  });
});
