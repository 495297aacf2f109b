// Filters made and given back in a loop must not grow memory without bound:
// disposed ones in a shared instance, and dropped large ones, each of which
// has an instance of its own that the engine frees with it.
import { describe, expect, it } from 'vitest';
import { BloomFilter } from '../src/index.js';
import { sharedArenas } from '../src/wasm/placement.js';

describe('memory', () => {
  it('makes and disposes 10,000 filters of 1 MiB each in one region of a shared instance', () => {
    // Kept, these would hold 10 GiB; disposed, each takes the last one's region.
    const before = process.memoryUsage().rss;
    let found = 0;
    for (let i = 0; i < 10_000; i++) {
      const f = new BloomFilter(8 * 1024 * 1024, 3);
      f.add(`item-${i}`);
      // Touch the far end so the pages are really committed.
      f.add(`item-${i}-tail`);
      if (f.has(`item-${i}`)) found++;
      f.dispose();
    }
    expect(found).toBe(10_000);
    expect(sharedArenas().reduce((n, a) => n + a.memoryBytes, 0)).toBeLessThan(4 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 ** 2);
  });

  it('makes and drops 300 filters of 32 MiB each (instances of their own) without growing without bound', () => {
    // Kept alive, these would hold 9.6 GiB; dropped, the engine frees each instance's memory.
    const before = process.memoryUsage().rss;
    let found = 0;
    for (let i = 0; i < 300; i++) {
      const f = new BloomFilter(8 * 32 * 1024 * 1024, 3);
      f.add(`item-${i}`);
      f.add(`item-${i}-tail`);
      if (f.has(`item-${i}`)) found++;
    }
    expect(found).toBe(300);
    expect(process.memoryUsage().rss - before).toBeLessThan(2 * 1024 ** 3);
  });
});
