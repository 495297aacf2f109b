// The input and output of `bloom dedupe`: regular files read synchronously
// straight into wasm memory, pipes and terminals through a Node stream (so
// that signals are handled while it waits), and whole writes to stdout.

import { closeSync, createReadStream, fstatSync, openSync, readSync, writeSync } from 'node:fs';

/** One input: its descriptor, whether it is a regular file, and its size when known. */
export interface Input {
  name: string;
  fd: number;
  regular: boolean;
  size: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `bytes` to `fd`, waiting out EAGAIN on a non-blocking descriptor. */
export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(sleeper, 0, 0, 1);
    }
  }
}

/** Reads into `into` from a regular file, synchronously (the fast path). */
export function readRegular(input: Input, into: Uint8Array): number {
  return readSync(input.fd, into, 0, into.length, null);
}

/**
 * Reads from a pipe or terminal through a Node stream (libuv polls it on the
 * event loop), so signals are handled while it waits. Not fs.read: a read
 * blocked in the thread pool would keep process.exit from returning.
 */
export class StreamReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private left: Buffer = Buffer.alloc(0);

  constructor(input: Input) {
    const stream = input.fd === 0 ? process.stdin : createReadStream('', { fd: input.fd, autoClose: false });
    this.chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /** Copies the next bytes into `into`; 0 at the end of the stream. */
  async read(into: Uint8Array): Promise<number> {
    while (this.left.length === 0) {
      const next = await this.chunks.next();
      if (next.done) return 0;
      this.left = next.value;
    }
    const n = Math.min(into.length, this.left.length);
    into.set(this.left.subarray(0, n));
    this.left = this.left.subarray(n);
    return n;
  }
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
