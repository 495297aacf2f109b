// The common user's part of BloomFilter (src/filter/filter.ts): the
// parameters, the engine, and the methods to add, ask, batch and dispose,
// one line each over the engine.

import type { CoreEngine } from '../wasm/core-engine.js';
import { checkBatchOf, isDisposed, markDisposed } from './dispose.js';
import { checkItem, MAX_ADDED_COUNT, type FilterParams, type Scheme } from './options.js';
import type { BatchItems } from './items.js';
import { checkDigest, type Digest } from './item-digest.js';
import type { RecordHandle } from '../wasm/record-handle.js';
import { INSPECT, inspectLine, positionFields } from './describe.js';

/** The engine of a filter (set by the class's static block). @internal */
export let coreEngineOf: (f: BloomFilter) => CoreEngine;
/** Puts `engine` in place of a filter's engine: share() and filter.ts's filterOver. @internal */
export let swapEngine: (f: BloomFilter, engine: CoreEngine) => void;

/**
 * The handle of a wasm BloomFilter, or undefined for any other object: how
 * probeAll (src/filter/digest.ts) finds a filter's arena and record, so
 * that the filters of one arena are walked in one call. It reads the
 * #private engine after a brand check (`#engine in f`); no method or
 * property of a filter hands out its engine, whose views are live wasm
 * memory, so a caller's object that only looks like a filter gets no
 * handle. Set by the class's static block. @internal
 */
export let walkHandleOf: (f: object) => RecordHandle | undefined;

/** The methods that both BloomFilter classes share. */
abstract class BloomFilter {
  /** m: the number of bits. */
  readonly bits: number;
  /** k: positions per item. */
  readonly hashes: number;
  /** The hash scheme. */
  readonly scheme: Scheme;
  /** The XXH64 seed (0 for the other schemes). */
  readonly seed: bigint;
  /**
   * The engine: #private, since its views are live wasm memory (the class's
   * modules reach it through coreEngineOf). Not readonly: BloomFilter's
   * share() moves the bits of a filter that is not shared into shared
   * memory, once.
   */
  #engine: CoreEngine;

  static {
    coreEngineOf = (f) => f.#engine;
    swapEngine = (f, engine) => {
      f.#engine = engine;
    };
    walkHandleOf = (f) => (#engine in f ? (f as BloomFilter).#engine : undefined);
  }

  /** A filter of `params` (checked) over `engine`, made for them. @internal */
  protected constructor(params: FilterParams, engine: CoreEngine) {
    this.bits = params.bits;
    this.hashes = params.hashes;
    this.scheme = params.scheme;
    this.seed = params.seed;
    this.#engine = engine;
  }

  /**
   * Gives the filter's memory back at once; any later call throws
   * BloomDisposedError naming it. A filter dropped without dispose() is
   * given back when the garbage collector finds it (where
   * FinalizationRegistry exists; docs/MEMORY.md). Calling it again does
   * nothing.
   */
  dispose(): void {
    if (isDisposed(this)) return;
    // The released engine keeps nothing of the instance, and refuses every call.
    this.#engine.release();
    markDisposed(this, 'BloomFilter');
  }

  /** dispose(), for `using` (TC39 explicit resource management). */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** One line for util.inspect and console.log: `BloomFilter { bits: 9586, hashes: 7, added: 1000, fill: 50.1% }` (and the scheme when not xxh64). */
  [INSPECT](): string {
    return inspectLine(this, 'BloomFilter', () => positionFields(this, 'bits'));
  }

  /** Sets the item's k bits; true when any went from 0 to 1 (the item was certainly new). */
  add(item: string | Uint8Array): boolean {
    checkItem(item);
    return this.#engine.add(item);
  }

  /** False when the item was certainly never added; true when it may have been. */
  has(item: string | Uint8Array): boolean {
    checkItem(item);
    return this.#engine.has(item);
  }

  /** Adds each item in order; flag i is 1 when item i was certainly new (as add() would say). */
  addMany(items: BatchItems): Uint8Array {
    return this.#engine.batch(checkBatchOf(this, 'BloomFilter.addMany', items), 0);
  }

  /** Tests each item; flag i is 1 when item i may have been added (as has() would say). */
  hasMany(items: BatchItems): Uint8Array {
    return this.#engine.batch(checkBatchOf(this, 'BloomFilter.hasMany', items), 1);
  }

  /**
   * has() for the item whose digest(item, { seed }) is `d` (xxh64 and sbbf
   * filters, the seed matching): the item is hashed once for any number of
   * filters. Throws BloomDigestError for another scheme or seed.
   */
  hasDigest(d: Digest): boolean {
    checkDigest(this, d, 'hasDigest');
    return this.#engine.hasDigest(d.lo, d.hi);
  }

  /** How many bits are 1. */
  bitsSet(): number {
    return this.#engine.bitsSet();
  }

  /** The items held, as Set.prototype.size counts them: adds that reported a new item (set at least one bit); at most MAX_ADDED_COUNT (2^53 - 1). */
  get size(): number {
    // The wasm counter is an f64 that one add can lift past 2^53 - 1 after a saturated union.
    return Math.min(this.#engine.addedCount(), MAX_ADDED_COUNT);
  }
}

// Declared under the public class's name, so that an editor's hover on an
// inherited member names the class a user has (`BloomFilter.add`), and
// exported under the name the implementations extend.
export { BloomFilter as BloomFilterBase };
