// Attacks on ScalableBloomFilter's batch adds (digest pairs, packed bytes,
// plain lists) against one add at a time: thousands of items with repeats,
// batches of random sizes that cross member growth, every scheme, both
// twins; flags and the saved chain must be identical.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { twins } from './helpers/twins.js';

const encoder = new TextEncoder();

function pack(items: string[]): { bytes: Uint8Array; offsets: Uint32Array } {
  const parts = items.map((s) => encoder.encode(s));
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
  const bytes = new Uint8Array(offsets[parts.length]);
  parts.forEach((p, i) => bytes.set(p, offsets[i]));
  return { bytes, offsets };
}

describe.each(twins)('$name ScalableBloomFilter batches against single adds', ({ name, ScalableBloomFilter }) => {
  it.each(['xxh64', 'sbbf', 'poly', 'bytesum'] as const)('%s: random batch sizes across growth give the flags and bytes of one add at a time', (scheme) => {
    const r = mulberry32(scheme.length * 31 + (name === 'wasm' ? 0 : 1));
    // poly hashes a string's UTF-16 units and bytes as bytes, so its packed
    // (UTF-8) form equals the string form only for ASCII.
    const accent = scheme === 'poly' ? 'e' : 'é';
    const items = Array.from({ length: 5000 }, () => `item ${Math.floor(r() * 3500)} ${accent.repeat(Math.floor(r() * 3))}`);
    const opts = { capacity: 8, falsePositiveRate: 0.02, scheme, ...(scheme === 'xxh64' || scheme === 'sbbf' ? { seed: 0xabcdefn } : {}) };
    const batched = new ScalableBloomFilter(opts);
    const single = new ScalableBloomFilter(opts);
    const want = Uint8Array.from(items, (s) => (single.add(s) ? 1 : 0));
    const got: number[] = [];
    for (let at = 0; at < items.length; ) {
      const n = Math.min(items.length - at, 1 + Math.floor(r() * (r() < 0.2 ? 1500 : 60)));
      const chunk = items.slice(at, at + n);
      const kind = Math.floor(r() * 3);
      const flags = kind === 0 ? batched.addMany(chunk) : kind === 1 ? batched.addMany(pack(chunk)) : batched.addMany(new Set(chunk).size === chunk.length ? new Set(chunk) : chunk);
      got.push(...flags);
      at += n;
    }
    expect(Uint8Array.from(got)).toEqual(want);
    expect(batched.toBytes()).toEqual(single.toBytes());
    expect(batched.size).toBe(single.size);
    expect(batched.members.length).toBeGreaterThan(5);
    expect(batched.hasMany(pack(items)).every((v) => v === 1)).toBe(true);
  });
});
