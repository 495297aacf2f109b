// `bloom dedupe --state`: loading the saved filter, chain or sliding window, and keeping the
// file as it was before the run for when the output is closed early.

import { closeSync, copyFileSync, readdirSync, readSync, renameSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BloomFilter } from '../filter/filter.js';
import { ScalableBloomFilter } from '../scalable/scalable.js';
import { SlidingBloomFilter } from '../sliding/sliding.js';
import { loadFileSync } from '../node/index.js';
import { processIsDead, removeDeadTemps } from '../node/atomic.js';
import { openRegularSync } from '../node/io.js';
import { kindOfMagic, MAGIC_BYTES, type FileKindName } from '../format/kinds.js';

/** What dedupe keeps lines in: a fixed filter (--capacity), a growing chain, or a sliding window (--window). */
export type SeenSet = BloomFilter | ScalableBloomFilter | SlidingBloomFilter;

/** The classes dedupe keeps its lines in, by the kind a --state file holds. */
const SEEN_SETS: Partial<Record<FileKindName, typeof BloomFilter | typeof ScalableBloomFilter | typeof SlidingBloomFilter>> = {
  BloomFilter,
  ScalableBloomFilter,
  SlidingBloomFilter,
};

/** The kind the file at `path` holds, by its magic (refused at once unless it is a regular file). */
function kindOfFile(path: string): FileKindName {
  const { fd, size } = openRegularSync(path);
  try {
    const head = new Uint8Array(Math.min(MAGIC_BYTES, size));
    readSync(fd, head, 0, head.length, 0);
    return kindOfMagic(head, size);
  } finally {
    closeSync(fd);
  }
}

/**
 * Loads --state (a filter, a chain or a sliding filter, which reads `clock`)
 * when the file exists; null when it does not. Any other failure, and a
 * file of another kind (a counting, cuckoo or binary fuse filter, refused
 * by its magic before anything is loaded), is a runtime error.
 */
export function loadState(path: string, clock: () => number): SeenSet | null {
  try {
    const kind = kindOfFile(path);
    const Class = SEEN_SETS[kind];
    if (Class === undefined) throw new Error(`it holds a ${kind}, and dedupe keeps its lines in a Bloom filter, a scalable chain or a sliding window`);
    return loadFileSync(path, Class, { clock });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot use --state ${path} (left untouched): ${(error as Error).message}`);
  }
}

/**
 * Removes what runs on `path` that were killed (SIGKILL, a crash) left
 * beside it: their copies of the file as it was before them (StateBefore,
 * named by their process id), which only their own EPIPE could have used,
 * and the temporaries of saves they did not finish. Only files of
 * processes that no longer run go; the state itself is whole either way
 * (every save replaces it atomically). Returns how many were removed.
 */
export function removeDeadRuns(path: string): number {
  const dir = dirname(path);
  const slash = path.lastIndexOf('/');
  const prefix = `.${path.slice(slash + 1, slash + 1 + 100)}.`;
  let removed = removeDeadTemps(dir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.before')) continue;
    const pid = name.slice(prefix.length, -'.before'.length);
    if (!/^[0-9]{1,10}$/.test(pid) || !processIsDead(Number(pid))) continue;
    try {
      unlinkSync(join(dir, name));
      removed++;
    } catch {
      // Removed meanwhile by another run.
    }
  }
  return removed;
}

/**
 * The --state file as it was before this run, for EPIPE. A checkpoint
 * replaces the file, so before the first one the original is copied to a
 * hidden sibling (one copy, not one per checkpoint); restore() puts it
 * back, or removes the file when there was none, and drop() deletes the
 * copy after a run that ends normally.
 */
export class StateBefore {
  private readonly path: string;
  private readonly existed: boolean;
  private copy: string | undefined;
  private touched = false;

  constructor(path: string, existed: boolean) {
    this.path = path;
    this.existed = existed;
  }

  /** Called before each checkpoint save. */
  keep(): void {
    if (this.touched) return;
    this.touched = true;
    if (!this.existed) return;
    const slash = this.path.lastIndexOf('/');
    this.copy = `${this.path.slice(0, slash + 1)}.${this.path.slice(slash + 1, slash + 1 + 100)}.${process.pid}.before`;
    copyFileSync(this.path, this.copy);
  }

  /** Puts the file back as it was before the run. */
  restore(): void {
    if (!this.touched) return;
    if (this.copy !== undefined) renameSync(this.copy, this.path);
    else unlinkSync(this.path);
  }

  /** Forgets the copy. */
  drop(): void {
    if (this.copy !== undefined) unlinkSync(this.copy);
    this.copy = undefined;
  }
}
