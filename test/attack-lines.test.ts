// Attacks on line dedupe (bloom dedupe's wasm path) at the top of the
// address space: a filter of more than 2^34 bits puts its lines region past
// 2 GiB, where wasm's pointers come back to JS as negative i32s.
import { describe, expect, it } from 'vitest';
import { BloomFilter } from '../src/index.js';

describe('line dedupe over a filter of more than 2^34 bits (its lines region lies past 2 GiB)', () => {
  // bloom dedupe --capacity 1500000000 --fpp 0.001 sizes such a filter; the
  // memory is reserved, and only the few pages written are touched.
  it('dedupes instead of throwing a RangeError on a negative pointer', async () => {
    const { wasmLines, LineDeduper } = await import('../src/wasm/lines.js');
    for (const [bits, hashes, scheme] of [[2 ** 34 + 800, 7, 'xxh64'], [2 ** 34 + 256 * 100, 8, 'sbbf']] as const) {
      const filter = new BloomFilter(bits, hashes, { scheme });
      const dedupe = new LineDeduper(wasmLines(filter, false));
      const input = new TextEncoder().encode('a\nb\na\nc\nb\n');
      dedupe.input().set(input);
      const out = [...dedupe.push(input.length), ...dedupe.finish()].map((c) => Buffer.from(c).toString()).join('');
      expect(out).toBe('a\nb\nc\n');
      expect(filter.has('a') && filter.has('c')).toBe(true);
    }
  });
});
