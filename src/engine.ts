// The marshalling boundary: one WebAssembly instance per filter, and the
// scratch region that items are copied into before each call.
//
// Each filter owns a whole instance (and so its own linear memory): dropping
// the filter drops the instance, and the engine frees the memory with it; no
// dispose() is needed, and one filter may use up to 4 GiB on its own.
//
// Memory grows in configure(), before any view is made, and at most once more
// when `bloom dedupe` reserves its lines region (reserveLines). Growing
// detaches the ArrayBuffer behind every view, so the views are built after
// each growth (bindViews) and never inside a hot loop.

import { BloomAllocationError } from './errors.js';
import type { FilterParams } from './options.js';
import { WASM_BASE64 } from './wasm-bytes.generated.js';

/** The exports of assembly/index.ts. */
interface FilterExports {
  memory: WebAssembly.Memory;
  configure(bits: number, hashes: number, scheme: number, seedLo: number, seedHi: number): number;
  configureHashing(bits: number, hashes: number, scheme: number, seedLo: number, seedHi: number): number;
  add(len: number, wide: number): number;
  has(len: number, wide: number): number;
  positions(len: number, wide: number): void;
  streamBegin(wide: number): void;
  streamUpdate(len: number): void;
  streamAdd(): number;
  streamHas(): number;
  streamPositions(): void;
  shardPositions(len: number, wide: number, shards: number): number;
  streamShardPositions(shards: number): number;
  bitsSet(): number;
  newAdds(): number;
  clear(): void;
  scratchPtr(): number;
  scratchSize(): number;
  positionsPtr(): number;
  bitsPtr(): number;
  linesConfigure(size: number, printSeen: number): number;
  linesProcess(n: number): number;
  linesFinish(): number;
  linesInput(): number;
  linesOutput(): number;
  linesCarry(): number;
  linesPiece(): number;
  linesStreamEnd(): number;
  linesRead(): number;
  linesPrinted(): number;
  unionScratch(offset: number, len: number): void;
  intersectScratch(offset: number, len: number): void;
  recountBits(): number;
  setCounters(bitsSet: number, adds: number): void;
  popcountScratch(len: number): number;
  checksumStart(): void;
  checksumScratch(len: number): void;
  checksumBits(): void;
  checksumEnd(): void;
}

let compiled: WebAssembly.Module | undefined;

/** Compiles the embedded module once, synchronously, on first use. */
function filterModule(): WebAssembly.Module {
  if (compiled === undefined) {
    const text = atob(WASM_BASE64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    compiled = new WebAssembly.Module(bytes);
  }
  return compiled;
}

/**
 * A new instance for a filter of `bits` bits. The engine reserves address
 * space for every wasm memory up front and throws a RangeError when it
 * cannot; that is the same failure as an oversized filter, so it is
 * reported as one.
 */
function instantiate(bits: number, bytes: number): FilterExports {
  try {
    return new WebAssembly.Instance(filterModule(), {}).exports as unknown as FilterExports;
  } catch (error) {
    if (error instanceof RangeError) throw new BloomAllocationError(bits, bytes, error.message);
    throw error;
  }
}

const encoder = new TextEncoder();
const SCHEME_POLY = 1;

/** One filter's wasm instance, with the item-copying logic in front of it. */
export class Engine {
  /** The instance's exports. */
  readonly x: FilterExports;
  /** Whole-scratch byte view at scratchPtr: UTF-8 and byte items go here. */
  private scratch: Uint8Array;
  /** The same region as UTF-16 code units, for the poly scheme's strings. */
  private scratchUnits: Uint16Array;
  /** f64[k] at positionsPtr: positions() writes here. */
  private positionsOut: Float64Array;
  /** Byte length of the scratch region. */
  private readonly scratchSize: number;
  /** Longest string (in UTF-16 units) whose UTF-8 surely fits the scratch (3 bytes per unit). */
  private readonly maxUtf8Units: number;
  /** Whether strings are hashed as UTF-16 code units (poly) rather than UTF-8. */
  private readonly unitsForStrings: boolean;
  /** k, the length of positionsOut. */
  private readonly hashes: number;
  /** Whether the staged item is u16 code units; passed to the exports. */
  private wide = 0;
  /** Offset of the packed bits. */
  readonly bitsPtr: number;
  /** Bytes of the packed bits. */
  readonly byteLength: number;

  /**
   * With `hashOnly`, the instance reserves no memory for the bits: it only
   * computes positions and shards for bits kept elsewhere (bloomwasm/redis),
   * and add, has, clear and bitsView must not be called.
   */
  constructor(params: FilterParams, hashOnly = false) {
    this.byteLength = Math.ceil(params.bits / 8);
    this.x = instantiate(params.bits, this.byteLength);
    const seedLo = Number(params.seed & 0xffffffffn);
    const seedHi = Number(params.seed >> 32n);
    const status = hashOnly
      ? this.x.configureHashing(params.bits, params.hashes, params.schemeId, seedLo, seedHi)
      : this.x.configure(params.bits, params.hashes, params.schemeId, seedLo, seedHi);
    if (status !== 0) throw new BloomAllocationError(params.bits, hashOnly ? 0 : this.byteLength);
    this.scratchSize = this.x.scratchSize();
    this.hashes = params.hashes;
    [this.scratch, this.scratchUnits, this.positionsOut] = this.bindViews();
    this.maxUtf8Units = Math.floor(this.scratchSize / 3);
    this.unitsForStrings = params.schemeId === SCHEME_POLY;
    this.bitsPtr = this.x.bitsPtr();
  }

  /** Fresh views of the scratch region and the positions region over the current buffer. */
  private bindViews(): [Uint8Array, Uint16Array, Float64Array] {
    const buffer = this.x.memory.buffer;
    const ptr = this.x.scratchPtr();
    return [
      new Uint8Array(buffer, ptr, this.scratchSize),
      new Uint16Array(buffer, ptr, this.scratchSize >> 1),
      new Float64Array(buffer, this.x.positionsPtr(), this.hashes),
    ];
  }

  /**
   * Reserves the lines region of assembly/lines.ts (input and output areas
   * of `size` bytes each) and rebinds the views that the growth detached.
   * False when memory cannot grow that far.
   */
  reserveLines(size: number, printSeen: boolean): boolean {
    if (this.x.linesConfigure(size, printSeen ? 1 : 0) !== 0) return false;
    [this.scratch, this.scratchUnits, this.positionsOut] = this.bindViews();
    return true;
  }

  /**
   * The file checksum, XXH64 (seed 0) of `header` and then this filter's
   * bits, read in place. Runs begin to end synchronously, so no streamed
   * item can interleave with it.
   */
  checksum(header: Uint8Array): bigint {
    this.x.checksumStart();
    this.eachChunk(header, (len) => this.x.checksumScratch(len));
    this.x.checksumBits();
    this.x.checksumEnd();
    return this.digest();
  }

  /** The u64 that checksumEnd left in the first 8 bytes of scratch. */
  private digest(): bigint {
    return new DataView(this.scratch.buffer, this.scratch.byteOffset, 8).getBigUint64(0, true);
  }

  /**
   * The checksum of `header` then `payload`, and the number of 1 bits in
   * `payload`, in one pass through scratch: what fromBytes needs to know
   * about bytes that are not yet any filter's.
   */
  inspect(header: Uint8Array, payload: Uint8Array): { checksum: bigint; ones: number } {
    let ones = 0;
    this.x.checksumStart();
    this.eachChunk(header, (len) => this.x.checksumScratch(len));
    this.eachChunk(payload, (len) => {
      this.x.checksumScratch(len);
      ones += this.x.popcountScratch(len);
    });
    this.x.checksumEnd();
    return { checksum: this.digest(), ones };
  }

  /**
   * ORs (union) or ANDs (intersect) another instance's bits into this one's:
   * they live in another linear memory, so they come over through scratch a
   * chunk at a time and the word-wise loop runs here. Then bitsSet is
   * recounted exactly with popcnt.
   */
  combine(other: Engine, operation: 'union' | 'intersect'): void {
    const theirs = other.bitsView();
    const step = operation === 'union' ? this.x.unionScratch : this.x.intersectScratch;
    for (let at = 0; at < theirs.length; at += this.scratchSize) {
      const len = Math.min(this.scratchSize, theirs.length - at);
      this.scratch.set(theirs.subarray(at, at + len));
      step(at, len);
    }
    this.x.recountBits();
  }

  /** Copies `bytes` into scratch one chunk at a time and calls `use(len)` on each. */
  private eachChunk(bytes: Uint8Array, use: (len: number) => void): void {
    for (let at = 0; at < bytes.length; at += this.scratchSize) {
      const len = Math.min(this.scratchSize, bytes.length - at);
      this.scratch.set(bytes.subarray(at, at + len));
      use(len);
    }
  }

  /** A live view of the packed bits (valid for the filter's life). */
  bitsView(): Uint8Array {
    return new Uint8Array(this.x.memory.buffer, this.bitsPtr, this.byteLength);
  }

  /**
   * Copies `item` into scratch and returns its length in units, or -1 when it
   * was too long and has been streamed through streamBegin/streamUpdate
   * instead (the caller then calls a stream* finisher).
   */
  stage(item: string | Uint8Array): number {
    if (typeof item === 'string') {
      if (this.unitsForStrings) {
        const n = item.length;
        if (n > this.scratchUnits.length) return this.streamUnits(item);
        const units = this.scratchUnits;
        for (let i = 0; i < n; i++) units[i] = item.charCodeAt(i);
        this.wide = 1;
        return n;
      }
      if (item.length > this.maxUtf8Units) return this.streamUtf8(item);
      this.wide = 0;
      return encoder.encodeInto(item, this.scratch).written;
    }
    if (item.length > this.scratchSize) return this.streamBytes(item);
    this.scratch.set(item);
    this.wide = 0;
    return item.length;
  }

  /** Adds the item; true when a bit went from 0 to 1. */
  add(item: string | Uint8Array): boolean {
    const len = this.stage(item);
    return (len >= 0 ? this.x.add(len, this.wide) : this.x.streamAdd()) !== 0;
  }

  /** Tests the item. */
  has(item: string | Uint8Array): boolean {
    const len = this.stage(item);
    return (len >= 0 ? this.x.has(len, this.wide) : this.x.streamHas()) !== 0;
  }

  /** The item's positions in probe order. */
  positions(item: string | Uint8Array): number[] {
    const len = this.stage(item);
    if (len >= 0) this.x.positions(len, this.wide);
    else this.x.streamPositions();
    return Array.from(this.positionsOut);
  }

  /**
   * The item's shard in [0, shards); its positions are left in `probed`
   * until the next call (read them before staging another item).
   */
  shardPositions(item: string | Uint8Array, shards: number): number {
    const len = this.stage(item);
    return len >= 0 ? this.x.shardPositions(len, this.wide, shards) : this.x.streamShardPositions(shards);
  }

  /** f64[k]: the positions written by the last positions or shardPositions call. */
  get probed(): Float64Array {
    return this.positionsOut;
  }

  private streamBytes(item: Uint8Array): number {
    this.x.streamBegin(0);
    for (let at = 0; at < item.length; at += this.scratchSize) {
      const end = Math.min(item.length, at + this.scratchSize);
      this.scratch.set(item.subarray(at, end));
      this.x.streamUpdate(end - at);
    }
    return -1;
  }

  private streamUtf8(item: string): number {
    this.x.streamBegin(0);
    for (let at = 0; at < item.length; ) {
      let end = Math.min(item.length, at + this.maxUtf8Units);
      // Never split a surrogate pair: both halves must reach one encodeInto.
      const last = item.charCodeAt(end - 1);
      if (end < item.length && last >= 0xd800 && last <= 0xdbff) end--;
      this.x.streamUpdate(encoder.encodeInto(item.slice(at, end), this.scratch).written);
      at = end;
    }
    return -1;
  }

  private streamUnits(item: string): number {
    const units = this.scratchUnits;
    this.x.streamBegin(1);
    for (let at = 0; at < item.length; at += units.length) {
      const n = Math.min(units.length, item.length - at);
      for (let i = 0; i < n; i++) units[i] = item.charCodeAt(at + i);
      this.x.streamUpdate(n);
    }
    return -1;
  }
}

let checker: Engine | undefined;

/**
 * A shared 8-bit instance for inspect(): fromBytes validates a whole input
 * with it before the filter the header asks for is allocated.
 */
export function checkerEngine(): Engine {
  checker ??= new Engine({ bits: 8, hashes: 1, scheme: 'xxh64', schemeId: 0, seed: 0n });
  return checker;
}
