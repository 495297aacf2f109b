// The reference twin of assembly/lines-split.ts, `bloom dedupe`'s split
// mode (ReferenceSplitLines): it packs each item's bytes or, given a digest
// seed, computes its XXH64 digest with the reference hash, a streamed line
// whole at its end, as the wasm split instance does with its streamed hash.

import type { SplitCore } from '../wasm/lines.js';
import { xxh64 } from './hash.js';
import { linesCount } from './line-count.js';
import { LinesState, NEWLINE, RETURN } from './lines.js';

/**
 * The reference twin of assembly/lines-split.ts (linesConfigureSplit):
 * linesProcess packs the complete lines' items (or, given a digest seed,
 * their XXH64 digests under it), the caller writes one flag per item
 * (1 = new), and linesEmit compacts the lines to print and carries or
 * streams the rest. A chain decides.
 */
export class ReferenceSplitLines extends LinesState implements SplitCore {
  readonly digestSeed: bigint | null;
  private readonly packed: Uint8Array;
  private readonly offsets: Uint32Array;
  /** Digest mode: (lo, hi) of each item's digest. */
  private readonly digests: Uint32Array;
  /** Digest mode: the streamed line's pieces so far (hashed whole at its end). */
  private pieces: Uint8Array[] = [];
  /** Where each packed item's line starts in the input area (count + 1 entries: the last is the end). */
  private readonly starts: Uint32Array;
  private readonly flags: Uint8Array;
  private streaming = false;
  private itemCount = 0;
  private splitEnd = 0;
  private chunkEnd = 0;
  private finishing = false;

  /** The twin of linesConfigureSplit(size, printSeen, digests), digesting under `digestSeed` when it is not null. */
  constructor(size: number, printSeen: boolean, digestSeed: bigint | null = null) {
    super(size, printSeen);
    this.digestSeed = digestSeed;
    this.packed = new Uint8Array(digestSeed === null ? size : 0);
    this.digests = new Uint32Array(digestSeed === null ? 0 : 2 * (size + 2));
    this.offsets = new Uint32Array(size + 2);
    this.starts = new Uint32Array(size + 2);
    this.flags = new Uint8Array(size + 1);
  }

  /** End of the item of the line [start, stop): one \r before stop is stripped. */
  private itemEnd(start: number, stop: number): number {
    return stop > start && this.inputArea[stop - 1] === RETURN ? stop - 1 : stop;
  }

  /** Packs [start, end) as the next item (or its digest), whose line ends just before `next`. */
  private pack(start: number, end: number, next: number): void {
    if (this.digestSeed !== null) {
      this.digestInto(this.itemCount, this.inputArea.slice(start, end));
    } else {
      const at = this.offsets[this.itemCount];
      this.packed.set(this.inputArea.subarray(start, end), at);
      this.offsets[this.itemCount + 1] = at + end - start;
    }
    this.itemCount++;
    this.starts[this.itemCount] = next;
  }

  /** Digest mode: item i's digest is XXH64(item) under the seed, as (lo, hi). */
  private digestInto(i: number, item: Uint8Array): void {
    const h = xxh64(item, this.digestSeed!);
    this.digests[2 * i] = Number(h & 0xffffffffn);
    this.digests[2 * i + 1] = Number(h >> 32n);
  }

  /** Item 0 ends a streamed line with [start, end): in digest mode, the whole line's digest; else its last part, packed. */
  private packStreamEnd(start: number, end: number, next: number): void {
    if (this.digestSeed === null) {
      this.pack(start, end, next);
      return;
    }
    const parts = [...this.pieces, this.inputArea.subarray(start, end)];
    this.pieces = [];
    this.digestInto(0, Uint8Array.from(parts.flatMap((part) => Array.from(part))));
    this.itemCount = 1;
    this.starts[1] = next;
  }

  /** After the complete lines, [p, end) is the unfinished one: a piece when it is long, else carried. */
  private carryRest(p: number, end: number, out: number): void {
    if (!this.streaming && end - p < this.inputArea.length >> 1) {
      this.keep(p, end);
      return;
    }
    this.streaming = true;
    this.feedPiece(p, end, out, this.digestSeed !== null ? this.pieces : null);
  }

  /** See assembly/lines-split.ts splitChunk (linesProcess in split mode). */
  linesProcess(n: number): number {
    const input = this.inputArea;
    const end = this.carry + n;
    let p = 0;
    this.itemCount = 0;
    this.offsets[0] = 0;
    this.starts[0] = 0;
    this.streamEnd = 0;
    this.finishing = false;
    if (this.streaming) {
      const nl = input.subarray(0, end).indexOf(NEWLINE);
      if (nl >= 0) {
        this.packStreamEnd(0, this.itemEnd(0, nl), nl + 1);
        this.streamEnd = 3;
        p = nl + 1;
      } else {
        p = end;
      }
    }
    for (;;) {
      const found = input.subarray(p, end).indexOf(NEWLINE);
      if (found < 0) break;
      this.pack(p, this.itemEnd(p, p + found), p + found + 1);
      p += found + 1;
    }
    if (this.streamEnd === 3) this.streaming = false;
    else if (this.streaming) p = 0;
    this.splitEnd = p;
    this.chunkEnd = end;
    return this.itemCount;
  }

  /** See assembly/lines-split.ts linesEmit. */
  linesEmit(): number {
    let out = 0;
    let print = false;
    this.pieceLen = 0;
    for (let i = 0; i < this.itemCount; i++) {
      const start = this.starts[i];
      const next = this.starts[i + 1];
      print = (this.flags[i] !== 0) !== this.invert;
      this.lineCount++;
      if (print) {
        this.printedCount++;
        this.outputArea.set(this.inputArea.subarray(start, next), out);
        out += next - start;
      }
      if (i === 0 && this.streamEnd === 3) this.streamEnd = print ? 1 : 2;
    }
    if (this.finishing) {
      if (print) this.outputArea[out++] = NEWLINE;
      this.carry = 0;
      this.finishing = false;
    } else {
      this.carryRest(this.splitEnd, this.chunkEnd, out);
    }
    this.itemCount = 0;
    return out;
  }

  /** See assembly/lines-split.ts splitFinish (linesFinish in split mode). */
  linesFinish(): number {
    this.pieceLen = 0;
    this.streamEnd = 0;
    if (!this.streaming && this.carry === 0) return 0;
    this.itemCount = 0;
    this.offsets[0] = 0;
    this.starts[0] = 0;
    if (this.streaming) {
      this.packStreamEnd(0, this.itemEnd(0, this.carry), this.carry);
      this.streamEnd = 3;
    } else {
      this.pack(0, this.itemEnd(0, this.carry), this.carry);
    }
    this.streaming = false;
    this.finishing = true;
    return 1;
  }

  /** The packed items and their offsets. */
  packedItems(count: number): { bytes: Uint8Array; offsets: Uint32Array } {
    return { bytes: this.packed.subarray(0, this.offsets[count]), offsets: this.offsets.subarray(0, count + 1) };
  }

  /** Digest mode: the items' digests as (lo, hi) pairs. */
  itemDigests(count: number): Uint32Array {
    return this.digests.subarray(0, 2 * count);
  }

  /** The flags area. */
  linesCount(n: number): number {
    return linesCount(this.inputArea.subarray(0, n));
  }

  itemFlags(count: number): Uint8Array {
    return this.flags.subarray(0, count);
  }

  /** 1: a streamed line ended and is printed; 2: ended and dropped; 3: (before linesEmit) it is item 0; 0: neither. */
  linesStreamEnd(): number {
    return this.streamEnd;
  }

}
