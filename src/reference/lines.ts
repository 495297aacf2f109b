// The reference twin of assembly/lines.ts in filter mode: the same areas,
// calls and results, written plainly over the reference BloomFilter, one
// line at a time (the wasm groups of lines decide exactly as this does).
// A streamed (long) line is collected as byte pieces and added whole at
// its end.

import type { LinesCore } from '../wasm/lines.js';

/** What the line core adds each line's bytes to: a reference BloomFilter, or a ScalableBloomFilter (bloom dedupe's chain). */
export interface LineSink {
  add(item: Uint8Array): boolean;
}

const NEWLINE = 10;
const RETURN = 13;

/** Line splitting and test-and-set over a reference filter, mirroring assembly/lines.ts. */
export class ReferenceLines implements LinesCore {
  /** Carried bytes of an unfinished line, then the bytes read. */
  readonly inputArea: Uint8Array;
  /** The lines to print, then the piece of a streamed line. */
  readonly outputArea: Uint8Array;
  private readonly filter: LineSink;
  private readonly invert: boolean;
  private carry = 0;
  /** The streamed line's pieces so far, or null when not streaming. */
  private streamed: Uint8Array[] | null = null;
  private pieceLen = 0;
  private streamEnd = 0;
  private lineCount = 0;
  private printedCount = 0;

  /** The twin of linesConfigure(size, printSeen) on `filter`. */
  constructor(filter: LineSink, size: number, printSeen: boolean) {
    this.filter = filter;
    this.inputArea = new Uint8Array(size);
    this.outputArea = new Uint8Array(size + 64);
    this.invert = printSeen;
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

  /** Streams [p, end) as a piece at output offset `out`, holding back a last \r. */
  private feedPiece(p: number, end: number, out: number): void {
    let fed = end;
    if (fed > p && this.inputArea[fed - 1] === RETURN) fed--;
    this.streamed!.push(this.inputArea.slice(p, fed));
    this.outputArea.set(this.inputArea.subarray(p, fed), out);
    this.pieceLen = fed - p;
    this.keep(fed, end);
  }

  private keep(from: number, end: number): void {
    this.inputArea.copyWithin(0, from, end);
    this.carry = end - from;
  }

  /** See assembly/lines.ts linesProcess. */
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
        this.feedPiece(0, end, 0);
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
      this.feedPiece(p, end, out);
    } else {
      this.keep(p, end);
    }
    return out;
  }

  /** See assembly/lines.ts linesFinish. */
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

  /** Bytes carried at the start of the input area. */
  linesCarry(): number {
    return this.carry;
  }

  /** Bytes of the streamed line's piece after the printed lines. */
  linesPiece(): number {
    return this.pieceLen;
  }

  /** 1: a streamed line ended and is printed; 2: ended and dropped; 0: neither. */
  linesStreamEnd(): number {
    return this.streamEnd;
  }

  /** Lines read. */
  linesRead(): number {
    return this.lineCount;
  }

  /** Lines printed. */
  linesPrinted(): number {
    return this.printedCount;
  }
}
