// The Engine: one filter's handle (its arena and record, src/wasm/arena.ts)
// behind named methods. This folder is the one marshalling boundary:
// nothing outside src/wasm/ touches wasm memory or the exports. The exports
// are listed in abi.ts, compiled and instantiated in module.ts; items are
// copied in by staging.ts and batches chunked by batch.ts. The file
// checksum and inspect calls (checksum.ts) and the line splitter's region
// (lines-region.ts) reach the instance through selected().
//
// Every method first selects the filter's record in its instance
// (RecordHandle's enter(); add and has write it out), which costs one
// comparison when it is selected already.

import { BloomAllocationError } from '../errors.js';
import type { CheckedBatch, Item } from '../filter/items.js';
import type { FilterParams } from '../filter/options.js';
import { Arena, Kind, RECORD_BYTES, RecordHandle } from './arena.js';
import type { BatchOp } from './batch.js';
import type { instantiateShared } from './module.js';
import { encoder, inPlaceUnits, SHORT_STRING } from './staging.js';
import type * as SharedMemory from './shared-memory.js';

/** The calls an engine of the shared build makes into src/wasm/shared-memory.ts. */
type SharedCalls = Pick<typeof SharedMemory, 'claimWorkArea' | 'createSharedMemory' | 'releaseWhenCollected' | 'releaseWorkAreaNow' | 'sharedBitsBytes'> & {
  instantiateShared: typeof instantiateShared;
};

/**
 * Set by src/wasm/shared-memory.ts when it is imported (the full
 * BloomFilter imports it for share() and attach()): a bundle that never
 * shares a filter (bloomwasm/core) carries none of the shared memory's code.
 * Only a shared engine reads it, and only the full class makes one.
 */
let sharedCalls: SharedCalls | undefined;

/** Hands the engine the shared memory's calls (src/wasm/shared-memory.ts, once). @internal */
export function useSharedCalls(calls: SharedCalls): void {
  sharedCalls = calls;
}

/** One filter's handle, with the item-copying logic in front of it. */
export class Engine extends RecordHandle {
  /** For BloomDisposedError: a plain filter's class, or the Redis filter's for a hashing one. */
  protected readonly owner: string;
  /** Its exports and staging, the same as the arena's: read straight from here by add and has. */
  private x!: Arena['x'];
  private staging!: Arena['staging'];
  /** A shared filter's work area in its shared memory (-1 otherwise, or once given back). */
  private workArea = -1;
  /** k: how many of the positions region's doubles are this filter's. */
  private hashes = 0;
  /** Offset of the packed bits. */
  private bitsPtr = 0;
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
  /** The shared memory the bits live in, for an engine of the shared build; undefined otherwise. */
  sharedMemory: WebAssembly.Memory | undefined = undefined;

  /** A filter's engine (the arguments are the constructor's). */
  static make(params: FilterParams, hashOnly = false, shared?: WebAssembly.Memory | true, dedicated = false): Engine {
    return new Engine(params, hashOnly, shared, dedicated);
  }

  /**
   * With `hashOnly`, the record holds no bits: the engine only computes
   * positions and shards for bits kept elsewhere (bloomwasm/redis), and
   * add, has, clear and bitsView must not be called.
   *
   * With `shared`, the engine is an instance of the shared build
   * (assembly/shared.ts) over that shared memory, or over a new one when
   * `shared` is true; it takes a work area of its own there
   * (src/wasm/shared-memory.ts) and gives it back when collected.
   *
   * With `dedicated`, the record gets an instance of its own, whose hash
   * state nothing else touches between calls (a streamed inspect that
   * spans awaits).
   */
  constructor(params: FilterParams, hashOnly = false, shared?: WebAssembly.Memory | true, dedicated = false, owner = 'BloomFilter') {
    super();
    this.owner = owner;
    this.byteLength = Math.ceil(params.bits / 8);
    this.units = params.scheme === 'poly';
    this.hashes = params.hashes;
    this.seedLo = Number(params.seed & 0xffffffffn);
    this.seedHi = Number(params.seed >> 32n);
    if (shared === undefined) {
      this.placeRecord(params, hashOnly ? Kind.Hashing : Kind.Filter, dedicated);
      const arena = this.arena;
      this.x = arena.x;
      this.staging = arena.staging;
      this.bitsPtr = this.record + RECORD_BYTES;
      this.inPlaceUnits = arena.staging.readsInPlace ? inPlaceUnits() : -1;
      this.copyUnits = this.units ? -1 : arena.staging.maxUtf8Units;
      return;
    }
    const { claimWorkArea, createSharedMemory, instantiateShared, releaseWhenCollected, sharedBitsBytes } = sharedCalls!;
    const memory = shared === true ? createSharedMemory(params, sharedBitsBytes(params.bits)) : shared;
    const workArea = claimWorkArea(memory, params.bits);
    // The shared build's exports are the filter's minus line dedupe, the
    // Bitmap, the counting filter and the records (SHARED_ABI), which
    // reserveLines refuses to reach.
    const x = instantiateShared(memory, workArea);
    releaseWhenCollected(this, memory, workArea);
    this.workArea = workArea;
    this.sharedMemory = memory;
    const seedLo = Number(params.seed & 0xffffffffn);
    const seedHi = Number(params.seed >> 32n);
    if (x.configure(params.bits, params.hashes, params.schemeId, seedLo, seedHi) !== 0) {
      throw new BloomAllocationError(params.bits, this.byteLength);
    }
    this.ownInstance(new Arena(true, x as unknown as Arena['x']));
    this.x = this.arena.x;
    this.staging = this.arena.staging;
    this.arena.staging.unitsForStrings = this.units;
    this.bitsPtr = x.bitsPtr();
  }

  /**
   * Gives the filter's region back at once (dispose()), or a shared
   * filter's work area (its bits stay, for the other threads); the engine
   * is never used again, and every later call on it throws
   * BloomDisposedError. Calling it again does nothing.
   */
  release(): void {
    if (this.workArea >= 0) sharedCalls!.releaseWorkAreaNow(this, this.sharedMemory!, this.workArea);
    this.releaseRecord();
    this.workArea = -1;
    this.sharedMemory = undefined;
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

  /** Adds the item whose digest is hi:lo; true when a bit went from 0 to 1. */
  addDigest(lo: number, hi: number): boolean {
    const a = this.enter('addDigest');
    return a.x.addDigest(lo, hi) !== 0;
  }

  /** The item's positions in probe order. */
  positions(item: Item): number[] {
    const a = this.enter('positions');
    const len = a.staging.stage(item);
    if (len >= 0) a.x.positions(len, a.staging.wide);
    else a.x.streamPositions();
    return Array.from(a.staging.positionsOut.subarray(0, this.hashes));
  }

  /**
   * The item's shard in [0, shards); its positions are left in `probed`
   * until the next call (read them before staging another item).
   */
  shardPositions(item: Item, shards: number): number {
    const a = this.enter('shardPositions');
    const len = a.staging.stage(item);
    return len >= 0 ? a.x.shardPositions(len, a.staging.wide, shards) : a.x.streamShardPositions(shards);
  }

  /** f64[k]: the positions written by the last positions or shardPositions call. */
  get probed(): Float64Array {
    return this.arena.staging.positionsOut.subarray(0, this.hashes);
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

  /** Sets both counters, e.g. after bits were copied in (both below 2^53). */
  setCounters(bitsSet: number, addedCount: number): void {
    const a = this.enter('setCounters');
    a.x.setCounters(bitsSet, addedCount);
  }

  /** Recounts the 1 bits exactly (popcnt over the whole array), stores and returns the count. */
  recountBits(): number {
    const a = this.enter('recountBits');
    return a.x.recountBits();
  }

  /** Zeroes every bit and both counters. */
  clear(): void {
    const a = this.enter('clear');
    a.x.clear();
  }

  /**
   * Selects this filter in its instance and returns the instance, for the
   * calls kept beside this class (checksum.ts, lines-region.ts): they are
   * not on the item path, so they need no handle of their own.
   */
  selected(call = 'selected'): Arena {
    return this.enter(call);
  }

  /** A live view of the packed bits (valid until memory grows: take a fresh one per use). */
  bitsView(): Uint8Array {
    const a = this.enter('bitsView');
    return new Uint8Array(a.x.memory.buffer, this.bitsPtr, this.byteLength);
  }

  /** The address of the bits when they live in `arena` (a record of it), else -1: for copies within one memory. */
  bitsIn(arena: Arena): number {
    return this.arena === arena && this.record > 0 ? this.bitsPtr : -1;
  }

  /**
   * ORs (union) or ANDs (intersect) another filter's bits into this one's,
   * in place when both live in one memory (combineAt); a filter of another
   * memory (an arena of its own, shared memory) comes over through scratch
   * a chunk at a time. Then bitsSet is recounted exactly with popcnt.
   */
  combine(other: Engine, operation: 'union' | 'intersect'): void {
    const a = this.enter('combine');
    const at = other.bitsIn(a);
    if (at >= 0 && this.record > 0) {
      a.x.combineAt(at, operation === 'intersect' ? 1 : 0);
    } else {
      // The other's view first: taking it selects the other filter, and the
      // steps below must run on this one.
      const source = other.bitsView();
      this.enter('combine');
      const step = operation === 'union' ? a.x.unionScratch : a.x.intersectScratch;
      let offset = 0;
      a.staging.eachChunk(source, (len) => {
        step(offset, len);
        offset += len;
      });
    }
    a.x.recountBits();
  }
}
