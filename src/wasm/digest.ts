// The digest's side of the boundary: one hashing instance (the hasher) that
// encodes and hashes an item once (digestItem), and places one digest in
// many filters at once (placeAll) for probeAll, which then reads each
// filter's bits in place.
//
// Why probeAll makes no call into the filters' own instances: every filter
// owns an instance and a memory, and a call that lands in a different
// instance each time costs several times a call into the same one (V8 cannot
// keep one call site fast across 200 export functions). One placeAll call in
// the hasher computes every filter's positions (the same probe code,
// assembly/probe.ts), and JS reads the bits they name from each filter's
// memory, stopping at the first 0.

import { batchItem, type CheckedBatch, type Item } from '../filter/items.js';
import type { Exports } from './abi.js';
import { instantiate } from './module.js';
import { Staging } from './staging.js';

/** Where a filter's bits (width 1) or 4-bit counters (width 4) lie, for placeAll's readers. */
export interface ProbeSite {
  readonly bits: number;
  readonly hashes: number;
  readonly width: 1 | 4;
  /** Whether the positions are the sbbf scheme's (one block) rather than xxh64's. */
  readonly sbbf: boolean;
  /** A live view of the bits or counters; rebuilt by its owner when detached. */
  readonly view: Uint8Array;
}

/** The hashing instance, its seed, and its views. */
class Hasher {
  private readonly x: Exports;
  private readonly staging: Staging;
  private seed: bigint;
  /** u32[2] at positionsPtr: where digestItem leaves the digest. */
  private readonly out: Uint32Array;
  /** placeAll's table in scratch: per filter f64 m, then u32 k and u32 layout (width, and PLACE_SBBF). */
  private readonly table: Float64Array;
  private readonly tableUnits: Uint32Array;
  /** placeAll's output: u32 byte offsets (batch offsets region) and u8 masks (batch flags region). */
  private readonly offsets: Uint32Array;
  private readonly masks: Uint8Array;
  /** Positions per placeAll call. */
  private readonly room: number;
  /** Items per digestBatch call, and the u32 view of where their digests land (the batch probes region). */
  private readonly batchDigests: number;
  private readonly digests: Uint32Array;

  constructor(seed: bigint) {
    this.x = instantiate(8, 0);
    this.seed = seed;
    this.configure(seed);
    // Memory grew, if at all, in that first configureHashing; later ones
    // never grow it, so these views stay attached.
    this.staging = new Staging(this.x, 1, false);
    const buffer = this.x.memory.buffer;
    this.room = this.x.batchMax();
    this.out = new Uint32Array(buffer, this.x.positionsPtr(), 2);
    this.table = new Float64Array(buffer, this.x.scratchPtr(), this.room * 2);
    this.tableUnits = new Uint32Array(buffer, this.x.scratchPtr(), this.room * 4);
    this.offsets = new Uint32Array(buffer, this.x.batchOffsetsPtr(), this.room);
    this.masks = new Uint8Array(buffer, this.x.batchFlagsPtr(), this.room);
    this.batchDigests = this.x.digestBatchMax();
    this.digests = new Uint32Array(buffer, this.x.digestBatchPtr(), 2 * this.batchDigests);
  }

  private configure(seed: bigint): void {
    this.x.configureHashing(8, 1, 0, Number(seed & 0xffffffffn), Number(seed >> 32n));
  }

  /** Hashes the item under `seed`; its halves are then in lo() and hi(). */
  hash(item: Item, seed: bigint): void {
    if (seed !== this.seed) {
      this.configure(seed);
      this.seed = seed;
    }
    const len = this.staging.stage(item);
    if (len >= 0) this.x.digestItem(len);
    else this.x.digestStream();
  }

  /**
   * The digests of a checked batch under `seed`, as (lo, hi) pairs: items are
   * packed into scratch up to digestBatchMax at a time and hashed in one call
   * (an item too long for the scratch region is streamed on its own).
   */
  digestMany(batch: CheckedBatch, seed: bigint): Uint32Array {
    if (seed !== this.seed) {
      this.configure(seed);
      this.seed = seed;
    }
    const out = new Uint32Array(2 * batch.count);
    const { scratch, batchOffsets: offsets, scratchSize } = this.staging;
    let i = 0;
    while (i < batch.count) {
      let n = 0;
      let at = 0;
      offsets[0] = 0;
      while (i + n < batch.count && n < this.batchDigests) {
        const item = batchItem(batch, i + n);
        // A string's UTF-8 takes at most 3 bytes per unit.
        const room = typeof item === 'string' ? item.length * 3 : item.length;
        if (at + room > scratchSize) break;
        if (typeof item === 'string') at += this.staging.encodeAt(item, at);
        else {
          scratch.set(item, at);
          at += item.length;
        }
        offsets[++n] = at;
      }
      if (n === 0) {
        // Too long to share the scratch region: hashed alone, streamed if need be.
        this.hash(batchItem(batch, i), seed);
        out[2 * i] = this.out[0];
        out[2 * i + 1] = this.out[1];
        i++;
        continue;
      }
      this.x.digestBatch(n);
      out.set(this.digests.subarray(0, 2 * n), 2 * i);
      i += n;
    }
    return out;
  }

  /** Bits 0..31 of the last digest. */
  lo(): number {
    return this.out[0];
  }

  /** Bits 32..63 of the last digest. */
  hi(): number {
    return this.out[1];
  }

  /**
   * Sets out[which[j]] to 1 when every position of digest hi:lo in sites[j]
   * holds a 1 bit (or a counter above 0), else 0: positions from placeAll,
   * one call per group of up to `room` positions, bits read in place.
   */
  probeSites(lo: number, hi: number, sites: readonly ProbeSite[], which: readonly number[], out: Uint8Array): void {
    const { table, tableUnits, offsets, masks, room } = this;
    let next = 0;
    while (next < sites.length) {
      const first = next;
      let total = 0;
      while (next < sites.length && total + sites[next].hashes <= room) {
        const site = sites[next];
        const j = next - first;
        table[2 * j] = site.bits;
        tableUnits[4 * j + 2] = site.hashes;
        tableUnits[4 * j + 3] = site.width | (site.sbbf ? PLACE_SBBF : 0);
        total += site.hashes;
        next++;
      }
      this.x.placeAll(lo, hi, next - first);
      let at = 0;
      for (let j = first; j < next; j++) {
        const { view, hashes } = sites[j];
        const end = at + hashes;
        let found = 1;
        for (; at < end; at++) {
          if ((view[offsets[at]] & masks[at]) === 0) {
            found = 0;
            break;
          }
        }
        at = end;
        out[which[j]] = found;
      }
    }
  }
}

/** placeAll's layout flag for the sbbf scheme (assembly/digest.ts). */
const PLACE_SBBF = 0x100;

let hasher: Hasher | undefined;

/** The one hashing instance, made on first use. */
export function theHasher(seed: bigint): Hasher {
  hasher ??= new Hasher(seed);
  return hasher;
}

export type { Hasher };
