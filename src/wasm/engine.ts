// The Engine: one filter's handle (its arena and record,
// src/wasm/record-handle.ts) behind named methods: src/wasm/core-engine.ts's
// CoreEngine (add, has, batches, counters), and here the rest (digests
// added, positions, counters set, copies of the bits, set algebra); a
// filter in shared memory is its subclass in src/wasm/shared-engine.ts.
// This folder is the one marshalling boundary: nothing outside src/wasm/
// touches wasm memory or the exports. The exports are listed in abi.ts,
// compiled and instantiated in module.ts; items are copied in by
// staging.ts and batches chunked by batch.ts. The file checksum and
// inspect calls (checksum.ts) and the line splitter's region
// (lines-region.ts) reach the instance through liveArena() and name the
// record with walkRecord() and walkGeneration().

import type { FilterParams, Item } from './inputs.js';
import type { Arena } from './arena.js';
import { CoreEngine } from './core-engine.js';
import { bloomModule } from './bloom-module.js';
import type { BloomExports } from './abi.js';
import { unitsStaging } from './units.js';

/** One filter's handle, with every call of BloomFilter's. */
export class Engine extends CoreEngine {
  /** The shared memory the bits live in: set by SharedEngine (src/wasm/shared-engine.ts), undefined here. */
  sharedMemory: WebAssembly.Memory | undefined = undefined;

  /** CoreEngine's (the arguments are its own), with poly's strings staged as code units. */
  constructor(params: FilterParams, hashOnly = false, dedicated = false, owner = 'BloomFilter', placed = true) {
    super(params, hashOnly, dedicated, owner, placed);
    if (params.scheme === 'poly') this.units = unitsStaging;
  }

  /** Adds the item whose digest is hi:lo; true when a bit went from 0 to 1. */
  addDigest(lo: number, hi: number): boolean {
    this.enter('addDigest');
    // Only filters of the xxh64 family take digests: their calls are the Bloom filter's module's (or the shared build's).
    return this.truth(this.calls.addDigest(this.record, this.generation, lo, hi), 'addDigest');
  }

  /** The item's positions in probe order. */
  positions(item: Item): number[] {
    const a = this.enter('positions');
    const r = this.record;
    const g = this.generation;
    const x = this.calls;
    const len = a.staging.stage(item, r, g, this.units, x);
    this.checked(len >= 0 ? x.positions(r, g, len, a.staging.wide) : x.streamPositions(r, g), 'positions');
    return Array.from(a.staging.positionsOut.subarray(0, this.hashes));
  }

  /**
   * The item's shard in [0, shards); with `into` (at least k long), its
   * positions are copied there, out of wasm memory, before the call returns.
   */
  shardPositions(item: Item, shards: number, into?: Float64Array): number {
    const a = this.enter('shardPositions');
    const r = this.record;
    const g = this.generation;
    const x = this.calls;
    const len = a.staging.stage(item, r, g, this.units, x);
    const shard = this.checked(len >= 0 ? x.shardPositions(r, g, len, a.staging.wide, shards) : x.streamShardPositions(r, g, shards), 'shardPositions');
    if (into !== undefined) into.set(a.staging.positionsOut.subarray(0, this.hashes));
    return shard;
  }

  /** Sets both counters, e.g. after bits were copied in (both below 2^53). */
  setCounters(bitsSet: number, addedCount: number): void {
    const a = this.enter('setCounters');
    this.checked(a.x.setCounters(this.record, this.generation, bitsSet, addedCount), 'setCounters');
  }

  /** Recounts the 1 bits exactly (popcnt over the whole array), stores and returns the count. */
  recountBits(): number {
    const a = this.enter('recountBits');
    return this.checked(a.x.recountBits(this.record, this.generation), 'recountBits');
  }

  /** Zeroes every bit and both counters. */
  clear(): void {
    const a = this.enter('clear');
    this.checked(a.x.clear(this.record, this.generation), 'clear');
  }

  /**
   * The instance of this live filter, for the calls kept beside this class
   * (checksum.ts, lines-region.ts), which name its record with walkRecord()
   * and walkGeneration(): they are not on the item path, so they need no
   * handle of their own.
   */
  liveArena(call = 'liveArena'): Arena {
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
    const r = this.record;
    const g = this.generation;
    const at = other.bitsIn(a);
    const algebra = this.algebraOf(a);
    if (at >= 0 && r > 0) {
      this.checked(algebra.combineAt(r, g, at, operation === 'intersect' ? 1 : 0), 'combine');
    } else {
      const source = other.bitsView();
      const step = operation === 'union' ? algebra.unionScratch : algebra.intersectScratch;
      let offset = 0;
      a.staging.feed(source, undefined, (len) => {
        this.checked(step(r, g, offset, len), 'combine');
        offset += len;
      });
    }
    this.checked(a.x.recountBits(r, g), 'combine');
  }

  /** The set algebra's calls over `a`: every scheme's are the Bloom filter's module's (SharedEngine: the shared build's own). */
  protected algebraOf(a: Arena): BloomExports {
    return bloomModule.of(a);
  }
}
