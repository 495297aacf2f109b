// Atomic replacement of a file: write a temporary file beside the target,
// fsync it, rename it over the target, fsync the directory. After a crash
// the target holds the old bytes or the new ones, never a torn file (rename
// is atomic in POSIX:
// https://pubs.opengroup.org/onlinepubs/9699919799/functions/rename.html).
// A save that is not durable skips both fsyncs: readers still see the old
// file or the new one, never a torn one, but a crash (power loss, not a
// killed process) may lose the new file, or leave it empty, since the
// kernel may write the rename before the data.
//
// What is replaced keeps what it was, as write-file-atomic does:
// - a symbolic link is followed to its final target (a dangling one too),
//   and that target is replaced, so the link stays a link;
// - an existing target's mode is kept exactly (0600 stays 0600), and its
//   owner and group when the process may set them;
// - the temporary name is short and fixed in length (`.bloomwasm-<16 hex>.tmp`,
//   31 bytes), so any target name the file system accepts still works. The
//   first 8 hex digits are the writer's process id, the last 8 random: a
//   temporary left by a process killed mid-save (SIGKILL, power loss) is
//   known as such, and removeDeadTemps() removes it later.
// A new file is created with mode 0644, less the umask.

import { randomBytes } from 'node:crypto';
import {
  closeSync, fchmodSync, fchownSync, fsyncSync, lstatSync, openSync, readdirSync, readlinkSync, realpathSync, renameSync, statSync,
  unlinkSync, type Stats,
} from 'node:fs';
import { lstat, open, readlink, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** Links followed before giving up with ELOOP, as Linux's path resolution does (MAXSYMLINKS). */
const MAX_LINKS = 40;

/** Mode of a newly created file, before the umask. */
const NEW_FILE_MODE = 0o644;

/** A fresh temporary name in `dir`: on the target's file system, so the rename stays atomic; it names this process. */
export function tempPathIn(dir: string): string {
  return join(dir, `.bloomwasm-${pidHex(process.pid)}${randomBytes(4).toString('hex')}.tmp`);
}

/** A process id as 8 hex digits (Linux ids stay below 2^22, and no system's exceed 2^32). */
function pidHex(pid: number): string {
  return (pid >>> 0).toString(16).padStart(8, '0');
}

/** The temporary names of tempPathIn, the writer's id in the first 8 hex digits. */
const TEMP_NAME = /^\.bloomwasm-([0-9a-f]{8})[0-9a-f]{8}\.tmp$/;

/**
 * Whether no process `pid` runs on this machine: signal 0 checks without
 * sending. EPERM means it runs (as another user); a pid used again by a
 * new process counts as running, so what is removed is surely dead.
 */
export function processIsDead(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes the temporaries that saves in `dir` by processes no longer
 * running left behind (a save killed between writing and renaming), and
 * returns how many. Names of another form, and a running writer's, stay.
 */
export function removeDeadTemps(dir: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const match = TEMP_NAME.exec(name);
    if (match === null || !processIsDead(Number.parseInt(match[1], 16))) continue;
    try {
      unlinkSync(join(dir, name));
      removed++;
    } catch {
      // Removed meanwhile by another run, or not ours to remove.
    }
  }
  return removed;
}

function loopError(path: string): Error {
  return Object.assign(new Error(`ELOOP: too many symbolic links encountered, save '${path}'`), { code: 'ELOOP', path });
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** The file a save to `path` must replace: `path` itself, or the end of its chain of symbolic links. */
export function resolveTargetSync(path: string): string {
  let at = path;
  for (let hop = 0; hop <= MAX_LINKS; hop++) {
    let stats: Stats;
    try {
      stats = lstatSync(at);
    } catch (error) {
      if (isMissing(error)) return at;
      throw error;
    }
    if (!stats.isSymbolicLink()) return at;
    // Relative to the link's real directory: `..` in the link must climb from where the link really is.
    at = resolve(realpathSync(dirname(at)), readlinkSync(at));
  }
  throw loopError(path);
}

/** resolveTargetSync without blocking the event loop. */
export async function resolveTarget(path: string): Promise<string> {
  let at = path;
  for (let hop = 0; hop <= MAX_LINKS; hop++) {
    let stats: Stats;
    try {
      stats = await lstat(at);
    } catch (error) {
      if (isMissing(error)) return at;
      throw error;
    }
    if (!stats.isSymbolicLink()) return at;
    at = resolve(await realpath(dirname(at)), await readlink(at));
  }
  throw loopError(path);
}

/** The target's mode and owner, or undefined when it does not exist yet. */
function existingSync(target: string): Stats | undefined {
  try {
    return statSync(target);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function existing(target: string): Promise<Stats | undefined> {
  try {
    return await stat(target);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Whether a failed chown may be ignored: the process is not root and may not give files away. */
function chownRefused(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return code === 'ENOSYS' || (!root && (code === 'EPERM' || code === 'EINVAL'));
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

async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  if (handle === undefined) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

/**
 * Replaces the file at `path` (through any symbolic links) with what `write`
 * writes to the descriptor it is given; with `durable` false, without fsync.
 */
export function replaceFileSync(path: string, write: (fd: number) => void, durable = true): void {
  const target = resolveTargetSync(path);
  const old = existingSync(target);
  const temp = tempPathIn(dirname(target));
  const fd = openSync(temp, 'wx', old ? old.mode & 0o7777 : NEW_FILE_MODE);
  try {
    try {
      if (old) {
        // open() applied the umask; the replaced file's mode is restored exactly.
        fchmodSync(fd, old.mode & 0o7777);
        try {
          fchownSync(fd, old.uid, old.gid);
        } catch (error) {
          if (!chownRefused(error)) throw error;
        }
      }
      write(fd);
      if (durable) fsyncSync(fd);
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
  if (durable) fsyncDirectorySync(dirname(target));
}

/**
 * replaceFileSync without blocking the event loop. `check` runs after the
 * data is written and synced, before the rename: if it throws, the target
 * is left untouched.
 */
export async function replaceFile(path: string, write: (handle: FileHandle) => Promise<void>, check: () => void, durable = true): Promise<void> {
  const target = await resolveTarget(path);
  const old = await existing(target);
  const temp = tempPathIn(dirname(target));
  const handle = await open(temp, 'wx', old ? old.mode & 0o7777 : NEW_FILE_MODE);
  try {
    try {
      if (old) {
        await handle.chmod(old.mode & 0o7777);
        await handle.chown(old.uid, old.gid).catch((error: unknown) => {
          if (!chownRefused(error)) throw error;
        });
      }
      await write(handle);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    check();
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (durable) await fsyncDirectory(dirname(target));
}
