// Batches: addMany/hasMany cross into wasm once per chunk of up to batchMax
// items that fit the scratch region together (assembly/batch.ts runs the
// chunk), instead of once per item.

import type { CheckedBatch, Item } from '../filter/items.js';
import type { Exports } from './abi.js';
import { stringPath, type Staging } from './staging.js';

/**
 * In a batch, strings up to this many units are joined and encoded in one
 * encodeInto call per chunk. Measured in bench/: about 4x cheaper per URL
 * than one call per string into a fresh subarray. Longer strings take the
 * single-item path: joining would copy them once more.
 */
const JOIN_MAX = 256;

/** Add (0) or test (1). */
export type BatchOp = 0 | 1;

/** Splits checked batches into chunks and runs them through one instance. */
export class Batches {
  private readonly x: Exports;
  private readonly staging: Staging;
  /** The strings of the batch chunk being built (reused, emptied per chunk). */
  private readonly pending: string[] = [];

  /** Runs batches through the instance `x` whose scratch is `staging`. */
  constructor(x: Exports, staging: Staging) {
    this.x = x;
    this.staging = staging;
  }

  /** Adds (op 0) or tests (op 1) a checked batch; flag i is item i's answer. */
  run(batch: CheckedBatch, op: BatchOp): Uint8Array {
    const flags = new Uint8Array(batch.count);
    if (batch.packed) this.runPacked(batch.bytes, batch.offsets, batch.count, op, flags);
    else this.runList(batch.list, op, flags);
    return flags;
  }

  /** Runs the staged chunk of `count` items and copies their flags to `flags` at `first`. */
  private runChunk(count: number, wide: number, op: BatchOp, flags: Uint8Array, first: number): void {
    if (count === 0) return;
    if (op === 0) this.x.addBatch(count, wide);
    else this.x.hasBatch(count, wide);
    flags.set(this.staging.batchFlags.subarray(0, count), first);
  }

  /** One item on its own, for items too long to share the scratch region. */
  private single(item: Item, op: BatchOp): number {
    const len = this.staging.stage(item);
    const x = this.x;
    if (op === 0) return len >= 0 ? x.add(len, this.staging.wide) : x.streamAdd();
    return len >= 0 ? x.has(len, this.staging.wide) : x.streamHas();
  }

  /** Packed bytes: each chunk is one contiguous copy plus rebased offsets. */
  private runPacked(bytes: Uint8Array, offsets: ArrayLike<number>, count: number, op: BatchOp, flags: Uint8Array): void {
    const { batchOffsets: table, scratchSize, batchMax } = this.staging;
    let i = 0;
    while (i < count) {
      const base = offsets[i];
      if (offsets[i + 1] - base > scratchSize) {
        flags[i] = this.single(bytes.subarray(base, offsets[i + 1]), op);
        i++;
        continue;
      }
      let n = 0;
      table[0] = 0;
      while (i + n < count && n < batchMax && offsets[i + n + 1] - base <= scratchSize) {
        table[n + 1] = offsets[i + n + 1] - base;
        n++;
      }
      this.staging.scratch.set(bytes.subarray(base, offsets[i + n]));
      this.runChunk(n, 0, op, flags, i);
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
  private runList(list: readonly Item[], op: BatchOp, flags: Uint8Array): void {
    const staging = this.staging;
    const { batchOffsets: table, scratch, scratchSize, maxUtf8Units, batchMax } = staging;
    const pending = this.pending;
    let first = 0; // index of the chunk's first item
    let units = 0; // string units (or bytes) staged in the chunk
    let strings = true; // the chunk's kind
    let n = 0;
    const flush = (): void => {
      if (n > 0) {
        if (strings) this.runStrings(n, units, op, flags, first);
        else this.runChunk(n, 0, op, flags, first);
      }
      first += n;
      n = 0;
      units = 0;
      // Truncating costs a runtime call even on an empty array: skip it then.
      if (pending.length !== 0) pending.length = 0;
    };
    table[0] = 0;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      const isString = typeof item === 'string';
      const size = item.length;
      const limit = isString ? maxUtf8Units : scratchSize;
      if (isString !== strings || n === batchMax || units + size > limit) {
        flush();
        strings = isString;
      }
      if (size > (isString ? JOIN_MAX : limit)) {
        flush();
        flags[i] = this.single(item, op);
        first = i + 1;
        continue;
      }
      if (isString) {
        pending.push(item as string);
      } else {
        scratch.set(item as Uint8Array, units);
        table[n + 1] = units + size;
      }
      units += size;
      n++;
    }
    flush();
  }

  /**
   * Encodes the pending strings (each at most JOIN_MAX units, `units` in all)
   * into scratch and runs them. They are joined and encoded by one
   * encodeInto call; when every unit was ASCII (written equals the joined
   * length) the offsets are the running string lengths. Otherwise each string
   * is encoded again on its own (read in place by wasm when it is short: a
   * crossing each, but no encodeInto call; for all-ASCII chunks the one
   * joined encodeInto is cheaper than a crossing per string), or, under the
   * poly scheme, copied as UTF-16 code units.
   */
  private runStrings(n: number, units: number, op: BatchOp, flags: Uint8Array, first: number): void {
    const pending = this.pending;
    const staging = this.staging;
    const table = staging.batchOffsets;
    const joined = n === 1 ? pending[0] : pending.join('');
    let wide = 0;
    if (staging.encodeAt(joined, 0) === units) {
      let at = 0;
      for (let j = 0; j < n; j++) table[j + 1] = at += pending[j].length;
    } else if (staging.unitsForStrings) {
      const codes = staging.scratchUnits;
      let at = 0;
      for (let j = 0; j < n; j++) {
        const s = pending[j];
        for (let c = 0; c < s.length; c++) codes[at++] = s.charCodeAt(c);
        table[j + 1] = at << 1;
      }
      wide = 1;
    } else {
      // Not all ASCII: each string again on its own, read in place where it
      // is short enough (a crossing, but no encodeInto call of ~40 ns).
      const inPlace = staging.readsInPlace ? stringPath.inPlaceUnits : -1;
      let at = 0;
      for (let j = 0; j < n; j++) {
        const s = pending[j];
        table[j + 1] = at += s.length <= inPlace ? this.x.stageString(s, at, 0) : staging.encodeAt(s, at);
      }
    }
    this.runChunk(n, wide, op, flags, first);
  }
}
