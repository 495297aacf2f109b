// The sliding-window Bloom filter (docs/SLIDING.md) over any store of its
// bit-sliced words: the wasm record of src/wasm/sliding.ts
// (src/sliding/sliding.ts) or the reference twin's array
// (src/reference/sliding.ts). The rules of the generations are in
// src/sliding/generations.ts; this class reads the clock, asks them which
// plane is current and which are live, and passes that to the words.

import { checkBytes } from '../wasm/typed-arrays.js';
import { BloomTypeError } from '../errors.js';
import { checkBatchOf, markDisposed } from '../filter/dispose.js';
import { sliceBatch, type BatchItems, type CheckedBatch, type Item } from '../filter/items.js';
import { checkItem } from '../filter/options.js';
import {
  checkSlidingPayload, checksumOffset, encodeSlidingHeader, parseSlidingHeader, planesInUse, setSlidingChecksum,
  type SlidingFile,
} from '../format/sliding.js';
import { emptyState, Generations, readClock } from './generations.js';
import { readSlidingOptions, slidingFalsePositiveRate, slidingShape, SLIDING_OPTIONS_HINT, type SlidingOptions, type SlidingShape } from './shape.js';
import { readOption } from '../filter/read-options.js';
import { INSPECT, inspectLine } from '../filter/describe.js';
import { toJSONOf, type FilterJSON } from '../format/json.js';

/** The operations of the words' run and runBatch (assembly/sliding.ts). */
export const OP_ADD = 0;
export const OP_HAS = 1;

/** What the filter needs of the store of its words. */
export interface SlidingWords {
  /** Runs op (0 add, 1 has) on one item: add answers 1 when the item was new, has 1 when it may be present. */
  run(item: Item, op: 0 | 1, plane: number, live: number): number;
  /** run() on each item of a checked batch, in order, with one plane and live mask. */
  runBatch(batch: CheckedBatch, op: 0 | 1, plane: number, live: number): Uint8Array;
  /** Clears bit `plane` of every word. */
  clearPlane(plane: number): void;
  /** The words' bytes, live: m bytes, or 2m (little-endian u16 words) for 16 generations. */
  readonly words: Uint8Array;
  /** XXH64 (seed 0) of `header` and then the words. */
  checksum(header: Uint8Array): bigint;
  /** Gives the memory back (dispose()). */
  release(): void;
}

/** How a class of filter makes its store of words, and computes a file's checksum. */
export interface SlidingKind {
  /** The class's name, for errors after dispose(). */
  readonly name: string;
  /** An empty store of m words of G bits, for the xxh64 positions with `seed`. */
  create(shape: SlidingShape, seed: bigint): SlidingWords;
  /** XXH64 (seed 0) of `header` then `payload`. */
  checksum(header: Uint8Array, payload: Uint8Array): bigint;
}

/** The clock a time window reads unless given one. */
const SYSTEM_CLOCK = (): number => Date.now();

/** The options key under which fromBytes hands a decoded file to the constructor. @internal */
export const RESTORED: unique symbol = Symbol('restored sliding filter');

/** A decoded file and its words (absent: a reader fills them in place), for the constructor. @internal */
export interface Restored {
  readonly file: SlidingFile;
  readonly words?: Uint8Array;
}

/**
 * Decodes and checks a sliding filter's bytes (header, length, checksum,
 * empty planes) before anything is allocated, and returns what the
 * constructor takes to rebuild it, with `clock` for a time window.
 */
export function restoreSliding(given: unknown, options: unknown, kind: SlidingKind): SlidingOptions {
  const bytes = checkBytes(given);
  const clock = clockOption(options);
  const file = parseSlidingHeader(bytes, bytes.length);
  const words = bytes.subarray(file.headerBytes);
  const checksum = kind.checksum(bytes.subarray(0, checksumOffset(file.shape.generations)), words);
  checkSlidingPayload(file, checksum, planesInUse(words, file.shape.generations));
  return restoredOptions(file, clock, words);
}

/** The `clock` of fromBytes' and the file loaders' options, checked. @internal */
export function clockOption(options: unknown): (() => number) | undefined {
  const clock = readOption(options, 'clock', 'an object ({ clock }) or undefined');
  if (clock !== undefined && typeof clock !== 'function') throw new BloomTypeError('clock', clock, 'a function returning milliseconds');
  return clock as (() => number) | undefined;
}

/** The constructor's options for a checked file, with its words or (a reader's) none yet. @internal */
export function restoredOptions(file: SlidingFile, clock: (() => number) | undefined, words?: Uint8Array): SlidingOptions {
  const { shape } = file;
  const base = shape.mode === 'count'
    ? { window: shape.window, falsePositiveRate: shape.falsePositiveRate }
    : { windowMs: shape.windowMs, capacity: shape.capacity, falsePositiveRate: shape.falsePositiveRate, clock };
  return { ...base, [RESTORED]: { file, words } } as unknown as SlidingOptions;
}

/** The filter's file header as it is now, checksum included (computed over the words in place). @internal */
export function slidingFileHeader(filter: SlidingBloomFilter): Uint8Array {
  const { shape } = filter;
  const header = encodeSlidingHeader(shape, filter.seed, filter['generations'].state);
  setSlidingChecksum(header, shape.generations, slidingStoreOf(filter).checksum(header.subarray(0, checksumOffset(shape.generations))));
  return header;
}

/** The filter's words, live: for the Node file helpers to read and write in place. @internal */
export function slidingWordsView(filter: SlidingBloomFilter): Uint8Array {
  return slidingStoreOf(filter).words;
}

/**
 * After a reader filled the words of a filter made from restoredOptions(file)
 * in place: the payload checks (checksum, empty planes). Throws
 * BloomFormatError on a fault; the reader disposes the filter
 * (src/node/io.ts's owning). @internal
 */
export function finishSlidingLoad(filter: SlidingBloomFilter, file: SlidingFile, header: Uint8Array): void {
  const g = file.shape.generations;
  checkSlidingPayload(file, slidingStoreOf(filter).checksum(header.subarray(0, checksumOffset(g))), planesInUse(slidingWordsView(filter), g));
}

/** The store of a filter (set by SlidingBloomFilter's static block), for tests and this module. @internal */
export let slidingStoreOf: (f: SlidingBloomFilter) => SlidingWords;

/**
 * A Bloom filter that remembers the last `window` adds, or the adds of the
 * last `windowMs` milliseconds, as rotating generations stored bit-sliced.
 */
class SlidingBloomFilter {
  /** Total bits of memory: m positions times G generations. */
  readonly bits: number;
  /** k: positions per item, shared by every generation. */
  readonly hashes: number;
  /** n, the adds a count window remembers; 0 for a time window. */
  readonly window: number;
  /** The milliseconds a time window remembers; 0 for a count window. */
  readonly windowMs: number;
  /** The adds within one window the rate is promised for (n for a count window). */
  readonly capacity: number;
  /** p, the promised rate for never-added items. */
  readonly falsePositiveRate: number;
  /** The XXH64 seed of the positions. */
  readonly seed: bigint;
  /** The shape: generations, their capacity and period, m per generation. */
  readonly shape: SlidingShape;
  private readonly generations: Generations;
  /** #private: its words are live wasm memory (this module reaches them through slidingStoreOf). */
  readonly #store: SlidingWords;

  static {
    slidingStoreOf = (f) => f.#store;
  }
  private readonly kind: SlidingKind;

  /** An empty filter; throws BloomRangeError or BloomTypeError naming the option at fault, before anything is allocated. */
  constructor(options: SlidingOptions, kind: SlidingKind) {
    if (typeof options === 'number') throw new BloomTypeError('options', options, SLIDING_OPTIONS_HINT);
    const restored = (options as { [RESTORED]?: Restored } | null)?.[RESTORED];
    // The options are read once: the shape and the clock come from the same reading.
    const o = readSlidingOptions(options);
    const shape = restored?.file.shape ?? slidingShape(o);
    const clock = shape.mode === 'time' ? ((o.clock as (() => number) | undefined) ?? SYSTEM_CLOCK) : undefined;
    const seed = restored?.file.seed ?? 0n;
    // The clock is read once before the words are allocated, so that a bad clock leaves nothing behind.
    const state = restored?.file.state ?? emptyState(shape, clock === undefined ? 0 : readClock(clock));
    this.shape = shape;
    this.bits = shape.bits * shape.generations;
    this.hashes = shape.hashes;
    this.window = shape.window;
    this.windowMs = shape.windowMs;
    this.capacity = shape.capacity;
    this.falsePositiveRate = shape.falsePositiveRate;
    this.seed = seed;
    this.kind = kind;
    this.generations = new Generations(shape, state, clock);
    this.#store = kind.create(shape, seed);
    if (restored?.words !== undefined) this.#store.words.set(restored.words);
  }

  /**
   * Adds the item to the current generation; true when it was not present
   * within the window before (it is remembered for a full window from now
   * either way).
   */
  add(item: Item): boolean {
    checkItem(item);
    const g = this.generations;
    const now = g.now();
    this.begin(now);
    const fresh = this.#store.run(item, OP_ADD, g.state.current, this.addMask(now));
    g.endAdds(1, now);
    return fresh !== 0;
  }

  /** False when the item was certainly not added within the window; true when it may have been. */
  has(item: Item): boolean {
    checkItem(item);
    const g = this.generations;
    const now = g.now();
    return this.#store.run(item, OP_HAS, g.state.current, g.liveMask(now)) !== 0;
  }

  /**
   * Adds each item in order, as add() would, at one reading of the clock;
   * flag i is 1 when item i was new within the window. A bad batch throws
   * before any add.
   */
  addMany(items: BatchItems): Uint8Array {
    const batch = checkBatchOf(this, `${this.kind.name}.addMany`, items);
    const g = this.generations;
    const now = g.now();
    const flags = new Uint8Array(batch.count);
    // A chunk ends where the current generation may end: each wasm call adds to one plane.
    for (let i = 0; i < batch.count;) {
      this.begin(now);
      const n = Math.min(batch.count - i, g.room());
      const part = n === batch.count ? batch : sliceBatch(batch, i, n);
      flags.set(this.#store.runBatch(part, OP_ADD, g.state.current, this.addMask(now)), i);
      g.endAdds(n, now);
      i += n;
    }
    return flags;
  }

  /** Tests each item at one reading of the clock; flag i is 1 when item i may have been added within the window. */
  hasMany(items: BatchItems): Uint8Array {
    const batch = checkBatchOf(this, `${this.kind.name}.hasMany`, items);
    const g = this.generations;
    const now = g.now();
    return this.#store.runBatch(batch, OP_HAS, g.state.current, g.liveMask(now));
  }

  /** Ends the current generation if it is due, clearing the plane the next one takes. */
  private begin(now: number): void {
    const cleared = this.generations.beginAdds(now);
    if (cleared >= 0) this.#store.clearPlane(cleared);
  }

  /**
   * The generations an add tests: the live ones and the current one, which
   * after beginAdds is live or empty (so that a repeat within one batch is
   * seen, as it is by add() one at a time).
   */
  private addMask(now: number): number {
    return this.generations.liveMask(now) | (1 << this.generations.state.current);
  }

  /**
   * Every add call so far, repeats included (RedisSlidingBloomFilter's
   * info().addCount). There is no `size`: what the window holds is not
   * known exactly, since a re-seen item is held in two generations and a
   * generation is forgotten whole (docs/SLIDING.md).
   */
  get addCount(): number {
    return this.generations.state.totalAdds;
  }

  /**
   * The rate a never-added item is reported at now, from the adds each live
   * generation holds: 1 - prod(1 - f(count)) (slidingFalsePositiveRate). At
   * most falsePositiveRate while a time window gets at most `capacity`
   * adds per window; above that (overload) it says how far the rate rose.
   */
  currentFalsePositiveRate(): number {
    const g = this.generations;
    return slidingFalsePositiveRate(this.shape.bits, this.shape.hashes, g.liveCounts(g.now()));
  }

  /** A copy of the words' bytes: word i is byte i (8 generations) or bytes 2i, 2i + 1 little-endian (16); bit j is generation plane j. */
  words(): Uint8Array {
    return this.#store.words.slice();
  }

  /** The filter in the sliding format (docs/FORMAT.md, "Sliding filter format, version 1"): the header under magic "BLMS", then the words. */
  toBytes(): Uint8Array {
    const header = slidingFileHeader(this);
    const out = new Uint8Array(header.length + this.#store.words.length);
    out.set(header);
    out.set(this.#store.words, header.length);
    return out;
  }

  /** The JSON form (docs/FORMAT.md, "JSON form, version 1"): `{ type: "bloomwasm/SlidingBloomFilter", version: 1, bytes: "<base64 of toBytes()>" }`, so that JSON.stringify works. */
  toJSON(): FilterJSON {
    return toJSONOf(this.kind.name, this.toBytes());
  }

  /**
   * Gives the memory back at once; any later call throws BloomDisposedError
   * naming it. Calling it again does nothing.
   */
  dispose(): void {
    this.#store.release();
    markDisposed(this, this.kind.name);
  }

  /** dispose(), for `using` (TC39 explicit resource management). */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /**
   * One line for util.inspect and console.log: `SlidingBloomFilter { window: 500, bits: 8192, live: 568, rate: 0.52% }`
   * (`windowMs` and `capacity` for a time window): the adds its live generations hold, and the rate they give (currentFalsePositiveRate).
   */
  [INSPECT](): string {
    return inspectLine(this, this.kind.name, () => {
      const g = this.generations;
      const counts = g.liveCounts(g.now());
      const size: Record<string, number> = this.window > 0 ? { window: this.window } : { windowMs: this.windowMs, capacity: this.capacity };
      const rate = slidingFalsePositiveRate(this.shape.bits, this.shape.hashes, counts);
      return { ...size, bits: this.bits, live: counts.reduce((a, b) => a + b, 0), rate: `${Number((100 * rate).toPrecision(2))}%` };
    });
  }
}

// Declared under the public class's name, so that an editor's hover on an
// inherited member names the class a user has (`SlidingBloomFilter.add`), and
// exported under the name the implementations extend.
export { SlidingBloomFilter as SlidingBloomFilterOver };
