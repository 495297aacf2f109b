// The shared filter across real worker_threads: the guarantees of
// docs/SHARED.md ("Memory model"), for the wasm build and the reference
// twin, under every layout: no false negatives across threads, the bits of
// one thread, and each item reported new by exactly one worker.
import { describe, expect, it } from 'vitest';
import { BloomFilter, loadSharedMemory, type Scheme } from '../src/index.js';
import { BloomFilter as ReferenceFilter } from '../src/reference/index.js';
import { runWorkers } from './helpers/shared-workers.js';

// The shared-memory build loads on first use (src/wasm/shared-build.ts).
await loadSharedMemory();

const item = (i: number): string => `https://example.com/crawl/${i}`;
const COUNT = 100_000;

/**
 * 2^24 bits and 7 hashes for 10^5 items: the fill stays near 4%, so the
 * chance that some item's bits were all set by other items before its own
 * add (and no worker could report it new) is about 10^5 * 0.04^7 < 10^-4.
 */
const BITS = 1 << 24;

/**
 * sbbf (k = 8, one block per item) gets 2^27 bits: at 2^24 its blocks would
 * hold 1.5 items on average, and an item whose eight bits other items set
 * first would be new to no one, about ten times in 10^5.
 */
const shape = (scheme: Scheme): [number, number] => (scheme === 'sbbf' ? [1 << 27, 8] : [BITS, 7]);

/** A new filter of the scheme's test shape, shared or not. */
function make(scheme: Scheme, shared: boolean): BloomFilter {
  const [bits, hashes] = shape(scheme);
  return new BloomFilter(bits, hashes, { scheme, shared });
}

/** The single-threaded filter of the same items, to compare bits with. */
function alone(scheme: Scheme, count: number): BloomFilter {
  const filter = make(scheme, false);
  filter.addMany(Array.from({ length: count }, (_, i) => item(i)));
  return filter;
}

// bytesum (the sum-of-bytes scheme) maps most of these URLs onto the same
// positions as some other URL, so even alone most of its adds report "not
// new"; it gets the bits and no-false-negative checks, not this one.
describe.each(['xxh64', 'sbbf', 'poly'] as const)('shared filter (%s) across worker threads', (scheme) => {
  it.each([2, 3, 4])('reports every item new to exactly one of %i workers adding the same 10^5 items at once', async (workers) => {
    const filter = make(scheme, true);
    const handle = filter.share();
    const results = await runWorkers<{ fresh: Uint8Array }>(
      Array.from({ length: workers }, (_, w) => ({ handle, job: 'race' as const, first: 0, count: COUNT, worker: w, chunk: 1000 })),
    );
    const times = new Uint8Array(COUNT);
    for (const { fresh } of results) for (let i = 0; i < COUNT; i++) times[i] += fresh[i];
    const never = times.filter((t) => t === 0).length;
    const twice = times.filter((t) => t > 1).length;
    // At least once (atomic OR), and exactly once (the stripe locks).
    expect(never).toBe(0);
    expect(twice).toBe(0);
    // Two workers or more won races: the runs really overlapped. (Not every
    // one: on 2 cores under load a worker can start after the others end.)
    expect(results.filter(({ fresh }) => fresh.some((f) => f === 1)).length).toBeGreaterThanOrEqual(2);
    const single = alone(scheme, COUNT);
    expect(Buffer.from(filter.bitArray()).equals(Buffer.from(single.bitArray()))).toBe(true);
    expect(filter.bitsSet()).toBe(single.bitsSet());
    // addedCount is one shared atomic counter: every report of "new", from every worker.
    expect(filter.size).toBe(COUNT);
  });

  it('reports every item new exactly once when 4 workers add the same items in the same order, one add at a time (the worst case)', async () => {
    const filter = make(scheme, true);
    const handle = filter.share();
    const results = await runWorkers<{ fresh: Uint8Array }>(
      [0, 1, 2, 3].map((w) => ({ handle, job: 'race' as const, first: 0, count: COUNT, worker: w, chunk: 1, sameOrder: true })),
    );
    const times = new Uint8Array(COUNT);
    for (const { fresh } of results) for (let i = 0; i < COUNT; i++) times[i] += fresh[i];
    expect(times.filter((t) => t !== 1).length).toBe(0);
    expect(filter.size).toBe(COUNT);
  });

});

describe.each(['xxh64', 'sbbf', 'poly', 'bytesum'] as const)('shared filter (%s) across worker threads', (scheme) => {
  it('ends with the bits of one thread adding the same items, whatever the interleaving', async () => {
    const filter = make(scheme, true);
    const handle = filter.share();
    await runWorkers([0, 1, 2].map((w) => ({ handle, job: 'race' as const, first: 0, count: 30_000, worker: w, chunk: 700 })));
    const single = alone(scheme, 30_000);
    expect(Buffer.from(filter.bitArray()).equals(Buffer.from(single.bitArray()))).toBe(true);
    expect(filter.bitsSet()).toBe(single.bitsSet());
  });

  it('has no false negatives: a worker that starts after an add returned sees the item', async () => {
    const filter = make(scheme, true);
    const handle = filter.share();
    for (const single of [false, true]) {
      const first = single ? COUNT : 0;
      const [, reader] = await runWorkers<{ misses: number }>([
        { handle, job: 'relay', first, count: 20_000, worker: 0, chunk: 100, single },
        { handle, job: 'relay', first, count: 20_000, worker: 1, chunk: 100 },
      ]);
      expect(reader.misses).toBe(0);
    }
    // And the thread that made the filter sees what the workers added.
    const all = Array.from({ length: 20_000 }, (_, i) => item(i)).concat(Array.from({ length: 20_000 }, (_, i) => item(COUNT + i)));
    expect(filter.hasMany(all).every((f) => f === 1)).toBe(true);
  });
});

describe('reference twin shared across worker threads', () => {
  it('sets the same bits as the wasm shared filter when workers race over the same items (xxh64 and sbbf)', async () => {
    const twin = new ReferenceFilter(BITS, 7, { shared: true });
    const twinSbbf = new ReferenceFilter(BITS, 8, { scheme: 'sbbf', shared: true });
    const count = 20_000;
    const results = await runWorkers<{ fresh: Uint8Array }>(
      [0, 1, 2].map((w) => ({ handle: twin.share(), job: 'race' as const, first: 0, count, worker: w, chunk: 500 })),
    );
    const times = new Uint8Array(count);
    for (const { fresh } of results) for (let i = 0; i < count; i++) times[i] += fresh[i];
    expect(times.every((t) => t === 1)).toBe(true);
    const wasm = new BloomFilter(BITS, 7, { shared: true });
    await runWorkers([0, 1].map((w) => ({ handle: wasm.share(), job: 'race' as const, first: 0, count, worker: w, chunk: 500 })));
    expect(Buffer.from(twin.bitArray()).equals(Buffer.from(wasm.bitArray()))).toBe(true);
    expect(twin.bitsSet()).toBe(wasm.bitsSet());
    expect(twin.size).toBe(count);
    await runWorkers([0, 1].map((w) => ({ handle: twinSbbf.share(), job: 'race' as const, first: 0, count, worker: w, chunk: 500 })));
    const wasmSbbf = new BloomFilter(BITS, 8, { scheme: 'sbbf', shared: true });
    await runWorkers([0, 1, 2].map((w) => ({ handle: wasmSbbf.share(), job: 'race' as const, first: 0, count, worker: w, chunk: 500 })));
    expect(Buffer.from(twinSbbf.bitArray()).equals(Buffer.from(wasmSbbf.bitArray()))).toBe(true);
  });
});
