// The one way an item reaches wasm memory: the Staging class puts it in
// the scratch region of its instance's work area (src/wasm/work-area.ts).
//
// Why encodeInto and set() (docs/BENCHMARKS.md, "How an item is copied"):
// encodeInto into wasm memory costs fewer instructions than Node's
// Buffer#utf8Write, which goes through the generic C++ binding, and set()
// of a Uint8Array a tenth of a JS byte loop. A batch's joined chunk is
// another matter (src/wasm/chunk-staging.ts). A single add/has allocates
// nothing of its own: encodeInto's { read, written } is not allocated once
// V8 has optimised the call site.

import type { Item } from './inputs.js';
import type { Exports } from './abi.js';
import { WorkArea } from './work-area.js';
import { bytesView, lengthOf } from './typed-arrays.js';
import { spiderMonkey, stringsReadInPlace } from './module.js';

/** What streams an item into a record's hash: the core's calls, or those of the module that hashes the record's scheme. */
export type StreamCalls = Pick<Exports, 'streamBegin' | 'streamUpdate'>;

/** The one TextEncoder (core-engine.ts copies strings with it too). */
export const encoder = new TextEncoder();

/**
 * How strings are staged as UTF-16 code units under the poly scheme
 * (src/wasm/units.ts's unitsStaging): the engines of the classes that take
 * poly pass it, as `units`, to every call here that stages a string for a
 * poly record, and pass undefined otherwise, so that a bundle without
 * those classes does not carry it.
 */
export interface UnitsStaging {
  /** Puts one string into scratch; its length in units, or -1 when it does not fit (nothing is written). */
  put(staging: Staging, item: string): number;
  /** Writes a string too long for scratch into it a piece at a time, as code units, calling `update(units)` on each piece. */
  feed(staging: Staging, item: string, update: (len: number) => void): void;
  /** Stages strings list[first, first + n) of a batch chunk as code units, writing their byte offsets. */
  chunk(staging: Staging, list: readonly Item[], first: number, n: number): void;
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
 * copied in with encodeInto. Reading in place costs a builtin call per code
 * unit, encodeInto one call into C++ whatever the length, so the copy wins
 * on long strings: on Node 24 and 26 the two cross between 32 and 48 units
 * (bench/where-time-goes.ts, "strings by length").
 */
export const IN_PLACE_MAX = 32;

/** IN_PLACE_MAX for SpiderMonkey: timed in Firefox on the raw exports, the two paths cross near 24 units. */
export const IN_PLACE_MAX_SPIDERMONKEY = 24;

/**
 * The longest string wasm reads in place (IN_PLACE_MAX,
 * IN_PLACE_MAX_SPIDERMONKEY in Firefox, or -1 where the engine cannot:
 * src/wasm/module.ts's stringsReadInPlace), decided on first use. Each
 * Staging keeps the bounds it gives (readInPlaceUpTo): a field is one load
 * on the hot path, a module's object a context load and a map check more.
 */
export const stringPath = { inPlaceUnits: Number.NaN };

/** stringPath.inPlaceUnits, decided on first use. */
export function inPlaceUnits(): number {
  if (Number.isNaN(stringPath.inPlaceUnits)) {
    stringPath.inPlaceUnits = stringsReadInPlace() ? (spiderMonkey ? IN_PLACE_MAX_SPIDERMONKEY : IN_PLACE_MAX) : -1;
  }
  return stringPath.inPlaceUnits;
}

/**
 * The one way an item reaches an instance's memory. Every family's single
 * call stages its item here: stage() puts it into scratch (put()) or, when
 * it is too long, streams it into the record's hash (feed()); the hashing
 * of an item to a digest (hashItem) takes the same two, and a batch's
 * chunks are put into the same scratch by src/wasm/chunk-staging.ts. The item is read once, before any
 * call into wasm: a string is a value, and a byte item is read through the
 * intrinsic %TypedArray% slots (src/wasm/typed-arrays.ts), so no caller
 * code runs between the copy and the call that uses it.
 *
 * The shortcuts beside it: a family with an export that takes a short
 * string itself (addString, hasString, fuseHasString) asks inPlace(item)
 * first and passes the string, one crossing instead of two; and a Bloom
 * filter's add and has write put()'s fast path out (CoreEngine.add says
 * why), reading copyMin and copyMax.
 */
export class Staging extends WorkArea {
  /** Longest string (in UTF-16 units) whose UTF-8 surely fits the scratch (3 bytes per unit). */
  readonly maxUtf8Units: number;
  /** The longest string wasm reads in place here (readInPlaceUpTo). */
  inPlaceMax = -1;
  /**
   * Strings longer than copyMin, and up to this many, go straight into
   * scratch with one encodeInto: put()'s fast path, which CoreEngine.add
   * and has write out. maxUtf8Units, or -1 once strings are bounced.
   */
  copyMax: number;
  /** Strings longer than this go by put()'s fast path, up to copyMax (readInPlaceUpTo). */
  copyMin = SHORT_STRING;
  /** Whether the staged item is u16 code units; passed to the exports. */
  wide = 0;

  /** Binds the views of an instance. */
  constructor(x: Exports) {
    super(x);
    this.copyMax = this.maxUtf8Units = Math.floor(this.scratchSize / 3);
    this.readInPlaceUpTo(inPlaceUnits());
  }

  /**
   * Reads strings of at most `units` in place (-1: none) where the instance
   * can (the shared build has no stageString): stringPath's units, or others
   * from the string parity property (test/helpers/string-property.js).
   */
  readInPlaceUpTo(units: number): void {
    this.inPlaceMax = typeof this.x.stageString === 'function' ? units : -1;
    this.copyMin = Math.max(SHORT_STRING, units);
  }

  /**
   * How strings are encoded where TextEncoder.encodeInto refuses this
   * memory's views: browsers refuse a view of shared memory (the shared
   * build), Node allows it. Set for such an instance by
   * src/wasm/shared-memory.ts (bounceWhereRefused), so that a bundle that
   * never shares a filter does not carry it; undefined elsewhere.
   */
  encodeVia: ((text: string, at: number) => number) | undefined;

  /** Encodes every string through `encode` (see encodeVia), put()'s fast path included. */
  bounceVia(encode: (text: string, at: number) => number): void {
    this.encodeVia = encode;
    this.copyMax = -1;
  }

  /** Whether wasm reads `item` in place: a string of at most inPlaceMax units, which a family's string export takes as it is. */
  inPlace(item: Item): item is string {
    return typeof item === 'string' && item.length <= this.inPlaceMax;
  }

  /**
   * Stages `item` for record `r` of `generation` (whose scheme hashes
   * strings as UTF-16 code units when `units`: poly): returns its length in
   * scratch (in units when `wide` is 1), or -1 when it was too long and has
   * been streamed through streamBegin/streamUpdate on that record instead
   * (the caller then calls a stream* finisher with it): `calls`' own, the
   * family module that hashes the record (the Bloom filter's, the counting
   * filter's), or this instance's.
   */
  stage(item: Item, r: number, generation: number, units: UnitsStaging | undefined, calls: StreamCalls = this.x): number {
    const len = this.put(item, units);
    return len >= 0 ? len : this.stream(item, r, generation, units, calls);
  }

  /**
   * Copies `item` into scratch (a string as its UTF-8, or as code units
   * when `units` and it is not ASCII) and returns its length, setting
   * `wide`; -1, writing nothing, when it does not fit. The first branch is
   * the fast path, small enough for the JIT to inline into every family's
   * call: a string of a URL's length goes straight into scratch with one
   * encodeInto.
   */
  put(item: Item, units: UnitsStaging | undefined): number {
    if (typeof item === 'string' && !units) {
      const n = item.length;
      if (n > this.copyMin && n <= this.copyMax) {
        this.wide = 0;
        return encoder.encodeInto(item, this.scratch).written;
      }
    }
    return this.putOther(item, units);
  }

  /** put() of every item its fast path does not take. */
  private putOther(item: Item, units: UnitsStaging | undefined): number {
    if (typeof item !== 'string') {
      // The length from the array's internal slot, as set() reads it (src/wasm/typed-arrays.ts).
      const len = lengthOf(item);
      if (len > this.scratchSize) return -1;
      this.scratch.set(item);
      this.wide = 0;
      return len;
    }
    const n = item.length;
    if (n <= this.inPlaceMax) {
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
    if (units) return units.put(this, item);
    if (n > this.maxUtf8Units) return -1;
    this.wide = 0;
    return this.encodeAt(item, 0);
  }

  /**
   * Writes `item`, too long for scratch, into it a piece at a time, calling
   * `update(len)` on each piece: UTF-8 never split inside a character, code
   * units when `units` (poly), or the bytes given.
   */
  feed(item: Item, units: UnitsStaging | undefined, update: (len: number) => void): void {
    if (typeof item !== 'string') {
      const bytes = bytesView(item);
      for (let at = 0; at < bytes.length; at += this.scratchSize) {
        const len = Math.min(this.scratchSize, bytes.length - at);
        this.scratch.set(bytes.subarray(at, at + len));
        update(len);
      }
      return;
    }
    if (units) return units.feed(this, item, update);
    for (let at = 0; at < item.length; ) {
      let end = Math.min(item.length, at + this.maxUtf8Units);
      // Never split a surrogate pair: both halves must reach one encodeInto.
      const last = item.charCodeAt(end - 1);
      if (end < item.length && last >= 0xd800 && last <= 0xdbff) end--;
      update(this.encodeAt(item.slice(at, end), 0));
      at = end;
    }
  }

  /**
   * Streams `item` (put() refused it) into record `r`'s hash; returns -1,
   * for stage(). The Bloom filter's and the binary fuse filter's single
   * calls call put() and this apart, keeping the stream out of the code
   * the JIT inlines into their callers.
   */
  stream(item: Item, r: number, generation: number, units: UnitsStaging | undefined, x: StreamCalls): number {
    x.streamBegin(r, generation, units && typeof item === 'string' ? 1 : 0);
    this.feed(item, units, (len) => x.streamUpdate(r, generation, len));
    return -1;
  }

  /** XXH64 of `item` (its UTF-8, or the bytes given) under seed hi:lo, left in digestOut. */
  hashItem(item: Item, seedLo: number, seedHi: number): void {
    const len = this.put(item, undefined);
    if (len >= 0) return this.x.digestItem(len, seedLo, seedHi);
    this.x.digestBegin(seedLo, seedHi);
    this.feed(item, undefined, this.x.digestUpdate);
    this.x.digestStream();
  }

  /** hashItem(), then the digest written as a little-endian u64 at byte `at` of memory (a key, or an item staged as its digest). */
  hashItemInto(item: Item, seedLo: number, seedHi: number, at: number): void {
    this.hashItem(item, seedLo, seedHi);
    new Uint32Array(this.x.memory.buffer, at, 2).set(this.digestOut);
  }

  /** Encodes `text` as UTF-8 into scratch from byte `at`; returns the bytes written. */
  encodeAt(text: string, at: number): number {
    if (this.encodeVia !== undefined) return this.encodeVia(text, at);
    return encoder.encodeInto(text, at === 0 ? this.scratch : this.scratch.subarray(at)).written;
  }
}
