// The lines of `bloom build` and `bloom check` (src/cli/line-reader.ts): the
// same lines from a regular file and from a pipe, however the pipe cuts its
// reads, and a long line from a pipe costs work in proportion to its
// length: the bytes searched and moved are counted, where a search or move
// of the whole held line on each 64 KiB read grows with its square.
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openInputs, StreamReader, type Input } from '../src/cli/io.js';
import { readLines } from '../src/cli/line-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A pipe's input: no size, read through StreamReader, which here hands out `bytes` at most `per` bytes a read. */
function pipeOf(bytes: Uint8Array, per: number): Input {
  let at = 0;
  const reader = {
    async read(into: () => Uint8Array, offset = 0): Promise<number> {
      const target = into();
      const n = Math.min(per, target.length - offset, bytes.length - at);
      target.set(bytes.subarray(at, at + n), offset);
      at += n;
      return n;
    },
  };
  vi.spyOn(StreamReader, 'open').mockResolvedValue(reader as unknown as StreamReader);
  return { name: '-', fd: -1, regular: false, size: NaN };
}

/** Each line's item and its bytes as read, in order. */
async function collect(inputs: Input[]): Promise<{ items: string[]; raw: string[] }> {
  const items: string[] = [];
  const raw: string[] = [];
  for await (const chunk of readLines(inputs)) {
    chunk.items.forEach((item, i) => {
      items.push(Buffer.from(item).toString('latin1'));
      raw.push(Buffer.from(chunk.buffer.subarray(chunk.starts[i], chunk.ends[i])).toString('latin1'));
    });
  }
  return { items, raw };
}

/** What docs/CLI.md says the lines are: split at \n, one \r before it dropped, a last line without \n counted. */
function expected(text: string): { items: string[]; raw: string[] } {
  const raw = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return { items: raw.map((r) => r.replace(/\r?\n$/, '').replace(/\r$/, '')), raw };
}

/**
 * Bytes that Uint8Array's indexOf, copyWithin and set look at or move while
 * `body` runs (indexOf: from where it starts to where it stops).
 */
async function bytesTouched(body: () => Promise<unknown>): Promise<number> {
  const proto = Uint8Array.prototype;
  const { indexOf, copyWithin, set } = proto;
  let touched = 0;
  vi.spyOn(proto, 'indexOf').mockImplementation(function (this: Uint8Array, value: number, from = 0) {
    const found = indexOf.call(this, value, from);
    touched += (found < 0 ? this.length : found + 1) - Math.max(0, from);
    return found;
  });
  vi.spyOn(proto, 'copyWithin').mockImplementation(function (this: Uint8Array, target: number, start: number, end = this.length) {
    touched += end - start;
    return copyWithin.call(this, target, start, end);
  });
  vi.spyOn(proto, 'set').mockImplementation(function (this: Uint8Array, source: ArrayLike<number>, offset?: number) {
    touched += source.length;
    return set.call(this, source, offset);
  });
  try {
    await body();
  } finally {
    vi.restoreAllMocks();
  }
  return touched;
}

describe('readLines', () => {
  const text = ['a\n', '\n', 'crlf\r\n', 'bare\rcr\n', 'x'.repeat(3_000_000) + '\n', '\r\n', 'y'.repeat(70_000) + '\r\n', 'last without newline\r'].join('');
  const bytes = Buffer.from(text, 'latin1');

  it('gives the lines of a regular file, as docs/CLI.md defines them', async () => {
    const path = join(dir, 'lines.txt');
    writeFileSync(path, bytes);
    const inputs = openInputs([path]);
    try {
      expect(await collect(inputs)).toEqual(expected(text));
    } finally {
      for (const input of inputs) closeSync(input.fd);
    }
  });

  it.each([1, 7, 4096, 65536, 1 << 20])('gives the same lines from a pipe that reads %i bytes at a time', async (per) => {
    expect(await collect([pipeOf(bytes, per)])).toEqual(expected(text));
  });

  it('reads an empty input as no lines, and a lone \\n as one empty line', async () => {
    expect(await collect([pipeOf(new Uint8Array(0), 65536)])).toEqual({ items: [], raw: [] });
    expect(await collect([pipeOf(Uint8Array.of(10), 65536)])).toEqual({ items: [''], raw: ['\n'] });
  });

  it('touches each byte of a 16 MiB line from a pipe (64 KiB a read) a bounded number of times, not once per read', async () => {
    const line = 16 * 2 ** 20;
    const long = new Uint8Array(line + 1).fill(0x61);
    long[line] = 0x0a;
    let items: number[] = [];
    const touched = await bytesTouched(async () => {
      for await (const chunk of readLines([pipeOf(long, 65536)])) items = items.concat(chunk.items.map((item) => item.length));
    });
    expect(items).toEqual([line]);
    // Copied into the reader's buffer once, searched once, and moved by its doublings (1 + 2 + ... + 16 MiB, under twice).
    expect(touched).toBeLessThan(5 * line);
  });

  it('touches each byte of a regular file a bounded number of times too', async () => {
    const path = join(dir, 'long.txt');
    const line = 16 * 2 ** 20;
    const fd = openSync(path, 'w');
    writeFileSync(fd, Buffer.alloc(line, 'a'));
    writeFileSync(fd, '\nshort\n');
    closeSync(fd);
    const inputs = openInputs([path]);
    let count = 0;
    try {
      const touched = await bytesTouched(async () => {
        for await (const chunk of readLines(inputs)) count += chunk.items.length;
      });
      expect(touched).toBeLessThan(5 * line);
    } finally {
      for (const input of inputs) closeSync(input.fd);
    }
    expect(count).toBe(2);
  });
});
