// The counting filter's side of the boundary: a record of the counting
// kind (assembly/record.ts, assembly/counting.ts) in an arena
// (src/wasm/arena.ts), and the view of its counters. src/counting/counting.ts
// holds the logic; this file holds every pointer.

import type { CheckedBatch, Item } from '../filter/items.js';
import type { FilterParams } from '../filter/options.js';
import { Kind } from './arena.js';
import { RegionHandle } from './region-handle.js';
import { checksumInPlace } from './checksum.js';
import type { Engine } from './engine.js';


/** The calls of each op, for BloomDisposedError. */
const OPS = ['add', 'has', 'remove', 'count'];
/** One counting filter's handle and views. */
export class CountingEngine extends RegionHandle {
  protected readonly owner = 'CountingBloomFilter';
  /** k: how many of the positions region's doubles are this filter's. */
  private readonly hashes: number;
  /** Bytes of the packed counters: ceil(m / 2). */
  readonly countersLength: number;

  /** A record holding m = params.bits counters; BloomAllocationError when memory cannot be had. */
  constructor(params: FilterParams) {
    super();
    this.countersLength = Math.ceil(params.bits / 2);
    this.units = params.scheme === 'poly';
    this.hashes = params.hashes;
    this.placeRecord(params, Kind.Counting);
  }

  /** The packed counters, live (made again when memory grew since the last call). */
  get counters(): Uint8Array {
    return this.regionView(this.countersLength, 'counters');
  }

  /** Gives the counters' region back at once (dispose()); any later call throws BloomDisposedError. */
  release(): void {
    this.releaseRecord();
  }

  /** Runs op (0 add, 1 has, 2 remove, 3 count) on the item; see assembly/counting.ts for the answers. */
  run(item: Item, op: number): number {
    const a = this.enter(OPS[op]);
    const len = a.staging.stage(item);
    // A Uint8Array's own getters are the caller's code, which may have used another filter meanwhile.
    if (a.current !== this.generation) this.reselect(OPS[op]);
    return len >= 0 ? a.x.countingItem(len, a.staging.wide, op) : a.x.countingStream(op);
  }

  /** Runs op 0 (add) or 1 (has) on a checked batch, in order, a chunk of staged items per wasm call (src/wasm/batch.ts). */
  runBatch(batch: CheckedBatch, op: 0 | 1): Uint8Array {
    const a = this.enter(op === 0 ? 'addMany' : 'hasMany');
    return a.batches.run(batch, op, { chunk: (n) => (a.x.countingBatch(n, op), n), one: (item) => this.run(item, op), wide: false });
  }

  /** Runs op on the item whose digest is hi:lo (the caller checked the scheme and seed). */
  runDigest(lo: number, hi: number, op: number): number {
    const a = this.enter(`${OPS[op]}Digest`);
    return a.x.countingDigest(lo, hi, op);
  }

  /** The item's positions in probe order. */
  positions(item: Item): number[] {
    const a = this.enter('positions');
    const len = a.staging.stage(item);
    if (len >= 0) a.x.positions(len, a.staging.wide);
    else a.x.streamPositions();
    return Array.from(a.staging.positionsOut.subarray(0, this.hashes));
  }

  /** Counters above 0. */
  nonzero(): number {
    const a = this.enter('nonzero');
    return a.x.countingNonzero();
  }

  /** Counters at 15. */
  saturated(): number {
    const a = this.enter('saturated');
    return a.x.countingSaturated();
  }

  /** Adds minus successful removes. */
  held(): number {
    const a = this.enter('held');
    return a.x.countingHeld();
  }

  /** Zeroes the counters and the tallies. */
  clear(): void {
    const a = this.enter('clear');
    a.x.countingClear();
  }

  /** After counters were written into `counters`: recounts them and sets the items held; returns the counters above 0. */
  restore(held: number): number {
    const a = this.enter('restore');
    return a.x.countingRestore(held);
  }

  /** The file checksum: XXH64 (seed 0) of `header` and then the counters, read in place. */
  checksum(header: Uint8Array): bigint {
    const a = this.enter('checksum');
    return checksumInPlace(a, header, a.x.countingChecksumCounters);
  }

  /**
   * Writes the plain filter's bits (bit p = counter p above 0) into
   * `target`'s bits: in one call when both live in one memory, else a
   * scratch chunk at a time.
   */
  writeBits(target: Engine): void {
    const a = this.enter('writeBits');
    const at = target.bitsIn(a);
    const length = target.byteLength;
    if (at >= 0) {
      a.x.countingBitsChunk(0, length, at);
      return;
    }
    // The target's view first: taking it selects the target, and the chunks
    // below must come from this filter.
    const bits = target.bitsView();
    this.enter('writeBits');
    const scratch = a.staging.scratch;
    const to = scratch.byteOffset;
    for (let first = 0; first < length; first += scratch.length) {
      const len = Math.min(scratch.length, length - first);
      a.x.countingBitsChunk(first, len, to);
      bits.set(a.staging.scratch.subarray(0, len), first);
    }
  }
}
