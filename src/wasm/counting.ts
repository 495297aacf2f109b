// The counting filter's side of the boundary: a record of the counting
// kind (assembly/record.ts, assembly/counting.ts) in an arena
// (src/wasm/arena.ts), and the view of its counters. src/counting/counting.ts
// holds the logic; this file holds every pointer.

import type { CheckedBatch, FilterParams, Item } from './inputs.js';
import { Kind } from './arena.js';
import { RegionHandle } from './region-handle.js';
import { checksumInPlace } from './checksum.js';
import type { Engine } from './engine.js';
import type { CountingExports } from './abi.js';
import { FamilyModule } from './family-module.js';
import { countingWasm } from './counting-bytes.generated.js';
import type { StreamCalls } from './staging.js';
import { unitsStaging } from './units.js';
import { high32, low32 } from './inputs.js';

/** The counting filter's module (assembly/counting-module.ts), instantiated over each arena that holds one. */
export const countingModule = /* @__PURE__ */ new FamilyModule<CountingExports>(countingWasm);

/** What a released engine holds in place of its arena's module: nothing to call. */
const RELEASED = Object.freeze({}) as CountingExports;
const RELEASED_STREAMER = Object.freeze({}) as StreamCalls;

/** The calls of each op, for BloomDisposedError. */
const OPS = ['add', 'has', 'remove', 'count'];
/** One counting filter's handle and views. */
export class CountingEngine extends RegionHandle {
  protected readonly owner = 'CountingBloomFilter';
  /** k: how many of the positions region's doubles are this filter's. */
  private readonly hashes: number;
  /** Bytes of the packed counters: ceil(m / 2). */
  readonly countersLength: number;
  /** The counting module over the record's arena (RELEASED once released). */
  private fx: CountingExports;
  /** Where a long item is streamed: the counting module, which hashes every scheme. */
  private streamer: StreamCalls;

  /** A record holding m = params.bits counters; BloomAllocationError when memory cannot be had. */
  constructor(params: FilterParams) {
    super();
    this.countersLength = Math.ceil(params.bits / 2);
    if (params.scheme === 'poly') this.units = unitsStaging;
    this.hashes = params.hashes;
    // assembly/counting.ts's CountingRecord: the scheme's fields and the tallies; the counters after it.
    const { bits, hashes, schemeId, seed } = params;
    const seedLo = low32(seed);
    const seedHi = high32(seed);
    this.placeRecord({
      kind: Kind.Counting,
      payloadBytes: this.countersLength,
      size: bits,
      create: (a) => countingModule.of(a).countingCreate(bits, hashes, schemeId, seedLo, seedHi),
    });
    const fx = countingModule.of(this.arena);
    this.fx = fx;
    this.streamer = { streamBegin: fx.countingStreamBegin, streamUpdate: fx.countingStreamUpdate };
  }

  /** The packed counters, live: a view made at each use (RegionHandle). */
  get counters(): Uint8Array {
    return this.regionView(this.countersLength, 'counters');
  }

  /** Gives the counters' region back at once (dispose()); any later call throws BloomDisposedError. */
  release(): void {
    this.releaseRecord();
    this.fx = RELEASED;
    this.streamer = RELEASED_STREAMER;
  }

  /** Runs op (0 add, 1 has, 2 remove, 3 count) on the item; see assembly/counting.ts for the answers. */
  run(item: Item, op: number): number {
    const a = this.enter(OPS[op]);
    const r = this.record;
    const g = this.generation;
    const len = a.staging.stage(item, r, g, this.units, this.streamer);
    return this.checked(len >= 0 ? this.fx.countingItem(r, g, len, a.staging.wide, op) : this.fx.countingStream(r, g, op), OPS[op]);
  }

  /** Runs op 0 (add) or 1 (has) on a checked batch, in order, a chunk of staged items per wasm call (src/wasm/batch.ts). */
  runBatch(batch: CheckedBatch, op: 0 | 1): Uint8Array {
    const call = op === 0 ? 'addMany' : 'hasMany';
    const a = this.enter(call);
    const chunk = (n: number) => (this.checked(this.fx.countingBatch(this.record, this.generation, n, op), call), n);
    return a.batches.run(batch, { chunk, one: (item) => this.run(item, op), wide: false, units: this.units });
  }

  /** Runs op on the item whose digest is hi:lo (the caller checked the scheme and seed). */
  runDigest(lo: number, hi: number, op: number): number {
    const call = `${OPS[op]}Digest`;
    this.enter(call);
    return this.checked(this.fx.countingDigest(this.record, this.generation, lo, hi, op), call);
  }

  /** The item's positions in probe order. */
  positions(item: Item): number[] {
    const a = this.enter('positions');
    const r = this.record;
    const g = this.generation;
    const len = a.staging.stage(item, r, g, this.units, this.streamer);
    this.checked(len >= 0 ? this.fx.countingPositions(r, g, len, a.staging.wide) : this.fx.countingStreamPositions(r, g), 'positions');
    return Array.from(a.staging.positionsOut.subarray(0, this.hashes));
  }

  /** Counters above 0. */
  nonzero(): number {
    this.enter('nonzero');
    return this.checked(this.fx.countingNonzero(this.record, this.generation), 'nonzero');
  }

  /** Counters at 15. */
  saturated(): number {
    this.enter('saturated');
    return this.checked(this.fx.countingSaturated(this.record, this.generation), 'saturated');
  }

  /** Adds minus successful removes. */
  held(): number {
    this.enter('held');
    return this.checked(this.fx.countingHeld(this.record, this.generation), 'held');
  }

  /** Zeroes the counters and the tallies. */
  clear(): void {
    this.enter('clear');
    this.checked(this.fx.countingClear(this.record, this.generation), 'clear');
  }

  /** After counters were written into `counters`: recounts them and sets the items held; returns the counters above 0. */
  restore(held: number): number {
    this.enter('restore');
    return this.checked(this.fx.countingRestore(this.record, this.generation, held), 'restore');
  }

  /** The file checksum: XXH64 (seed 0) of `header` and then the counters, read in place. */
  checksum(header: Uint8Array): bigint {
    const a = this.enter('checksum');
    return checksumInPlace(a, header, () => this.checked(this.fx.countingChecksumCounters(this.record, this.generation), 'checksum'));
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
      this.checked(this.fx.countingBitsChunk(this.record, this.generation, 0, length, at), 'writeBits');
      return;
    }
    const bits = target.bitsView();
    const scratch = a.staging.scratch;
    const to = scratch.byteOffset;
    for (let first = 0; first < length; first += scratch.length) {
      const len = Math.min(scratch.length, length - first);
      this.checked(this.fx.countingBitsChunk(this.record, this.generation, first, len, to), 'writeBits');
      bits.set(a.staging.scratch.subarray(0, len), first);
    }
  }
}
