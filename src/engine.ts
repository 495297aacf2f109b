// The marshalling boundary: one WebAssembly instance per filter, and the
// scratch region that items are copied into before each call.
//
// Each filter owns a whole instance (and so its own linear memory): dropping
// the filter drops the instance, and the engine frees the memory with it; no
// dispose() is needed, and one filter may use up to 4 GiB on its own.
//
// Memory grows exactly once, in configure(), before any view is made. Growing
// would detach the ArrayBuffer behind every view, so the views are built
// after it and stay valid for the filter's life.

import { BloomAllocationError } from './errors.js';
import type { FilterParams } from './options.js';
import { WASM_BASE64 } from './wasm-bytes.generated.js';

/** The exports of assembly/index.ts. */
interface FilterExports {
  memory: WebAssembly.Memory;
  configure(bits: number, hashes: number, scheme: number, seedLo: number, seedHi: number): number;
  add(len: number, wide: number): number;
  has(len: number, wide: number): number;
  positions(len: number, wide: number): void;
  streamBegin(wide: number): void;
  streamUpdate(len: number): void;
  streamAdd(): number;
  streamHas(): number;
  streamPositions(): void;
  bitsSet(): number;
  newAdds(): number;
  clear(): void;
  scratchPtr(): number;
  scratchSize(): number;
  positionsPtr(): number;
  bitsPtr(): number;
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
  private readonly scratch: Uint8Array;
  /** The same region as UTF-16 code units, for the poly scheme's strings. */
  private readonly scratchUnits: Uint16Array;
  /** f64[k] at positionsPtr: positions() writes here. */
  private readonly positionsOut: Float64Array;
  /** Byte length of the scratch region. */
  private readonly scratchSize: number;
  /** Longest string (in UTF-16 units) whose UTF-8 surely fits the scratch (3 bytes per unit). */
  private readonly maxUtf8Units: number;
  /** Whether strings are hashed as UTF-16 code units (poly) rather than UTF-8. */
  private readonly unitsForStrings: boolean;
  /** Whether the staged item is u16 code units; passed to the exports. */
  private wide = 0;
  /** Offset of the packed bits. */
  readonly bitsPtr: number;
  /** Bytes of the packed bits. */
  readonly byteLength: number;

  constructor(params: FilterParams) {
    this.byteLength = Math.ceil(params.bits / 8);
    this.x = instantiate(params.bits, this.byteLength);
    const seedLo = Number(params.seed & 0xffffffffn);
    const seedHi = Number(params.seed >> 32n);
    if (this.x.configure(params.bits, params.hashes, params.schemeId, seedLo, seedHi) !== 0) {
      throw new BloomAllocationError(params.bits, this.byteLength);
    }
    const buffer = this.x.memory.buffer;
    const ptr = this.x.scratchPtr();
    this.scratchSize = this.x.scratchSize();
    this.scratch = new Uint8Array(buffer, ptr, this.scratchSize);
    this.scratchUnits = new Uint16Array(buffer, ptr, this.scratchSize >> 1);
    this.positionsOut = new Float64Array(buffer, this.x.positionsPtr(), params.hashes);
    this.maxUtf8Units = Math.floor(this.scratchSize / 3);
    this.unitsForStrings = params.schemeId === SCHEME_POLY;
    this.bitsPtr = this.x.bitsPtr();
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
