// Line-by-line dedupe: the JS half of assembly/lines.ts.
// The caller reads bytes straight into `inputArea` at `inputStart` (wasm
// memory, no copy), calls push(n, write), and its writer gets the output,
// in order. Lines stay bytes from end to end: nothing here decodes them into
// strings.
//
// Views into wasm memory are taken through `area()`. The input and output
// areas' views are kept from chunk to chunk, so that a chunk of filter mode
// allocates nothing (LineDeduper), and made again whenever the memory's
// ArrayBuffer has changed: memory.grow detaches the old buffer, and a kept
// view would then read nothing. The other views are made where they are
// used.

import { BloomAllocationError, BloomDisposedError } from '../errors.js';
import type { LinesExports } from './abi.js';
import type { Engine } from './engine.js';
import { Kind, REFUSED, schemeRecord } from './arena.js';
import { place } from './placement.js';
import { linesModuleOf } from './lines-module.js';
import { reserveLines } from './lines-region.js';

/** The line-splitting core: assembly/lines.ts's exports in filter mode (assembly/lines-filter.ts), or the reference twin in src/reference/lines-filter.ts. */
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

/** The split-mode core: assembly/lines.ts's split-mode exports (assembly/lines-split.ts), or ReferenceSplitLines in src/reference/lines-split.ts. */
export interface SplitCore extends LinesCore {
  /** The seed the items are digested with (digest mode), or null when they are packed as bytes. */
  readonly digestSeed: bigint | null;
  /** Compacts the lines whose flags ask for printing; returns the bytes of output. */
  linesEmit(): number;
  /** The packed items of the last linesProcess or linesFinish: `count` items, their bytes and count + 1 offsets. */
  packedItems(count: number): { bytes: Uint8Array; offsets: Uint32Array };
  /** Digest mode: the digests of the last linesProcess or linesFinish's `count` items, as (lo, hi) pairs. */
  itemDigests(count: number): Uint32Array;
  /** Where the chain's answer for each of the `count` items goes (1 = new). */
  itemFlags(count: number): Uint8Array;
  /**
   * How many of the first `n` bytes of the input area are \n: a counting
   * pass over a file (src/cli/io.ts's countLines) that uses the input area
   * before any line is processed.
   */
  linesCount(n: number): number;
}

/**
 * Input area sizes tried in turn: the largest that still fits after the bits
 * wins. 256 KiB chunks hold thousands of lines, so the crossing per chunk
 * costs nothing measurable, and the input and output areas are resident for
 * the whole run: 1 MiB chunks measured no faster on 10^7 URLs and kept
 * 1.5 MiB more.
 */
export const LINES_AREA_SIZES = [1 << 18, 1 << 16, 1 << 14, 1 << 12];

/**
 * Split mode's sizes, the same. Its region also has a u32 line start, a u8
 * flag and either a u32 offset and the packed bytes or a u64 digest for
 * each possible line (one per input byte), but only the pages that a
 * chunk's lines reach are ever written: a few KiB for URLs.
 */
export const SPLIT_AREA_SIZES = LINES_AREA_SIZES;

/**
 * A view of `length` bytes at `ptr` in `x`'s memory, over the buffer as it
 * is now. The lines region lies after the bits, so past 2 GiB in a filter
 * of more than 2^34 bits, where a pointer comes back from wasm as a
 * negative i32: read it as u32.
 */
function area(x: LinesExports, ptr: number, length: number): Uint8Array {
  return new Uint8Array(x.memory.buffer, ptr >>> 0, length);
}

/** What a lines export returned, or BloomDisposedError when it refused the record as released. */
function checked(v: number): number {
  if (v === REFUSED) throw new BloomDisposedError('BloomFilter.dedupe');
  return v;
}

/**
 * The filter-mode LinesCore over exports `x` whose areas hold `size` bytes,
 * adding to record `r` of `generation` (in split mode, the record whose seed
 * the digests are hashed under).
 */
function bindCore(x: LinesExports, size: number, r: number, generation: number): LinesCore {
  let buffer: ArrayBufferLike | undefined;
  let input: Uint8Array = new Uint8Array(0);
  let output: Uint8Array = new Uint8Array(0);
  // Rebuilt only when memory has grown (a new ArrayBuffer), never per chunk:
  // two views made per chunk cost a run over 10^7 URLs (a file, --capacity)
  // a second scavenge, which grew the young generation, and the peak RSS
  // rose by 0.4 to 0.5 MB (of 75) on average.
  const refresh = (): void => {
    if (buffer === x.memory.buffer) return;
    buffer = x.memory.buffer;
    input = area(x, x.linesInput(), size);
    output = area(x, x.linesOutput(), size + 64);
  };
  return {
    get inputArea() {
      refresh();
      return input;
    },
    get outputArea() {
      refresh();
      return output;
    },
    linesProcess: (n) => checked(x.linesProcess(r, generation, n)),
    linesFinish: () => checked(x.linesFinish(r, generation)),
    linesCarry: () => x.linesCarry(),
    linesPiece: () => x.linesPiece(),
    linesStreamEnd: () => x.linesStreamEnd(),
    linesRead: () => x.linesRead(),
    linesPrinted: () => x.linesPrinted(),
  };
}

/** The split-mode SplitCore over exports `x` whose areas hold `size` bytes. */
function bindSplit(x: LinesExports, size: number, digestSeed: bigint | null, r: number, generation: number): SplitCore {
  const core = bindCore(x, size, r, generation);
  return Object.assign(core, {
    digestSeed,
    linesEmit: () => checked(x.linesEmit(r, generation)),
    packedItems: (count: number) => {
      const offsets = new Uint32Array(x.memory.buffer, x.linesOffsets() >>> 0, count + 1);
      return { bytes: area(x, x.linesPacked(), offsets[count]), offsets };
    },
    itemFlags: (count: number) => area(x, x.linesFlags(), count),
    itemDigests: (count: number) => new Uint32Array(x.memory.buffer, x.linesDigests() >>> 0, 2 * count),
    linesCount: (n: number) => x.linesCount(x.linesInput() >>> 0, n),
  });
}

/**
 * Binds assembly/lines.ts in split mode in a small instance of its own,
 * which holds no bits: it splits, compacts, and either packs each line's
 * bytes or, given a `digestSeed`, hashes each line into its digest under
 * that seed (the instance is configured as an xxh64 filter with it, so its
 * XXH64 is digest(item, { seed })).
 */
export function wasmSplitLines(printSeen: boolean, sizes = SPLIT_AREA_SIZES, digestSeed: bigint | null = null): SplitCore {
  // A hashing record in an arena of its own: nothing else runs there.
  const { arena, record, generation } = place(schemeRecord({ bits: 8, hashes: 1, schemeId: 0, seed: digestSeed ?? 0n }, Kind.Hashing), true);
  const x = linesModuleOf(arena);
  const digests = digestSeed === null ? 0 : 1;
  const size = sizes.find((s) => x.linesConfigureSplit(s, printSeen ? 1 : 0, digests) === 0);
  if (size === undefined) throw new BloomAllocationError(8, 19 * sizes[sizes.length - 1]);
  return bindSplit(x, size, digestSeed, record, generation);
}

/** Binds assembly/lines.ts in filter mode, for `engine`'s filter, in the instance that holds it, reserving its region once. */
export function wasmLines(engine: Engine, printSeen: boolean, sizes = LINES_AREA_SIZES): LinesCore {
  const size = sizes.find((s) => reserveLines(engine, s, printSeen));
  if (size === undefined) throw new BloomAllocationError(engine.bits, engine.byteLength + 2 * sizes[sizes.length - 1]);
  return bindCore(linesModuleOf(engine.liveArena('dedupe')), size, engine.walkRecord(), engine.walkGeneration());
}

/** Receives what to print: the first `length` bytes of `bytes` (valid only during the call). */
export type LinesWriter = (bytes: Uint8Array, length: number) => void;

/**
 * Feeds a byte stream through a LinesCore and hands what to print to a
 * writer. Nothing is allocated per chunk (the caller reads into the whole
 * input area at an offset, and the writer gets the whole output area and a
 * length): the young generation would otherwise grow with the chunks of a
 * long run, and with it the peak RSS.
 */
export class LineDeduper {
  protected readonly core: LinesCore;
  /** Pieces of a streamed (long) line, held until the filter decides on it. */
  protected pieces: Uint8Array[] = [];

  /** Drives `core`. */
  constructor(core: LinesCore) {
    this.core = core;
  }

  /** The whole input area: read the next bytes into it from inputStart on. */
  get inputArea(): Uint8Array {
    return this.core.inputArea;
  }

  /** Where the next bytes go in inputArea: after the ones carried from the last chunk. */
  get inputStart(): number {
    return this.core.linesCarry();
  }

  /** Processes `n` bytes read into inputArea at inputStart; hands what to print to `write`, in order. */
  push(n: number, write: LinesWriter): void {
    this.collect(this.core.linesProcess(n), write);
  }

  /** Ends the stream (the carried bytes are the last line); hands what to print to `write`. */
  finish(write: LinesWriter): void {
    this.collect(this.core.linesFinish(), write);
  }

  /** Lines read so far. */
  get linesRead(): number {
    return this.core.linesRead();
  }

  /** Lines printed so far. */
  get linesPrinted(): number {
    return this.core.linesPrinted();
  }

  /** Writes what to print after a call that left `outLen` bytes of printed lines, and keeps a streamed line's piece. */
  protected collect(outLen: number, write: LinesWriter): void {
    const core = this.core;
    const ended = core.linesStreamEnd();
    if (ended !== 0) {
      if (ended === 1) for (const piece of this.pieces) write(piece, piece.length);
      this.pieces = [];
    }
    if (outLen > 0) write(core.outputArea, outLen);
    const piece = core.linesPiece();
    // A copy: the output area is reused by the next call.
    if (piece > 0) this.pieces.push(core.outputArea.slice(outLen, outLen + piece));
  }
}
