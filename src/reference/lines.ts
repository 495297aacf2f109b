// The reference twin of assembly/lines.ts: what both modes of `bloom
// dedupe`'s line splitter keep, written plainly. Filter mode
// (ReferenceLines) is src/reference/lines-filter.ts and split mode
// (ReferenceSplitLines) src/reference/lines-split.ts, as assembly/ splits
// them: each mode's class extends LinesState here, as the wasm mode files
// share the module state of assembly/lines.ts. (That state also holds split
// mode's item areas, since configuring either mode resets all of it; here
// ReferenceSplitLines keeps its own.)

export const NEWLINE = 10;
export const RETURN = 13;

/**
 * What both modes keep, as assembly/lines.ts keeps it for either: the two
 * areas, the carried bytes, the streamed line's piece and the counts, with
 * the exports that read them.
 */
export abstract class LinesState {
  /** Carried bytes of an unfinished line, then the bytes read. */
  readonly inputArea: Uint8Array;
  /** The lines to print, then the piece of a streamed line. */
  readonly outputArea: Uint8Array;
  protected readonly invert: boolean;
  protected carry = 0;
  protected pieceLen = 0;
  protected streamEnd = 0;
  protected lineCount = 0;
  protected printedCount = 0;

  constructor(size: number, printSeen: boolean) {
    this.inputArea = new Uint8Array(size);
    this.outputArea = new Uint8Array(size + 64);
    this.invert = printSeen;
  }

  /** Moves input bytes [from, end) to the start of the input area, carried. */
  protected keep(from: number, end: number): void {
    this.inputArea.copyWithin(0, from, end);
    this.carry = end - from;
  }

  /**
   * Hands the unfinished streamed line [p, end) to JS as a piece at output
   * offset `out`, holding back a last \r that may end the line; `held`
   * collects the pieces when this instance hashes the line (assembly/lines.ts
   * feedPiece feeds its streamed hash there).
   */
  protected feedPiece(p: number, end: number, out: number, held: Uint8Array[] | null): void {
    let fed = end;
    if (fed > p && this.inputArea[fed - 1] === RETURN) fed--;
    held?.push(this.inputArea.slice(p, fed));
    this.outputArea.set(this.inputArea.subarray(p, fed), out);
    this.pieceLen = fed - p;
    this.keep(fed, end);
  }

  /** Bytes carried at the start of the input area. */
  linesCarry(): number {
    return this.carry;
  }

  /** Bytes of the streamed line's piece after the printed lines. */
  linesPiece(): number {
    return this.pieceLen;
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
