// The part of a filter's engine that every Bloom filter uses: its record
// placed in an arena (src/wasm/placement.ts), add and has (their items
// staged by src/wasm/staging.ts), the batches, the digest test and the
// counters. src/wasm/engine.ts's Engine is this and BloomFilter's other
// calls (save and load, set algebra, positions, shared memory).
//
// Every method names the filter's record and generation to the export it
// calls; the instance refuses a pair that is not live.

import type { CheckedBatch, FilterParams, Item } from './inputs.js';
import { Kind, RECORD_BYTES, REFUSED, schemeRecord } from './arena.js';
import { RecordHandle } from './record-handle.js';
import type { BatchOp, ChunkRunner } from './batch.js';
import type { BloomCalls } from './abi.js';
import { bloomModule } from './bloom-module.js';
import { encoder, type Staging, type UnitsStaging } from './staging.js';
import { high32, low32 } from './inputs.js';

/** What a released engine calls in place of a module: nothing (enter() throws first). */
const RELEASED = Object.freeze({}) as BloomCalls;

/** One filter's handle: add, has, the batches and the counters over its record. */
export class CoreEngine extends RecordHandle {
  /** For BloomDisposedError: a plain filter's class, or the Redis filter's for a hashing one. */
  protected readonly owner: string;
  /** k: how many of the positions region's doubles are this filter's. */
  protected hashes = 0;
  /** Offset of the packed bits. */
  protected bitsPtr = 0;
  /** m: the number of bits. */
  readonly bits: number;
  /** Bytes of the packed bits, ceil(bits / 8). */
  byteLength = 0;
  /** The XXH64 seed's halves, for hashing a chain's items (src/wasm/chain-walk.ts). @internal */
  seedLo = 0;
  /** @internal */
  seedHi = 0;
  /**
   * The module this filter's calls on an item go to: the Bloom filter's
   * module over its arena's memory, or the shared build's instance of a
   * shared filter (SharedEngine sets that). RELEASED once released.
   */
  protected calls: BloomCalls = RELEASED;

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
    this.bits = params.bits;
    this.byteLength = Math.ceil(params.bits / 8);
    this.hashes = params.hashes;
    this.seedLo = low32(params.seed);
    this.seedHi = high32(params.seed);
    if (!placed) return;
    this.placeRecord(schemeRecord(params, hashOnly ? Kind.Hashing : Kind.Filter), dedicated);
    this.bitsPtr = this.record + RECORD_BYTES;
    this.calls = bloomModule.of(this.arena);
  }

  /**
   * Gives the filter's region back at once (dispose()); the engine is
   * never used again, and every later call on it throws
   * BloomDisposedError. Calling it again does nothing.
   */
  release(): void {
    this.releaseRecord();
    this.calls = RELEASED;
  }

  /**
   * Adds the item; true when a bit went from 0 to 1. A string of a URL's
   * length is copied into scratch with one encodeInto (Staging.put's fast
   * path, written out here), a short one passed to wasm as it is
   * (Staging.inPlace); any other item is put into scratch (Staging.put),
   * or streamed when longer than scratch.
   *
   * Kept small enough for the JIT to inline into the caller: V8 weighs a
   * callee by its bytecode and what its own optimized code inlines, so the
   * stream, never hot, is a call of its own (streamed) rather than
   * Staging.stage, and the fast path is written out rather than called
   * through put(), whose `wide` the call would read back after the copy.
   */
  add(item: Item): boolean {
    const a = this.enter('add');
    const s = a.staging;
    const x = this.calls;
    const r = this.record;
    const g = this.generation;
    if (typeof item === 'string' && this.units === undefined) {
      // Staging.put's fast path, written out (see above).
      const n = item.length;
      if (n > s.copyMin && n <= s.copyMax) return this.truth(x.add(r, g, encoder.encodeInto(item, s.scratch).written, 0), 'add');
    }
    if (s.inPlace(item)) return this.truth(x.addString(item, r, g), 'add');
    const len = s.put(item, this.units);
    return this.truth(len >= 0 ? x.add(r, g, len, s.wide) : this.streamed(item, 0), 'add');
  }

  /** Tests the item (as add). */
  has(item: Item): boolean {
    const a = this.enter('has');
    const s = a.staging;
    const x = this.calls;
    const r = this.record;
    const g = this.generation;
    if (typeof item === 'string' && this.units === undefined) {
      // Staging.put's fast path, written out (see above).
      const n = item.length;
      if (n > s.copyMin && n <= s.copyMax) return this.truth(x.has(r, g, encoder.encodeInto(item, s.scratch).written, 0), 'has');
    }
    if (s.inPlace(item)) return this.truth(x.hasString(item, r, g), 'has');
    const len = s.put(item, this.units);
    return this.truth(len >= 0 ? x.has(r, g, len, s.wide) : this.streamed(item, 1), 'has');
  }

  /** add (op 0) or has (op 1) of an item too long for scratch: streamed into the record's hash, then finished. */
  private streamed(item: Item, op: BatchOp): number {
    const r = this.record;
    const g = this.generation;
    const x = this.calls;
    this.arena.staging.stream(item, r, g, this.units, x);
    return op === 0 ? x.streamAdd(r, g) : x.streamHas(r, g);
  }

  /** An answer of 0 or 1 as a boolean; BloomDisposedError when the instance refused the record. */
  protected truth(v: number, call: string): boolean {
    if (v < 0) throw this.disposed(call);
    return v !== 0;
  }

  /** Tests the item whose 64-bit digest is hi:lo (the caller checked the scheme and seed). */
  hasDigest(lo: number, hi: number): boolean {
    this.enter('hasDigest');
    return this.truth(this.calls.hasDigest(this.record, this.generation, lo, hi), 'hasDigest');
  }

  /** Adds (op 0) or tests (op 1) a checked batch, crossing into wasm once per chunk. */
  batch(batch: CheckedBatch, op: BatchOp): Uint8Array {
    const call = op === 0 ? 'addMany' : 'hasMany';
    const a = this.enter(call);
    return a.batches.run(batch, filterRunner(this.calls, a.staging, this.record, this.generation, op, this.units, () => {
      throw this.disposed(call);
    }));
  }

  /** How many bits are 1 (a counter raised on each 0-to-1 transition). */
  bitsSet(): number {
    const a = this.enter('bitsSet');
    return this.checked(a.x.bitsSet(this.record, this.generation), 'bitsSet');
  }

  /** How many adds set at least one bit. */
  addedCount(): number {
    const a = this.enter('addedCount');
    return this.checked(a.x.addedCount(this.record, this.generation), 'addedCount');
  }

}

/**
 * The runner of a filter's own addBatch (op 0) or hasBatch (op 1) on record
 * `r` of `generation`; `units` under the poly scheme. `refused` is called
 * when the instance refuses the record (it throws).
 */
function filterRunner(x: BloomCalls, staging: Staging, r: number, generation: number, op: BatchOp, units: UnitsStaging | undefined, refused: () => never): ChunkRunner {
  return {
    chunk: (count, wide) => {
      if ((op === 0 ? x.addBatch(r, generation, count, wide) : x.hasBatch(r, generation, count, wide)) === REFUSED) refused();
      return count;
    },
    one: (item) => {
      const len = staging.stage(item, r, generation, units, x);
      const v = len >= 0 ? (op === 0 ? x.add(r, generation, len, staging.wide) : x.has(r, generation, len, staging.wide)) : (op === 0 ? x.streamAdd(r, generation) : x.streamHas(r, generation));
      if (v === REFUSED) refused();
      return v;
    },
    wide: true,
    units,
  };
}
