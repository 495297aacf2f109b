// The shared filter in one thread: share() and attach(), the handle, the
// parity of the shared builds (wasm and reference) with the plain filters,
// and the errors. The threads themselves are in test/shared-workers.test.ts.
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BloomAllocationError, BloomFilter, BloomTypeError, digest, loadSharedMemory, probeAll, SCHEMES, ScalableBloomFilter, type Scheme,
} from '../src/index.js';
import { BloomFilter as ReferenceFilter, ScalableBloomFilter as ReferenceScalable } from '../src/reference/index.js';
import { engineOf } from '../src/filter/filter.js';
import { wasmLines } from '../src/wasm/lines.js';
import { SHARED_ABI } from '../src/wasm/abi.js';
import { compiledSharedModule } from '../src/wasm/module.js';
import { sharedLayout } from '../src/wasm/shared-memory.js';

// The shared-memory build loads on first use (src/wasm/shared-build.ts).
await loadSharedMemory();

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

const item = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 12 }), fc.uint8Array({ maxLength: 40 }));

describe.each(SCHEMES.map((scheme) => [scheme]))('shared filter parity (%s)', (scheme: Scheme) => {
  it('sets the same bits and reports the same answers as the plain filter and the reference twin, shared or not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 16 }), fc.array(item, { maxLength: 60 }), (size, kk, items) => {
        // sbbf takes whole 256-bit blocks and exactly 8 hashes.
        const [m, k] = scheme === 'sbbf' ? [256 * Math.ceil(size / 256), 8] : [size, kk];
        if (scheme === 'xxh64' && k > m) return;
        const filters = [
          new BloomFilter(m, k, { scheme }),
          new BloomFilter(m, k, { scheme, shared: true }),
          new ReferenceFilter(m, k, { scheme }),
          new ReferenceFilter(m, k, { scheme, shared: true }),
        ];
        // Half the items one at a time, the rest as a batch, then test them all.
        const half = items.length >> 1;
        const added = filters.map((f) => [...items.slice(0, half).map((it) => (f.add(it) ? 1 : 0)), ...f.addMany(items.slice(half))]);
        for (const a of added.slice(1)) expect(a).toEqual(added[0]);
        const bits = filters.map((f) => f.bitArray());
        for (const b of bits.slice(1)) expect(same(b, bits[0])).toBe(true);
        for (const f of filters.slice(1)) {
          expect(f.bitsSet()).toBe(filters[0].bitsSet());
          expect(f.size).toBe(filters[0].size);
          expect(f.hasMany(items)).toEqual(filters[0].hasMany(items));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('attached filters in one thread see each other and end with the bits of one filter', () => {
    const [m, k] = scheme === 'sbbf' ? [20_480, 8] : [20_000, 5];
    const owner = new BloomFilter(m, k, { scheme, shared: true });
    const other = BloomFilter.attach(owner.share());
    const twin = ReferenceFilter.attach(new ReferenceFilter(m, k, { scheme, shared: true }).share());
    const plain = new BloomFilter(m, k, { scheme });
    for (let i = 0; i < 500; i++) {
      const it = `item ${i}`;
      expect(i % 2 === 0 ? owner.add(it) : other.add(it)).toBe(plain.add(it));
      twin.add(it);
      expect(owner.has(it) && other.has(it)).toBe(true);
    }
    expect(same(owner.bitArray(), plain.bitArray())).toBe(true);
    expect(same(twin.bitArray(), plain.bitArray())).toBe(true);
    expect([owner.bitsSet(), other.bitsSet(), twin.bitsSet()]).toEqual([plain.bitsSet(), plain.bitsSet(), plain.bitsSet()]);
    expect([owner.size, other.size, twin.size]).toEqual([plain.size, plain.size, plain.size]);
  });
});

describe('the shared build', () => {
  it('exports exactly SHARED_ABI, with the parameter counts listed', () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 4, shared: true });
    const workArea = new WebAssembly.Global({ value: 'i32', mutable: false }, 0);
    const built = WebAssembly.Module.exports(compiledSharedModule()).map(({ name, kind }) => `${name}:${kind}`).sort();
    expect(built).toEqual(Object.entries(SHARED_ABI).map(([name, e]) => `${name}:${e.kind}`).sort());
    const exports = new WebAssembly.Instance(compiledSharedModule(), { env: { memory, workArea, now: () => performance.now() } }).exports;
    for (const [name, entry] of Object.entries(SHARED_ABI)) {
      if (entry.kind === 'function') expect([name, (exports[name] as () => unknown).length]).toEqual([name, entry.params]);
    }
    expect(WebAssembly.Module.imports(compiledSharedModule()).map(({ module, name, kind }) => `${module}.${name}:${kind}`).sort())
      .toEqual(['env.memory:memory', 'env.now:function', 'env.workArea:global']);
  });
});

describe('stripe locks', () => {
  it('are taken over from a holder that never lets go (a worker terminated mid-add), after a second of it, so adds go on', () => {
    const filter = new BloomFilter(10_000, 7, { shared: true });
    const { memory } = filter.share();
    // Every lock word held by token 9999, as if its thread had died holding them all.
    const words = new Int32Array(memory.buffer, sharedLayout().headerPtr + 2048, 4096);
    words.fill(9999);
    let started = performance.now();
    expect(filter.add('after the holder died')).toBe(true);
    // The holder was watched for a second of wall time before the word was taken over.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    expect(filter.addMany(['one more', 'after the holder died'])).toEqual(new Uint8Array([1, 0]));
    // Taken over, then freed: the words of the two new items are 0 again (the
    // repeat, all of whose bits were set, took no lock).
    expect(words.filter((w) => w === 0).length).toBe(2);
    const twin = new ReferenceFilter(10_000, 7, { shared: true });
    new Int32Array(twin.share().buffer, 64, 4096).fill(9999);
    started = performance.now();
    expect(twin.add('after the holder died')).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    expect(twin.add('after the holder died')).toBe(false);
  });

  it('are not taken over from a holder that is only slow: an add waits out a word held for 300 ms, far past 2^24 reads', async () => {
    const { Worker } = await import('node:worker_threads');
    for (const make of [
      () => {
        const filter = new BloomFilter(10_000, 7, { shared: true });
        return { filter, words: new Int32Array(filter.share().memory.buffer, sharedLayout().headerPtr + 2048, 4096) };
      },
      () => {
        const filter = new ReferenceFilter(10_000, 7, { shared: true });
        return { filter, words: new Int32Array(filter.share().buffer, 64, 4096) };
      },
    ]) {
      const { filter, words } = make();
      // Another thread holds every word (token 9999), as a descheduled adder would,
      // and lets go after 300 ms; the main thread waits until that thread runs.
      words.fill(9999);
      const ready = new Int32Array(new SharedArrayBuffer(4));
      const holder = new Worker(
        `const { workerData: { words, ready } } = require('node:worker_threads');
         Atomics.store(ready, 0, 1); Atomics.notify(ready, 0);
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
         for (let i = 0; i < words.length; i++) Atomics.compareExchange(words, i, 9999, 0);`,
        { eval: true, workerData: { words, ready } },
      );
      Atomics.wait(ready, 0, 0, 10_000);
      const started = performance.now();
      expect(filter.add('waits for the holder')).toBe(true);
      const waited = performance.now() - started;
      await new Promise((resolve) => holder.on('exit', resolve));
      // It waited for the holder (a count of 2^24 reads gave up after tens of ms)
      // and did not take the word over (that needs a second of the same holder).
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(1000);
      // The holder freed every word it held: none was taken from it.
      expect(words.every((w) => w === 0)).toBe(true);
    }
  });
});

describe('share()', () => {
  it('moves the bits and counters of a filter that is not shared into shared memory, once', () => {
    for (const Filter of [BloomFilter, ReferenceFilter]) {
      const filter = new Filter(10_000, 7);
      filter.addMany(['a', 'b', 'c']);
      const before = filter.bitArray();
      expect(filter.shared).toBe(false);
      const handle = filter.share();
      expect(filter.shared).toBe(true);
      expect(same(filter.bitArray(), before)).toBe(true);
      expect([filter.bitsSet(), filter.size]).toEqual([21, 3]);
      expect(filter.has('b')).toBe(true);
      const again = filter.share();
      expect('memory' in again ? again.memory : again.buffer).toBe('memory' in handle ? handle.memory : handle.buffer);
    }
  });

  it('gives a handle that survives structured cloning, with its parameters', () => {
    const filter = new BloomFilter(4096, 3, { seed: 42n, shared: true });
    filter.add('before');
    const handle = structuredClone(filter.share());
    expect(handle).toMatchObject({ kind: 'bloomwasm.SharedFilter', version: 1, bits: 4096, hashes: 3, scheme: 'xxh64', seed: 42n });
    const attached = BloomFilter.attach(handle);
    expect(attached.has('before')).toBe(true);
    attached.add('after');
    expect(filter.has('after')).toBe(true);
    expect(attached.shared).toBe(true);
    const twin = new ReferenceFilter(4096, 3, { seed: 42n, shared: true });
    twin.add('x');
    expect(ReferenceFilter.attach(structuredClone(twin.share())).has('x')).toBe(true);
  });

  it('takes digests (addDigest, hasDigest, addMany of digests through probeAll) like the plain filter', () => {
    for (const [scheme, m, k] of [['xxh64', 50_000, 7], ['sbbf', 51_200, 8]] as const) {
      const shared = new BloomFilter(m, k, { scheme, shared: true });
      const attached = BloomFilter.attach(shared.share());
      const plain = new BloomFilter(m, k, { scheme });
      for (let i = 0; i < 300; i++) {
        const d = digest(`key ${i}`);
        expect((i % 2 ? attached : shared).addDigest(d)).toBe(plain.addDigest(d));
      }
      expect(same(shared.bitArray(), plain.bitArray())).toBe(true);
      expect([shared.bitsSet(), shared.size]).toEqual([plain.bitsSet(), plain.size]);
      expect(attached.hasDigest(digest('key 7'))).toBe(true);
      expect(Array.from(probeAll([shared, plain, attached], 'key 5'))).toEqual([1, 1, 1]);
      expect(Array.from(probeAll([shared, plain, attached], 'no such key'))).toEqual(Array.from(probeAll([plain, plain, plain], 'no such key')));
    }
    // probeAll on a filter before share() moved its bits, then after: it reads the new memory.
    const later = new BloomFilter(10_000, 7);
    expect(Array.from(probeAll([later], 'added in another view'))).toEqual([0]);
    BloomFilter.attach(later.share()).add('added in another view');
    expect(Array.from(probeAll([later], 'added in another view'))).toEqual([1]);
  });

  it('keeps the other operations working: toBytes, fromBytes, clone (not shared), union and intersect into a shared filter', () => {
    const shared = new BloomFilter(3000, 4, { shared: true });
    const plain = new BloomFilter(3000, 4);
    for (const f of [shared, plain]) f.addMany(['one', 'two', 'three']);
    expect(same(shared.toBytes(), plain.toBytes())).toBe(true);
    expect(BloomFilter.fromBytes(shared.toBytes()).has('two')).toBe(true);
    const copy = shared.clone();
    expect(copy.shared).toBe(false);
    copy.add('four');
    expect(shared.has('four')).toBe(false);
    const more = new BloomFilter(3000, 4);
    more.addMany(['four', 'five']);
    shared.union(more);
    plain.union(more);
    expect(same(shared.toBytes(), plain.toBytes())).toBe(true);
    const attached = BloomFilter.attach(shared.share());
    expect(attached.has('five')).toBe(true);
    shared.intersect(more);
    plain.intersect(more);
    expect(same(attached.bitArray(), plain.bitArray())).toBe(true);
    expect(attached.bitsSet()).toBe(plain.bitsSet());
    attached.clear();
    expect([shared.bitsSet(), shared.size, shared.has('five')]).toEqual([0, 0, false]);
  });
});

describe('errors', () => {
  it('refuses a shared option that is not a boolean', () => {
    for (const Filter of [BloomFilter, ReferenceFilter]) {
      expect(() => new Filter(100, 3, { shared: 'yes' as unknown as boolean })).toThrow(BloomTypeError);
      expect(() => new Filter(100, 3, { shared: 1 as unknown as boolean })).toThrow(/shared must be a boolean; got 1/);
    }
  });

  it('refuses handles that are not one, naming the field', () => {
    const good = new BloomFilter(1000, 3, { shared: true }).share();
    const cases: Array<[unknown, RegExp]> = [
      [null, /^handle must be a handle from BloomFilter.share\(\); got null/],
      [{ ...good, kind: 'other' }, /^handle.kind must be "bloomwasm.SharedFilter"/],
      [{ ...good, version: 2 }, /^handle.version must be 1/],
      [{ ...good, memory: new WebAssembly.Memory({ initial: 1 }) }, /^handle.memory must be a shared WebAssembly.Memory/],
      [{ ...good, memory: new ArrayBuffer(8) }, /^handle.memory must be a shared WebAssembly.Memory/],
      [{ ...good, bits: 1e9 }, /^handle.memory must be a shared memory that holds 1000000000 bits/],
      [{ ...good, hashes: 0 }, /^hashes must be an integer in \[1, 64\]; got 0/],
      [new ReferenceFilter(1000, 3).share(), /^handle.kind must be "bloomwasm.SharedFilter"/],
    ];
    for (const [handle, message] of cases) {
      expect(() => BloomFilter.attach(handle as never)).toThrow(message);
    }
    expect(() => ReferenceFilter.attach(good as never)).toThrow(/^handle.kind must be "bloomwasm\/reference.SharedFilter"/);
    const twin = new ReferenceFilter(1000, 3).share();
    expect(() => ReferenceFilter.attach({ ...twin, buffer: new SharedArrayBuffer(8) })).toThrow(/^handle.buffer must be a SharedArrayBuffer of at least 16576 bytes/);
  });

  it('throws BloomAllocationError once the shared memory holds its maximum of work areas, and the filters already attached still work', () => {
    const owner = new BloomFilter(1000, 3, { shared: true });
    const handle = owner.share();
    const attached: BloomFilter[] = [];
    let error: unknown;
    try {
      for (;;) attached.push(BloomFilter.attach(handle));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BloomAllocationError);
    expect(String(error)).toMatch(/at its maximum of work areas \(256 threads attached at once\)/);
    expect(attached.length).toBe(255);
    attached[254].add('last');
    expect(owner.has('last')).toBe(true);
  });

  it('gives work areas back when attached filters are collected, so attaching never runs out (dist/, with --expose-gc)', () => {
    const script = `
      import { BloomFilter, loadSharedMemory } from ${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)};
      await loadSharedMemory();
      const owner = new BloomFilter(1000, 3, { shared: true });
      const handle = owner.share();
      const before = handle.memory.buffer.byteLength;
      for (let round = 0; round < 10; round++) {
        for (let i = 0; i < 150; i++) BloomFilter.attach(handle).add('item ' + round + ' ' + i);
        globalThis.gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      console.log(JSON.stringify({ has: owner.has('item 9 149'), areas: (handle.memory.buffer.byteLength - before) / 131072 }));
    `;
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const { has, areas } = JSON.parse(out);
    expect(has).toBe(true);
    // 1,500 attaches in rounds of 150; without reuse the 256th would throw.
    expect(areas).toBeGreaterThanOrEqual(150);
    expect(areas).toBeLessThan(256);
  });

  it('refuses a shared ScalableBloomFilter (its members are separate instances)', () => {
    for (const lib of [{ ScalableBloomFilter }, { ScalableBloomFilter: ReferenceScalable }]) {
      const options = { capacity: 100, falsePositiveRate: 0.01, shared: true } as never;
      expect(() => new lib.ScalableBloomFilter(options)).toThrow(/^shared must be false or absent: a ScalableBloomFilter cannot be shared between threads; got true/);
    }
  });

  it('refuses line dedupe (bloom dedupe) over a shared filter', () => {
    const filter = new BloomFilter(1000, 3, { shared: true });
    expect(() => wasmLines(engineOf(filter), false)).toThrow(/filter must be a filter that is not shared/);
  });
});
