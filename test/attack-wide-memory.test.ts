// Attacks at the top of the 4 GiB wasm32 address space, on memory that is
// reserved but barely touched: line dedupe over a filter of more than 2^34
// bits (its lines region lies past 2 GiB, where wasm's pointers come back to
// JS as negative i32s), and filters of MAX_BITS probed at their last bits.
import { describe, expect, it } from 'vitest';
import { BloomFilter } from '../src/index.js';
import { engineOf } from '../src/filter/filter.js';

describe('line dedupe over a filter of more than 2^34 bits (its lines region lies past 2 GiB)', () => {
  // bloom dedupe --capacity 1500000000 --fpp 0.001 sizes such a filter; the
  // memory is reserved, and only the few pages written are touched.
  it('dedupes instead of throwing a RangeError on a negative pointer', async () => {
    const { wasmLines, LineDeduper } = await import('../src/wasm/lines.js');
    for (const [bits, hashes, scheme] of [[2 ** 34 + 800, 7, 'xxh64'], [2 ** 34 + 256 * 100, 8, 'sbbf']] as const) {
      const filter = new BloomFilter(bits, hashes, { scheme });
      const dedupe = new LineDeduper(wasmLines(engineOf(filter), false));
      const input = new TextEncoder().encode('a\nb\na\nc\nb\n');
      dedupe.inputArea.set(input, dedupe.inputStart);
      let out = '';
      const write = (bytes: Uint8Array, length: number) => (out += Buffer.from(bytes.subarray(0, length)).toString());
      dedupe.push(input.length, write);
      dedupe.finish(write);
      expect(out).toBe('a\nb\nc\n');
      expect(filter.has('a') && filter.has('c')).toBe(true);
    }
  });
});

describe('filters at MAX_BITS: the last block and the last bits (memory reserved, barely touched)', () => {
  it('add, has, hasDigest and probeAll reach the top of the bits', async () => {
    const { MAX_BITS, Digest, probeAll } = await import('../src/index.js');
    const { sbbfPositions } = await import('../src/reference/sbbf.js');
    const { probeEnhancedDouble } = await import('../src/reference/probe.js');
    const top = Math.floor(MAX_BITS / 256) * 256;
    const blocked = new BloomFilter(top, 8, { scheme: 'sbbf' });
    const plain = new BloomFilter(MAX_BITS, 5);
    const values = [(1n << 64n) - 1n, 0xfffffffe12345678n, 0n, 0xffffffff00000000n];
    for (const v of values) {
      const d = Digest.fromValue(v);
      expect(blocked.hasDigest(d)).toBe(false);
      expect(blocked.addDigest(d)).toBe(true);
      expect(blocked.hasDigest(d)).toBe(true);
      expect(plain.addDigest(d)).toBe(true);
      expect(plain.hasDigest(d)).toBe(true);
    }
    // The bits set are exactly the reference positions, the last block included.
    const view = (f: BloomFilter) => engineOf(f).bitsView();
    const isSet = (v: Uint8Array, p: number) => (v[Math.floor(p / 8)] & (1 << (p % 8))) !== 0;
    const bv = view(blocked);
    const pv = view(plain);
    for (const v of values) {
      for (const p of sbbfPositions(v, top)) expect(isSet(bv, p)).toBe(true);
      for (const p of probeEnhancedDouble(v, MAX_BITS, 5)) expect(isSet(pv, p)).toBe(true);
    }
    expect(Math.floor(sbbfPositions(values[0], top)[7] / 256)).toBe(top / 256 - 1);
    expect(blocked.bitsSet()).toBe(8 * values.length);
    blocked.add('x');
    plain.add('x');
    expect(Array.from(probeAll([blocked, plain], 'x'))).toEqual([1, 1]);
    expect(Array.from(probeAll([blocked, plain], 'never added'))).toEqual([0, 0]);
  });
});

describe('counting filters past 2^31 counters in probeAll (the wide walk on counters)', () => {
  it('probeAll answers as has() for counting filters of 2^31 + 7 and MAX_COUNTING_BITS counters', async () => {
    const { CountingBloomFilter, MAX_COUNTING_BITS, probeAll, Digest } = await import('../src/index.js');
    const wide = new CountingBloomFilter(2 ** 31 + 7, 6, { seed: 11n });
    const top = new CountingBloomFilter(MAX_COUNTING_BITS, 8, { scheme: 'sbbf', seed: 11n });
    const items = Array.from({ length: 300 }, (_, i) => `wide ${i}`);
    items.forEach((item, i) => (i % 2 === 0 ? wide : top).add(item));
    top.addDigest(Digest.fromValue((1n << 64n) - 1n, 11n));
    expect(top.hasDigest(Digest.fromValue((1n << 64n) - 1n, 11n))).toBe(true);
    for (const item of [...items, ...items.map((s) => `absent ${s}`)]) {
      expect(Array.from(probeAll([wide, top], item))).toEqual([wide.has(item) ? 1 : 0, top.has(item) ? 1 : 0]);
    }
    items.forEach((item, i) => expect(probeAll([wide, top], item)[i % 2]).toBe(1));
    for (let i = 0; i < items.length; i += 2) wide.remove(items[i]);
    expect(wide.bitsSet()).toBe(0);
    expect(probeAll([wide], items[0])[0]).toBe(0);
  });
});
