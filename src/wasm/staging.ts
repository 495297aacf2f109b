// The scratch region: where an item is copied before each call into wasm,
// and the typed-array views of it and of the other regions JS reads and
// writes (assembly/layout.ts places them).
//
// Why views are refreshed: memory.grow detaches the ArrayBuffer behind every
// view made before it, and a detached view reads as empty. Memory grows
// when a new filter's region does not fit (src/wasm/arena.ts) and when
// `bloom dedupe` reserves its lines region. After any growth the arena
// calls refresh(), which builds every view again over the new buffer;
// views are never rebuilt inside a hot loop.
//
// The views are cached so that a single add/has allocates no JS object on its
// own (no arrays, subarrays or closures). The one object left is
// encodeInto's { read, written } result for strings over SHORT_STRING units;
// once the call site is optimised V8 does not allocate it (the bench counts
// no GC over 1e6 calls).
//
// Why encodeInto and set(), and not the alternatives: counted with
// callgrind on Node 20 (instructions per item, 64-70-character URLs, in an
// optimised loop), encodeInto into wasm memory costs 673, Node's
// Buffer#utf8Write over the same region 772 (it goes through the generic
// C++ binding, not a fast call), so a Buffer path would be slower and is not
// taken. For Uint8Array items of the same length, scratch.set(item) costs 260
// and a JS byte loop 2634. The medians of interleaved wall-clock runs agree.
// (Buffer#latin1Write is cheaper but only right for ASCII, which is not
// known without a scan of its own.) A batch's joined chunk is another
// matter: there Buffer#write (UTF-8) is the faster of the two (encodeJoined).

import type { Item } from '../filter/items.js';
import type { Exports } from './abi.js';
import { bytesView, lengthOf } from './typed-arrays.js';
import { spiderMonkey, stringsReadInPlace } from './module.js';

/** The one TextEncoder (engine.ts copies strings with it too). */
export const encoder = new TextEncoder();

/** A view that writes a string's UTF-8 into itself (Node's Buffer#write): see encodeJoined. */
export interface Utf8Writer {
  write(text: string, offset: number, length: number, encoding: 'utf8'): number;
}

/** Makes a Utf8Writer over `length` bytes of `buffer` from `offset`; set by the Node entry (src/index.node.ts), absent elsewhere. */
let makeWriter: ((buffer: ArrayBufferLike, offset: number, length: number) => Utf8Writer) | undefined;

/** Lets batches write their joined strings with `make`'s views (see encodeJoined). @internal */
export function useUtf8Writer(make: (buffer: ArrayBufferLike, offset: number, length: number) => Utf8Writer): void {
  makeWriter = make;
}

/**
 * How strings are staged as UTF-16 code units under the poly scheme
 * (src/wasm/units.ts): set by the full build, the one that hashes poly.
 * The lean class refuses the scheme, so its records never ask for it.
 */
export interface UnitsStaging {
  /** Stages one string for record `r` of `generation`; its length in units, or -1 when streamed. */
  stage(staging: Staging, item: string, r: number, generation: number): number;
  /** Stages strings list[first, first + n) of a batch chunk as code units, writing their byte offsets. */
  chunk(staging: Staging, list: readonly Item[], first: number, n: number): void;
}

let unitsStaging: UnitsStaging | undefined;

/** Installs the poly scheme's staging (src/wasm/full-build.ts). @internal */
export function useUnitsStaging(units: UnitsStaging): void {
  unitsStaging = units;
}

/** The poly scheme's staging, for a batch chunk (src/wasm/batch.ts): installed whenever a poly record exists. @internal */
export function polyUnits(): UnitsStaging {
  return unitsStaging!;
}

/**
 * Strings up to this many UTF-16 units are copied with a charCodeAt loop
 * when they are ASCII. Measured in bench/ on Node 20: the loop beats
 * TextEncoder.encodeInto (a call into C++ that also returns a fresh
 * { read, written } object) for short keys, and loses for 64-character URLs.
 */
export const SHORT_STRING = 24;

/**
 * Strings up to this many UTF-16 units are read in place by wasm
 * (assembly/js-string.ts) where the engine allows it; longer ones are
 * copied in with encodeInto. Counted with callgrind on Node 24, reading in
 * place costs about 17 instructions a code unit (a builtin call per unit,
 * with its checks of the string's shape), encodeInto about 600 whatever the
 * length (a call into C++ around a vectorised copy), so the copy wins on
 * long strings: timed on Node 24 and 26, the two crossed between 32 and 48
 * units (bench/where-time-goes.ts, "strings by length").
 */
export const IN_PLACE_MAX = 32;

/**
 * IN_PLACE_MAX for SpiderMonkey (Firefox 153, timed in the browser on the
 * raw exports): read in place, a has took 120 ns at 8 units, 220 at 16 and
 * 390 at 32; copied, 280, 290 and 310. The two cross near 24.
 */
export const IN_PLACE_MAX_SPIDERMONKEY = 24;

/**
 * The longest string wasm reads in place in the filters made from now on
 * (IN_PLACE_MAX, IN_PLACE_MAX_SPIDERMONKEY in Firefox, or -1 where the
 * engine cannot: src/wasm/module.ts,
 * stringsReadInPlace). Tests set it, to at most a scratch region's
 * maxUtf8Units, to compare both paths on any string.
 */
export const stringPath = { inPlaceUnits: Number.NaN };

/** stringPath.inPlaceUnits, decided on first use. */
export function inPlaceUnits(): number {
  if (Number.isNaN(stringPath.inPlaceUnits)) {
    stringPath.inPlaceUnits = stringsReadInPlace() ? (spiderMonkey ? IN_PLACE_MAX_SPIDERMONKEY : IN_PLACE_MAX) : -1;
  }
  return stringPath.inPlaceUnits;
}

/** The largest k (assembly/layout.ts's MAX_HASHES): the length of positionsOut. */
export const MAX_HASHES = 64;

/** The most members of a chain walked in one call (assembly/layout.ts's CHAIN_MAX). */
export const CHAIN_MAX = 256;

/** One instance's scratch region and views, and the copying of items into it. */
export class Staging {
  /** Whole-scratch byte view at scratchPtr: UTF-8 and byte items go here. */
  scratch!: Uint8Array;
  /** The same region as UTF-16 code units, for the poly scheme's strings. */
  scratchUnits!: Uint16Array;
  /** f64[MAX_HASHES] at positionsPtr: positions() writes the first k. */
  positionsOut!: Float64Array;
  /** u32[batchMax + 1] at batchOffsetsPtr: byte offsets of a batch chunk's items in scratch. */
  batchOffsets!: Uint32Array;
  /** u8[batchMax] at batchFlagsPtr: the 0/1 results of a batch chunk. */
  batchFlags!: Uint8Array;
  /** u32[2] at positionsPtr: where digestItem and probeRecords leave a digest (lo, hi). */
  digestOut!: Uint32Array;
  /** u32[2 * CHAIN_MAX] at chainRecordsPtr: a chain's members as (record, generation) pairs (assembly/chain.ts); empty in the shared build. */
  chainRecords!: Uint32Array;
  /** Byte length of the scratch region. */
  readonly scratchSize: number;
  /** Longest string (in UTF-16 units) whose UTF-8 surely fits the scratch (3 bytes per unit). */
  readonly maxUtf8Units: number;
  /** The most items per batch chunk. */
  readonly batchMax: number;
  /** Whether this instance reads strings in place (the shared build does not: it has no stageString). */
  readonly readsInPlace: boolean;
  /** Whether the staged item is u16 code units; passed to the exports. */
  wide = 0;
  /** The instance's exports (src/wasm/units.ts streams through them). */
  readonly x: Exports;

  /** Binds the views of an instance. */
  constructor(x: Exports) {
    this.x = x;
    this.scratchSize = x.scratchSize();
    this.maxUtf8Units = Math.floor(this.scratchSize / 3);
    this.batchMax = x.batchMax();
    this.readsInPlace = typeof x.stageString === 'function';
    if (this.readsInPlace) inPlaceUnits();
    this.refresh();
  }

  /**
   * How strings are encoded where TextEncoder.encodeInto refuses this
   * memory's views: browsers refuse a view of shared memory (the shared
   * build), Node allows it. Set for such an instance by
   * src/wasm/shared-memory.ts (bounceWhereRefused), so that a bundle that
   * never shares a filter does not carry it; undefined elsewhere.
   */
  encodeVia: ((text: string, at: number) => number) | undefined;
  /** A Utf8Writer over scratch, where the entry supplied one (encodeJoined). */
  private writer: Utf8Writer | undefined;

  /** Builds every view again over the current buffer: call after memory grew. */
  refresh(): void {
    const x = this.x;
    const buffer = x.memory.buffer;
    const ptr = x.scratchPtr();
    this.scratch = new Uint8Array(buffer, ptr, this.scratchSize);
    this.writer = undefined;
    this.scratchUnits = new Uint16Array(buffer, ptr, this.scratchSize >> 1);
    this.positionsOut = new Float64Array(buffer, x.positionsPtr(), MAX_HASHES);
    this.batchOffsets = new Uint32Array(buffer, x.batchOffsetsPtr(), this.batchMax + 1);
    this.batchFlags = new Uint8Array(buffer, x.batchFlagsPtr(), this.batchMax);
    this.digestOut = new Uint32Array(buffer, x.positionsPtr(), 2);
    this.chainRecords = typeof x.chainRecordsPtr === 'function' ? new Uint32Array(buffer, x.chainRecordsPtr(), 2 * CHAIN_MAX) : new Uint32Array(0);
  }

  /**
   * Copies `item` into scratch as bytes (a string as its UTF-8, whatever
   * filter is selected) and returns its length, or -1 when it is too long
   * for scratch (nothing is copied then).
   */
  stageUtf8(item: Item): number {
    if (typeof item === 'string') {
      const n = item.length;
      if (this.readsInPlace && n <= stringPath.inPlaceUnits) return this.x.stageString(item, 0, 0);
      return n > this.maxUtf8Units ? -1 : this.encodeAt(item, 0);
    }
    // The length from the array's internal slot, as set() reads it (src/wasm/typed-arrays.ts).
    const len = lengthOf(item);
    if (len > this.scratchSize) return -1;
    this.scratch.set(item);
    return len;
  }

  /** XXH64 of `item` (its UTF-8, or the bytes given) under seed hi:lo, left in digestOut. */
  hashItem(item: Item, seedLo: number, seedHi: number): void {
    const len = this.stageUtf8(item);
    if (len >= 0) return this.x.digestItem(len, seedLo, seedHi);
    this.x.digestBegin(seedLo, seedHi);
    if (typeof item === 'string') this.feedUtf8(item, this.x.digestUpdate);
    else this.eachChunk(item, this.x.digestUpdate);
    this.x.digestStream();
  }

  /** hashItem(), then the digest written as a little-endian u64 at byte `at` of memory (a key, or an item staged as its digest). */
  hashItemInto(item: Item, seedLo: number, seedHi: number, at: number): void {
    this.hashItem(item, seedLo, seedHi);
    new Uint32Array(this.x.memory.buffer, at, 2).set(this.digestOut);
  }

  /**
   * Copies `item` into scratch, for record `r` of `generation` (whose scheme
   * hashes strings as UTF-16 code units when `units`: poly), and returns
   * its length in units, or -1 when it was too long and has been streamed
   * through streamBegin/streamUpdate on that record instead (the caller
   * then calls a stream* finisher with it).
   */
  stage(item: Item, r: number, generation: number, units: boolean): number {
    if (typeof item === 'string') {
      const n = item.length;
      if (this.readsInPlace && n <= stringPath.inPlaceUnits) {
        this.wide = units ? 1 : 0;
        return this.x.stageString(item, 0, this.wide);
      }
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
      if (units) return unitsStaging!.stage(this, item, r, generation);
      if (n > this.maxUtf8Units) return this.streamUtf8(item, r, generation);
      this.wide = 0;
      return this.encodeAt(item, 0);
    }
    const len = lengthOf(item);
    if (len > this.scratchSize) return this.streamBytes(item, r, generation);
    this.scratch.set(item);
    this.wide = 0;
    return len;
  }

  /** Encodes `text` as UTF-8 into scratch from byte `at`; returns the bytes written. */
  encodeAt(text: string, at: number): number {
    if (this.encodeVia !== undefined) return this.encodeVia(text, at);
    return encoder.encodeInto(text, at === 0 ? this.scratch : this.scratch.subarray(at)).written;
  }

  /**
   * Encodes a batch chunk's joined strings (at most scratchSize - 4 units)
   * as UTF-8 at the start of scratch, as much of it as fits in whole
   * characters; returns the bytes written (src/wasm/batch.ts's runStrings
   * tells from them whether every unit was ASCII). Timed on Node
   * 24 and 20 over chunks of 300 URLs, the Node entry's writer
   * (src/index.node.ts) cost 18-47 ns a URL on the joined string, join
   * included, against 62-97 for encodeInto, whose per-call edge (see the
   * top of this file) turns into a loss on long strings; other runtimes use
   * encodeInto.
   */
  encodeJoined(text: string): number {
    if (makeWriter === undefined || this.encodeVia !== undefined) return this.encodeAt(text, 0);
    // Made on first use after each refresh (memory grew, or the entry set makeWriter later).
    this.writer ??= makeWriter(this.scratch.buffer, this.scratch.byteOffset, this.scratchSize);
    return this.writer.write(text, 0, this.scratchSize, 'utf8');
  }

  /** Copies `bytes` into scratch one chunk at a time and calls `use(len)` on each. */
  eachChunk(item: Uint8Array, use: (len: number) => void): void {
    const bytes = bytesView(item);
    for (let at = 0; at < bytes.length; at += this.scratchSize) {
      const len = Math.min(this.scratchSize, bytes.length - at);
      this.scratch.set(bytes.subarray(at, at + len));
      use(len);
    }
  }

  private streamBytes(item: Uint8Array, r: number, generation: number): number {
    const x = this.x;
    x.streamBegin(r, generation, 0);
    this.eachChunk(item, (len) => x.streamUpdate(r, generation, len));
    return -1;
  }

  private streamUtf8(item: string, r: number, generation: number): number {
    const x = this.x;
    x.streamBegin(r, generation, 0);
    this.feedUtf8(item, (len) => x.streamUpdate(r, generation, len));
    return -1;
  }

  /** Encodes `item` into scratch a piece at a time and calls `update(len)` on each. */
  private feedUtf8(item: string, update: (len: number) => void): void {
    for (let at = 0; at < item.length; ) {
      let end = Math.min(item.length, at + this.maxUtf8Units);
      // Never split a surrogate pair: both halves must reach one encodeInto.
      const last = item.charCodeAt(end - 1);
      if (end < item.length && last >= 0xd800 && last <= 0xdbff) end--;
      update(this.encodeAt(item.slice(at, end), 0));
      at = end;
    }
  }
}
