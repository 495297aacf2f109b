// The lines of `bloom build` and `bloom check`, read in large chunks: a line
// is what `bloom dedupe` takes as one (docs/CLI.md, "What a line is"): the
// bytes before a \n or the end of the input, less one \r right before that
// end. Each chunk's complete lines are handed over at once, as views into
// the reader's buffer (valid until the next chunk), with where each line
// lies as read, \r and \n included, for printing it back exactly.

import { readRegular, StreamReader, type Input } from './io.js';

/** Bytes read at a time; the buffer doubles while one line is longer. */
const CHUNK = 1 << 20;

/** One chunk's complete lines. */
export interface LineChunk {
  /** The items: each line's bytes without its \n and one \r before it. */
  items: Uint8Array[];
  /** The buffer the lines lie in, and where line i starts and ends as read (its \n included, when it has one). */
  buffer: Uint8Array;
  starts: number[];
  ends: number[];
  /** Bytes read so far, over every input. */
  bytesRead: number;
}

/**
 * Reads the inputs in turn and yields their lines a chunk at a time; a last
 * line without \n counts. Each byte is searched for \n once, and only the
 * unfinished line after a chunk's last \n is moved: a pipe gives at most
 * 64 KiB a read, and a line longer than that, searched or moved again on
 * every read, would cost time in the square of its length.
 */
export async function* readLines(inputs: readonly Input[]): AsyncGenerator<LineChunk> {
  let buffer = new Uint8Array(CHUNK);
  const into = (): Uint8Array => buffer;
  let bytesRead = 0;
  for (const input of inputs) {
    const stream = input.regular ? null : await StreamReader.open(input);
    // Bytes [0, held) are the start of a line whose \n has not been read yet.
    let held = 0;
    for (;;) {
      if (held === buffer.length) {
        const bigger = new Uint8Array(buffer.length * 2);
        bigger.set(buffer);
        buffer = bigger;
      }
      const n = stream === null ? readRegular(input, buffer, held) : await stream.read(into, held);
      const end = held + n;
      bytesRead += n;
      const chunk: LineChunk = { items: [], buffer, starts: [], ends: [], bytesRead };
      // Bounded at `end`: past it lie stale bytes of earlier reads.
      const filled = buffer.subarray(0, end);
      let start = 0;
      // The held bytes hold no \n: the search starts at the new ones.
      for (let from = held; ; ) {
        const nl = filled.indexOf(0x0a, from);
        if (nl < 0) break;
        push(chunk, start, nl, nl + 1);
        start = from = nl + 1;
      }
      if (n === 0) {
        // The end of this input: what is left is its last line.
        if (start < end) push(chunk, start, end, end);
        if (chunk.items.length > 0) yield chunk;
        break;
      }
      if (chunk.items.length > 0) yield chunk;
      // Shorter than this read when a line ended in it; left where it is when none did.
      if (start > 0) buffer.copyWithin(0, start, end);
      held = end - start;
    }
  }
}

/** Adds the line [start, stop) (stop: its \n or the input's end), which lies in [start, end) as read. */
function push(chunk: LineChunk, start: number, stop: number, end: number): void {
  const itemEnd = stop > start && chunk.buffer[stop - 1] === 0x0d ? stop - 1 : stop;
  chunk.items.push(chunk.buffer.subarray(start, itemEnd));
  chunk.starts.push(start);
  chunk.ends.push(end);
}
