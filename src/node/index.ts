/**
 * bloomwasm/node: save and load filters, chains, counting, sliding, cuckoo and binary fuse filters as files, for filters too
 * big to hold twice. Node only; the browser-safe core never imports this
 * module.
 *
 * Saving replaces the target atomically (atomic.ts: temporary file, fsync,
 * rename, directory fsync; { durable: false } skips the fsyncs), keeping its
 * mode and following symbolic links.
 * Loading (load.ts) tells the kind by the file's magic, reads the headers,
 * checks them and the file size, allocates the filter or the chain's
 * members, and reads each payload straight into its wasm memory
 * (decoders.ts). Every read and write moves at most 8 MiB (io.ts),
 * so files of any size, 2 GiB and beyond included, stream in both directions.
 */
import { BloomConcurrencyError, BloomDisposedError, BloomTypeError } from '../errors.js';
import { isDisposed } from '../filter/dispose.js';
import { CountingBloomFilter } from '../counting/counting.js';
import { BloomFilter } from '../filter/filter.js';
import { ScalableBloomFilter } from '../scalable/scalable.js';
import { SlidingBloomFilter } from '../sliding/sliding.js';
import { CuckooFilter } from '../cuckoo/cuckoo.js';
import { replaceFile, replaceFileSync } from './atomic.js';
import { readDurable, type SaveOptions } from './save-options.js';

export type { SaveOptions };
import { chainJob, cuckooJob, countingJob, filterJob, slidingJob, type SaveJob } from './decoders.js';
import { writeAll, writeAllSync } from './io.js';
import { BinaryFuseFilter } from '../fuse/binary-fuse.js';
import { fuseJob } from './fuse-file.js';

/** Anything with toBytes (the reference twins): written from toBytes(), in bounded chunks. */
interface Serializable {
  toBytes(): Uint8Array;
}

/** What saveFile writes: a filter, a chain, a counting, a sliding, a cuckoo or a binary fuse filter, from bloomwasm or bloomwasm/reference. */
export type Saveable = BloomFilter | ScalableBloomFilter | CountingBloomFilter | SlidingBloomFilter | CuckooFilter | BinaryFuseFilter | Serializable;

function checkPath(path: unknown): string {
  if (typeof path !== 'string' || path.length === 0) throw new BloomTypeError('path', path, 'a non-empty string');
  return path;
}

/**
 * The save of `filter` as it is now; BloomDisposedError naming `call` for a
 * disposed one, whose memory is gone.
 */
function jobFor(filter: unknown, call: string): SaveJob {
  if (typeof filter === 'object' && filter !== null && isDisposed(filter)) throw new BloomDisposedError(call, 'its filter');
  if (filter instanceof BloomFilter) return filterJob(filter);
  if (filter instanceof ScalableBloomFilter) return chainJob(filter);
  if (filter instanceof CountingBloomFilter) return countingJob(filter);
  if (filter instanceof SlidingBloomFilter) return slidingJob(filter);
  if (filter instanceof CuckooFilter) return cuckooJob(filter);
  if (filter instanceof BinaryFuseFilter) return fuseJob(filter);
  if (typeof filter === 'object' && filter !== null && typeof (filter as Serializable).toBytes === 'function') {
    const bytes = (filter as Serializable).toBytes();
    return { pieces: () => [bytes], unchanged: () => true };
  }
  throw new BloomTypeError('filter', filter, 'a BloomFilter, ScalableBloomFilter, CountingBloomFilter, SlidingBloomFilter, CuckooFilter or BinaryFuseFilter (from bloomwasm or bloomwasm/reference)');
}

/**
 * Writes `filter` (a BloomFilter, ScalableBloomFilter, CountingBloomFilter, SlidingBloomFilter, CuckooFilter or BinaryFuseFilter) to `path`
 * atomically. A symbolic link at `path` is followed and its target
 * replaced; an existing file keeps its mode. `{ durable: false }` skips the
 * fsyncs of the file and its directory (bulk writes that can be redone).
 */
export function saveFileSync(filter: Saveable, path: string, options?: SaveOptions): void {
  const target = checkPath(path);
  const durable = readDurable(options);
  const job = jobFor(filter, 'saveFileSync');
  replaceFileSync(target, (fd) => writeAllSync(fd, job.pieces()), durable);
}

/**
 * Writes `filter` to `path` atomically, like saveFileSync, without blocking
 * the event loop. Do not change the filter until the promise settles: the
 * bits are written from wasm memory in place, and a change made meanwhile
 * (an add, clear(), growth) aborts the save with BloomConcurrencyError (the
 * target is left untouched), as does dispose() before it settles: the
 * memory being written is gone.
 */
export async function saveFile(filter: Saveable, path: string, options?: SaveOptions): Promise<void> {
  const target = checkPath(path);
  const durable = readDurable(options);
  const job = jobFor(filter, 'saveFile');
  const wasDisposed = (): boolean => typeof filter === 'object' && filter !== null && isDisposed(filter);
  try {
    await replaceFile(
      target,
      (handle) => writeAll(handle, job.pieces()),
      () => {
        if (wasDisposed() || !job.unchanged()) throw new BloomConcurrencyError('saveFile', wasDisposed());
      },
      durable,
    );
  } catch (error) {
    // A piece read after dispose() is refused (BloomDisposedError from the handle): the save was cut short by it.
    // A live filter whose member is refused lost that member to a change (a chain's clear() disposes its members).
    if (error instanceof BloomDisposedError) throw new BloomConcurrencyError('saveFile', wasDisposed());
    throw error;
  }
}

export { loadFile, loadFileSync, type FileFilter, type FileFilterClass, type LoadOptions } from './load.js';
