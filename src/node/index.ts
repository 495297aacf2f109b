/**
 * bloomwasm/node: save and load filters as files, for filters too big to
 * hold twice. Node only; the browser-safe core never imports this module.
 *
 * Saving writes a temporary file beside the target, fsyncs it, renames it
 * over the target and fsyncs the directory, so after a crash the target holds
 * the old file or the new one, never a torn one (rename is atomic in POSIX:
 * https://pubs.opengroup.org/onlinepubs/9699919799/functions/rename.html).
 * Loading reads the header, checks it and the file size, allocates the
 * filter, and then reads the payload straight into its wasm memory: the peak
 * memory is one filter, not two.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeSync,
} from 'node:fs';
import { open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BloomConcurrencyError, BloomFormatError, BloomTypeError } from '../errors.js';
import { BloomFilter, emptyFilterFor, engineOf, fileHeader, finishLoad } from '../filter/filter.js';
import { HEADER_BYTES, parseHeader } from '../format/filter.js';
import { ScalableBloomFilter } from '../scalable/scalable.js';

/** Bytes moved per read or write call: large enough to stream at disk speed, small next to a big filter. */
const CHUNK_BYTES = 8 * 1024 * 1024;

/** Anything with toBytes (the reference twin): written whole, since its bits are not in wasm memory. */
interface Serializable {
  toBytes(): Uint8Array;
}

function checkPath(path: unknown): string {
  if (typeof path !== 'string' || path.length === 0) throw new BloomTypeError('path', path, 'a non-empty string');
  return path;
}

function checkFilter(filter: unknown): BloomFilter | Serializable {
  if (filter instanceof BloomFilter) return filter;
  if (typeof filter === 'object' && filter !== null && typeof (filter as Serializable).toBytes === 'function') {
    return filter as Serializable;
  }
  throw new BloomTypeError('filter', filter, 'a BloomFilter (from bloomwasm or bloomwasm/reference)');
}

/** A fresh name beside `path`, so the final rename stays within one file system. */
function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** The pieces of the file in order: the header, then the bits as views on wasm memory (no copy). */
function pieces(filter: BloomFilter | Serializable): Uint8Array[] {
  if (!(filter instanceof BloomFilter)) return [filter.toBytes()];
  const out = [fileHeader(filter)];
  const bits = engineOf(filter).bitsView();
  for (let at = 0; at < bits.length; at += CHUNK_BYTES) out.push(bits.subarray(at, at + CHUNK_BYTES));
  return out;
}

/** Makes the rename itself durable. Some platforms (Windows) cannot open a directory: then the rename is as durable as they allow. */
function fsyncDirectorySync(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // EINVAL/EPERM on file systems that do not sync directories.
  } finally {
    closeSync(fd);
  }
}

/** Writes `filter` to `path` atomically (temporary file, fsync, rename, directory fsync). */
export function saveFileSync(filter: BloomFilter | Serializable, path: string): void {
  const target = checkPath(path);
  const parts = pieces(checkFilter(filter));
  const temp = tempPath(target);
  const fd = openSync(temp, 'wx', 0o644);
  try {
    try {
      for (const part of parts) {
        for (let done = 0; done < part.length; ) done += writeSync(fd, part, done, part.length - done);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // Already renamed or never fully created: nothing to clean.
    }
    throw error;
  }
  fsyncDirectorySync(dirname(target));
}

/**
 * Writes `filter` to `path` atomically, like saveFileSync, without blocking
 * the event loop. Do not change the filter until the promise settles: the
 * bits are written from wasm memory in place, and a change made meanwhile
 * aborts the save with BloomConcurrencyError (the target is left untouched).
 */
export async function saveFile(filter: BloomFilter | Serializable, path: string): Promise<void> {
  const target = checkPath(path);
  const checked = checkFilter(filter);
  const parts = pieces(checked);
  const temp = tempPath(target);
  const handle = await open(temp, 'wx', 0o644);
  try {
    try {
      for (const part of parts) {
        for (let done = 0; done < part.length; ) {
          done += (await handle.write(part, done, part.length - done)).bytesWritten;
        }
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The header's checksum covers the bits as they were when the save began;
    // recomputing it now proves that what was written is that same state.
    if (checked instanceof BloomFilter && !sameBytes(fileHeader(checked), parts[0])) {
      throw new BloomConcurrencyError('saveFile');
    }
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  const dir = await open(dirname(target), 'r').catch(() => undefined);
  if (dir !== undefined) {
    await dir.sync().catch(() => undefined);
    await dir.close();
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Reads a filter saved by saveFile (or toBytes). The header and the file
 * size are checked before the filter is allocated; the payload is read in
 * chunks straight into the filter's wasm memory and then checked (checksum,
 * padding, bitsSet). Faults throw BloomFormatError naming the field and offset.
 */
export function loadFileSync(path: string): BloomFilter {
  const fd = openSync(checkPath(path), 'r');
  try {
    const size = fstatSync(fd).size;
    const headerBytes = new Uint8Array(Math.min(HEADER_BYTES, size));
    readFullySync(fd, headerBytes, 0);
    const header = parseHeader(headerBytes, size);
    const filter = emptyFilterFor(header);
    const bits = engineOf(filter).bitsView();
    for (let at = 0; at < bits.length; at += CHUNK_BYTES) {
      readFullySync(fd, bits.subarray(at, at + CHUNK_BYTES), HEADER_BYTES + at);
    }
    finishLoad(filter, header, headerBytes);
    return filter;
  } finally {
    closeSync(fd);
  }
}

/** Reads a filter like loadFileSync, without blocking the event loop. */
export async function loadFile(path: string): Promise<BloomFilter> {
  const handle = await open(checkPath(path), 'r');
  try {
    const size = (await handle.stat()).size;
    const headerBytes = new Uint8Array(Math.min(HEADER_BYTES, size));
    await readFully(handle, headerBytes, 0);
    const header = parseHeader(headerBytes, size);
    const filter = emptyFilterFor(header);
    const bits = engineOf(filter).bitsView();
    for (let at = 0; at < bits.length; at += CHUNK_BYTES) {
      await readFully(handle, bits.subarray(at, at + CHUNK_BYTES), HEADER_BYTES + at);
    }
    finishLoad(filter, header, headerBytes);
    return filter;
  } finally {
    await handle.close();
  }
}

/**
 * Reads a ScalableBloomFilter saved by saveFile (or its toBytes). The file
 * is read whole and then decoded, so the peak memory is the file plus the
 * chain; every check of ScalableBloomFilter.fromBytes applies.
 */
export function loadScalableFileSync(path: string): ScalableBloomFilter {
  return ScalableBloomFilter.fromBytes(new Uint8Array(readFileSync(checkPath(path))));
}

/** Reads a chain like loadScalableFileSync, without blocking the event loop. */
export async function loadScalableFile(path: string): Promise<ScalableBloomFilter> {
  return ScalableBloomFilter.fromBytes(new Uint8Array(await readFile(checkPath(path))));
}

/** Fills `into` from `position`; a file that shrank since fstat is reported as truncated. */
function readFullySync(fd: number, into: Uint8Array, position: number): void {
  for (let done = 0; done < into.length; ) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) throw shrunk(position + done);
    done += n;
  }
}

async function readFully(handle: FileHandle, into: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < into.length; ) {
    const { bytesRead } = await handle.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) throw shrunk(position + done);
    done += bytesRead;
  }
}

function shrunk(offset: number): Error {
  return new BloomFormatError('payload', offset, 'truncated: the file ended early (it shrank while being read)');
}
