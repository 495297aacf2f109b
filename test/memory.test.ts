// Every filter owns a wasm instance; dropping the filter must free it.
import { describe, expect, it } from 'vitest';
import { BloomFilter } from '../src/index.js';

describe('memory', () => {
  it('creates and drops 10,000 filters of 1 MiB each without growing without bound', () => {
    // Kept alive, these would hold 10 GiB; freed, the process stays small.
    const before = process.memoryUsage().rss;
    let found = 0;
    for (let i = 0; i < 10_000; i++) {
      const f = new BloomFilter(8 * 1024 * 1024, 3);
      f.add(`item-${i}`);
      // Touch the far end so the pages are really committed.
      f.add(`item-${i}-tail`);
      if (f.has(`item-${i}`)) found++;
    }
    expect(found).toBe(10_000);
    const grown = process.memoryUsage().rss - before;
    expect(grown).toBeLessThan(2 * 1024 ** 3);
  });
});
