// saveFile(..., { durable: false }): the same atomic replacement, the same
// bytes, without the fsyncs of the file and of its directory. The fsyncs
// are observed through node:fs (fsyncSync) and FileHandle#sync, not timed.
import * as fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { BloomTypeError } from '../src/errors.js';
import { saveFile, saveFileSync } from '../src/node/index.js';
import { everyKind } from './helpers/kinds.js';

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, fsyncSync: vi.fn(actual.fsyncSync) };
});

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;
const fresh = () => join(mkdtempSync(join(dir, `case${serial++}-`)), 'filter.bin');

/** FileHandle's prototype, whose sync() the async save calls on the file and on its directory. */
async function fileHandlePrototype(): Promise<{ sync(): Promise<void> }> {
  const handle = await open(dir, 'r');
  await handle.close();
  return Object.getPrototypeOf(handle) as { sync(): Promise<void> };
}

afterEach(() => {
  vi.mocked(fs.fsyncSync).mockClear();
  vi.restoreAllMocks();
});

describe.each([
  ['wasm', wasm],
  ['reference', reference],
] as const)('{ durable: false } with the %s classes', (_, impl) => {
  it('writes the same bytes as a durable save, sync and async, for every kind', async () => {
    for (const [kind, f] of Object.entries(everyKind(impl))) {
      const durable = fresh();
      const fast = fresh();
      const fastAsync = fresh();
      saveFileSync(f, durable);
      saveFileSync(f, fast, { durable: false });
      await saveFile(f, fastAsync, { durable: false });
      expect(new Uint8Array(readFileSync(fast)), kind).toEqual(new Uint8Array(readFileSync(durable)));
      expect(new Uint8Array(readFileSync(fastAsync)), kind).toEqual(f.toBytes());
    }
  });
});

describe('the fsyncs', () => {
  const filter = wasm.BloomFilter.forCapacity(1000, 0.01);
  filter.add('x');

  it('saveFileSync fsyncs the file and its directory by default, and neither with { durable: false }', () => {
    const fsync = vi.mocked(fs.fsyncSync);
    saveFileSync(filter, fresh());
    saveFileSync(filter, fresh(), { durable: true });
    expect(fsync).toHaveBeenCalledTimes(4);
    fsync.mockClear();
    const path = fresh();
    saveFileSync(filter, path, { durable: false });
    saveFileSync(filter, path, { durable: false }); // a replacement too
    expect(fsync).not.toHaveBeenCalled();
    expect(new Uint8Array(readFileSync(path))).toEqual(filter.toBytes());
  });

  it('saveFile syncs the file and its directory by default, and neither with { durable: false }', async () => {
    const sync = vi.spyOn(await fileHandlePrototype(), 'sync');
    await saveFile(filter, fresh());
    expect(sync).toHaveBeenCalledTimes(2);
    sync.mockClear();
    const path = fresh();
    await saveFile(filter, path, { durable: false });
    await saveFile(filter, path, { durable: false });
    expect(sync).not.toHaveBeenCalled();
    expect(vi.mocked(fs.fsyncSync)).not.toHaveBeenCalled();
  });

  it('leaves no temporary file behind without the fsyncs', async () => {
    const path = fresh();
    saveFileSync(filter, path, { durable: false });
    await saveFile(filter, path, { durable: false });
    expect(readdirSync(join(path, '..'))).toEqual(['filter.bin']);
  });
});

describe('bad options', () => {
  const filter = wasm.BloomFilter.forCapacity(100, 0.01);

  it.each([['yes'], [0], [null], [1n]])('refuse durable: %s with BloomTypeError naming durable, writing nothing', async (durable) => {
    const path = fresh();
    expect(() => saveFileSync(filter, path, { durable } as never)).toThrow(BloomTypeError);
    expect(() => saveFileSync(filter, path, { durable } as never)).toThrow(/^durable must be a boolean \(false skips the fsyncs\); got /);
    await expect(saveFile(filter, path, { durable } as never)).rejects.toThrow(/^durable must be a boolean/);
    expect(readdirSync(join(path, '..'))).toEqual([]);
  });

  it('refuses options that are not an object with BloomTypeError naming options', async () => {
    expect(() => saveFileSync(filter, fresh(), false as never)).toThrow(/^options must be an object \{ durable\?: boolean \}; got false/);
    await expect(saveFile(filter, fresh(), [] as never)).rejects.toThrow(BloomTypeError);
  });

  it('reads durable once, through a getter', () => {
    let reads = 0;
    const options = {
      get durable() {
        reads++;
        return false;
      },
    };
    saveFileSync(filter, fresh(), options);
    expect(reads).toBe(1);
  });
});
