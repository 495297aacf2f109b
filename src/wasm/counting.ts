// The counting filter's side of the boundary: an instance of the filter
// module configured by countingConfigure (assembly/counting.ts), its
// staging, and the view of its counters. src/counting/counting.ts holds the
// logic; this file holds every pointer.

import { BloomAllocationError } from '../errors.js';
import { batchItem, type CheckedBatch, type Item } from '../filter/items.js';
import type { FilterParams } from '../filter/options.js';
import type { Exports } from './abi.js';
import type { Engine } from './engine.js';
import { instantiate } from './module.js';
import { Staging } from './staging.js';

/** One counting filter's wasm instance and views. */
export class CountingEngine {
  private readonly x: Exports;
  private readonly staging: Staging;
  /** Bytes of the packed counters: ceil(m / 2). */
  readonly countersLength: number;
  /** The strings of the batch chunk being built (reused). */
  private readonly pending: string[] = [];
  /**
   * The packed counters. Memory grows once, in countingConfigure, before the
   * views are made, and never again (see staging.ts on why growth would
   * detach them).
   */
  readonly counters: Uint8Array;

  /** An instance holding m = params.bits counters; BloomAllocationError when memory cannot be had. */
  constructor(params: FilterParams) {
    this.countersLength = Math.ceil(params.bits / 2);
    this.x = instantiate(params.bits, this.countersLength);
    const seedLo = Number(params.seed & 0xffffffffn);
    const seedHi = Number(params.seed >> 32n);
    if (this.x.countingConfigure(params.bits, params.hashes, params.schemeId, seedLo, seedHi) !== 0) {
      throw new BloomAllocationError(params.bits, this.countersLength);
    }
    this.staging = new Staging(this.x, params.hashes, params.scheme === 'poly');
    this.counters = new Uint8Array(this.x.memory.buffer, this.x.bitsPtr(), this.countersLength);
  }

  /** Runs op (0 add, 1 has, 2 remove, 3 count) on the item; see assembly/counting.ts for the answers. */
  run(item: Item, op: number): number {
    const len = this.staging.stage(item);
    return len >= 0 ? this.x.countingItem(len, this.staging.wide, op) : this.x.countingStream(op);
  }

  /**
   * Runs op 0 (add) or 1 (has) on a checked batch, in order: items go into
   * scratch as bytes (strings as UTF-8) with their offsets, up to batchMax
   * per call, runs of strings and runs of byte arrays in separate chunks. An
   * item too long to share the scratch region, and any string under poly
   * (whose code units may be UTF-16), goes on its own through run().
   */
  runBatch(batch: CheckedBatch, op: 0 | 1): Uint8Array {
    const flags = new Uint8Array(batch.count);
    const { scratch, batchOffsets: offsets, batchFlags, batchMax, scratchSize, maxUtf8Units } = this.staging;
    const units = this.staging.unitsForStrings;
    const pending = this.pending;
    let i = 0;
    while (i < batch.count) {
      let n = 0;
      let at = 0;
      offsets[0] = 0;
      if (!batch.packed && typeof batch.list[i] === 'string' && !units) {
        // A run of strings: joined and encoded by one encodeInto call (as
        // src/wasm/batch.ts does); when every unit was ASCII the offsets are
        // the running lengths, otherwise each string is encoded on its own.
        let total = 0;
        pending.length = 0;
        while (i + n < batch.count && n < batchMax) {
          const item = batch.list[i + n];
          if (typeof item !== 'string' || total + item.length > maxUtf8Units) break;
          pending.push(item);
          total += item.length;
          n++;
        }
        if (n > 0 && this.staging.encodeAt(n === 1 ? pending[0] : pending.join(''), 0) === total) {
          for (let j = 0; j < n; j++) offsets[j + 1] = at += pending[j].length;
        } else {
          for (let j = 0; j < n; j++) offsets[j + 1] = at += this.staging.encodeAt(pending[j], at);
        }
      } else {
        while (i + n < batch.count && n < batchMax) {
          const item = batchItem(batch, i + n);
          if (typeof item === 'string') break;
          if (at + item.length > scratchSize) break;
          scratch.set(item, at);
          at += item.length;
          offsets[++n] = at;
        }
      }
      if (n === 0) {
        flags[i] = this.run(batchItem(batch, i), op) !== 0 ? 1 : 0;
        i++;
        continue;
      }
      this.x.countingBatch(n, op);
      flags.set(batchFlags.subarray(0, n), i);
      i += n;
    }
    return flags;
  }

  /** Runs op on the item whose digest is hi:lo (the caller checked the scheme and seed). */
  runDigest(lo: number, hi: number, op: number): number {
    return this.x.countingDigest(lo, hi, op);
  }

  /** The item's positions in probe order. */
  positions(item: Item): number[] {
    const len = this.staging.stage(item);
    if (len >= 0) this.x.positions(len, this.staging.wide);
    else this.x.streamPositions();
    return Array.from(this.staging.positionsOut);
  }

  /** Counters above 0. */
  nonzero(): number {
    return this.x.countingNonzero();
  }

  /** Counters at 15. */
  saturated(): number {
    return this.x.countingSaturated();
  }

  /** Adds minus successful removes. */
  held(): number {
    return this.x.countingHeld();
  }

  /** Zeroes the counters and the tallies. */
  clear(): void {
    this.x.countingClear();
  }

  /** After counters were written into `counters`: recounts them and sets the items held. */
  restore(held: number): void {
    this.x.countingRestore(held);
  }

  /** The file checksum: XXH64 (seed 0) of `header` and then the counters, read in place. */
  checksum(header: Uint8Array): bigint {
    this.x.checksumStart();
    this.staging.eachChunk(header, (len) => this.x.checksumScratch(len));
    this.x.countingChecksumCounters();
    this.x.checksumEnd();
    return this.staging.digest();
  }

  /** Writes the plain filter's bits (bit p = counter p above 0) into `target`'s bits, a scratch chunk at a time. */
  writeBits(target: Engine): void {
    const bits = target.bitsView();
    const scratch = this.staging.scratch;
    for (let at = 0; at < bits.length; at += scratch.length) {
      const len = Math.min(scratch.length, bits.length - at);
      this.x.countingBitsChunk(at, len);
      bits.set(scratch.subarray(0, len), at);
    }
  }
}
