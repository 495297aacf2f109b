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
// The views are cached so that a single add/has allocates no JS object on
// its own (no arrays, subarrays or closures). The one object left is
// encodeInto's { read, written } result for strings over SHORT_STRING units;
// once the call site is optimised V8 does not allocate it (the bench counts
// no GC over 1e6 calls).

import { BloomAllocationError } from '../errors.js';
import type { CheckedBatch, Item } from '../filter/items.js';
import type { FilterParams } from '../filter/options.js';
import { WASM_BASE64 } from './bytes.generated.js';

/** The exports of assembly/index.ts. */
export interface FilterExports {
  memory: WebAssembly.Memory;
  configure(bits: number, hashes: number, scheme: number, seedLo: number, seedHi: number): number;
  configureHashing(bits: number, hashes: number, scheme: number, seedLo: number, seedHi: number): number;
  add(len: number, wide: number): number;
  has(len: number, wide: number): number;
  addBatch(count: number, wide: number): number;
  hasBatch(count: number, wide: number): number;
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
  batchOffsetsPtr(): number;
  batchFlagsPtr(): number;
  batchMax(): number;
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
  // The Bitmap's exports (assembly/bitmap.ts).
  bitmapConfigure(size: number): number;
  bitmapClearAll(): void;
  bitmapFirstInvalid(n: number, signed: number): number;
  bitmapSetMany(n: number): number;
  bitmapHasMany(n: number, signed: number): number;
  bitmapNextValues(from: number, max: number): number;
}

let compiled: WebAssembly.Module | undefined;

/** Compiles the embedded module once, synchronously, on first use. */
export function filterModule(): WebAssembly.Module {
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
export function instantiate(bits: number, bytes: number): FilterExports {
  try {
    return new WebAssembly.Instance(filterModule(), {}).exports as unknown as FilterExports;
  } catch (error) {
    if (error instanceof RangeError) throw new BloomAllocationError(bits, bytes, error.message);
    throw error;
  }
}

const encoder = new TextEncoder();
const SCHEME_POLY = 1;

/**
 * Strings up to this many UTF-16 units are copied with a charCodeAt loop
 * when they are ASCII. Measured in bench/ on Node 20: the loop beats
 * TextEncoder.encodeInto (a call into C++ that also returns a fresh
 * { read, written } object) for short keys, and loses for 64-character URLs.
 */
const SHORT_STRING = 24;

/**
 * In a batch, strings up to this many units are joined and encoded in one
 * encodeInto call per chunk. Measured in bench/: about 4x cheaper per URL
 * than one call per string into a fresh subarray. Longer strings take the
 * single-item path: joining would copy them once more.
 */
const JOIN_MAX = 256;

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
  /** u32[batchMax + 1] at batchOffsetsPtr: byte offsets of a batch chunk's items in scratch. */
  private batchOffsets: Uint32Array;
  /** u8[batchMax] at batchFlagsPtr: the 0/1 results of a batch chunk. */
  private batchFlags: Uint8Array;
  /** The most items per batch chunk. */
  private readonly batchMax: number;
  /** The strings of the batch chunk being built (reused, emptied per chunk). */
  private readonly pending: string[] = [];
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
    this.batchMax = this.x.batchMax();
    [this.batchOffsets, this.batchFlags] = this.bindBatchViews();
  }

  /** Fresh views of the batch offsets and flags regions over the current buffer. */
  private bindBatchViews(): [Uint32Array, Uint8Array] {
    const buffer = this.x.memory.buffer;
    return [
      new Uint32Array(buffer, this.x.batchOffsetsPtr(), this.batchMax + 1),
      new Uint8Array(buffer, this.x.batchFlagsPtr(), this.batchMax),
    ];
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
    this.rebind();
    return true;
  }

  /**
   * Rebuilds the views after an export other than configure grew memory
   * (reserveLines, or the counting filter's countingConfigure).
   */
  rebind(): void {
    [this.scratch, this.scratchUnits, this.positionsOut] = this.bindViews();
    [this.batchOffsets, this.batchFlags] = this.bindBatchViews();
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
  stage(item: Item): number {
    if (typeof item === 'string') {
      const n = item.length;
      if (n <= SHORT_STRING) {
        // Short ASCII: its UTF-8 bytes are its code units (so this serves poly too).
        const scratch = this.scratch;
        let i = 0;
        for (; i < n; i++) {
          const c = item.charCodeAt(i);
          if (c > 0x7f) break;
          scratch[i] = c;
        }
        if (i === n) {
          this.wide = 0;
          return n;
        }
      }
      if (this.unitsForStrings) return this.stageUnits(item);
      if (n > this.maxUtf8Units) return this.streamUtf8(item);
      this.wide = 0;
      return encoder.encodeInto(item, this.scratch).written;
    }
    if (item.length > this.scratchSize) return this.streamBytes(item);
    this.scratch.set(item);
    this.wide = 0;
    return item.length;
  }

  /** Stages a string as UTF-16 code units (the poly scheme). */
  private stageUnits(item: string): number {
    const n = item.length;
    // An ASCII string's UTF-8 bytes are its code units, and encodeInto is the
    // fastest copy; written === n exactly when every unit was ASCII.
    if (n <= this.maxUtf8Units && encoder.encodeInto(item, this.scratch).written === n) {
      this.wide = 0;
      return n;
    }
    if (n > this.scratchUnits.length) return this.streamUnits(item);
    const units = this.scratchUnits;
    for (let i = 0; i < n; i++) units[i] = item.charCodeAt(i);
    this.wide = 1;
    return n;
  }

  /** Adds the item; true when a bit went from 0 to 1. */
  add(item: Item): boolean {
    const len = this.stage(item);
    return (len >= 0 ? this.x.add(len, this.wide) : this.x.streamAdd()) !== 0;
  }

  /** Tests the item. */
  has(item: Item): boolean {
    const len = this.stage(item);
    return (len >= 0 ? this.x.has(len, this.wide) : this.x.streamHas()) !== 0;
  }

  /** The item's positions in probe order. */
  positions(item: Item): number[] {
    const len = this.stage(item);
    if (len >= 0) this.x.positions(len, this.wide);
    else this.x.streamPositions();
    return Array.from(this.positionsOut);
  }

  /**
   * Adds (op 0) or tests (op 1) a checked batch, crossing into wasm once per
   * chunk of up to batchMax items that fit the scratch region together.
   */
  batch(batch: CheckedBatch, op: 0 | 1): Uint8Array {
    const flags = new Uint8Array(batch.count);
    if (batch.packed) this.batchPacked(batch.bytes, batch.offsets, batch.count, op, flags);
    else this.batchList(batch.list, op, flags);
    return flags;
  }

  /** Runs the staged chunk of `count` items and copies their flags to `flags` at `first`. */
  private runChunk(count: number, wide: number, op: 0 | 1, flags: Uint8Array, first: number): void {
    if (count === 0) return;
    if (op === 0) this.x.addBatch(count, wide);
    else this.x.hasBatch(count, wide);
    flags.set(this.batchFlags.subarray(0, count), first);
  }

  /** One item on its own, for items too long to share the scratch region. */
  private single(item: Item, op: 0 | 1): number {
    return (op === 0 ? this.add(item) : this.has(item)) ? 1 : 0;
  }

  /** Packed bytes: each chunk is one contiguous copy plus rebased offsets. */
  private batchPacked(bytes: Uint8Array, offsets: ArrayLike<number>, count: number, op: 0 | 1, flags: Uint8Array): void {
    const table = this.batchOffsets;
    let i = 0;
    while (i < count) {
      const base = offsets[i];
      if (offsets[i + 1] - base > this.scratchSize) {
        flags[i] = this.single(bytes.subarray(base, offsets[i + 1]), op);
        i++;
        continue;
      }
      let n = 0;
      table[0] = 0;
      while (i + n < count && n < this.batchMax && offsets[i + n + 1] - base <= this.scratchSize) {
        table[n + 1] = offsets[i + n + 1] - base;
        n++;
      }
      this.scratch.set(bytes.subarray(base, offsets[i + n]));
      this.runChunk(n, 0, op, flags, i);
      i += n;
    }
  }

  /**
   * A list: runs of strings and runs of Uint8Arrays become separate chunks.
   * A string chunk holds at most maxUtf8Units units, so its UTF-8 fits the
   * scratch region whatever the characters. Strings longer than JOIN_MAX
   * units go through the single-item path, in order: one crossing is small
   * next to hashing them, and it encodes them straight into scratch.
   */
  private batchList(list: readonly Item[], op: 0 | 1, flags: Uint8Array): void {
    const table = this.batchOffsets;
    const pending = this.pending;
    let first = 0; // index of the chunk's first item
    let units = 0; // string units (or bytes) staged in the chunk
    let strings = true; // the chunk's kind
    let n = 0;
    const flush = (): void => {
      if (n > 0) {
        if (strings) this.runStrings(n, units, op, flags, first);
        else this.runChunk(n, 0, op, flags, first);
      }
      first += n;
      n = 0;
      units = 0;
      // Truncating costs a runtime call even on an empty array: skip it then.
      if (pending.length !== 0) pending.length = 0;
    };
    table[0] = 0;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      const isString = typeof item === 'string';
      const size = item.length;
      const limit = isString ? this.maxUtf8Units : this.scratchSize;
      if (isString !== strings || n === this.batchMax || units + size > limit) {
        flush();
        strings = isString;
      }
      if (size > (isString ? JOIN_MAX : limit)) {
        flush();
        flags[i] = this.single(item, op);
        first = i + 1;
        continue;
      }
      if (isString) {
        pending.push(item as string);
      } else {
        this.scratch.set(item as Uint8Array, units);
        table[n + 1] = units + size;
      }
      units += size;
      n++;
    }
    flush();
  }

  /**
   * Encodes the pending strings (each at most JOIN_MAX units, `units` in all)
   * into scratch and runs them. They are joined and encoded by one
   * encodeInto call; when every unit was ASCII (written equals the joined
   * length) the offsets are the running string lengths. Otherwise each string
   * is encoded again on its own, or, under the poly scheme, copied as UTF-16
   * code units.
   */
  private runStrings(n: number, units: number, op: 0 | 1, flags: Uint8Array, first: number): void {
    const pending = this.pending;
    const table = this.batchOffsets;
    const scratch = this.scratch;
    const joined = n === 1 ? pending[0] : pending.join('');
    let wide = 0;
    if (encoder.encodeInto(joined, scratch).written === units) {
      let at = 0;
      for (let j = 0; j < n; j++) table[j + 1] = at += pending[j].length;
    } else if (this.unitsForStrings) {
      const codes = this.scratchUnits;
      let at = 0;
      for (let j = 0; j < n; j++) {
        const s = pending[j];
        for (let c = 0; c < s.length; c++) codes[at++] = s.charCodeAt(c);
        table[j + 1] = at << 1;
      }
      wide = 1;
    } else {
      let at = 0;
      for (let j = 0; j < n; j++) table[j + 1] = at += encoder.encodeInto(pending[j], scratch.subarray(at)).written;
    }
    this.runChunk(n, wide, op, flags, first);
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
