// Records the length of every read and write call that bloomwasm/node makes,
// sync or async, so a test can check that none moves more than the injected
// chunk size. Use it from vi.mock factories, which run before any import:
//
//   vi.mock('node:fs', async (original) => (await import('./helpers/recorded-io.js')).recordFs(await original()));
//   vi.mock('node:fs/promises', async (original) => (await import('./helpers/recorded-io.js')).recordFsPromises(await original()));
//
// Nothing here may import node:fs itself: the mock would load this module again.
import type * as Fs from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { afterEach, beforeEach, expect } from 'vitest';

/** The length of every read and write call since the last beforeEach. */
export const calls = { reads: [] as number[], writes: [] as number[] };

/** node:fs with readSync and writeSync recorded. */
export function recordFs(fs: typeof Fs): typeof Fs {
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
  } as typeof Fs;
}

/** node:fs/promises with the reads and writes of every opened handle recorded. */
export function recordFsPromises(fs: typeof FsPromises): typeof FsPromises {
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
  return { ...fs, open, default: { ...fs, open } } as typeof FsPromises;
}

/** Before each test: chunk size `chunk` (through `set`, which returns the old one) and no recorded calls; after it, the old size. */
export function withChunkBytes(set: (bytes: number) => number, chunk: number): void {
  let previous = 0;
  beforeEach(() => {
    previous = set(chunk);
    calls.reads.length = 0;
    calls.writes.length = 0;
  });
  afterEach(() => {
    set(previous);
  });
}

/**
 * Saves with `save` and loads with `load`, checking that each moves the
 * file's `bytes` once, in calls of at most `chunk` bytes, and that the file
 * written (`written()`) is `bytes`; returns what `load` gave.
 */
export async function chunkedRoundTrip<T>(
  save: () => Promise<unknown>,
  load: () => Promise<T>,
  written: () => Uint8Array,
  bytes: Uint8Array,
  chunk: number,
): Promise<T> {
  await save();
  expect(Math.max(...calls.writes)).toBeLessThanOrEqual(chunk);
  expect(calls.writes.reduce((a, b) => a + b, 0)).toBe(bytes.length);
  expect(written()).toEqual(bytes);
  calls.reads.length = 0;
  const back = await load();
  expect(Math.max(...calls.reads)).toBeLessThanOrEqual(chunk);
  // Every byte read once: headers, then payloads straight into wasm memory.
  expect(calls.reads.reduce((a, b) => a + b, 0)).toBe(bytes.length);
  return back;
}
