// Cuckoo filters of 10^6 items at a large p, where the fill rather than the
// rate sets the fingerprint (src/cuckoo/shape.ts): each takes its n
// distinct items, in wasm and in the reference twin, with the same bytes.
// Slow (the twin adds with BigInt), so kept apart from test/cuckoo.test.ts's
// scan; CI still runs it.
import { describe, expect, it } from 'vitest';
import { twins } from '../helpers/twins.js';

describe('CuckooFilter at 10^6 items', () => {
  for (const [p, options] of [[0.3, { bucketSize: 2 }], [0.3, {}]] as const) {
    it(`forCapacity(10^6, ${p}, ${JSON.stringify(options)}) takes 10^6 distinct items in both implementations, alike`, () => {
      const n = 1_000_000;
      const items = Array.from({ length: n }, (_, i) => `https://example.com/page/${i}`);
      const bytes = twins.map(({ CuckooFilter }) => {
        const f = CuckooFilter.forCapacity(n, p, options);
        f.addMany(items);
        expect(f.size).toBe(n);
        expect(f.members.length).toBe(1);
        return f.toBytes();
      });
      expect(bytes[1]).toEqual(bytes[0]);
    }, 600_000);
  }
});
