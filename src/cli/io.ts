// The input and output of `bloom dedupe`: regular files read synchronously
// straight into wasm memory, pipes and terminals through a Node stream (so
// that signals are handled while it waits), and whole writes to stdout.

import { closeSync, createReadStream, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import type { Socket, SocketConstructorOpts } from 'node:net';

/** One input: its descriptor, whether it is a regular file, and its size when known. */
export interface Input {
  name: string;
  fd: number;
  regular: boolean;
  size: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Writes the first `length` bytes of `bytes` (all by default) to `fd`, waiting out EAGAIN on a non-blocking descriptor. */
export function writeAll(fd: number, bytes: Uint8Array, length = bytes.length): void {
  for (let done = 0; done < length; ) {
    try {
      done += writeSync(fd, bytes, done, length - done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(sleeper, 0, 0, 1);
    }
  }
}

/** Reads into `into` from byte `at` on, from a regular file, synchronously (the fast path). */
export function readRegular(input: Input, into: Uint8Array, at = 0): number {
  return readSync(input.fd, into, at, into.length - at, null);
}

/**
 * Reads from a pipe or terminal on the event loop (libuv polls it), so
 * signals are handled while it waits. Not fs.read: a read blocked in the
 * thread pool would keep process.exit from returning.
 *
 * A pipe or socket on stdin is read through a net.Socket whose `onread`
 * buffer is reused for every read, pausing until that buffer is consumed:
 * a Node stream allocates a fresh 64 KiB Buffer per read, memory off V8's
 * heap that a run allocating little else frees only after many of them,
 * which then shows in the peak RSS. Whatever the pipe already holds is read
 * straight into the caller's buffer first (readReady); the socket is only
 * waited on when the pipe is empty. Terminals and named pipes use the
 * stream.
 */
export class StreamReader {
  private readonly chunks: AsyncIterator<Buffer> | null = null;
  private left: Buffer = Buffer.alloc(0);
  /** The pipe path: the socket, its one buffer, and the unread bytes [start, end) of it. */
  private readonly socket: Socket | null = null;
  private readonly buffer = Buffer.alloc(0);
  private start = 0;
  private end = 0;
  private ended = false;
  private failed: Error | null = null;
  /** Resolves the read waiting for the socket, if any. */
  private wake: (() => void) | null = null;

  /** A reader of `input` (node:net is loaded only for a pipe: every module stays resident). */
  static async open(input: Input): Promise<StreamReader> {
    const net = input.fd === 0 && isPipe(0) ? await import('node:net') : null;
    return new StreamReader(input, net?.Socket ?? null);
  }

  private constructor(input: Input, SocketClass: typeof Socket | null) {
    if (SocketClass !== null) {
      this.buffer = Buffer.alloc(PIPE_BUFFER);
      const callback = (n: number): boolean => {
        this.start = 0;
        this.end = n;
        this.resolve();
        return false; // pause until read() has taken these bytes
      };
      // `onread` is a documented constructor option since Node 15.8 that @types/node 20 leaves out.
      const options = { fd: 0, readable: true, writable: false, onread: { buffer: this.buffer, callback } };
      this.socket = new SocketClass(options as SocketConstructorOpts);
      this.socket.pause();
      this.socket.on('end', () => {
        this.ended = true;
        this.resolve();
      });
      this.socket.on('error', (error) => {
        this.failed = error;
        this.resolve();
      });
      return;
    }
    const stream = input.fd === 0 ? process.stdin : createReadStream('', { fd: input.fd, autoClose: false });
    this.chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  private resolve(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /**
   * Reads what the pipe holds now straight into `into` (wasm memory),
   * without a turn of the event loop and without the copy out of the
   * socket's buffer. libuv made the descriptor non-blocking when the socket
   * opened it, so an empty pipe answers EAGAIN at once (then -1: wait for
   * the socket, which keeps signals handled). While the socket is paused
   * libuv does not read the descriptor, so the two never race. Not on
   * Windows, where a pipe read through fs blocks.
   */
  private readReady(into: Uint8Array, at: number): number {
    if (process.platform === 'win32') return -1;
    try {
      const n = readSync(0, into, at, into.length - at, null);
      if (n === 0) this.ended = true;
      return n;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return -1;
      throw error;
    }
  }

  /**
   * Copies the next bytes into `into()` from byte `at` on; 0 at the end of
   * the stream. `into` is asked for the buffer where the bytes are written,
   * after any wait: a view of wasm memory is never kept across an await.
   */
  async read(into: () => Uint8Array, at = 0): Promise<number> {
    if (this.socket !== null) {
      if (this.start === this.end && !this.ended && this.failed === null) {
        const direct = this.readReady(into(), at);
        if (direct >= 0) return direct;
      }
      while (this.start === this.end) {
        if (this.failed !== null) throw this.failed;
        if (this.ended) return 0;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          this.socket!.resume();
        });
      }
      const target = into();
      const n = Math.min(target.length - at, this.end - this.start);
      target.set(this.buffer.subarray(this.start, this.start + n), at);
      this.start += n;
      return n;
    }
    while (this.left.length === 0) {
      const next = await this.chunks!.next();
      if (next.done) return 0;
      this.left = next.value;
    }
    const target = into();
    const n = Math.min(target.length - at, this.left.length);
    target.set(this.left.subarray(0, n), at);
    this.left = this.left.subarray(n);
    return n;
  }
}

/** Bytes of the pipe path's one read buffer. */
const PIPE_BUFFER = 64 * 1024;

/** Whether `fd` is a pipe or a socket (not a terminal, not a file). */
function isPipe(fd: number): boolean {
  const stat = fstatSync(fd);
  return stat.isFIFO() || stat.isSocket();
}

const NEWLINE = 10;

/**
 * The most bytes of input that inputLines counts: up to here the count is
 * a second read mostly from the page cache, a small part of the run's
 * time; beyond it a second read from disk could cost as much as the run,
 * and the lines are estimated instead.
 */
export const COUNT_LIMIT = 2 ** 32;

/** The lines of the inputs, and whether the number is exact. */
export interface InputLines {
  lines: number;
  exact: boolean;
}

/**
 * How many lines the inputs hold. Regular files of at most COUNT_LIMIT
 * bytes in all are counted exactly: `count(n)` counts the newlines of the
 * first n bytes of `area()`, where each file's bytes up to its size at open
 * are read by positioned reads (so each descriptor's offset stays where it
 * was, and a file that grows meanwhile is not chased), and a last line
 * without \n counts too. Otherwise the lines are estimated (estimateLines;
 * pipes and terminals count 0) and not exact. `area` is asked for the
 * buffer at each read, whose view is not kept across `count`.
 */
export function inputLines(inputs: readonly Input[], area: () => Uint8Array, count: (n: number) => number): InputLines {
  const total = inputs.reduce((sum, input) => sum + input.size, 0);
  if (!inputs.every((input) => input.regular) || total > COUNT_LIMIT) return { lines: estimateLines(inputs), exact: false };
  let lines = 0;
  for (const input of inputs) {
    let last = NEWLINE;
    for (let at = 0; at < input.size; ) {
      const into = area();
      const n = readSync(input.fd, into, 0, Math.min(into.length, input.size - at), at);
      // Truncated since it was opened: what is left is all there is.
      if (n === 0) break;
      last = into[n - 1];
      lines += count(n);
      at += n;
    }
    if (last !== NEWLINE) lines++;
  }
  return { lines, exact: true };
}

/** Bytes in each window that estimateLines samples. */
const SAMPLE_WINDOW = 32 * 1024;
/** Windows that estimateLines samples, spread evenly over the inputs. */
const SAMPLE_WINDOWS = 8;

/**
 * An estimate of how many lines the regular-file inputs hold: their total
 * size times the newlines per byte in SAMPLE_WINDOWS windows spread evenly
 * over them. Positioned reads (pread) leave each descriptor's offset where
 * it was. 0 when there is nothing to go on: no regular file with bytes, or
 * no newline in any window (lines longer than a window). Pipes and
 * terminals are not counted: their size is not known in advance.
 */
export function estimateLines(inputs: readonly Input[]): number {
  const files = inputs.filter((input) => input.regular && input.size > 0);
  const total = files.reduce((sum, input) => sum + input.size, 0);
  if (total === 0) return 0;
  const window = new Uint8Array(SAMPLE_WINDOW);
  let sampled = 0;
  let newlines = 0;
  for (let w = 0; w < SAMPLE_WINDOWS; w++) {
    // Window w starts at byte w/SAMPLE_WINDOWS of the inputs taken end to end.
    let at = Math.floor((w * total) / SAMPLE_WINDOWS);
    let file = 0;
    while (at >= files[file].size) at -= files[file++].size;
    const n = readSync(files[file].fd, window, 0, Math.min(SAMPLE_WINDOW, files[file].size - at), at);
    sampled += n;
    for (let i = 0; i < n; i++) if (window[i] === NEWLINE) newlines++;
  }
  return sampled === 0 ? 0 : Math.ceil((total * newlines) / sampled);
}

/** Opens the named inputs ('-' or none: stdin); closes what it opened when one fails. */
export function openInputs(names: string[]): Input[] {
  const inputs: Input[] = [];
  try {
    for (const name of names.length ? names : ['-']) {
      let fd: number;
      try {
        fd = name === '-' ? 0 : openSync(name, 'r');
      } catch (error) {
        throw new Error(`cannot open ${name}: ${(error as Error).message}`);
      }
      const stat = fstatSync(fd);
      if (stat.isDirectory()) throw new Error(`cannot read ${name}: it is a directory`);
      inputs.push({ name, fd, regular: stat.isFile(), size: stat.isFile() ? stat.size : NaN });
    }
  } catch (error) {
    for (const input of inputs) if (input.fd !== 0) closeSync(input.fd);
    throw error;
  }
  return inputs;
}
