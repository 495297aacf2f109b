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

/** Reads the inputs in turn and yields their lines a chunk at a time; a last line without \n counts. */
export async function* readLines(inputs: readonly Input[]): AsyncGenerator<LineChunk> {
  let buffer = new Uint8Array(CHUNK);
  let bytesRead = 0;
  for (const input of inputs) {
    const stream = input.regular ? null : await StreamReader.open(input);
    let held = 0;
    for (;;) {
      if (held === buffer.length) {
        const bigger = new Uint8Array(buffer.length * 2);
        bigger.set(buffer);
        buffer = bigger;
      }
      const n = stream === null ? readRegular(input, buffer, held) : await stream.read(buffer, held);
      const end = held + n;
      bytesRead += n;
      const chunk: LineChunk = { items: [], buffer, starts: [], ends: [], bytesRead };
      let start = 0;
      for (;;) {
        const nl = buffer.indexOf(0x0a, start);
        if (nl < 0 || nl >= end) break;
        push(chunk, start, nl, nl + 1);
        start = nl + 1;
      }
      if (n === 0) {
        // The end of this input: what is left is its last line.
        if (start < end) push(chunk, start, end, end);
        if (chunk.items.length > 0) yield chunk;
        break;
      }
      if (chunk.items.length > 0) yield chunk;
      buffer.copyWithin(0, start, end);
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
