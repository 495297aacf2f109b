// Line-by-line dedupe over a filter: the JS half of assembly/lines.ts.
// The caller reads bytes straight into `input()` (wasm memory, no copy),
// calls push(n), and writes out the chunks it returns, in order. Lines stay
// bytes from end to end: nothing here decodes them into strings.

import { BloomAllocationError } from '../errors.js';
import { engineOf, type BloomFilter } from '../filter/filter.js';

/** The line-splitting core: assembly/lines.ts's exports, or the reference twin in src/reference/lines.ts. */
export interface LinesCore {
  /** The whole input area (carried bytes first). */
  readonly inputArea: Uint8Array;
  /** The whole output area. */
  readonly outputArea: Uint8Array;
  linesProcess(n: number): number;
  linesFinish(): number;
  linesCarry(): number;
  linesPiece(): number;
  linesStreamEnd(): number;
  linesRead(): number;
  linesPrinted(): number;
}

/** Input area sizes tried in turn: the largest that still fits after the bits wins. */
export const LINES_AREA_SIZES = [1 << 20, 1 << 18, 1 << 16, 1 << 14, 1 << 12];

/** Binds assembly/lines.ts in the filter's own instance, reserving its region once. */
export function wasmLines(filter: BloomFilter, printSeen: boolean, sizes = LINES_AREA_SIZES): LinesCore {
  const engine = engineOf(filter);
  const size = sizes.find((s) => engine.reserveLines(s, printSeen));
  if (size === undefined) throw new BloomAllocationError(filter.bits, engine.byteLength + 2 * sizes[sizes.length - 1]);
  const x = engine.linesExports();
  // Views are made after the growth in reserveLines, and memory never grows again.
  const buffer = x.memory.buffer;
  return {
    inputArea: new Uint8Array(buffer, x.linesInput(), size),
    outputArea: new Uint8Array(buffer, x.linesOutput(), size + 64),
    linesProcess: (n) => x.linesProcess(n),
    linesFinish: () => x.linesFinish(),
    linesCarry: () => x.linesCarry(),
    linesPiece: () => x.linesPiece(),
    linesStreamEnd: () => x.linesStreamEnd(),
    linesRead: () => x.linesRead(),
    linesPrinted: () => x.linesPrinted(),
  };
}

/** Feeds a byte stream through a LinesCore and hands back what to print. */
export class LineDeduper {
  private readonly core: LinesCore;
  /** Pieces of a streamed (long) line, held until the filter decides on it. */
  private pieces: Uint8Array[] = [];

  /** Drives `core`. */
  constructor(core: LinesCore) {
    this.core = core;
  }

  /** Where to read the next bytes: the input area after the carried ones. */
  input(): Uint8Array {
    return this.core.inputArea.subarray(this.core.linesCarry());
  }

  /** Processes `n` bytes read into input(); returns the chunks to write, in order (valid until the next call). */
  push(n: number): Uint8Array[] {
    return this.collect(this.core.linesProcess(n));
  }

  /** Ends the stream (the carried bytes are the last line); returns the chunks to write. */
  finish(): Uint8Array[] {
    return this.collect(this.core.linesFinish());
  }

  /** Lines read so far. */
  get linesRead(): number {
    return this.core.linesRead();
  }

  /** Lines printed so far. */
  get linesPrinted(): number {
    return this.core.linesPrinted();
  }

  private collect(outLen: number): Uint8Array[] {
    const core = this.core;
    const chunks: Uint8Array[] = [];
    const ended = core.linesStreamEnd();
    if (ended !== 0) {
      if (ended === 1) chunks.push(...this.pieces);
      this.pieces = [];
    }
    if (outLen > 0) chunks.push(core.outputArea.subarray(0, outLen));
    const piece = core.linesPiece();
    // A copy: the output area is reused by the next call.
    if (piece > 0) this.pieces.push(core.outputArea.slice(outLen, outLen + piece));
    return chunks;
  }
}
