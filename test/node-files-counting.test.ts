// bloomwasm/node with a CountingBloomFilter: saveFile streams its counters
// from wasm memory and loadFile into it, in bounded chunks, with
// the same atomic replace, kept mode and followed links as a plain filter.
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { calls, chunkedRoundTrip, withChunkBytes } from './helpers/recorded-io.js';
import { BloomConcurrencyError, BloomFilter, BloomFormatError, CountingBloomFilter, MAX_COUNTING_BITS } from '../src/index.js';
import { loadFile, loadFileSync, saveFile, saveFileSync } from '../src/node/index.js';
import { inspectFileSync } from '../src/node/inspect.js';
import { setChunkBytes } from '../src/node/io.js';
import { checksum } from '../src/reference/checksum.js';
import { CountingBloomFilter as ReferenceCounting } from '../src/reference/index.js';

vi.mock('node:fs', async (original) => (await import('./helpers/recorded-io.js')).recordFs(await original()));
vi.mock('node:fs/promises', async (original) => (await import('./helpers/recorded-io.js')).recordFsPromises(await original()));

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-counting-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;
const fresh = (name = 'counting.bin') => join(mkdtempSync(join(dir, `case${serial++}-`)), name);

const CHUNK = 100;
withChunkBytes(setChunkBytes, CHUNK);

/** 2,001 counters (1,001 payload bytes, a padding nibble): 300 items, 20 adds of one (saturating its counters), 50 removed. */
function counting(scheme: 'xxh64' | 'poly' | 'bytesum' = 'xxh64'): CountingBloomFilter {
  const f = new CountingBloomFilter(2001, 4, { scheme, seed: scheme === 'xxh64' ? 77n : 0 });
  for (let i = 0; i < 300; i++) f.add(`item ${i}`);
  for (let i = 0; i < 20; i++) f.add('hot');
  for (let i = 0; i < 50; i++) f.remove(`item ${i}`);
  return f;
}

const modes = [
  { name: 'sync', save: async (f: any, p: string) => saveFileSync(f, p), load: async (p: string) => loadFileSync(p, CountingBloomFilter) },
  { name: 'async', save: saveFile, load: (p: string) => loadFile(p, CountingBloomFilter) },
] as const;

describe.each(modes)('$name, with 100-byte chunks', ({ save, load }) => {
  it.each(['xxh64', 'poly', 'bytesum'] as const)('round-trips a %s counting filter in calls of at most 100 bytes; the file is toBytes()', async (scheme) => {
    const f = counting(scheme);
    expect(f.saturatedCount()).toBeGreaterThan(0);
    const bytes = f.toBytes();
    expect(bytes.length).toBe(56 + 1001);
    const path = fresh();
    // The header, then the counters.
    const back = await chunkedRoundTrip(() => save(f, path), () => load(path), () => new Uint8Array(readFileSync(path)), bytes, CHUNK);
    expect(back).toBeInstanceOf(CountingBloomFilter);
    expect(back.toBytes()).toEqual(bytes);
    expect(back.counters()).toEqual(f.counters());
    expect([back.bitsSet(), back.saturatedCount(), back.size]).toEqual([f.bitsSet(), f.saturatedCount(), 270]);
    for (let i = 50; i < 300; i++) expect(back.count(`item ${i}`)).toBe(f.count(`item ${i}`));
    expect(back.count('hot')).toBe(15);
    back.remove('item 60');
    expect(back.size).toBe(269);
  });

  it('round-trips an empty filter of one counter and the golden files', async () => {
    const one = new CountingBloomFilter(1, 1);
    const path = fresh();
    await save(one, path);
    expect((await load(path)).toBytes()).toEqual(one.toBytes());
    for (const golden of ['counting-xxh64.bin', 'counting-poly.bin']) {
      const bytes = new Uint8Array(readFileSync(join(import.meta.dirname, 'golden', golden)));
      const copy = fresh();
      writeFileSync(copy, bytes);
      const back = await load(copy);
      expect(back.toBytes()).toEqual(bytes);
      await save(back, copy);
      expect(new Uint8Array(readFileSync(copy))).toEqual(bytes);
    }
  });

  it("saves the reference twin's bytes in bounded calls, and the wasm filter loads them", async () => {
    const r = new ReferenceCounting(2001, 4, { scheme: 'xxh64', seed: 77n });
    for (let i = 0; i < 300; i++) r.add(`item ${i}`);
    for (let i = 0; i < 20; i++) r.add('hot');
    for (let i = 0; i < 50; i++) r.remove(`item ${i}`);
    const path = fresh();
    await save(r, path);
    expect(Math.max(...calls.writes)).toBeLessThanOrEqual(CHUNK);
    expect((await load(path)).toBytes()).toEqual(counting().toBytes());
  });

  it('refuses a corrupt file with BloomFormatError naming the field and offset', async () => {
    const good = counting().toBytes();
    /** `bytes` with its checksum made right again, so that the later checks are reached. */
    const resealed = (bytes: Uint8Array): Uint8Array => {
      new DataView(bytes.buffer).setBigUint64(48, checksum(bytes.subarray(0, 48), bytes.subarray(56)), true);
      return bytes;
    };
    const padded = good.slice();
    padded[padded.length - 1] |= 0x10; // the padding nibble past counter 2000
    const lying = good.slice();
    new DataView(lying.buffer).setBigUint64(24, 5n, true); // bitsSet
    const cases: Array<[Uint8Array, string, number]> = [
      [new Uint8Array(0), 'magic', 0],
      [good.subarray(0, 40), 'payloadLength', 40],
      [good.subarray(0, 600), 'payload', 600],
      [new Uint8Array([...good, 0]), 'payload', 1057],
      [good.map((b, i) => (i === 700 ? b ^ 0x01 : b)), 'checksum', 48],
      [padded, 'checksum', 48],
      [resealed(padded.slice()), 'payload', 56 + 1000],
      [resealed(lying), 'bitsSet', 24],
      [new BloomFilter(100, 3).toBytes(), 'magic', 0],
    ];
    for (const [bytes, field, offset] of cases) {
      const path = fresh();
      writeFileSync(path, bytes);
      const error = await load(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BloomFormatError);
      expect(error).toMatchObject({ field, offset });
    }
  });

  it('refuses a 100-byte file claiming 2^32 counters (2 GiB) before allocating them', async () => {
    const bytes = new Uint8Array(100);
    bytes.set(new CountingBloomFilter(8, 1).toBytes().subarray(0, 56));
    const view = new DataView(bytes.buffer);
    view.setBigUint64(16, 1n << 32n, true);
    view.setBigUint64(40, 1n << 31n, true);
    view.setBigUint64(48, checksum(bytes.subarray(0, 48), bytes.subarray(56)), true);
    const path = fresh();
    writeFileSync(path, bytes);
    const before = process.memoryUsage().rss;
    await expect(load(path)).rejects.toMatchObject({ name: 'BloomFormatError', field: 'payload', offset: 100 });
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a header claiming more than MAX_COUNTING_BITS counters at its bits field, whatever the length', async () => {
    const bytes = new Uint8Array(100);
    bytes.set(new CountingBloomFilter(8, 1).toBytes().subarray(0, 56));
    new DataView(bytes.buffer).setBigUint64(16, BigInt(MAX_COUNTING_BITS + 1), true);
    const path = fresh();
    writeFileSync(path, bytes);
    await expect(load(path)).rejects.toMatchObject({
      name: 'BloomFormatError', field: 'bits', offset: 16, message: expect.stringContaining(`must be an integer in [1, ${MAX_COUNTING_BITS}] for a counting filter`),
    });
  });

  it('keeps the mode of the file it replaces, and writes through a symbolic link', async () => {
    for (const mode of [0o600, 0o640]) {
      const path = fresh();
      writeFileSync(path, 'old');
      chmodSync(path, mode);
      await save(counting(), path);
      expect(statSync(path).mode & 0o777).toBe(mode);
      expect((await load(path)).count('hot')).toBe(15);
    }
    const base = mkdtempSync(join(dir, 'link-'));
    writeFileSync(join(base, 'real.bin'), 'old');
    chmodSync(join(base, 'real.bin'), 0o600);
    symlinkSync('real.bin', join(base, 'link.bin'));
    await save(counting(), join(base, 'link.bin'));
    expect(lstatSync(join(base, 'link.bin')).isSymbolicLink()).toBe(true);
    expect(statSync(join(base, 'real.bin')).mode & 0o777).toBe(0o600);
    expect(new Uint8Array(readFileSync(join(base, 'real.bin')))).toEqual(counting().toBytes());
    expect(readdirSync(base).sort()).toEqual(['link.bin', 'real.bin']);
  });
});

describe('the wrong loader for the file', () => {
  it('loadFile(path, BloomFilter) on a counting file names both kinds', async () => {
    const path = fresh();
    saveFileSync(counting(), path);
    expect(() => loadFileSync(path, BloomFilter)).toThrow('invalid bloomwasm filter data: magic at byte 0: this holds a CountingBloomFilter ("BLM4"), not the BloomFilter asked for');
    await expect(loadFile(path, BloomFilter)).rejects.toMatchObject({ field: 'magic', offset: 0 });
    expect((await loadFile(path)).toBytes()).toEqual(counting().toBytes());
  });

  it('loadFile(path, CountingBloomFilter) on a filter file names both kinds', async () => {
    const path = fresh();
    saveFileSync(new BloomFilter(100, 3), path);
    expect(() => loadFileSync(path, CountingBloomFilter)).toThrow(BloomFormatError);
    expect(() => loadFileSync(path, CountingBloomFilter)).toThrow('magic at byte 0: this holds a BloomFilter ("BLMW"), not the CountingBloomFilter asked for');
    await expect(loadFile(path, CountingBloomFilter)).rejects.toMatchObject({ field: 'magic', offset: 0 });
  });
});

describe('saveFile of a counting filter that changes before the save settles', () => {
  it('rejects with BloomConcurrencyError and leaves the old file, whether a counter rises or falls', async () => {
    for (const change of [(f: CountingBloomFilter) => f.add('during'), (f: CountingBloomFilter) => f.remove('item 100')]) {
      const f = counting();
      const path = fresh();
      saveFileSync(f, path);
      const before = readFileSync(path);
      const saving = saveFile(f, path);
      change(f);
      await expect(saving).rejects.toBeInstanceOf(BloomConcurrencyError);
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(readdirSync(join(path, '..'))).toEqual(['counting.bin']);
    }
  });
});

describe('inspectFileSync (bloom info) on a counting file', () => {
  it.each([100, 7, 4096])('streams it in %i-byte pieces: header, counters in use and saturated counters exact', (chunk) => {
    setChunkBytes(chunk);
    const f = counting('poly');
    for (let i = 0; i < 15; i++) f.add(`warm ${i % 3}`);
    const path = fresh();
    saveFileSync(f, path);
    calls.reads.length = 0;
    const summary = inspectFileSync(path);
    expect(Math.max(...calls.reads)).toBeLessThanOrEqual(chunk);
    // Counted independently from the counters themselves: nibbles at 15 among the 2001 counters.
    const counters = f.counters();
    let full = 0;
    for (let p = 0; p < f.bits; p++) if (((counters[p >> 1] >> ((p & 1) * 4)) & 15) === 15) full++;
    expect(full).toBe(f.saturatedCount());
    expect(full).toBeGreaterThanOrEqual(4);
    expect(summary).toMatchObject({ kind: 'counting', size: 56 + 1001, saturated: full });
    expect(summary.kind === 'counting' && summary.header).toMatchObject({ bits: 2001, hashes: 4, scheme: 'poly', bitsSet: f.bitsSet(), addedCount: f.size });
  });

  it('refuses a counting file whose bitsSet disagrees with its counters, as a load does', () => {
    const bytes = counting().toBytes();
    const view = new DataView(bytes.buffer);
    view.setBigUint64(24, BigInt(counting().bitsSet() - 1), true);
    view.setBigUint64(48, checksum(bytes.subarray(0, 48), bytes.subarray(56)), true);
    const path = fresh();
    writeFileSync(path, bytes);
    expect(() => inspectFileSync(path)).toThrow(/bitsSet at byte 24: says \d+, but the payload has \d+ counters above 0/);
  });
});
