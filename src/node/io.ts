// Bounded reads and writes for the file helpers. Every read and write moves
// at most chunkBytes() bytes: one call of Node's fs cannot take a buffer of
// 2 GiB or more (ERR_OUT_OF_RANGE), and a filter or chain may be larger.
//
// A file format is read by a generator that yields read requests
// ({ into, position }) and returns what it decoded; a sync and an async
// driver fill the requests, so each format is written once for both.

import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { BloomFormatError, BloomTypeError } from '../errors.js';

/** Bytes moved per read or write call: large enough to stream at disk speed, small next to a big filter. */
export const CHUNK_BYTES = 8 * 1024 * 1024;

let chunk = CHUNK_BYTES;

/** The current bound on one read or write call. */
export function chunkBytes(): number {
  return chunk;
}

/** Sets the bound on one read or write call (tests use a small one to cross every boundary); returns the previous. @internal */
export function setChunkBytes(bytes: number): number {
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new RangeError(`chunk bytes must be a positive integer; got ${bytes}`);
  const previous = chunk;
  chunk = bytes;
  return previous;
}

/**
 * Bytes to read into or to write: a view, or for wasm memory a function
 * that makes a fresh view, called again for each chunk. Filters share an
 * instance's memory, and a filter made by other code during an await may
 * grow it, which detaches every view made before (src/wasm/arena.ts).
 */
export type Region = Uint8Array | (() => Uint8Array);

/** The view of a region, as of now. */
function viewOf(region: Region): Uint8Array {
  return typeof region === 'function' ? region() : region;
}

/** One read: fill all of `into` from byte `position` of the file. */
export interface ReadRequest {
  into: Region;
  position: number;
}

/** A file decoder: yields reads, returns the decoded value. */
export type Decoder<T> = Generator<ReadRequest, T, void>;

/**
 * The reads of `fill`, a decoder's reads into `owned`, which the decoder
 * has just allocated, and then fill's result, which owns it from then on.
 * A read that fails (the file shrank) or a check that throws gives `owned`
 * back at once with `release`: left to the garbage collector, a filter
 * the size of the file would outlive the error that refused it.
 */
export function* owning<T, R>(owned: T, release: (owned: T) => void, fill: () => Decoder<R>): Decoder<R> {
  let kept = false;
  try {
    const result = yield* fill();
    kept = true;
    return result;
  } finally {
    if (!kept) release(owned);
  }
}

/** Gives back a filter that a load allocated and then refused: owning's `release` for one. */
export function dispose(filter: { dispose(): void }): void {
  filter.dispose();
}

/** Runs a decoder on an open file descriptor. */
export function decodeSync<T>(fd: number, decoder: Decoder<T>): T {
  try {
    for (let step = decoder.next(); ; step = decoder.next()) {
      if (step.done) return step.value;
      readFullySync(fd, step.value.into, step.value.position);
    }
  } finally {
    closeDecoder(decoder);
  }
}

/** Runs a decoder on an open file handle, without blocking the event loop. */
export async function decode<T>(handle: FileHandle, decoder: Decoder<T>): Promise<T> {
  try {
    for (let step = decoder.next(); ; step = decoder.next()) {
      if (step.done) return step.value;
      await readFully(handle, step.value.into, step.value.position);
    }
  } finally {
    closeDecoder(decoder);
  }
}

/**
 * Ends a decoder that a failed read left waiting at a yield, so that its
 * finally blocks give back what it allocated; once it has returned or
 * thrown, this does nothing.
 */
function closeDecoder<T>(decoder: Decoder<T>): void {
  decoder.return(undefined as T);
}

/** Fills `into` from `position`, chunkBytes() at a time; a file that shrank since fstat is reported as truncated. */
function readFullySync(fd: number, region: Region, position: number): void {
  const into = viewOf(region);
  for (let done = 0; done < into.length; ) {
    const n = readSync(fd, into, done, Math.min(chunk, into.length - done), position + done);
    if (n === 0) throw shrunk(position + done);
    done += n;
  }
}

async function readFully(handle: FileHandle, region: Region, position: number): Promise<void> {
  for (let done = 0, length = viewOf(region).length; done < length; ) {
    const { bytesRead } = await handle.read(viewOf(region), done, Math.min(chunk, length - done), position + done);
    if (bytesRead === 0) throw shrunk(position + done);
    done += bytesRead;
  }
}

function shrunk(offset: number): Error {
  return new BloomFormatError('payload', offset, 'truncated: the file ended early (it shrank while being read)');
}

/** Writes every piece in order, chunkBytes() at a time. */
export function writeAllSync(fd: number, pieces: Iterable<Region>): void {
  for (const region of pieces) {
    const piece = viewOf(region);
    for (let done = 0; done < piece.length; ) done += writeSync(fd, piece, done, Math.min(chunk, piece.length - done));
  }
}

/** Writes every piece in order, chunkBytes() at a time, without blocking the event loop. */
export async function writeAll(handle: FileHandle, pieces: Iterable<Region>): Promise<void> {
  for (const region of pieces) {
    for (let done = 0, length = viewOf(region).length; done < length; ) {
      done += (await handle.write(viewOf(region), done, Math.min(chunk, length - done))).bytesWritten;
    }
  }
}

/**
 * The size of the file behind a stat, refused unless it is a regular file:
 * a pipe, socket or device reports size 0 (or a size unrelated to what it
 * will give), and the loaders check every header against the size, so such
 * an input would be called "truncated at byte 0" whatever it holds.
 */
export function regularFileSize(stats: { isFile(): boolean; size: number }, path: string): number {
  if (!stats.isFile()) {
    throw new BloomTypeError('path', path, 'a regular file (a pipe, socket, device or directory has no size to check the headers against: save it to a file first)');
  }
  return stats.size;
}

/**
 * How a file to be loaded is opened: O_NONBLOCK, because open() of a named
 * pipe with no writer otherwise waits for one, forever, before the file's
 * type can be asked. A regular file reads the same either way. (Windows
 * has no such flag, and no named pipes in the file system.)
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Opens `path` to read, refusing at once (BloomTypeError on `path`) anything but a regular file; the descriptor and its size. */
export function openRegularSync(path: string): { fd: number; size: number } {
  const fd = openSync(path, READ_FLAGS);
  try {
    return { fd, size: regularFileSize(fstatSync(fd), path) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** openRegularSync without blocking the event loop. */
export async function openRegular(path: string): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(path, READ_FLAGS);
  try {
    return { handle, size: regularFileSize(await handle.stat(), path) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
