// The reference twin of assembly/lines-filter.ts, `bloom dedupe`'s filter
// mode (ReferenceLines): the same areas, calls and results as the wasm
// filter mode, written plainly over the reference BloomFilter, one line at a
// time (the wasm groups of lines decide exactly as this does). A streamed
// (long) line is collected as byte pieces and added whole at its end.

import type { LinesCore } from '../wasm/lines.js';
import { LinesState, NEWLINE, RETURN } from './lines.js';

/** What the line core adds each line's bytes to: a reference BloomFilter, or a ScalableBloomFilter (bloom dedupe's chain). */
export interface LineSink {
  add(item: Uint8Array): boolean;
}

/** Line splitting and test-and-set over a reference filter, mirroring assembly/lines-filter.ts. */
export class ReferenceLines extends LinesState implements LinesCore {
  private readonly filter: LineSink;
  /** The streamed line's pieces so far, or null when not streaming. */
  private streamed: Uint8Array[] | null = null;

  /** The twin of linesConfigure(size, printSeen) on `filter`. */
  constructor(filter: LineSink, size: number, printSeen: boolean) {
    super(size, printSeen);
    this.filter = filter;
  }

  /** Test-and-set of one line's item; true when it is printed. */
  private decide(item: Uint8Array): boolean {
    this.lineCount++;
    const print = this.filter.add(item) !== this.invert;
    if (print) this.printedCount++;
    return print;
  }

  /** The item of the line [start, stop), where stop is its \n or the end of the input: one \r before it is stripped. */
  private item(start: number, stop: number): Uint8Array {
    const end = stop > start && this.inputArea[stop - 1] === RETURN ? stop - 1 : stop;
    return this.inputArea.slice(start, end);
  }

  /** The streamed pieces and then `tail`, as one item. */
  private whole(tail: Uint8Array): Uint8Array {
    const parts = [...this.streamed!, tail];
    const item = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      item.set(part, at);
      at += part.length;
    }
    return item;
  }

  /** See assembly/lines-filter.ts linesProcess. */
  linesProcess(n: number): number {
    const input = this.inputArea;
    const end = this.carry + n;
    let p = 0;
    let out = 0;
    this.pieceLen = 0;
    this.streamEnd = 0;
    if (this.streamed !== null) {
      const nl = input.subarray(0, end).indexOf(NEWLINE);
      if (nl < 0) {
        this.feedPiece(0, end, 0, this.streamed);
        return 0;
      }
      const whole = this.whole(this.item(0, nl));
      this.streamed = null;
      if (this.decide(whole)) {
        this.outputArea.set(input.subarray(0, nl + 1), out);
        out += nl + 1;
        this.streamEnd = 1;
      } else {
        this.streamEnd = 2;
      }
      p = nl + 1;
    }
    for (;;) {
      const found = input.subarray(p, end).indexOf(NEWLINE);
      if (found < 0) break;
      const nl = p + found;
      if (this.decide(this.item(p, nl))) {
        this.outputArea.set(input.subarray(p, nl + 1), out);
        out += nl + 1 - p;
      }
      p = nl + 1;
    }
    if (end - p >= this.inputArea.length >> 1) {
      this.streamed = [];
      this.feedPiece(p, end, out, this.streamed);
    } else {
      this.keep(p, end);
    }
    return out;
  }

  /** See assembly/lines-filter.ts linesFinish. */
  linesFinish(): number {
    this.pieceLen = 0;
    this.streamEnd = 0;
    const wasStreaming = this.streamed !== null;
    if (!wasStreaming && this.carry === 0) return 0;
    const last = this.inputArea.slice(0, this.carry);
    const tail = this.item(0, this.carry);
    const item = wasStreaming ? this.whole(tail) : tail;
    this.streamed = null;
    let out = 0;
    const print = this.decide(item);
    if (print) {
      this.outputArea.set(last, 0);
      this.outputArea[last.length] = NEWLINE;
      out = last.length + 1;
    }
    if (wasStreaming) this.streamEnd = print ? 1 : 2;
    this.carry = 0;
    return out;
  }

  /** 1: a streamed line ended and is printed; 2: ended and dropped; 0: neither. */
  linesStreamEnd(): number {
    return this.streamEnd;
  }

}
