// The part of a filter's engine that the lean BloomFilter of
// `bloomwasm/core` uses: its record placed in an arena (src/wasm/placement.ts),
// add and has with the item-copying logic in front of them, the batches,
// the digest test and the counters. src/wasm/engine.ts's Engine is this
// and the full class's calls (save and load, set algebra, positions,
// shared memory); a bundle of the lean class carries only this file.
//
// Every method first selects the filter's record in its instance
// (RecordHandle's enter(); add and has write it out), which costs one
// comparison when it is selected already.

import type { CheckedBatch, Item } from '../filter/items.js';
import type { FilterParams } from '../filter/options.js';
import { type Arena, Kind, RECORD_BYTES } from './arena.js';
import { RecordHandle } from './record-handle.js';
import type { BatchOp } from './batch.js';
import { encoder, inPlaceUnits, SHORT_STRING } from './staging.js';

/** One filter's handle, with the item-copying logic in front of it. */
export class CoreEngine extends RecordHandle {
  /** For BloomDisposedError: a plain filter's class, or the Redis filter's for a hashing one. */
  protected readonly owner: string;
  /** Its exports and staging, the same as the arena's: read straight from here by add and has. */
  protected x!: Arena['x'];
  protected staging!: Arena['staging'];
  /** k: how many of the positions region's doubles are this filter's. */
  protected hashes = 0;
  /** Offset of the packed bits. */
  protected bitsPtr = 0;
  /** Strings up to this many units are read in place by add and has (staging.ts, inPlaceUnits); -1 for none. */
  private inPlaceUnits = -1;
  /**
   * Longer strings up to this many units are copied in by add and has with
   * encodeInto straight into scratch: -1 under poly (it hashes code units)
   * and in the shared build (whose scratch a browser may refuse to encode
   * into), which go through staging.stage().
   */
  private copyUnits = -1;
  /** Bytes of the packed bits, ceil(bits / 8). */
  byteLength = 0;
  /** The XXH64 seed's halves, for hashing a chain's items (src/wasm/chain-walk.ts). @internal */
  seedLo = 0;
  /** @internal */
  seedHi = 0;

  /** A filter's engine in an arena. */
  static make(params: FilterParams): CoreEngine {
    return new CoreEngine(params);
  }

  /**
   * With `hashOnly`, the record holds no bits: the engine only computes
   * positions and shards for bits kept elsewhere (bloomwasm/redis), and
   * add, has, clear and bitsView must not be called.
   *
   * With `dedicated`, the record gets an instance of its own, whose hash
   * state nothing else touches between calls (a streamed inspect that
   * spans awaits).
   *
   * Without `placed`, no record is placed: the subclass binds the engine
   * to an instance of its own (Engine, in shared memory).
   */
  constructor(params: FilterParams, hashOnly = false, dedicated = false, owner = 'BloomFilter', placed = true) {
    super();
    this.owner = owner;
    this.byteLength = Math.ceil(params.bits / 8);
    this.units = params.scheme === 'poly';
    this.hashes = params.hashes;
    this.seedLo = Number(params.seed & 0xffffffffn);
    this.seedHi = Number(params.seed >> 32n);
    if (!placed) return;
    this.placeRecord(params, hashOnly ? Kind.Hashing : Kind.Filter, dedicated);
    const arena = this.arena;
    this.x = arena.x;
    this.staging = arena.staging;
    this.bitsPtr = this.record + RECORD_BYTES;
    this.inPlaceUnits = arena.staging.readsInPlace ? inPlaceUnits() : -1;
    this.copyUnits = this.units ? -1 : arena.staging.maxUtf8Units;
  }

  /**
   * Gives the filter's region back at once (dispose()); the engine is
   * never used again, and every later call on it throws
   * BloomDisposedError. Calling it again does nothing.
   */
  release(): void {
    this.releaseRecord();
    // Nothing of the instance stays reachable from a released engine.
    this.x = undefined!;
    this.staging = undefined!;
  }

  /** Adds the item; true when a bit went from 0 to 1. */
  add(item: Item): boolean {
    // The hot path, kept small enough for the JIT to inline into the
    // caller: a string of the selected filter is read in place or copied
    // straight into scratch, through this engine's own references to the
    // exports and staging (which measured 15-20 ns a call less on Node 20
    // than going through enter()). Counted with callgrind on Node 24 (a
    // 66-character URL, sbbf has, steady state), the engine's side of a has
    // was 119 of 1,098 instructions when every item went through
    // staging.stage(). Everything else takes addStaged().
    if (this.arena.current === this.generation && typeof item === 'string') {
      const n = item.length;
      if (n <= this.inPlaceUnits) return this.x.addString(item) !== 0;
      if (n > SHORT_STRING && n <= this.copyUnits) return this.x.add(encoder.encodeInto(item, this.staging.scratch).written, 0) !== 0;
    }
    return this.addStaged(item);
  }

  /** add() of any item: selects the filter, stages the item, streams it when it is longer than scratch. */
  private addStaged(item: Item): boolean {
    if (this.arena.current !== this.generation) this.reselect('add');
    const staging = this.staging;
    if (typeof item === 'string' && item.length <= this.inPlaceUnits) return this.x.addString(item) !== 0;
    const len = staging.stage(item);
    // A Uint8Array's own getters are the caller's code, which may have used another filter meanwhile.
    if (this.arena.current !== this.generation) this.reselect('add');
    return (len >= 0 ? this.x.add(len, staging.wide) : this.x.streamAdd()) !== 0;
  }

  /** Tests the item (the hot path as add's). */
  has(item: Item): boolean {
    if (this.arena.current === this.generation && typeof item === 'string') {
      const n = item.length;
      if (n <= this.inPlaceUnits) return this.x.hasString(item) !== 0;
      if (n > SHORT_STRING && n <= this.copyUnits) return this.x.has(encoder.encodeInto(item, this.staging.scratch).written, 0) !== 0;
    }
    return this.hasStaged(item);
  }

  /** has() of any item, as addStaged. */
  private hasStaged(item: Item): boolean {
    if (this.arena.current !== this.generation) this.reselect('has');
    const staging = this.staging;
    if (typeof item === 'string' && item.length <= this.inPlaceUnits) return this.x.hasString(item) !== 0;
    const len = staging.stage(item);
    if (this.arena.current !== this.generation) this.reselect('has');
    return (len >= 0 ? this.x.has(len, staging.wide) : this.x.streamHas()) !== 0;
  }


  /** Tests the item whose 64-bit digest is hi:lo (the caller checked the scheme and seed). */
  hasDigest(lo: number, hi: number): boolean {
    const a = this.enter('hasDigest');
    return a.x.hasDigest(lo, hi) !== 0;
  }

  /** Adds (op 0) or tests (op 1) a checked batch, crossing into wasm once per chunk. */
  batch(batch: CheckedBatch, op: BatchOp): Uint8Array {
    const a = this.enter(op === 0 ? 'addMany' : 'hasMany');
    return a.batches.run(batch, op);
  }

  /** How many bits are 1 (a counter raised on each 0-to-1 transition). */
  bitsSet(): number {
    const a = this.enter('bitsSet');
    return a.x.bitsSet();
  }

  /** How many adds set at least one bit. */
  addedCount(): number {
    const a = this.enter('addedCount');
    return a.x.addedCount();
  }

}
