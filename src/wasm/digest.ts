// The digest's side of the boundary: one hashing instance (the hasher) that
// encodes and hashes an item once (digestItem), or a batch of items
// (digestBatch), for digest(), probeAll and the ScalableBloomFilter.
//
// probeAll makes no other call: it reads the filters' bits in place, in
// whichever instance's memory each lives (src/wasm/arena.ts), and makes
// their positions in JS (src/filter/probe-plan.ts).

import { batchItem, type CheckedBatch, type Item } from '../filter/items.js';
import type { Exports } from './abi.js';
import { type Arena, Kind, place } from './arena.js';
import type { Staging } from './staging.js';

/**
 * The hashing instance, its seed, and its views. An arena of its own
 * (src/wasm/arena.ts), holding one hashing record for the current seed:
 * nothing else selects a record there, so no call selects.
 */
class Hasher {
  private readonly arena: Arena;
  private readonly x: Exports;
  private readonly staging: Staging;
  private seed: bigint;
  /** The hashing record of `seed`, and its generation. */
  private record: number;
  private generation: number;
  /** u32[2] at positionsPtr: where digestItem leaves the digest. */
  private out!: Uint32Array;
  /** Items per digestBatch call, and the u32 view of where their digests land (the batch probes region). */
  private readonly batchDigests: number;
  private digests!: Uint32Array;
  /** The arena epoch the views were made in. */
  private epoch = -1;

  constructor(seed: bigint) {
    const { arena, record, generation } = place({ bits: 8, hashes: 1, schemeId: 0, seed }, Kind.Hashing, true);
    this.arena = arena;
    this.x = arena.x;
    this.staging = arena.staging;
    this.record = record;
    this.generation = generation;
    this.seed = seed;
    this.batchDigests = this.x.digestBatchMax();
    this.views();
  }

  /** Makes the views again if memory grew. */
  private views(): void {
    if (this.epoch === this.arena.epoch) return;
    const buffer = this.x.memory.buffer;
    this.out = new Uint32Array(buffer, this.x.positionsPtr(), 2);
    this.digests = new Uint32Array(buffer, this.x.digestBatchPtr(), 2 * this.batchDigests);
    this.epoch = this.arena.epoch;
  }

  /** A hashing record for `seed` in place of the last one. */
  private configure(seed: bigint): void {
    const old = this.record;
    const oldGeneration = this.generation;
    // Made before the old one goes, so that the arena never counts 0 records (which drops it).
    const next = this.arena.create({ bits: 8, hashes: 1, schemeId: 0, seed }, Kind.Hashing);
    this.arena.release(old, oldGeneration);
    // create() selected it.
    this.record = next;
    this.generation = this.arena.createdGeneration;
    this.views();
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
}

let hasher: Hasher | undefined;

/** The one hashing instance, made on first use. */
export function theHasher(seed: bigint): Hasher {
  hasher ??= new Hasher(seed);
  return hasher;
}

export type { Hasher };
