// The shape of a sliding-window filter (docs/SLIDING.md): how many
// generations, how many adds each takes, and the m and k they share, from
// the options a user gives. Shared by SlidingBloomFilter and
// RedisSlidingBloomFilter, so that both size a window the same way.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { generatorRate } from '../filter/exact-rate.js';
import { MAX_BITS } from '../filter/options.js';
import { checkCount, checkRate, optimalBits, schemeSize } from '../filter/sizing.js';
import { readOptions, refuseArguments, type OptionRecord } from '../filter/read-options.js';
/** A window of the last `window` adds, or of the adds of the last `windowMs` milliseconds (at most `capacity` of them). */
export type SlidingOptions =
  | { window: number; falsePositiveRate: number }
  | { windowMs: number; capacity: number; falsePositiveRate: number; clock?: () => number };

/** What a sliding filter is made of, derived from its options by slidingShape. */
export interface SlidingShape {
  /** A window of adds (`count`) or of milliseconds (`time`). */
  mode: 'count' | 'time';
  /** n, the adds a count window remembers; 0 for a time window. */
  window: number;
  /** The milliseconds a time window remembers; 0 for a count window. */
  windowMs: number;
  /** The adds within one window that the rate is promised for: n for a count window. */
  capacity: number;
  /** p, the promised rate for never-added items. */
  falsePositiveRate: number;
  /** G, the generations (bit-planes): 8 for a count window, 16 for a time window. */
  generations: 8 | 16;
  /** c = ceil(capacity / 7), the adds one generation takes before the next starts. */
  generationCapacity: number;
  /** P = windowMs / 7, the longest a time window's generation stays current (while a plane is free); 0 for a count window. */
  periodMs: number;
  /** m, the positions of one generation (each holds a G-bit word). */
  bits: number;
  /** k, the positions of an item, shared by all generations. */
  hashes: number;
}

/**
 * Generations that can hold adds at once, counted as full ones: the
 * current one and 7 full ones before it. Each generation is sized for
 * q = 1 - (1 - p)^(1/8), so that 8 of them together stay at p.
 */
export const FULL_GENERATIONS = 8;

/** The window spans this many generations' capacity (and, for a time window, periods): c = ceil(capacity / 7), P = windowMs / 7. */
export const GENERATIONS_PER_WINDOW = 7;

/** Generations of a count window: the current one plus the 7 that span the window. */
export const COUNT_GENERATIONS = 8;

/**
 * Generations of a time window: up to 7 ended by count and 7 ended by time
 * within the window, one that straddles the window's start and the current
 * one (docs/SLIDING.md, "3. The rate", on why 16 planes).
 */
export const TIME_GENERATIONS = 16;

/** The fields of SlidingOptions, as readSlidingOptions reads them. */
const SLIDING_OPTION_NAMES = ['window', 'windowMs', 'capacity', 'falsePositiveRate', 'clock'] as const;

/** SlidingOptions read once each (src/filter/read-options.ts). */
export type SlidingOptionRecord = OptionRecord<(typeof SLIDING_OPTION_NAMES)[number]>;

/** Options of SlidingBloomFilter.forCapacity: with `windowMs`, a time window of that many ms (and its `clock`); without, the last n adds. */
export interface SlidingCapacityOptions {
  /** The milliseconds the window remembers; absent for a window of the last n adds. */
  windowMs?: number;
  /** A time window's clock in ms; Date.now by default. */
  clock?: () => number;
}

/** What the constructor tells a caller who passed a number where its options object goes. */
export const SLIDING_OPTIONS_HINT =
  'an object with window, or windowMs and capacity, and falsePositiveRate; for a window of n items at rate p, call SlidingBloomFilter.forCapacity(n, p, options?)';

/**
 * forCapacity's arguments as the constructor's options: n is the window
 * (a count window) or its capacity (with `windowMs`, a time window).
 * `options` is read once, and refused (BloomTypeError) when it gives the
 * window, capacity or rate again.
 */
export function slidingCapacityOptions(n: number, falsePositiveRate: number, options: unknown): SlidingOptions {
  const o = readOptions(options, SLIDING_OPTION_NAMES, 'an object with windowMs and clock');
  refuseArguments(o, ['window', 'capacity', 'falsePositiveRate'], "the window's items and the rate");
  if (o.windowMs === undefined) return { window: n, falsePositiveRate, clock: o.clock } as SlidingOptions;
  return { windowMs: o.windowMs, capacity: n, falsePositiveRate, clock: o.clock } as SlidingOptions;
}

/** Reads a sliding filter's options once; BloomTypeError naming `options` for anything but an object (not an array). */
export function readSlidingOptions(options: unknown): SlidingOptionRecord {
  return readOptions(options, SLIDING_OPTION_NAMES, 'an object with window, or windowMs and capacity, and falsePositiveRate', true);
}

/**
 * Checks a sliding filter's options and derives its shape. Throws
 * BloomTypeError or BloomRangeError naming the option at fault, before
 * anything is made. Each option is read once (readSlidingOptions).
 */
export function slidingShape(options: unknown): SlidingShape {
  const o = readSlidingOptions(options);
  const hasCount = o.window !== undefined;
  const hasTime = o.windowMs !== undefined;
  if (hasCount && hasTime) {
    throw new BloomTypeError('window', o.window, 'absent when windowMs is given: a window is of adds or of milliseconds, not both');
  }
  if (!hasCount && !hasTime) {
    throw new BloomTypeError('window', o.window, 'a positive integer (adds), or windowMs and capacity given instead');
  }
  const falsePositiveRate = checkRate('falsePositiveRate', o.falsePositiveRate);
  let shape: SlidingShape;
  if (hasCount) {
    if (o.capacity !== undefined) throw new BloomTypeError('capacity', o.capacity, 'absent for a count window (its capacity is its window)');
    if (o.clock !== undefined) throw new BloomTypeError('clock', o.clock, 'absent for a count window, which reads no clock');
    const window = checkCount('window', o.window);
    shape = sized('count', window, 0, window, falsePositiveRate);
  } else {
    const windowMs = o.windowMs;
    if (typeof windowMs !== 'number') throw new BloomTypeError('windowMs', windowMs, 'a positive finite number of milliseconds');
    if (!(windowMs > 0 && Number.isFinite(windowMs))) {
      throw new BloomRangeError('windowMs', windowMs, 'a positive finite number of milliseconds');
    }
    const capacity = checkCount('capacity', o.capacity);
    if (o.clock !== undefined && typeof o.clock !== 'function') throw new BloomTypeError('clock', o.clock, 'a function returning milliseconds');
    shape = sized('time', 0, windowMs, capacity, falsePositiveRate);
  }
  return shape;
}

function sized(mode: 'count' | 'time', window: number, windowMs: number, capacity: number, falsePositiveRate: number): SlidingShape {
  const generations = mode === 'count' ? COUNT_GENERATIONS : TIME_GENERATIONS;
  const generationCapacity = Math.ceil(capacity / GENERATIONS_PER_WINDOW);
  // 1 - (1 - q)^8 = p; log1p/expm1 keep q exact for small p.
  const generationRate = -Math.expm1(Math.log1p(-falsePositiveRate) / FULL_GENERATIONS);
  const tooLarge = (bits: number): BloomRangeError => new BloomRangeError(
    mode === 'count' ? 'window' : 'capacity',
    capacity,
    `small enough that ${generations} generations of ${bits} bits (needed at falsePositiveRate ${falsePositiveRate}) stay within ${MAX_BITS} bits`,
  );
  // Rule 1's m first: sizing never goes below it, and past 2^53 it cannot be searched.
  const least = optimalBits(generationCapacity, generationRate);
  if (least * generations > MAX_BITS) throw tooLarge(least);
  const { bits, hashes } = schemeSize(generationCapacity, generationRate, 'xxh64');
  if (bits * generations > MAX_BITS) throw tooLarge(bits);
  return {
    mode, window, windowMs, capacity, falsePositiveRate, generations, generationCapacity,
    periodMs: windowMs / GENERATIONS_PER_WINDOW, bits, hashes,
  };
}

/**
 * The rate of a query against the live generations of `generationCounts`
 * adds each: 1 - prod(1 - f(count)), f the xxh64 rate of m bits and k
 * hashes after that many adds (src/filter/exact-rate.ts). The generations'
 * items are drawn apart, so given the query's k positions their answers
 * are independent.
 */
export function slidingFalsePositiveRate(bits: number, hashes: number, generationCounts: ArrayLike<number>): number {
  let miss = 1;
  for (let i = 0; i < generationCounts.length; i++) miss *= 1 - generatorRate('xxh64', bits, hashes, generationCounts[i]);
  return 1 - miss;
}
