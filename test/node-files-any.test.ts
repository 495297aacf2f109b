// loadFile and loadFileSync read every kind the package writes, told apart
// by the magic, into that kind's wasm class; given a class, the file must
// hold that kind, and the result is typed as it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { loadFile, loadFileSync, saveFileSync, type FileFilter } from '../src/node/index.js';
import { everyKind } from './helpers/kinds.js';

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-any-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;
const fresh = () => join(dir, `file-${serial++}.bin`);

const CLASSES = {
  filter: wasm.BloomFilter,
  chain: wasm.ScalableBloomFilter,
  counting: wasm.CountingBloomFilter,
  sliding: wasm.SlidingBloomFilter,
  cuckoo: wasm.CuckooFilter,
  fuse: wasm.BinaryFuseFilter,
};

describe.each([
  ['wasm', wasm],
  ['reference', reference],
] as const)('files saved from the %s classes', (_, impl) => {
  it('load as their own kind, sync and async, without naming it, byte for byte', async () => {
    for (const [kind, f] of Object.entries(everyKind(impl))) {
      const path = fresh();
      saveFileSync(f, path);
      const Class = CLASSES[kind as keyof typeof CLASSES];
      for (const loaded of [loadFileSync(path), await loadFile(path)]) {
        expect(loaded, kind).toBeInstanceOf(Class);
        expect(loaded.toBytes(), kind).toEqual(f.toBytes());
      }
    }
  });

  it('load as the kind named, and refuse any other naming both kinds', async () => {
    const filters = everyKind(impl, 20);
    for (const [kind, f] of Object.entries(filters)) {
      const path = fresh();
      saveFileSync(f, path);
      for (const [other, Other] of Object.entries(CLASSES)) {
        if (other === kind) {
          expect(loadFileSync(path, Other).toBytes()).toEqual(f.toBytes());
          expect((await loadFile(path, Other)).toBytes()).toEqual(f.toBytes());
          continue;
        }
        const message = `invalid bloomwasm filter data: magic at byte 0: this holds a ${CLASSES[kind as keyof typeof CLASSES].name} (`;
        expect(() => loadFileSync(path, Other)).toThrow(wasm.BloomFormatError);
        expect(() => loadFileSync(path, Other)).toThrow(message);
        expect(() => loadFileSync(path, Other)).toThrow(`), not the ${Other.name} asked for`);
        await expect(loadFile(path, Other)).rejects.toMatchObject({ field: 'magic', offset: 0 });
      }
    }
  });
});

describe('loadFile', () => {
  it('is typed: a union without a class, the class named with one', () => {
    const path = fresh();
    saveFileSync(wasm.CuckooFilter.forCapacity(100, 0.01), path);
    expectTypeOf(loadFileSync(path)).toEqualTypeOf<FileFilter>();
    expectTypeOf(loadFileSync(path, wasm.CuckooFilter)).toEqualTypeOf<wasm.CuckooFilter>();
    const wrongKind = loadFile(path, wasm.SlidingBloomFilter);
    wrongKind.catch(() => undefined);
    expectTypeOf(wrongKind).toEqualTypeOf<Promise<wasm.SlidingBloomFilter>>();
    expectTypeOf(loadFile(path)).toEqualTypeOf<Promise<wasm.BloomFilter | wasm.ScalableBloomFilter | wasm.CountingBloomFilter | wasm.SlidingBloomFilter | wasm.CuckooFilter | wasm.BinaryFuseFilter>>();
    const cuckoo: wasm.CuckooFilter = loadFileSync(path, wasm.CuckooFilter);
    expect(cuckoo.capacity).toBe(100);
  });

  it('passes the clock to a time-window sliding filter, with or without the class', async () => {
    let now = 10_000;
    const clock = () => now;
    const f = new wasm.SlidingBloomFilter({ windowMs: 1000, capacity: 100, falsePositiveRate: 0.01, clock });
    f.add('a');
    const path = fresh();
    saveFileSync(f, path);
    const loaded = [loadFileSync(path, { clock }), await loadFile(path, { clock }), loadFileSync(path, wasm.SlidingBloomFilter, { clock }), await loadFile(path, wasm.SlidingBloomFilter, { clock })];
    for (const g of loaded) expect((g as wasm.SlidingBloomFilter).has('a')).toBe(true);
    now += 5000;
    for (const g of loaded) expect((g as wasm.SlidingBloomFilter).has('a')).toBe(false);
    // A clock given for another kind is checked and not read.
    const plain = fresh();
    saveFileSync(wasm.BloomFilter.forCapacity(10, 0.1), plain);
    expect(loadFileSync(plain, { clock: () => { throw new Error('read'); } })).toBeInstanceOf(wasm.BloomFilter);
    expect(() => loadFileSync(plain, { clock: 5 as never })).toThrow('clock must be a function returning milliseconds; got 5');
  });

  it('refuses a class it cannot load into, naming kind', async () => {
    const path = fresh();
    saveFileSync(wasm.BloomFilter.forCapacity(10, 0.1), path);
    for (const kind of [reference.BloomFilter, wasm.Bitmap, Date]) {
      expect(() => loadFileSync(path, kind as never)).toThrow(wasm.BloomTypeError);
      expect(() => loadFileSync(path, kind as never)).toThrow(/^kind must be one of bloomwasm's classes BloomFilter, ScalableBloomFilter, CountingBloomFilter, SlidingBloomFilter, CuckooFilter, BinaryFuseFilter; got (class|function) /);
      await expect(loadFile(path, kind as never)).rejects.toThrow(wasm.BloomTypeError);
    }
    expect(() => loadFileSync(path, {} as never, {})).toThrow(/^kind must be one of bloomwasm's filter classes when options follow it; got /);
  });

  it('refuses a file of no known kind, or too short for a magic, naming magic', async () => {
    const path = fresh();
    writeFileSync(path, 'BLMX and more');
    const known = '"BLMW", "BLMC", "BLM4", "BLMS", "BLMK", "BLMF"';
    expect(() => loadFileSync(path)).toThrow(`invalid bloomwasm filter data: magic at byte 0: not a bloomwasm file: it must start with one of ${known}; got 42 4c 4d 58`);
    await expect(loadFile(path, wasm.BloomFilter)).rejects.toThrow('not a bloomwasm file: it must start with one of');
    for (const bytes of ['', 'BL']) {
      writeFileSync(path, bytes);
      expect(() => loadFileSync(path)).toThrow(`magic at byte 0: not a bloomwasm file: it must start with one of ${known}; got ${bytes.length} bytes`);
      await expect(loadFile(path)).rejects.toMatchObject({ field: 'magic', offset: 0 });
    }
  });
});
