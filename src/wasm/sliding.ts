// The sliding-window filter's side of the boundary: a record of the sliding
// kind (assembly/record.ts, assembly/sliding.ts) in an arena
// (src/wasm/arena.ts), and the view of its words. src/sliding/sliding.ts
// holds the logic (which plane is current, which are live); this file holds
// every pointer.

import type { CheckedBatch, Item } from './inputs.js';
import { Kind } from './arena.js';
import { RegionHandle } from './region-handle.js';
import { checksumInPlace } from './checksum.js';
import type { SlidingExports } from './abi.js';
import { FamilyModule } from './family-module.js';
import { slidingWasm } from './sliding-bytes.generated.js';
import { high32, low32 } from './inputs.js';

/** The sliding-window filter's module (assembly/sliding-module.ts), instantiated over each arena that holds one. */
export const slidingModule = /* @__PURE__ */ new FamilyModule<SlidingExports>(slidingWasm);

/** What a released engine holds in place of its arena's module: nothing to call. */
const RELEASED = Object.freeze({}) as SlidingExports;

/** What a sliding record is made of. */
export interface SlidingParams {
  /** m: positions (words). */
  readonly bits: number;
  /** k: positions per item. */
  readonly hashes: number;
  /** The XXH64 seed. */
  readonly seed: bigint;
  /** Bytes per word: 1 for 8 generations, 2 for 16. */
  readonly wordBytes: 1 | 2;
}


/** The calls of each op, for BloomDisposedError. */
const OPS = ['add', 'has'];
/** One sliding filter's handle and the view of its words. */
export class SlidingEngine extends RegionHandle {
  protected readonly owner = 'SlidingBloomFilter';
  /** Bytes of the words: m * wordBytes. */
  readonly wordsLength: number;
  /** The sliding module over the record's arena (RELEASED once released). */
  private fx: SlidingExports;

  /** A record of m words of `wordBytes` bytes, zeroed; BloomAllocationError when memory cannot be had. */
  constructor(params: SlidingParams) {
    super();
    this.wordsLength = params.bits * params.wordBytes;
    // assembly/sliding.ts's SlidingRecord, its words zero, under the xxh64 scheme (slidingCreate sets it): its positions are BloomFilter's under xxh64.
    const { bits, hashes, seed, wordBytes } = params;
    const seedLo = low32(seed);
    const seedHi = high32(seed);
    this.placeRecord({
      kind: Kind.Sliding,
      payloadBytes: this.wordsLength,
      size: bits,
      create: (a) => slidingModule.of(a).slidingCreate(bits, hashes, seedLo, seedHi, wordBytes),
    });
    this.fx = slidingModule.of(this.arena);
  }

  /** The words' bytes (little-endian u16 words when 2 bytes), live: a view made at each use (RegionHandle). */
  get words(): Uint8Array {
    return this.regionView(this.wordsLength, 'words');
  }

  /** Gives the words' region back at once (dispose()); any later call throws BloomDisposedError. */
  release(): void {
    this.releaseRecord();
    this.fx = RELEASED;
  }

  /** Runs op (0 add, 1 has) on the item with the current plane and the live mask; see assembly/sliding.ts for the answers. */
  run(item: Item, op: number, plane: number, live: number): number {
    const a = this.enter(OPS[op]);
    const r = this.record;
    const g = this.generation;
    const len = a.staging.stage(item, r, g, undefined);
    const v = len >= 0 ? this.fx.slidingItem(r, g, len, a.staging.wide, op, plane, live) : this.fx.slidingStream(r, g, op, plane, live);
    return this.checked(v, OPS[op]);
  }

  /** Runs op 0 (add) or 1 (has) on a checked batch, in order, with one plane and live mask for all of it. */
  runBatch(batch: CheckedBatch, op: 0 | 1, plane: number, live: number): Uint8Array {
    const call = op === 0 ? 'addMany' : 'hasMany';
    const a = this.enter(call);
    const chunk = (n: number) => (this.checked(this.fx.slidingBatch(this.record, this.generation, n, op, plane, live), call), n);
    return a.batches.run(batch, { chunk, one: (item) => this.run(item, op, plane, live), wide: false, units: undefined });
  }

  /** Clears bit `plane` of every word. */
  clearPlane(plane: number): void {
    this.enter('clearPlane');
    this.checked(this.fx.slidingClearPlane(this.record, this.generation, plane), 'clearPlane');
  }

  /** The file checksum: XXH64 (seed 0) of `header` and then the words, read in place. */
  checksum(header: Uint8Array): bigint {
    const a = this.enter('checksum');
    return checksumInPlace(a, header, () => this.checked(this.fx.slidingChecksumWords(this.record, this.generation), 'checksum'));
  }
}
