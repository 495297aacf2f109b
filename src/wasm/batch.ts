// The one batch stager: addMany/hasMany of every structure cross into wasm
// once per chunk of up to batchMax items that fit the scratch region
// together, instead of once per item. A chunk is staged here (items as
// bytes, their byte offsets in the batch offsets region) and run by a
// ChunkRunner: a filter's addBatch/hasBatch (assembly/batch.ts), a counting
// filter's or a sliding window's batch export, or a chain's walk
// (assembly/chain.ts), which may stop early for JS to start a member.

import type { CheckedBatch, Item } from './inputs.js';
import { lengthOf } from './typed-arrays.js';
import type { Exports } from './abi.js';
import { polyUnits, stringPath, type Staging } from './staging.js';

/**
 * In a batch, strings up to this many units are joined and encoded in one
 * encodeInto call per chunk. Measured in bench/: about 4x cheaper per URL
 * than one call per string into a fresh subarray. Longer strings take the
 * single-item path: joining would copy them once more.
 */
const JOIN_MAX = 256;

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
  /** Whether strings are hashed as UTF-16 code units (the poly scheme), not as UTF-8. */
  readonly units: boolean;
}

/** Splits checked batches into chunks and runs them through one instance. */
export class Batches {
  private readonly x: Exports;
  private readonly staging: Staging;
  /** Where the last run ended: the batch's count, or the item a runner stopped at. */
  stopped = 0;
  /** The runner of the current run. */
  private runner!: ChunkRunner;
  /** The answers of the current run. */
  private flags!: Uint8Array;
  /** The strings stageStrings took, joined, until runStrings writes them. */
  private joined = '';

  /** Runs batches through the instance `x` whose scratch is `staging`. */
  constructor(x: Exports, staging: Staging) {
    this.x = x;
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

  /** Packed bytes: each chunk is one contiguous copy plus rebased offsets. */
  private runPacked(bytes: Uint8Array, offsets: ArrayLike<number>, count: number): void {
    const { scratchSize, batchMax } = this.staging;
    let i = 0;
    while (i < count) {
      const base = offsets[i];
      if (offsets[i + 1] - base > scratchSize) {
        if (!this.runOne(bytes.subarray(base, offsets[i + 1]), i)) return;
        i++;
        continue;
      }
      const table = this.staging.batchOffsets;
      let n = 0;
      while (i + n < count && n < batchMax && offsets[i + n + 1] - base <= scratchSize) {
        table[n + 1] = offsets[i + n + 1] - base;
        n++;
      }
      this.staging.scratch.set(bytes.subarray(base, offsets[i + n]));
      if (!this.runChunk(n, 0, i)) return;
      i += n;
    }
  }

  /**
   * A list: runs of strings and runs of Uint8Arrays become separate chunks.
   * A string chunk holds at most maxUtf8Units units, so its UTF-8 fits the
   * scratch region whatever the characters. Strings longer than JOIN_MAX
   * units go through the single-item path, in order: one crossing is small
   * next to hashing them, and it encodes them straight into scratch.
   */
  private runList(list: readonly Item[]): void {
    const count = list.length;
    let i = 0;
    while (i < count) {
      const end = this.stageList(list, i, count);
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
   * Takes list[from, ...) into one chunk while they fit it and are of the
   * kind of list[from]; returns the index after the last item taken: from
   * itself when list[from] is too long to share a chunk. Strings go to
   * stageStrings, byte items are copied into scratch here; each item's end
   * offset is written to the batch offsets region.
   *
   * These loops are functions of their own with nothing after them but a
   * return: V8 (Node 20 and 24) compiles a long first batch's loop on
   * stack, and code after such a loop, with no feedback yet, threw that
   * code away at the end of every later batch (--trace-deopt: "Insufficient
   * type feedback", once per call, which cost more than the batch saved).
   */
  private stageList(list: readonly Item[], from: number, count: number): number {
    if (typeof list[from] === 'string') return this.stageStrings(list, from, count);
    const staging = this.staging;
    const { scratchSize, batchMax } = staging;
    // Read here, after any run before: a runner may have grown memory.
    const table = staging.batchOffsets;
    let units = 0;
    let i = from;
    for (; i < count; i++) {
      const item = list[i];
      if (typeof item === 'string') break;
      const size = lengthOf(item);
      if (i - from === batchMax || units + size > scratchSize) break;
      staging.scratch.set(item, units);
      units += size;
      table[i - from + 1] = units;
    }
    return i;
  }

  /**
   * stageList for a run of strings: writes each one's offset as its length
   * (right when every unit is ASCII: runStrings checks) and joins them into
   * `joined` in the same pass, as a rope that the one UTF-8 write of
   * runStrings flattens. Timed on Node 20 and 24 over chunks of 1,000: 4 to
   * 5 ns an item less than this loop followed by list.slice(...).join(''),
   * for URLs of 64-70 characters and for keys of 8 to 16.
   *
   * A chunk takes up to scratchSize - 4 units, as if every one were ASCII,
   * rather than the maxUtf8Units that fit whatever the characters: that
   * is 980 URLs a chunk instead of 326, and the rope, its flattening, the
   * write and the crossing are paid a third as often (timed on Node 24 and
   * 20 over blocks of 1,000 URLs: 20 to 17 and 23.5 to 21 ns a URL for the
   * staging alone). The 4 units of room are what make runStrings's check
   * exact: see there.
   */
  private stageStrings(list: readonly Item[], from: number, count: number): number {
    const { scratchSize, batchMax, batchOffsets: table } = this.staging;
    const most = scratchSize - 4;
    let joined = '';
    let units = 0;
    let i = from;
    for (; i < count; i++) {
      const item = list[i];
      if (typeof item !== 'string') break;
      const size = item.length;
      if (i - from === batchMax || units + size > most || size > JOIN_MAX) break;
      joined += item;
      units += size;
      table[i - from + 1] = units;
    }
    this.joined = joined;
    return i;
  }

  /**
   * Encodes list[first, first + n) (strings, each at most JOIN_MAX units,
   * `units` in all, at most scratchSize - 4) into scratch and runs them.
   * They were joined by stageStrings and are encoded by one call
   * (Staging.encodeJoined). Every unit was ASCII exactly when the bytes
   * written equal the units: a string with another character takes more
   * bytes than units, and a write that stops at the end of scratch has
   * written at least scratchSize - 3 bytes (it stops before a character of
   * at most 4), more than the units. Then the offsets stageStrings wrote
   * hold. Otherwise the strings go again in parts of at most maxUtf8Units
   * units (whose UTF-8, and UTF-16, surely fit scratch): each string
   * encoded on its own (read in place by wasm when it is short: a crossing,
   * but no encodeInto call of ~40 ns), or, under the poly scheme, copied as
   * UTF-16 code units. False when the runner stopped.
   */
  private runStrings(list: readonly Item[], first: number, n: number, units: number): boolean {
    const staging = this.staging;
    const table = staging.batchOffsets;
    table[0] = 0;
    const joined = this.joined;
    // The rope is not kept past its one write.
    this.joined = '';
    if (staging.encodeJoined(joined) === units) return this.runChunk(n, 0, first);
    const poly = this.runner.units;
    const end = first + n;
    if (poly && !this.runner.wide) {
      // A runner of bytes only: each string on its own (its code units may be UTF-16).
      for (let i = first; i < end; i++) if (!this.runOne(list[i], i)) return false;
      return true;
    }
    const inPlace = staging.readsInPlace ? stringPath.inPlaceUnits : -1;
    for (let i = first, stop = first; i < end; i = stop) {
      // A part: as many strings as fit maxUtf8Units (each is at most JOIN_MAX, so at least one).
      for (let part = 0; stop < end && (part += (list[stop] as string).length) <= staging.maxUtf8Units; stop++);
      if (poly) polyUnits().chunk(staging, list, i, stop - i);
      else {
        let at = 0;
        for (let j = i; j < stop; j++) {
          const s = list[j] as string;
          table[j - i + 1] = at += s.length <= inPlace ? this.x.stageString(s, at, 0) : staging.encodeAt(s, at);
        }
      }
      if (!this.runChunk(stop - i, poly ? 1 : 0, i)) return false;
    }
    return true;
  }
}
