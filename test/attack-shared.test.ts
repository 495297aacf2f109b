// Attacks on share()/attach() with forged handles: fields changed after
// share(), memories that no share() made, free work-area tables holding
// pages that overlap the bits or lie past the memory; each must be a
// BloomTypeError naming the field, never a RangeError from deep inside or a
// filter that reads the bits under other parameters. And claims: every
// attached filter in one thread has a work area of its own.
import { describe, expect, it } from 'vitest';
import { BloomFilter, BloomTypeError, loadSharedMemory } from '../src/index.js';
import { BloomFilter as ReferenceFilter } from '../src/reference/index.js';
import { sharedLayout } from '../src/wasm/shared-memory.js';
import { mulberry32 } from '../src/cli/mulberry32.js';

// The shared-memory build loads on first use (src/wasm/shared-build.ts).
await loadSharedMemory();

describe('attach with forged handles (wasm)', () => {
  it('refuses a handle whose bits, hashes, scheme or seed differ from the filter its memory holds', () => {
    const owner = new BloomFilter(10_000, 5, { seed: 7n });
    owner.add('present');
    const good = owner.share();
    expect(BloomFilter.attach(good).has('present')).toBe(true);
    const cases: Array<[object, RegExp]> = [
      [{ ...good, bits: 9_000 }, /^handle\.bits must be 10000, the bits of the filter that handle\.memory holds; got 9000/],
      [{ ...good, hashes: 3 }, /^handle\.hashes must be 5, the hashes of the filter that handle\.memory holds; got 3/],
      [{ ...good, scheme: 'poly', seed: 0n }, /^handle\.scheme must be "xxh64", the scheme of the filter that handle\.memory holds; got "poly"/],
      [{ ...good, seed: 8n }, /^handle\.seed must be 7n, the seed of the filter that handle\.memory holds; got 8n/],
    ];
    for (const [handle, message] of cases) {
      expect(() => BloomFilter.attach(handle as never)).toThrow(BloomTypeError);
      expect(() => BloomFilter.attach(handle as never)).toThrow(message);
    }
    const blocked = new BloomFilter(256 * 8, 8, { scheme: 'sbbf', shared: true }).share();
    expect(() => BloomFilter.attach({ ...blocked, scheme: 'xxh64' } as never)).toThrow(/^handle\.scheme must be "sbbf"/);
  });

  it('keeps its filter record through clear, union, intersect, batches and digests, so later attaches succeed', () => {
    for (const scheme of ['xxh64', 'sbbf'] as const) {
      const bits = scheme === 'sbbf' ? 256 * 40 : 10_000;
      const hashes = scheme === 'sbbf' ? 8 : 6;
      const owner = new BloomFilter(bits, hashes, { scheme, seed: 3n, shared: true });
      const other = new BloomFilter(bits, hashes, { scheme, seed: 3n });
      other.addMany(Array.from({ length: 500 }, (_, i) => `o${i}`));
      owner.addMany(Array.from({ length: 500 }, (_, i) => `s${i}`));
      owner.union(other);
      owner.intersect(other);
      owner.clear();
      owner.add('after');
      const handle = owner.share();
      const attached = BloomFilter.attach(handle);
      expect(attached.has('after')).toBe(true);
      expect(BloomFilter.attach(structuredClone(handle)).bitArray()).toEqual(owner.bitArray());
    }
  });

  it('refuses a shared memory that no share() made, whatever its size', () => {
    const handle = { kind: 'bloomwasm.SharedFilter', version: 1, bits: 1000, hashes: 5, scheme: 'xxh64', seed: 0n } as const;
    for (const pages of [1, 4, 100]) {
      const memory = new WebAssembly.Memory({ initial: pages, maximum: 200, shared: true });
      expect(() => BloomFilter.attach({ ...handle, memory })).toThrow(/^handle\.memory must be the shared memory of a filter from share\(\)/);
    }
  });

  it('refuses free work-area table entries that overlap the header or bits or lie past the memory, and takes none of them', () => {
    const { headerPtr, bitsPtr } = sharedLayout();
    const r = mulberry32(3);
    for (const bad of [1, -5, 0x7fffffff, 150, 2 ** 16]) {
      const owner = new BloomFilter(2 ** 20, 5, { shared: true });
      owner.add('a');
      const handle = owner.share();
      const table = new Int32Array(handle.memory.buffer, headerPtr + 64, 256);
      const bitsEnd = Math.ceil((bitsPtr + 2 ** 17) / 65536);
      // A legal entry would be bitsEnd + i * workAreaPages; 1 lies in the bits.
      expect(bitsEnd).toBeGreaterThan(1);
      table[Math.floor(r() * 256)] = bad;
      const before = table.slice();
      expect(() => BloomFilter.attach(handle)).toThrow(BloomTypeError);
      expect(() => BloomFilter.attach(handle)).toThrow(/^handle\.memory must be a shared memory from BloomFilter\.share\(\)/);
      expect(table).toEqual(before);
      expect(owner.has('a')).toBe(true);
      expect(owner.bitsSet()).toBe(5);
    }
  });

  it('gives each of many attached filters its own work area: batches through all of them interleaved stay exact', () => {
    const owner = new BloomFilter(200_000, 7, { shared: true });
    const handle = owner.share();
    const attached = Array.from({ length: 20 }, () => BloomFilter.attach(handle));
    const plain = new BloomFilter(200_000, 7);
    for (let round = 0; round < 20; round++) {
      const items = Array.from({ length: 300 }, (_, i) => `r${round} i${i} ${'x'.repeat(i % 40)}`);
      const f = attached[(round * 7) % 20];
      const g = attached[(round * 7 + 3) % 20];
      expect(f.addMany(items)).toEqual(plain.addMany(items));
      expect(g.hasMany(items).every((v) => v === 1)).toBe(true);
    }
    expect(owner.bitArray()).toEqual(plain.bitArray());
    expect(owner.bitsSet()).toBe(plain.bitsSet());
  });
});

describe('shared filters whose work areas lie past 2 GiB', () => {
  // The memory is reserved, not touched: its pages cost nothing until written.
  it('work (add, has, batches, attach) instead of throwing a RangeError on a negative pointer', () => {
    for (const [bits, scheme, hashes] of [[2 ** 34, 'xxh64', 3], [2 ** 34 + 256 * 1000, 'sbbf', 8]] as const) {
      const owner = new BloomFilter(bits, hashes, { scheme, shared: true });
      owner.add('far');
      expect(owner.has('far')).toBe(true);
      expect(owner.addMany(['a', 'b', 'far'])).toEqual(Uint8Array.of(1, 1, 0));
      const attached = BloomFilter.attach(owner.share());
      expect(attached.hasMany(['a', 'b', 'far', 'never'])).toEqual(Uint8Array.of(1, 1, 1, 0));
      attached.add('back');
      expect(owner.has('back')).toBe(true);
      expect(owner.bitsSet()).toBe(4 * hashes);
    }
  });
});

describe('attach with forged handles (reference)', () => {
  it('refuses a handle whose fields differ from the filter its buffer holds, and a buffer no share() made', () => {
    const owner = new ReferenceFilter(10_000, 5, { seed: 7n });
    owner.add('present');
    const good = owner.share();
    expect(ReferenceFilter.attach(good).has('present')).toBe(true);
    expect(() => ReferenceFilter.attach({ ...good, bits: 9_000 })).toThrow(/^handle\.bits must be 10000, the bits of the filter that handle\.buffer holds; got 9000/);
    expect(() => ReferenceFilter.attach({ ...good, hashes: 3 })).toThrow(/^handle\.hashes must be 5/);
    expect(() => ReferenceFilter.attach({ ...good, seed: 1n })).toThrow(/^handle\.seed must be 7n/);
    expect(() => ReferenceFilter.attach({ ...good, buffer: new SharedArrayBuffer(good.buffer.byteLength) })).toThrow(
      /^handle\.buffer must be the shared memory of a filter from share\(\)/,
    );
  });
});
