// The part of a filter's engine that the lean BloomFilter of
// `bloomwasm/core` uses: its record placed in an arena (src/wasm/placement.ts),
// add and has with the item-copying logic in front of them, the batches,
// the digest test and the counters. src/wasm/engine.ts's Engine is this
// and the full class's calls (save and load, set algebra, positions,
// shared memory); a bundle of the lean class carries only this file.
//
// Every method names the filter's record and generation to the export it
// calls; the instance refuses a pair that is not live.

import type { CheckedBatch, Item } from '../filter/items.js';
import type { FilterParams } from '../filter/options.js';
import { type Arena, Kind, RECORD_BYTES, REFUSED, schemeRecord } from './arena.js';
import { RecordHandle } from './record-handle.js';
import type { BatchOp, ChunkRunner } from './batch.js';
import type { Exports } from './abi.js';
import { encoder, inPlaceUnits, SHORT_STRING, type Staging } from './staging.js';

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
    this.placeRecord(schemeRecord(params, hashOnly ? Kind.Hashing : Kind.Filter), dedicated);
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
    // caller: a string is read in place or copied straight into scratch,
    // through this engine's own references to the exports and staging.
    // Counted with callgrind on Node 24 (a 66-character URL, sbbf has,
    // steady state), the engine's side of a has was 119 of 1,098
    // instructions when every item went through staging.stage(). Every
    // call names the record; a released engine (generation -1) takes
    // addStaged(), which refuses it. Everything else takes addStaged().
    if (typeof item === 'string' && this.generation >= 0) {
      const n = item.length;
      if (n <= this.inPlaceUnits) return this.truth(this.x.addString(item, this.record, this.generation), 'add');
      if (n > SHORT_STRING && n <= this.copyUnits) {
        return this.truth(this.x.add(this.record, this.generation, encoder.encodeInto(item, this.staging.scratch).written, 0), 'add');
      }
    }
    return this.addStaged(item);
  }

  /** add() of any item: stages the item, streams it when it is longer than scratch. */
  private addStaged(item: Item): boolean {
    const x = this.enter('add').x;
    const r = this.record;
    const g = this.generation;
    if (typeof item === 'string' && item.length <= this.inPlaceUnits) return this.truth(x.addString(item, r, g), 'add');
    const staging = this.staging;
    const len = staging.stage(item, r, g, this.units);
    return this.truth(len >= 0 ? x.add(r, g, len, staging.wide) : x.streamAdd(r, g), 'add');
  }

  /** Tests the item (the hot path as add's). */
  has(item: Item): boolean {
    if (typeof item === 'string' && this.generation >= 0) {
      const n = item.length;
      if (n <= this.inPlaceUnits) return this.truth(this.x.hasString(item, this.record, this.generation), 'has');
      if (n > SHORT_STRING && n <= this.copyUnits) {
        return this.truth(this.x.has(this.record, this.generation, encoder.encodeInto(item, this.staging.scratch).written, 0), 'has');
      }
    }
    return this.hasStaged(item);
  }

  /** has() of any item, as addStaged. */
  private hasStaged(item: Item): boolean {
    const x = this.enter('has').x;
    const r = this.record;
    const g = this.generation;
    if (typeof item === 'string' && item.length <= this.inPlaceUnits) return this.truth(x.hasString(item, r, g), 'has');
    const staging = this.staging;
    const len = staging.stage(item, r, g, this.units);
    return this.truth(len >= 0 ? x.has(r, g, len, staging.wide) : x.streamHas(r, g), 'has');
  }

  /** An answer of 0 or 1 as a boolean; BloomDisposedError when the instance refused the record. */
  protected truth(v: number, call: string): boolean {
    if (v < 0) throw this.disposed(call);
    return v !== 0;
  }

  /** Tests the item whose 64-bit digest is hi:lo (the caller checked the scheme and seed). */
  hasDigest(lo: number, hi: number): boolean {
    const a = this.enter('hasDigest');
    return this.truth(a.x.hasDigest(this.record, this.generation, lo, hi), 'hasDigest');
  }

  /** Adds (op 0) or tests (op 1) a checked batch, crossing into wasm once per chunk. */
  batch(batch: CheckedBatch, op: BatchOp): Uint8Array {
    const call = op === 0 ? 'addMany' : 'hasMany';
    const a = this.enter(call);
    return a.batches.run(batch, filterRunner(a.x, a.staging, this.record, this.generation, op, this.units, () => {
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
function filterRunner(x: Exports, staging: Staging, r: number, generation: number, op: BatchOp, units: boolean, refused: () => never): ChunkRunner {
  return {
    chunk: (count, wide) => {
      if ((op === 0 ? x.addBatch(r, generation, count, wide) : x.hasBatch(r, generation, count, wide)) === REFUSED) refused();
      return count;
    },
    one: (item) => {
      const len = staging.stage(item, r, generation, units);
      const v = len >= 0 ? (op === 0 ? x.add(r, generation, len, staging.wide) : x.has(r, generation, len, staging.wide)) : (op === 0 ? x.streamAdd(r, generation) : x.streamHas(r, generation));
      if (v === REFUSED) refused();
      return v;
    },
    wide: true,
    units,
  };
}
