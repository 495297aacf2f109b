// The file helpers move at most chunkBytes() per read or write call (Node's
// fs refuses one call of 2 GiB or more), in both directions, for filters and
// chains. A small chunk size is injected so that every boundary is crossed:
// member headers, payloads and the chain header all split mid-way.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { calls, chunkedRoundTrip, withChunkBytes } from './helpers/recorded-io.js';
import { BloomConcurrencyError, BloomFilter, ScalableBloomFilter } from '../src/index.js';
import { loadFile, loadFileSync, saveFile, saveFileSync } from '../src/node/index.js';
import { setChunkBytes } from '../src/node/io.js';
import { ScalableBloomFilter as ReferenceScalable } from '../src/reference/index.js';

vi.mock('node:fs', async (original) => (await import('./helpers/recorded-io.js')).recordFs(await original()));
vi.mock('node:fs/promises', async (original) => (await import('./helpers/recorded-io.js')).recordFsPromises(await original()));

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-chunks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CHUNK = 100;
withChunkBytes(setChunkBytes, CHUNK);

/** Five members (capacities 3 to 48), the newest half full: payloads of 4 to 82 bytes, none a multiple of 100. */
function chain(): ScalableBloomFilter {
  const c = new ScalableBloomFilter({ capacity: 3, falsePositiveRate: 0.01 });
  for (let i = 0; i < 70; i++) c.add(`chunked ${i}`);
  return c;
}

const modes = [
  { name: 'sync', save: async (f: any, p: string) => saveFileSync(f, p), load: async (p: string) => loadFileSync(p, ScalableBloomFilter), loadOne: async (p: string) => loadFileSync(p, BloomFilter) },
  { name: 'async', save: saveFile, load: (p: string) => loadFile(p, ScalableBloomFilter), loadOne: (p: string) => loadFile(p, BloomFilter) },
] as const;

describe.each(modes)('$name, with 100-byte chunks', ({ save, load, loadOne }) => {
  it('saves a chain member by member in calls of at most 100 bytes, and loads it back the same way', async () => {
    const c = chain();
    expect(c.members.length).toBe(5);
    const bytes = c.toBytes();
    expect(bytes.length).toBeGreaterThan(5 * CHUNK);
    const path = join(dir, `chain-${Math.random()}.blmc`);
    // The chain header, each member's header, then each payload.
    const back = await chunkedRoundTrip(() => save(c, path), () => load(path), () => new Uint8Array(readFileSync(path)), bytes, CHUNK);
    expect(back.toBytes()).toEqual(bytes);
    expect(back.members).toEqual(c.members);
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

  it('rejects with BloomConcurrencyError and leaves the old file when clear() gives the members back', async () => {
    const c = chain();
    const path = join(dir, 'cleared.blmc');
    saveFileSync(c, path);
    const before = readFileSync(path);
    const saving = saveFile(c, path);
    c.clear();
    const error = await saving.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(BloomConcurrencyError);
    expect((error as Error).message).toMatch(/changed during saveFile/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('saves the state at the call when nothing changes', async () => {
    const c = chain();
    const path = join(dir, 'steady.blmc');
    await saveFile(c, path);
    expect(new Uint8Array(readFileSync(path))).toEqual(c.toBytes());
  });
});
