// The lean BloomFilter of `bloomwasm/core` (src/core.ts): the common user's
// part of src/filter/filter.ts's class (make, add, ask, batches, dispose)
// over the same Engine, in the lean wasm build (assembly/core.ts). Its
// methods are filter.ts's, one line each over the engine; save/load,
// sharing, set algebra and the sizing search are left out, so that a bundle
// of it does not carry them (docs/MEMORY.md, on which build an instance is made from; README, "The lean bundle"). A filter
// of it answers every question as the full class's does, bit for bit
// (test/lean-bundle.test.ts).

import { Engine } from '../wasm/engine.js';
import { BloomTypeError } from '../errors.js';
import { checkBatchOf, isDisposed, markDisposed } from './dispose.js';
import { checkItem, checkParams, checkShared, MAX_BITS, schemeOption, type FilterOptions, type Scheme } from './options.js';
import { capacityParams } from './sizing.js';
import type { BatchItems } from './items.js';
import { checkDigest, WALK_HANDLE, type Digest } from './item-digest.js';

/** A Bloom filter of `bits` bits and `hashes` positions per item, hashed in WebAssembly (the lean class of `bloomwasm/core`). */
export class BloomFilter {
  /** m: the number of bits. */
  readonly bits: number;
  /** k: positions per item. */
  readonly hashes: number;
  /** The hash scheme. */
  readonly scheme: Scheme;
  /** The XXH64 seed (0 for the other schemes). */
  readonly seed: bigint;
  private readonly engine: Engine;

  /**
   * Creates an empty filter; throws BloomRangeError or BloomTypeError on bad
   * arguments. `{ shared: true }` is refused: shared memory is the full
   * class's (import from 'bloomwasm').
   */
  constructor(bits: number, hashes: number, options?: FilterOptions) {
    const params = checkParams(bits, hashes, options);
    if (checkShared(options)) throw new BloomTypeError('options.shared', true, "false here: a shared filter is made by BloomFilter from 'bloomwasm'");
    this.bits = params.bits;
    this.hashes = params.hashes;
    this.scheme = params.scheme;
    this.seed = params.seed;
    this.engine = Engine.make(params);
  }

  /** A filter sized for `capacity` items at `falsePositiveRate` (under sbbf, with the blocked filter's rate). */
  static forCapacity(capacity: number, falsePositiveRate: number, options?: FilterOptions): BloomFilter {
    const { bits, hashes } = capacityParams(capacity, falsePositiveRate, MAX_BITS, schemeOption(options));
    return new BloomFilter(bits, hashes, options);
  }

  /** Gives the filter's memory back at once; any later call throws BloomDisposedError naming it. Calling it again does nothing. */
  dispose(): void {
    if (isDisposed(this)) return;
    this.engine.release();
    markDisposed(this, 'BloomFilter');
  }

  /** dispose(), for `using` (TC39 explicit resource management). */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** Sets the item's k bits; true when any went from 0 to 1 (the item was certainly new). */
  add(item: string | Uint8Array): boolean {
    checkItem(item);
    return this.engine.add(item);
  }

  /** False when the item was certainly never added; true when it may have been. */
  has(item: string | Uint8Array): boolean {
    checkItem(item);
    return this.engine.has(item);
  }

  /** Adds each item in order; flag i is 1 when item i was certainly new (as add() would say). */
  addMany(items: BatchItems): Uint8Array {
    return this.engine.batch(checkBatchOf(this, 'BloomFilter.addMany', items), 0);
  }

  /** Tests each item; flag i is 1 when item i may have been added (as has() would say). */
  hasMany(items: BatchItems): Uint8Array {
    return this.engine.batch(checkBatchOf(this, 'BloomFilter.hasMany', items), 1);
  }

  /** has() for the item whose digest(item, { seed }) is `d` (xxh64 and sbbf filters; probeAll asks a filter outside its walk so). */
  hasDigest(d: Digest): boolean {
    checkDigest(this, d, 'hasDigest');
    return this.engine.hasDigest(d.lo, d.hi);
  }

  /** The engine, for probeAll to walk this filter's record with the others of its arena. @internal */
  [WALK_HANDLE](): Engine {
    return this.engine;
  }

  /** How many bits are 1. */
  bitsSet(): number {
    return this.engine.bitsSet();
  }

  /** How many adds reported a new item (set at least one bit). */
  addedCount(): number {
    return this.engine.addedCount();
  }
}
