// The file helpers move at most chunkBytes() per read or write call (Node's
// fs refuses one call of 2 GiB or more), in both directions, for filters and
// chains. A small chunk size is injected so that every boundary is crossed:
// member headers, payloads and the chain header all split mid-way.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BloomConcurrencyError, BloomFilter, ScalableBloomFilter } from '../src/index.js';
import { loadFile, loadFileSync, loadScalableFile, loadScalableFileSync, saveFile, saveFileSync } from '../src/node/index.js';
import { CHUNK_BYTES, setChunkBytes } from '../src/node/io.js';
import { ScalableBloomFilter as ReferenceScalable } from '../src/reference/index.js';

/** The length of every read and write call the helpers make, sync or async. */
const calls = vi.hoisted(() => ({ reads: [] as number[], writes: [] as number[] }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    readSync: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) => {
      calls.reads.push(length);
      return fs.readSync(fd, buffer, offset, length, position);
    },
    writeSync: (fd: number, buffer: Uint8Array, offset: number, length: number) => {
      calls.writes.push(length);
      return fs.writeSync(fd, buffer, offset, length);
    },
  };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open = async (...args: Parameters<typeof fs.open>) => {
    const handle = await fs.open(...args);
    const [read, write] = [handle.read.bind(handle), handle.write.bind(handle)];
    Object.assign(handle, {
      read: (buffer: Uint8Array, offset: number, length: number, position: number) => {
        calls.reads.push(length);
        return read(buffer, offset, length, position);
      },
      write: (buffer: Uint8Array, offset: number, length: number) => {
        calls.writes.push(length);
        return write(buffer, offset, length);
      },
    });
    return handle;
  };
  return { ...fs, open, default: { ...fs, open } };
});

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-chunks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CHUNK = 100;
let previous = CHUNK_BYTES;
beforeEach(() => {
  previous = setChunkBytes(CHUNK);
  calls.reads.length = 0;
  calls.writes.length = 0;
});
afterEach(() => {
  setChunkBytes(previous);
});

/** Five members (capacities 3 to 48), the newest half full: payloads of 4 to 82 bytes, none a multiple of 100. */
function chain(): ScalableBloomFilter {
  const c = new ScalableBloomFilter({ capacity: 3, falsePositiveRate: 0.01 });
  for (let i = 0; i < 70; i++) c.add(`chunked ${i}`);
  return c;
}

const modes = [
  { name: 'sync', save: async (f: any, p: string) => saveFileSync(f, p), load: async (p: string) => loadScalableFileSync(p), loadOne: async (p: string) => loadFileSync(p) },
  { name: 'async', save: saveFile, load: loadScalableFile, loadOne: loadFile },
] as const;

describe.each(modes)('$name, with 100-byte chunks', ({ save, load, loadOne }) => {
  it('saves a chain member by member in calls of at most 100 bytes, and loads it back the same way', async () => {
    const c = chain();
    expect(c.filters.length).toBe(5);
    const bytes = c.toBytes();
    expect(bytes.length).toBeGreaterThan(5 * CHUNK);
    const path = join(dir, `chain-${Math.random()}.blmc`);
    await save(c, path);
    expect(Math.max(...calls.writes)).toBeLessThanOrEqual(CHUNK);
    expect(calls.writes.reduce((a, b) => a + b, 0)).toBe(bytes.length);
    expect(new Uint8Array(readFileSync(path))).toEqual(bytes);

    calls.reads.length = 0;
    const back = await load(path);
    expect(Math.max(...calls.reads)).toBeLessThanOrEqual(CHUNK);
    // The chain header, each member's header, then each payload: every byte read once.
    expect(calls.reads.reduce((a, b) => a + b, 0)).toBe(bytes.length);
    expect(back.toBytes()).toEqual(bytes);
    expect(back.filters).toEqual(c.filters);
    for (let i = 0; i < 70; i++) expect(back.has(`chunked ${i}`)).toBe(true);
  });

  it('saves and loads a single filter in calls of at most 100 bytes', async () => {
    const f = new BloomFilter(8 * 1234 + 3, 4);
    for (let i = 0; i < 100; i++) f.add(`one ${i}`);
    const path = join(dir, `one-${Math.random()}.bin`);
    await save(f, path);
    expect(Math.max(...calls.writes)).toBeLessThanOrEqual(CHUNK);
    calls.reads.length = 0;
    expect((await loadOne(path)).toBytes()).toEqual(f.toBytes());
    expect(Math.max(...calls.reads)).toBeLessThanOrEqual(CHUNK);
    expect(calls.reads.length).toBeGreaterThanOrEqual(Math.ceil((56 + 1235) / CHUNK));
  });

  it("writes the reference chain's bytes in bounded calls too", async () => {
    const r = new ReferenceScalable({ capacity: 3, falsePositiveRate: 0.01 });
    for (let i = 0; i < 70; i++) r.add(`chunked ${i}`);
    const path = join(dir, `ref-${Math.random()}.blmc`);
    await save(r, path);
    expect(Math.max(...calls.writes)).toBeLessThanOrEqual(CHUNK);
    expect((await load(path)).toBytes()).toEqual(chain().toBytes());
  });
});

describe('saveFile of a chain that changes before the save settles', () => {
  it('rejects with BloomConcurrencyError and leaves the old file, whether the newest member changes or a member is added', async () => {
    for (const more of [1, 40]) {
      const c = chain();
      const path = join(dir, `changing-${more}.blmc`);
      saveFileSync(c, path);
      const before = readFileSync(path);
      const saving = saveFile(c, path);
      for (let i = 0; i < more; i++) c.add(`during ${i}`);
      await expect(saving).rejects.toBeInstanceOf(BloomConcurrencyError);
      expect(readFileSync(path).equals(before)).toBe(true);
    }
  });

  it('saves the state at the call when nothing changes', async () => {
    const c = chain();
    const path = join(dir, 'steady.blmc');
    await saveFile(c, path);
    expect(new Uint8Array(readFileSync(path))).toEqual(c.toBytes());
  });
});
