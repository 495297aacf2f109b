// The plan of a scalable Bloom filter's chain: the options, the capacity and
// false-positive rate of member i, and the estimates over the members. Shared
// by the wasm ScalableBloomFilter and its reference twin, so that both build
// the same members and refuse the same options.
//
// Almeida, Baquero, Preguiça and Hutchison, "Scalable Bloom Filters",
// Information Processing Letters 101(6), 2007, section 4. Member i (from 0)
// holds up to n_i = n_0 s^i items at false-positive rate p_i = p_0 r^i,
// where s is `growth` and r is `tightening`. An absent item is reported
// present when at least one member reports it, so the compound rate is
//
//   P = 1 - prod_i (1 - p_i) <= sum_i p_i = p_0 / (1 - r)   (union bound)
//
// whatever the number of members. Choosing p_0 = falsePositiveRate (1 - r)
// keeps P at or below the requested falsePositiveRate forever.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { checkSchemeSeed, checkSeed, MAX_BITS, SCHEMES, type FilterOptions, type Scheme } from '../filter/options.js';
import { SIZING_RULE, schemeSize, type SizingRule } from '../filter/sizing.js';
import { readOptions, refuseArguments } from '../filter/read-options.js';

/** Options of a ScalableBloomFilter. */
export interface ScalableOptions extends Omit<FilterOptions, 'shared'> {
  /** n_0: the capacity of the first member, the items it takes before the next is started. */
  capacity: number;
  /** @deprecated The old name of `capacity`, still read when `capacity` is absent. */
  initialCapacity?: number;
  /** The bound on the compound false-positive rate, in (0, 1). */
  falsePositiveRate: number;
  /** s: each member holds `growth` times the items of the one before; at least 1, default 2. */
  growth?: number;
  /** r: each member's rate is `tightening` times the one before; in (0, 1), default 0.5. */
  tightening?: number;
}

/** Options of ScalableBloomFilter.forCapacity: the constructor's, less the capacity and rate it takes as arguments. */
export type ScalableCapacityOptions = Omit<ScalableOptions, 'capacity' | 'initialCapacity' | 'falsePositiveRate'>;

/** Validated chain parameters. */
export interface ScalablePlan {
  capacity: number;
  falsePositiveRate: number;
  growth: number;
  tightening: number;
  scheme: Scheme;
  seed: bigint;
  /**
   * The rule the members are sized by (SizingRule): SIZING_RULE for a new
   * chain, the one its file records (chain version) for a loaded one, so
   * that its members, and those it adds later, keep their sizes.
   */
  sizing: SizingRule;
}

/** One member's size: what forCapacity(capacity, falsePositiveRate) builds. */
export interface MemberPlan {
  capacity: number;
  falsePositiveRate: number;
  bits: number;
  hashes: number;
}

/** A snapshot of one member of the chain, as the `members` property lists it. */
export interface ScalableMember {
  /** m of this member. */
  readonly bits: number;
  /** k of this member. */
  readonly hashes: number;
  /** n_i: adds that reported new before the next member is started. */
  readonly capacity: number;
  /** p_i: the rate this member was sized for at its capacity. */
  readonly falsePositiveRate: number;
  /** Adds to this member that reported new (its size). */
  readonly size: number;
  /** How many of its bits are 1. */
  readonly bitsSet: number;
  /** bitsSet / bits. */
  readonly fill: number;
}

/** The largest growth accepted: beyond it the second member already dwarfs any first. */
export const MAX_GROWTH = 1024;

/**
 * The most members a chain may have. has() asks every member (in one walk
 * of at most this many records, assembly/chain.ts's CHAIN_MAX), so a chain
 * of more would be slow. Growth 2 reaches MAX_BITS after about 30 members
 * and growth 1.06 after about 256, so only a growth closer to 1 meets this
 * bound. It also bounds what a crafted chain file can make a reader create
 * (a record and its bits per member).
 */
export const MAX_FILTER_COUNT = 256;

function checkNumber(parameter: string, value: unknown, ok: (v: number) => boolean, allowed: string): number {
  if (typeof value !== 'number') throw new BloomTypeError(parameter, value, allowed);
  if (!ok(value)) throw new BloomRangeError(parameter, value, allowed);
  return value;
}

/** The fields of ScalableOptions (and `shared`, refused), as checkScalableOptions reads them. */
const SCALABLE_OPTION_NAMES = ['capacity', 'initialCapacity', 'falsePositiveRate', 'growth', 'tightening', 'scheme', 'seed', 'shared'] as const;

/** What the constructor tells a caller who passed a number where its options object goes. */
export const SCALABLE_OPTIONS_HINT =
  'an object with capacity and falsePositiveRate; for n items at rate p, call ScalableBloomFilter.forCapacity(n, p, options?)';

/**
 * forCapacity's arguments as the constructor's options: `options` read
 * once, and refused (BloomTypeError) when it gives the capacity or rate
 * again, which the arguments already give.
 */
export function scalableCapacityOptions(capacity: number, falsePositiveRate: number, options: unknown): ScalableOptions {
  const o = readOptions(options, SCALABLE_OPTION_NAMES, 'an object with growth, tightening, scheme or seed');
  refuseArguments(o, ['capacity', 'initialCapacity', 'falsePositiveRate'], 'the capacity and rate');
  return { growth: o.growth, tightening: o.tightening, scheme: o.scheme, seed: o.seed, shared: o.shared, capacity, falsePositiveRate } as ScalableOptions;
}

/**
 * Checks the constructor's options and fills in the defaults; `sizing` is
 * the sizing rule, SIZING_RULE unless a file records another.
 */
export function checkScalableOptions(options: unknown, sizing: SizingRule = SIZING_RULE): ScalablePlan {
  // Read once each (src/filter/read-options.ts); undefined is absent, null is a value to refuse.
  const o = readOptions(options, SCALABLE_OPTION_NAMES, 'an object with capacity and falsePositiveRate', true);
  const capacity = checkNumber(
    'capacity', o.capacity !== undefined ? o.capacity : o.initialCapacity, (v) => Number.isSafeInteger(v) && v >= 1, 'a positive integer',
  );
  const falsePositiveRate = checkNumber('falsePositiveRate', o.falsePositiveRate, (v) => v > 0 && v < 1, 'a number in (0, 1)');
  const growth = checkNumber('growth', o.growth === undefined ? 2 : o.growth, (v) => v >= 1 && v <= MAX_GROWTH, `a number in [1, ${MAX_GROWTH}]`);
  const tightening = checkNumber('tightening', o.tightening === undefined ? 0.5 : o.tightening, (v) => v > 0 && v < 1, 'a number in (0, 1)');
  const scheme = o.scheme === undefined ? 'xxh64' : o.scheme;
  if (!SCHEMES.includes(scheme as Scheme)) throw new BloomRangeError('scheme', scheme, `one of ${SCHEMES.join(', ')}`);
  const seed = checkSeed(o.seed);
  checkSchemeSeed(scheme as Scheme, seed, o.seed);
  // A chain starts members as it grows, each a region of an instance's
  // memory: there is no one shared memory to hand to other threads
  // (docs/SHARED.md).
  const shared = o.shared;
  if (shared !== undefined && shared !== false) {
    throw new BloomTypeError('shared', shared, 'false or absent: a ScalableBloomFilter cannot be shared between threads');
  }
  // Member 0 must exist; later members are checked when they are started.
  const plan: ScalablePlan = { capacity, falsePositiveRate, growth, tightening, scheme: scheme as Scheme, seed, sizing };
  memberPlan(plan, 0);
  return plan;
}

/**
 * Member i's capacity n_0 s^i (rounded) and rate p_0 r^i with
 * p_0 = falsePositiveRate (1 - r), and the m and k forCapacity gives them
 * under the chain's scheme and sizing rule (sbbf members are sized with the
 * blocked rate).
 * Throws BloomRangeError when the member's bits would exceed MAX_BITS, or
 * when i reaches MAX_FILTER_COUNT.
 */
export function memberPlan(plan: ScalablePlan, i: number): MemberPlan {
  if (i >= MAX_FILTER_COUNT) {
    throw new BloomRangeError(`members[${i}]`, i, `below ${MAX_FILTER_COUNT}: a chain has at most ${MAX_FILTER_COUNT} members; it cannot grow further`);
  }
  const capacity = Math.max(1, Math.round(plan.capacity * plan.growth ** i));
  const falsePositiveRate = plan.falsePositiveRate * (1 - plan.tightening) * plan.tightening ** i;
  if (!(falsePositiveRate > 0) || !Number.isSafeInteger(capacity)) {
    throw new BloomRangeError(`members[${i}]`, capacity, 'a member with a safe-integer capacity and a rate above 0');
  }
  const { bits, hashes } = schemeSize(capacity, falsePositiveRate, plan.scheme, plan.sizing);
  if (bits > MAX_BITS) {
    throw new BloomRangeError(
      `members[${i}].bits`,
      bits,
      `at most ${MAX_BITS} (capacity ${capacity} at falsePositiveRate ${falsePositiveRate}); the chain cannot grow further`,
    );
  }
  return { capacity, falsePositiveRate, bits, hashes };
}

/** What the compound rate needs of a member. */
export interface MemberState {
  currentFalsePositiveRate(): number;
}

/**
 * The chain's current false-positive rate, 1 - prod_i (1 - (X_i/m_i)^k_i):
 * each member's rate from its fill (BloomFilter.currentFalsePositiveRate),
 * then the chance that at least one member reports an absent item.
 */
export function compoundRate(filters: readonly MemberState[]): number {
  let allMiss = 1;
  for (const f of filters) allMiss *= 1 - f.currentFalsePositiveRate();
  return 1 - allMiss;
}
