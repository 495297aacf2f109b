// Views stay valid: filters share an instance's memory, and making a new
// filter may grow it, which detaches every ArrayBuffer view made before.
// Each kind of call is made once, then the memory is grown by another
// filter in the same instance, then the call is made again; the answers
// must equal the reference twin's.
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { engineOf } from '../src/filter/filter.js';
import { LineDeduper, wasmLines } from '../src/wasm/lines.js';
import type { Arena } from '../src/wasm/arena.js';
import { DEDICATED_BYTES, sharedArenas } from '../src/wasm/placement.js';
import { placementOf } from '../src/wasm/record-handle.js';
import type { SlidingEngine } from '../src/wasm/sliding.js';
import type { FuseEngine } from '../src/wasm/binary-fuse.js';
import { slidingStoreOf } from '../src/sliding/sliding-over.js';
import { fuseStoreOf } from '../src/fuse/binary-fuse-over.js';

/** The shared arena that holds `f`. */
function arenaOf(f: wasm.BloomFilter): Arena {
  const id = placementOf(engineOf(f))!.arena;
  return sharedArenas().find((a) => a.id === id)!;
}

/**
 * Grows the memory of `arena` with new filters just under the size that
 * gets an instance of its own (as many as it takes: an earlier test's
 * freed ones are reused first). Dispose the handle it returns after.
 */
function grow(arena: Arena): { dispose(): void } {
  const before = arena.memoryBytes;
  const made: wasm.BloomFilter[] = [];
  while (arena.memoryBytes === before && made.length < 16) {
    const big = new wasm.BloomFilter(8 * (DEDICATED_BYTES - 4096), 3);
    expect(arenaOf(big)).toBe(arena);
    made.push(big);
  }
  expect(arena.memoryBytes).toBeGreaterThan(before);
  return { dispose: () => made.forEach((f) => f.dispose()) };
}

const items = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? `https://example.com/${i}/é` : `key-${i}`));

describe('views after the memory grew between two calls', () => {
  it.each(['xxh64', 'poly', 'bytesum', 'sbbf'] as const)('BloomFilter (%s): add, has, positions, batches, digests, bits, files, algebra', (scheme) => {
    const m = scheme === 'sbbf' ? 4096 : 4001;
    const k = scheme === 'sbbf' ? 8 : 5;
    const w = new wasm.BloomFilter(m, k, { scheme });
    const r = new reference.BloomFilter(m, k, { scheme });
    const other = new wasm.BloomFilter(m, k, { scheme });
    const otherRef = new reference.BloomFilter(m, k, { scheme });
    const digestible = scheme === 'xxh64' || scheme === 'sbbf';
    const round = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        expect(w.add(items[i])).toBe(r.add(items[i]));
        expect(w.positions(items[i])).toEqual(r.positions(items[i]));
      }
      expect(Array.from(w.addMany(items.slice(to, to + 20)))).toEqual(Array.from(r.addMany(items.slice(to, to + 20))));
      expect(Array.from(w.hasMany(items))).toEqual(Array.from(r.hasMany(items)));
      other.add(items[from]);
      otherRef.add(items[from]);
      if (digestible) {
        const d = wasm.digest(items[from + 1], { seed: w.seed });
        expect(w.hasDigest(d)).toBe(r.hasDigest(reference.digest(items[from + 1], { seed: r.seed })));
      }
      expect(w.bitArray()).toEqual(r.bitArray());
      expect(w.toBytes()).toEqual(r.toBytes());
      expect(wasm.BloomFilter.union(w, other).bitArray()).toEqual(reference.BloomFilter.union(r, otherRef).bitArray());
      expect(w.clone().bitArray()).toEqual(r.bitArray());
      expect(w.bitsSet()).toBe(r.bitsSet());
      expect(wasm.probeAll([w, other], items[from])).toEqual(reference.probeAll([r, otherRef], items[from]));
    };
    round(0, 40);
    const big = grow(arenaOf(w));
    round(40, 80);
    expect(wasm.BloomFilter.fromBytes(w.toBytes()).bitArray()).toEqual(r.bitArray());
    big.dispose();
  });

  it('CountingBloomFilter: add, has, remove, count, batches, files, probeAll', () => {
    const w = new wasm.CountingBloomFilter(3001, 4);
    const r = new reference.CountingBloomFilter(3001, 4);
    const anchor = new wasm.BloomFilter(64, 1);
    const round = (from: number, to: number) => {
      for (let i = from; i < to; i++) expect(w.add(items[i])).toBe(r.add(items[i]));
      w.remove(items[from]);
      r.remove(items[from]);
      expect(w.count(items[from + 1])).toBe(r.count(items[from + 1]));
      expect(Array.from(w.hasMany(items))).toEqual(Array.from(r.hasMany(items)));
      expect(w.toBytes()).toEqual(r.toBytes());
      expect(w.toBloomFilter().bitArray()).toEqual(r.toBloomFilter().bitArray());
      expect(wasm.probeAll([w, anchor], items[from + 2])).toEqual(reference.probeAll([r, new reference.BloomFilter(64, 1)], items[from + 2]));
    };
    round(0, 40);
    const big = grow(arenaOf(anchor));
    round(40, 80);
    big.dispose();
  });

  it('SlidingBloomFilter: add, has, rotations, batches, files', () => {
    let now = 1_000;
    const w = new wasm.SlidingBloomFilter({ windowMs: 7_000, capacity: 70, falsePositiveRate: 0.01, clock: () => now });
    const r = new reference.SlidingBloomFilter({ windowMs: 7_000, capacity: 70, falsePositiveRate: 0.01, clock: () => now });
    const anchor = new wasm.BloomFilter(64, 1);
    // The words share the anchor's instance, whose memory grow() grows.
    expect(placementOf(slidingStoreOf(w) as SlidingEngine)!.arena).toBe(placementOf(engineOf(anchor))!.arena);
    const round = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        expect(w.add(items[i])).toBe(r.add(items[i]));
        now += 97;
      }
      expect(Array.from(w.addMany(items.slice(to, to + 20)))).toEqual(Array.from(r.addMany(items.slice(to, to + 20))));
      expect(Array.from(w.hasMany(items))).toEqual(Array.from(r.hasMany(items)));
      expect(w.toBytes()).toEqual(r.toBytes());
    };
    round(0, 100);
    const big = grow(arenaOf(anchor));
    round(100, 200);
    big.dispose();
  });

  it('BinaryFuseFilter: has, hasMany, hasKey, files, and a build in place while memory grows', () => {
    const anchor = new wasm.BloomFilter(64, 1);
    const w = wasm.BinaryFuseFilter.from(items);
    const r = reference.BinaryFuseFilter.from(items);
    expect(placementOf(fuseStoreOf(w) as FuseEngine)!.arena).toBe(placementOf(engineOf(anchor))!.arena);
    const probes = [...items, ...items.map((i) => `${i}-absent`)];
    const round = () => {
      expect(probes.map((p) => w.has(p))).toEqual(probes.map((p) => r.has(p)));
      expect(Array.from(w.hasMany(probes))).toEqual(Array.from(r.hasMany(probes)));
      expect([1n, 2n, 3n].map((k) => w.hasKey(k))).toEqual([1n, 2n, 3n].map((k) => r.hasKey(k)));
      expect(w.toBytes()).toEqual(r.toBytes());
    };
    round();
    const big = grow(arenaOf(anchor));
    round();
    // A set whose temporaries are taken in the shared instance (below 4 MiB), built after the growth.
    const keys = Array.from({ length: 20_000 }, (_, i) => BigInt(i) * 0x9e3779b97f4a7c15n % (1n << 64n));
    expect(wasm.BinaryFuseFilter.fromKeys(keys).toBytes()).toEqual(reference.BinaryFuseFilter.fromKeys(keys).toBytes());
    big.dispose();
  });

  it('Bitmap: set, has, delete, batches, iteration', () => {
    const w = new wasm.Bitmap(100_000);
    const r = new reference.Bitmap(100_000);
    const anchor = new wasm.BloomFilter(64, 1);
    const round = (base: number) => {
      for (let i = 0; i < 50; i++) expect(w.set(base + i * 7)).toBe(r.set(base + i * 7));
      expect(w.delete(base)).toBe(r.delete(base));
      expect(w.setMany(Uint32Array.of(base + 1, base + 90_000))).toBe(r.setMany(Uint32Array.of(base + 1, base + 90_000)));
      expect(Array.from(w.hasMany(Uint32Array.of(base + 7, base + 8, base + 1)))).toEqual(Array.from(r.hasMany(Uint32Array.of(base + 7, base + 8, base + 1))));
      expect(w.has(base + 14)).toBe(true);
      expect([...w]).toEqual([...r]);
      expect(w.size).toBe(r.size);
    };
    round(0);
    const big = grow(arenaOf(anchor));
    round(1000);
    big.dispose();
  });

  it('ScalableBloomFilter: has in one call, add, batches', () => {
    const w = new wasm.ScalableBloomFilter({ capacity: 50, falsePositiveRate: 0.01 });
    const r = new reference.ScalableBloomFilter({ capacity: 50, falsePositiveRate: 0.01 });
    const anchor = new wasm.BloomFilter(64, 1);
    const round = (from: number, to: number) => {
      for (let i = from; i < to; i++) expect(w.add(items[i])).toBe(r.add(items[i]));
      for (const item of items) expect(w.has(item)).toBe(r.has(item));
      expect(Array.from(w.hasMany(items))).toEqual(Array.from(r.hasMany(items)));
      expect(w.toBytes()).toEqual(r.toBytes());
    };
    round(0, 120);
    const big = grow(arenaOf(anchor));
    round(120, 240);
    big.dispose();
  });

  it('line dedupe: chunks before and after the growth', () => {
    const filter = new wasm.BloomFilter(10_000, 4);
    const deduper = new LineDeduper(wasmLines(engineOf(filter), false));
    const out: string[] = [];
    const write = (bytes: Uint8Array, length: number) => out.push(new TextDecoder().decode(bytes.subarray(0, length)));
    const push = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      deduper.inputArea.set(bytes, deduper.inputStart);
      deduper.push(bytes.length, write);
    };
    push('a\nb\na\nc');
    const big = grow(arenaOf(filter));
    push('\nb\nd\n');
    deduper.finish(write);
    expect(out.join('')).toBe('a\nb\nc\nd\n');
    expect(filter.has('d')).toBe(true);
    big.dispose();
  });
});
