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
import { instantiateShared } from './module.js';
import { encoder, inPlaceUnits, SHORT_STRING } from './staging.js';
import { claimWorkArea, createSharedMemory, releaseWhenCollected, releaseWorkAreaNow, sharedBitsBytes } from './shared-memory.js';

/** A chain's member records, all in one arena, as (address, generation) pairs (Engine.chainRecords). */
export interface ChainRecords {
  readonly arena: Arena;
  readonly records: Uint32Array;
  /** The members, for the error when one was released. */
  readonly engines: readonly Engine[];
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
  /** digests()'s answers, reused from call to call (it only grows). */
  private digestFlags: Uint8Array | undefined = undefined;
  /** u32 view of scratch that digests() copies pairs into (rebuilt if memory grew). */
  private digestWords: Uint32Array<ArrayBufferLike> | undefined = undefined;
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
    const status = hashOnly
      ? x.configureHashing(params.bits, params.hashes, params.schemeId, seedLo, seedHi)
      : x.configure(params.bits, params.hashes, params.schemeId, seedLo, seedHi);
    if (status !== 0) throw new BloomAllocationError(params.bits, hashOnly ? 0 : this.byteLength);
    this.ownInstance(new Arena(true, x as unknown as Arena['x']));
    this.x = this.arena.x;
    this.staging = this.arena.staging;
    this.arena.staging.unitsForStrings = this.units;
    this.bitsPtr = x.bitsPtr();
  }

  /**
   * The records of a chain's members (oldest first), for chainHas: undefined
   * when they do not all live in one instance, or are too many for one call.
   * The caller keeps it while the members stay the same.
   */
  static chainRecords(engines: readonly Engine[]): ChainRecords | undefined {
    const arena = engines[0]?.arena;
    // (address, generation) pairs in the batch offsets region (batchMax + 1 u32s).
    if (arena === undefined || 2 * engines.length > arena.staging.batchMax + 1) return undefined;
    const records = new Uint32Array(2 * engines.length);
    for (let i = 0; i < engines.length; i++) {
      const e = engines[i];
      if (e.arena !== arena || e.record <= 0) return undefined;
      records[2 * i] = e.record;
      records[2 * i + 1] = e.generation;
    }
    return { arena, records, engines };
  }

  /**
   * The index of the newest member of `chain` that reports `item`, or -1,
   * in one call into wasm that hashes the item once (assembly/chain.ts);
   * undefined when the item is too long for the scratch region (the caller
   * then asks the members one by one). The members are of the xxh64
   * family, with one seed (the caller checked).
   */
  static chainHas(chain: ChainRecords, item: Item): number | undefined {
    const a = chain.arena;
    a.staging.batchOffsets.set(chain.records);
    // Staged as UTF-8 whatever filter is selected (a poly one stages code units).
    const units = a.staging.unitsForStrings;
    a.staging.unitsForStrings = false;
    const len = a.staging.stage(item);
    a.staging.unitsForStrings = units;
    if (len < 0) return undefined;
    const hit = a.x.chainHas(chain.records.length >> 1, len);
    // A member's record is no longer live: the chain's list is stale.
    if (hit === -2) throw (chain.engines.find((e) => !e.live) ?? chain.engines[0]).disposed('has');
    return hit;
  }

  /**
   * Gives the filter's region back at once (dispose()), or a shared
   * filter's work area (its bits stay, for the other threads); the caller
   * must drop the engine, which may serve another filter (the pool).
   * Calling it again does nothing.
   */
  release(): void {
    if (this.workArea >= 0) releaseWorkAreaNow(this, this.sharedMemory!, this.workArea);
    this.releaseRecord();
    this.workArea = -1;
    this.sharedMemory = undefined;
    // Nothing of the instance stays reachable from a released engine.
    this.x = undefined!;
    this.staging = undefined!;
    this.digestFlags = undefined;
    this.digestWords = undefined;
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

  /**
   * Tests (op 1) or adds (op 0, in order) the items whose digests are
   * `pairs` (lo, hi for each): they are copied into scratch, up to batchMax
   * per call. Flag i is item i's answer, as hasDigest or addDigest gives it,
   * in a buffer that the next call reuses: a chain asks its members a
   * batch per chunk of `bloom dedupe`, and a fresh array each time would be
   * memory that V8 frees only after tens of MB of such allocations.
   */
  digests(pairs: Uint32Array, op: BatchOp): Uint8Array {
    const a = this.enter('digests');
    const count = pairs.length >> 1;
    // Made on first use, not per filter: an empty typed array costs about
    // half a microsecond to make and collect, as much as the rest of a
    // small filter's construction.
    const had = this.digestFlags?.length ?? -1;
    if (had < count) this.digestFlags = new Uint8Array(Math.max(count, 2 * had));
    const flags = this.digestFlags!.subarray(0, count);
    const { scratch, batchFlags, batchMax } = a.staging;
    if (this.digestWords?.buffer !== scratch.buffer) this.digestWords = new Uint32Array(scratch.buffer, scratch.byteOffset, batchMax * 2);
    const words = this.digestWords!;
    for (let first = 0; first < count; first += batchMax) {
      const n = Math.min(batchMax, count - first);
      words.set(count <= batchMax ? pairs : pairs.subarray(2 * first, 2 * (first + n)));
      if (op === 0) a.x.addDigestBatch(n);
      else a.x.hasDigestBatch(n);
      for (let i = 0; i < n; i++) flags[first + i] = batchFlags[i];
    }
    return flags;
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

  /**
   * ORs (union) or ANDs (intersect) another filter's bits into this one's:
   * they may live in another linear memory, so they come over through
   * scratch a chunk at a time and the word-wise loop runs here. Then bitsSet is
   * recounted exactly with popcnt.
   */
  combine(other: Engine, operation: 'union' | 'intersect'): void {
    // The other's view first: taking it selects the other filter, and the
    // steps below must run on this one.
    const source = other.bitsView();
    const a = this.enter('combine');
    const step = operation === 'union' ? a.x.unionScratch : a.x.intersectScratch;
    let at = 0;
    a.staging.eachChunk(source, (len) => {
      step(at, len);
      at += len;
    });
    a.x.recountBits();
  }
}
