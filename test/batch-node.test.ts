// Batches through the Node entry (src/index.node.ts), whose joined chunks of
// strings are written with Buffer#write instead of TextEncoder.encodeInto
// (src/wasm/chunk-staging.ts, encodeJoined): the same answers and bits as single
// calls and the reference twin, for every scheme and every kind of string.

import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { BloomFilter, CountingBloomFilter, ScalableBloomFilter, type Scheme } from '../src/index.node.js';
import { BloomFilter as ReferenceFilter } from '../src/reference/index.js';

const SCHEMES: Scheme[] = ['xxh64', 'sbbf', 'poly', 'bytesum'];

const itemArb = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.uint8Array({ maxLength: 40 }),
  fc.string({ minLength: 257, maxLength: 300 }),
);

describe('batches through the Node entry', () => {
  it('write an all-ASCII chunk with Buffer#write, not encodeInto', () => {
    const f = new BloomFilter(10_000, 5);
    const spy = vi.spyOn(TextEncoder.prototype, 'encodeInto');
    const items = Array.from({ length: 300 }, (_, i) => `https://example.com/${i}`);
    expect(Array.from(f.addMany(items))).toEqual(items.map(() => 1));
    expect(Array.from(f.hasMany(items))).toEqual(items.map(() => 1));
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('answer as single calls and the reference twin, and set the same bits, for every scheme', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SCHEMES), fc.array(itemArb, { maxLength: 60 }), fc.array(itemArb, { maxLength: 30 }), (scheme, added, asked) => {
        const bits = scheme === 'sbbf' ? 256 * 16 : 3001;
        const hashes = scheme === 'sbbf' ? 8 : 4;
        const batch = new BloomFilter(bits, hashes, { scheme });
        const single = new BloomFilter(bits, hashes, { scheme });
        const twin = new ReferenceFilter(bits, hashes, { scheme });
        const flags = Array.from(batch.addMany(added));
        expect(flags).toEqual(added.map((item) => (single.add(item) ? 1 : 0)));
        expect(flags).toEqual(added.map((item) => (twin.add(item) ? 1 : 0)));
        expect(batch.bitArray()).toEqual(single.bitArray());
        expect(batch.bitArray()).toEqual(twin.bitArray());
        const probe = [...added, ...asked];
        expect(Array.from(batch.hasMany(probe))).toEqual(probe.map((item) => (twin.has(item) ? 1 : 0)));
        batch.dispose();
        single.dispose();
      }),
      { numRuns: 150 },
    );
  });

  it('counting filters and chains take the same path and answer as single calls', () => {
    const items = Array.from({ length: 500 }, (_, i) => (i % 3 === 0 ? `ü${i}` : `key-${i}`));
    const counting = new CountingBloomFilter(4000, 4);
    const countingSingle = new CountingBloomFilter(4000, 4);
    expect(Array.from(counting.addMany(items))).toEqual(items.map((item) => (countingSingle.add(item) ? 1 : 0)));
    for (const scheme of ['xxh64', 'sbbf', 'bytesum'] as const) {
      const chain = new ScalableBloomFilter({ capacity: 20, falsePositiveRate: 0.01, scheme });
      const chainSingle = new ScalableBloomFilter({ capacity: 20, falsePositiveRate: 0.01, scheme });
      expect(Array.from(chain.addMany(items))).toEqual(items.map((item) => (chainSingle.add(item) ? 1 : 0)));
      expect(chain.members.length).toBe(chainSingle.members.length);
      expect(chain.toBytes()).toEqual(chainSingle.toBytes());
      const probe = [...items, 'none', 'ü-none'];
      expect(Array.from(chain.hasMany(probe))).toEqual(probe.map((item) => (chainSingle.has(item) ? 1 : 0)));
    }
  });
});
