// Many filters in one instance (src/wasm/arena.ts, assembly/heap.ts): live
// regions never overlap, bits stay each filter's own through random
// create, drop and dispose of mixed sizes, and the memory of the shared
// instances stays within 1.5 times the live bits plus one instance.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bitmap, BloomFilter, CountingBloomFilter } from '../src/index.js';
import { engineOf } from '../src/filter/filter.js';
import { countingEngineOf } from '../src/counting/counting.js';
import { RECORD_BYTES } from '../src/wasm/arena.js';
import { DEDICATED_BYTES, type Region, sharedArenas } from '../src/wasm/placement.js';
import { placementOf } from '../src/wasm/record-handle.js';
import { bitmapEngineOf } from '../src/bitmap/bitmap.js';

type Live = { kind: 'filter'; f: BloomFilter; item: string } | { kind: 'counting'; f: CountingBloomFilter; item: string } | { kind: 'bitmap'; f: Bitmap; value: number };

function regionOfLive(l: Live): Region {
  if (l.kind === 'filter') return placementOf(engineOf(l.f))!;
  if (l.kind === 'counting') return placementOf(countingEngineOf(l.f))!;
  return placementOf(bitmapEngineOf(l.f))!;
}

/** Bytes the live objects' bits (or counters) take, as the file formats count them. */
function payload(l: Live): number {
  if (l.kind === 'filter') return Math.ceil(l.f.bits / 8);
  if (l.kind === 'counting') return Math.ceil(l.f.bits / 2);
  return Math.ceil(l.f.bits / 64) * 8;
}

function checkNoOverlap(live: Live[]): void {
  const regions = live.map(regionOfLive).sort((a, b) => a.arena - b.arena || a.start - b.start);
  for (let i = 1; i < regions.length; i++) {
    const a = regions[i - 1];
    const b = regions[i];
    if (a.arena === b.arena) expect(a.start + a.bytes, `regions at ${a.start} and ${b.start}`).toBeLessThanOrEqual(b.start);
  }
  for (const l of live) expect(regionOfLive(l).bytes).toBeGreaterThanOrEqual(RECORD_BYTES + payload(l));
}

function checkHeaps(): void {
  for (const arena of sharedArenas()) expect(arena.x.heapCheck()).toBe(0);
}

/** Each live object still answers for its own item, and no other's bits leaked in. */
function checkContents(live: Live[]): void {
  for (const l of live) {
    if (l.kind === 'bitmap') {
      expect(l.f.has(l.value)).toBe(true);
      expect(l.f.size).toBe(1);
    } else {
      expect(l.f.has(l.item)).toBe(true);
      if (l.kind === 'filter') expect(l.f.size).toBe(1);
    }
  }
}

describe('many filters in one instance', () => {
  it('holds 20,000 live filters, more than the 12,615 instances the engine allowed', () => {
    const filters: BloomFilter[] = [];
    for (let i = 0; i < 20_000; i++) {
      const f = BloomFilter.forCapacity(1000, 0.01);
      f.add(`key-${i}`);
      filters.push(f);
    }
    for (let i = 0; i < 20_000; i++) {
      expect(filters[i].has(`key-${i}`)).toBe(true);
      expect(filters[i].bitsSet()).toBeLessThanOrEqual(filters[i].hashes);
    }
    const arenas = new Set(filters.map((f) => placementOf(engineOf(f))!.arena));
    expect(arenas.size).toBe(1);
    for (const f of filters) f.dispose();
    checkHeaps();
  });

  it('gives a filter of DEDICATED_BYTES or more an instance of its own, and smaller ones a shared one', () => {
    const small = new BloomFilter(8 * 1024, 3);
    const large = new BloomFilter(8 * DEDICATED_BYTES, 3);
    const shared = sharedArenas().map((a) => a.id);
    expect(shared).toContain(placementOf(engineOf(small))!.arena);
    expect(shared).not.toContain(placementOf(engineOf(large))!.arena);
    small.dispose();
    large.dispose();
  });

  it('opens another shared instance when one holds 4 GiB', () => {
    // 300 filters of 15 MiB (below DEDICATED_BYTES): 4.4 GiB, more than one
    // wasm32 memory holds. Fresh pages are never zeroed, so this costs
    // address space, not resident memory.
    const bits = 8 * (15 * 1024 * 1024);
    const filters = Array.from({ length: 300 }, (_, i) => {
      const f = new BloomFilter(bits, 2);
      f.add(`big-${i}`);
      return f;
    });
    const arenas = new Set(filters.map((f) => placementOf(engineOf(f))!.arena));
    expect(arenas.size).toBeGreaterThanOrEqual(2);
    for (const a of sharedArenas()) expect(a.memoryBytes).toBeLessThanOrEqual(2 ** 32);
    filters.forEach((f, i) => expect(f.has(`big-${i}`)).toBe(true));
    checkNoOverlap(filters.map((f, i) => ({ kind: 'filter' as const, f, item: `big-${i}` })));
    for (const f of filters) f.dispose();
    checkHeaps();
  });

  it('random create, drop and dispose of mixed sizes: no overlap, no leak, memory within 1.5x the live bits plus one instance (fast-check)', () => {
    const instanceBytes = 2 * 65536 + (sharedArenas()[0]?.x.scratchSize() ?? 65536);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            op: fc.constantFrom('create', 'create', 'dispose'),
            kind: fc.constantFrom('filter', 'filter', 'counting', 'bitmap'),
            // log-uniform sizes, 2^10 to 2^22 bits (128 bytes to 512 KiB of bits)
            log: fc.integer({ min: 10, max: 22 }),
            pick: fc.nat(),
          }),
          { minLength: 50, maxLength: 400 },
        ),
        (steps) => {
          const live: Live[] = [];
          let serial = 0;
          const bytesBefore = sharedArenas().reduce((sum, a) => sum + a.memoryBytes, 0);
          let peakLive = 0;
          for (const step of steps) {
            if (step.op === 'create') {
              const bits = (1 << step.log) + (step.pick % 977);
              const item = `item-${serial++}`;
              if (step.kind === 'filter') {
                const scheme = (['xxh64', 'poly', 'bytesum', 'sbbf'] as const)[step.pick % 4];
                const f = scheme === 'sbbf'
                  ? new BloomFilter(Math.ceil(bits / 256) * 256, 8, { scheme })
                  : new BloomFilter(bits, 1 + (step.pick % 7), { scheme });
                f.add(item);
                live.push({ kind: 'filter', f, item });
              } else if (step.kind === 'counting') {
                const f = new CountingBloomFilter(bits, 1 + (step.pick % 5));
                f.add(item);
                live.push({ kind: 'counting', f, item });
              } else {
                const f = new Bitmap(bits);
                const value = step.pick % bits;
                f.set(value);
                live.push({ kind: 'bitmap', f, value });
              }
            } else if (live.length > 0) {
              const [gone] = live.splice(step.pick % live.length, 1);
              // Dropped objects are given back by the garbage collector, which
              // this process cannot run: test/release.test.ts drops them in a
              // child with --expose-gc.
              gone.f.dispose();
            }
            peakLive = Math.max(peakLive, live.reduce((sum, l) => sum + payload(l), 0));
          }
          checkNoOverlap(live);
          checkHeaps();
          checkContents(live);
          const bytesAfter = sharedArenas().reduce((sum, a) => sum + a.memoryBytes, 0);
          // The memory a run adds is at most 1.5 times the most bits it held at once, plus one instance.
          expect(bytesAfter - bytesBefore).toBeLessThanOrEqual(1.5 * peakLive + instanceBytes);
          for (const l of live) l.f.dispose();
          checkHeaps();
        },
      ),
      { numRuns: 60, seed: 20_261_202 },
    );
  });
});
