// The batches: addMany/hasMany of every structure cross into wasm once per
// chunk of up to batchMax items that fit the scratch region together,
// instead of once per item. A chunk is staged by src/wasm/chunk-staging.ts
// (items as bytes, their byte offsets in the batch offsets region), cut and run
// here by a ChunkRunner: a filter's addBatch/hasBatch (assembly/batch.ts),
// a counting filter's or a sliding window's batch export, or a chain's walk
// (assembly/chain.ts), which may stop early for JS to start a member.

import type { CheckedBatch, Item } from './inputs.js';
import type { Staging, UnitsStaging } from './staging.js';
import { putJoined, putList, putPacked, putStrings } from './chunk-staging.js';

/** Add (0) or test (1). */
export type BatchOp = 0 | 1;

/** How the chunks of one batch are run. */
export interface ChunkRunner {
  /**
   * Runs the staged chunk of `count` items (UTF-16 code units when `wide`),
   * whose first is item `first` of the batch, leaving its answers in the
   * batch flags region; returns how many it answered: `count`, or fewer to
   * end the batch there (Batches.stopped says where).
   */
  chunk(count: number, wide: number, first: number): number;
  /** Runs one item on its own (too long to share scratch) and returns its answer, or -1 to end the batch there. */
  one(item: Item): number;
  /** Whether chunks may hold UTF-16 code units (the poly scheme); else such strings go to one(). */
  readonly wide: boolean;
  /** How strings are staged as UTF-16 code units, where they are hashed so (the poly scheme; src/wasm/units.ts), not as UTF-8; else undefined. */
  readonly units: UnitsStaging | undefined;
}

/** Splits checked batches into chunks and runs them through one instance. */
export class Batches {
  private readonly staging: Staging;
  /** Where the last run ended: the batch's count, or the item a runner stopped at. */
  stopped = 0;
  /** The runner of the current run. */
  private runner!: ChunkRunner;
  /** The answers of the current run. */
  private flags!: Uint8Array;

  /** Runs batches through the instance whose scratch is `staging`. */
  constructor(staging: Staging) {
    this.staging = staging;
  }

  /**
   * Runs a checked batch through `runner`, which adds or tests; flag i is
   * item i's answer (in `into` when given). A runner that stops leaves the
   * rest of the flags 0.
   */
  run(batch: CheckedBatch, runner: ChunkRunner, into?: Uint8Array): Uint8Array {
    this.runner = runner;
    this.flags = into ?? new Uint8Array(batch.count);
    this.stopped = batch.count;
    if (batch.packed) this.runPacked(batch.bytes, batch.offsets, batch.count);
    else this.runList(batch.list);
    return this.flags;
  }

  /**
   * Runs the staged chunk of `count` items and copies their flags to the
   * answers at `first`; false when the runner stopped.
   */
  private runChunk(count: number, wide: number, first: number): boolean {
    if (count === 0) return true;
    this.staging.batchOffsets[0] = 0;
    const done = this.runner.chunk(count, wide, first);
    // Views are read again: a runner may have grown memory.
    this.flags.set(done === count ? this.staging.batchFlags.subarray(0, count) : this.staging.batchFlags.subarray(0, done), first);
    if (done === count) return true;
    this.stopped = first + done;
    return false;
  }

  /** Runs item i on its own; false when the runner stopped there. */
  private runOne(item: Item, i: number): boolean {
    const answer = this.runner.one(item);
    if (answer >= 0) {
      this.flags[i] = answer;
      return true;
    }
    this.stopped = i;
    return false;
  }

  /** Packed bytes: each chunk is one contiguous copy plus rebased offsets (chunk-staging.ts's putPacked). */
  private runPacked(bytes: Uint8Array, offsets: ArrayLike<number>, count: number): void {
    let i = 0;
    while (i < count) {
      const n = putPacked(this.staging, bytes, offsets, i, count);
      if (n === 0) {
        // Item i is too long to share scratch.
        if (!this.runOne(bytes.subarray(offsets[i], offsets[i + 1]), i)) return;
        i++;
        continue;
      }
      if (!this.runChunk(n, 0, i)) return;
      i += n;
    }
  }

  /**
   * A list: runs of strings and runs of Uint8Arrays become separate chunks.
   * A string chunk holds at most maxUtf8Units units, so its UTF-8 fits the
   * scratch region whatever the characters. Strings longer than
   * chunk-staging.ts's JOIN_MAX units go through the single-item path, in
   * order: one crossing is small next to hashing them, and it encodes them
   * straight into scratch.
   */
  private runList(list: readonly Item[]): void {
    const count = list.length;
    let i = 0;
    while (i < count) {
      const end = putList(this.staging, list, i, count);
      const n = end - i;
      if (n === 0) {
        // list[i] is too long to share a chunk.
        if (!this.runOne(list[i], i)) return;
        i++;
        continue;
      }
      const units = this.staging.batchOffsets[n];
      if (!(typeof list[i] === 'string' ? this.runStrings(list, i, n, units) : this.runChunk(n, 0, i))) return;
      i = end;
    }
  }

  /**
   * Runs list[first, first + n), strings that putList took (`units`
   * units in all, every one ASCII if the joined write says so): as one
   * chunk when it does, else again in parts of at most maxUtf8Units units
   * (putStrings), each string encoded on its own or, under the
   * poly scheme, copied as UTF-16 code units. False when the runner
   * stopped.
   */
  private runStrings(list: readonly Item[], first: number, n: number, units: number): boolean {
    const staging = this.staging;
    if (putJoined(staging, units)) return this.runChunk(n, 0, first);
    const poly = this.runner.units;
    const end = first + n;
    if (poly && !this.runner.wide) {
      // A runner of bytes only: each string on its own (its code units may be UTF-16).
      for (let i = first; i < end; i++) if (!this.runOne(list[i], i)) return false;
      return true;
    }
    for (let i = first, stop = first; i < end; i = stop) {
      stop = putStrings(staging, list, i, end, poly);
      if (!this.runChunk(stop - i, poly ? 1 : 0, i)) return false;
    }
    return true;
  }
}
