// The shape of a cuckoo filter: its options, checked, and the size of each
// member. Shared by the wasm CuckooFilter and its reference twin, so that
// both build the same tables and refuse the same options.
//
// Fan, Andersen, Kaminsky and Mitzenmacher, "Cuckoo Filter: Practically
// Better Than Bloom", CoNEXT 2014, section 4: a lookup compares the item's
// f-bit fingerprint with the 2b slots of its two buckets, so an absent item
// is reported present with probability at most 2b / 2^f, however full the
// table. The rate needs the smallest width with 2b / 2^f <= p.
//
// The table must also take n items before an add is refused, and three
// things stop it sooner (docs/CUCKOO.md, "Sizing", has the measurements):
// - Narrow fingerprints. An item's other bucket depends on its fingerprint
//   alone (section 4), so with f bits a bucket's items can move to at most
//   2^f - 1 others, and kicks find less room the larger the table: the
//   section's minimum f grows with log n. f is at least fillBitsFor(n, b).
// - The kicks' own limit. With 500 kicks, large tables of 2-, 4- and
//   8-slot buckets were measured to refuse from 85%, 95% and 98% full, a
//   little less each tenfold; LOAD_FACTORS keep below that.
// - Chance, in small tables: the items that land in a few buckets vary by
//   about the square root of n, so the buckets are sized for n + 4 sqrt(n) + 4.

// Growth: member j (from 0) holds n s^j items at rate p / 2^(j + 1), one
// more fingerprint bit each time. A lookup asks every member, so the
// compound rate is at most the sum, p (1/2 + 1/4 + ...) < p, however many
// members there are (the union bound, as for ScalableBloomFilter).

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { checkSeed, MAX_BITS } from '../filter/options.js';
import { readOptions } from '../filter/read-options.js';

/** The bucket sizes a cuckoo filter takes. */
export const BUCKET_SIZES = [2, 4, 8] as const;
export type BucketSize = (typeof BUCKET_SIZES)[number];

/** The load each bucket size is sized for: under what the kicks reach in the largest tables. */
export const LOAD_FACTORS: Readonly<Record<BucketSize, number>> = { 2: 0.8, 4: 0.92, 8: 0.95 };

/** The narrowest fingerprint each bucket size takes, for any n: narrower ones refused small tables half empty. */
export const MIN_FINGERPRINT_BITS: Readonly<Record<BucketSize, number>> = { 2: 8, 4: 6, 8: 5 };

/** A bucket of b * f bits at most this wide is one u64 load in assembly/cuckoo-bucket.ts (findInBucket): the fill rule stays within it. */
const BUCKET_WORD_BITS = 57;

/** The widest fingerprint: 32 bits. */
export const MAX_FINGERPRINT_BITS = 32;

/** The most buckets one table has: the bucket index is reduced from 32 bits of the hash. */
export const MAX_BUCKETS = 2 ** 32 - 1;

/** The most members a growing filter has (each one fingerprint bit wider than the last, so 32 bits come first). */
export const MAX_CUCKOO_MEMBERS = 32;

/** The largest growth factor. */
export const MAX_CUCKOO_GROWTH = 1024;

/** Options of a cuckoo filter. */
export interface CuckooOptions {
  /** b: fingerprints a bucket, 2, 4 or 8; default 4. */
  bucketSize?: number;
  /** s: when the filter is full, start a new member s times as large (s in [1, 1024]); absent, the filter is fixed and a full one refuses adds. */
  growth?: number;
  /** XXH64 seed, an unsigned 64-bit integer; default 0. It also seeds the kicks. */
  seed?: number | bigint;
}

/** A checked shape. */
export interface CuckooShape {
  /** n: the items the first member holds. */
  readonly capacity: number;
  /** p: the bound on the false-positive rate, over all members. */
  readonly falsePositiveRate: number;
  readonly bucketSize: BucketSize;
  /** s, or 0 for a fixed filter. */
  readonly growth: number;
  readonly seed: bigint;
}

/** One member's size. */
export interface MemberShape {
  /** The items it is sized for. */
  readonly capacity: number;
  /** Its bound on the false-positive rate: 2b / 2^f. */
  readonly falsePositiveRate: number;
  readonly buckets: number;
  readonly fingerprintBits: number;
}

/** The smallest f with 2b / 2^f <= p, or 0 when even 32 bits are not enough. */
export function fingerprintBitsFor(p: number, bucketSize: number): number {
  for (let f = 1; f <= MAX_FINGERPRINT_BITS; f++) if ((2 * bucketSize) / 2 ** f <= p) return f;
  return 0;
}

/**
 * The narrowest f with which a table of b-slot buckets takes n items:
 * max(MIN_FINGERPRINT_BITS[b], 3 + ceil(log2(n) / 6)), one bit more for
 * each 64-fold n (so 7 bits for b = 4 from n = 2^18), and never past a
 * bucket word (b = 8 stops at 7 bits, which the measurements hold to 10^7 slots).
 */
export function fillBitsFor(capacity: number, bucketSize: BucketSize): number {
  const grows = 3 + Math.ceil(Math.log2(Math.max(1, capacity)) / 6);
  return Math.min(Math.max(MIN_FINGERPRINT_BITS[bucketSize], grows), Math.floor(BUCKET_WORD_BITS / bucketSize));
}

/** The rate member j is sized for: p for a fixed filter, p / 2^(j + 1) for one that grows. */
function memberRate(shape: CuckooShape, j: number): number {
  return shape.growth === 0 ? shape.falsePositiveRate : shape.falsePositiveRate / 2 ** (j + 1);
}

/** The items member j is sized for. */
function memberCapacity(shape: CuckooShape, j: number): number {
  return j === 0 ? shape.capacity : Math.ceil(shape.capacity * shape.growth ** j);
}

/** Buckets for `capacity` items in buckets of b: n + 4 sqrt(n) + 4 items at b's load. */
export function bucketsFor(capacity: number, bucketSize: BucketSize): number {
  return Math.max(1, Math.ceil((capacity + 4 * Math.sqrt(capacity) + 4) / (bucketSize * LOAD_FACTORS[bucketSize])));
}

/** Whether a table of `buckets` buckets of b slots of f bits can be made. */
function tableFits(buckets: number, bucketSize: number, fingerprintBits: number): boolean {
  return buckets <= MAX_BUCKETS && buckets * bucketSize * fingerprintBits <= MAX_BITS;
}

/** Member j's size, or undefined when it cannot exist (its fingerprint would pass 32 bits, or its table the memory). */
export function memberShape(shape: CuckooShape, j: number): MemberShape | undefined {
  if (j >= MAX_CUCKOO_MEMBERS || (j > 0 && shape.growth === 0)) return undefined;
  const rateBits = fingerprintBitsFor(memberRate(shape, j), shape.bucketSize);
  if (rateBits === 0) return undefined;
  const capacity = memberCapacity(shape, j);
  if (!Number.isSafeInteger(capacity)) return undefined;
  const fingerprintBits = Math.max(rateBits, fillBitsFor(capacity, shape.bucketSize));
  const buckets = bucketsFor(capacity, shape.bucketSize);
  if (!tableFits(buckets, shape.bucketSize, fingerprintBits)) return undefined;
  return { capacity, falsePositiveRate: (2 * shape.bucketSize) / 2 ** fingerprintBits, buckets, fingerprintBits };
}

/** Loads of the earlier sizing, for earlierMemberShape. */
const EARLIER_LOAD_FACTORS: Readonly<Record<BucketSize, number>> = { 2: 0.84, 4: 0.95, 8: 0.98 };

/**
 * Member j's size under the sizing that files of format version 1 were
 * first written with (f from the rate alone, ceil(n / (b * load)) buckets at
 * loads 0.84, 0.95 and 0.98): such files hold members of that size, and a
 * reader takes either (src/format/cuckoo.ts). Never used for a new member.
 */
export function earlierMemberShape(shape: CuckooShape, j: number): MemberShape | undefined {
  if (j >= MAX_CUCKOO_MEMBERS || (j > 0 && shape.growth === 0)) return undefined;
  const fingerprintBits = fingerprintBitsFor(memberRate(shape, j), shape.bucketSize);
  if (fingerprintBits === 0) return undefined;
  const capacity = memberCapacity(shape, j);
  if (!Number.isSafeInteger(capacity)) return undefined;
  const buckets = Math.max(1, Math.ceil(capacity / (shape.bucketSize * EARLIER_LOAD_FACTORS[shape.bucketSize])));
  if (!tableFits(buckets, shape.bucketSize, fingerprintBits)) return undefined;
  return { capacity, falsePositiveRate: (2 * shape.bucketSize) / 2 ** fingerprintBits, buckets, fingerprintBits };
}

/** The largest n whose first member (at rate `p`) has a table: the sizes grow with n, so a bisection finds it. */
function maxCapacity(p: number, bucketSize: BucketSize, growth: number): number {
  const fits = (n: number) => memberShape({ capacity: n, falsePositiveRate: p, bucketSize, growth, seed: 0n }, 0) !== undefined;
  let lo = 1;
  let hi = Math.floor(MAX_BITS / bucketSize) + 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The fields of CuckooOptions, and those other filters take that this one refuses. */
const CUCKOO_OPTION_NAMES = ['bucketSize', 'growth', 'seed', 'shared', 'scheme'] as const;

/**
 * Checks forCapacity's arguments; throws BloomRangeError or BloomTypeError
 * naming the parameter, before anything is allocated. The options are read
 * once each (src/filter/read-options.ts). A capacity whose table would pass
 * MAX_BITS at this rate and bucket size is refused here, with the most it
 * can be: a table is sized to take its whole capacity (see the top).
 */
export function checkShape(capacity: unknown, falsePositiveRate: unknown, options: CuckooOptions | undefined): CuckooShape {
  const o = readOptions(options, CUCKOO_OPTION_NAMES, 'an object or undefined');
  // Options the other filters take and this one has not: refused rather than ignored.
  if (o.shared !== undefined && o.shared !== false) throw new BloomTypeError('shared', o.shared, 'false or absent: a CuckooFilter cannot be shared between threads');
  if (o.scheme !== undefined && o.scheme !== 'xxh64') throw new BloomTypeError('scheme', o.scheme, "'xxh64' or absent: a CuckooFilter hashes items with XXH64");
  const b = o.bucketSize === undefined ? 4 : o.bucketSize;
  if (typeof b !== 'number') throw new BloomTypeError('bucketSize', b, '2, 4 or 8');
  if (!(BUCKET_SIZES as readonly number[]).includes(b)) throw new BloomRangeError('bucketSize', b, '2, 4 or 8');
  const bucketSize = b as BucketSize;
  const growthAllowed = `a number in [1, ${MAX_CUCKOO_GROWTH}], or absent for a fixed filter`;
  if (o.growth !== undefined && typeof o.growth !== 'number') throw new BloomTypeError('growth', o.growth, growthAllowed);
  if (o.growth !== undefined && !(o.growth >= 1 && o.growth <= MAX_CUCKOO_GROWTH)) throw new BloomRangeError('growth', o.growth, growthAllowed);
  const growth = o.growth === undefined ? 0 : o.growth;
  if (typeof falsePositiveRate !== 'number') throw new BloomTypeError('falsePositiveRate', falsePositiveRate, 'a number in (0, 1)');
  // The first member's rate is p, or p / 2 when the filter grows; its fingerprint must fit in 32 bits.
  const smallest = ((2 * bucketSize) / 2 ** MAX_FINGERPRINT_BITS) * (growth === 0 ? 1 : 2);
  if (!(falsePositiveRate >= smallest && falsePositiveRate < 1)) {
    throw new BloomRangeError(
      'falsePositiveRate', falsePositiveRate,
      `a number in [${smallest}, 1) for buckets of ${bucketSize}${growth === 0 ? '' : ' that grow'} (fingerprints of at most ${MAX_FINGERPRINT_BITS} bits)`,
    );
  }
  const seed = checkSeed(o.seed);
  const most = maxCapacity(falsePositiveRate, bucketSize, growth);
  if (typeof capacity !== 'number') throw new BloomTypeError('capacity', capacity, `an integer in [1, ${most}]`);
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > most) {
    throw new BloomRangeError(
      'capacity', capacity,
      `an integer in [1, ${most}] at this rate and bucket size: a table that takes more would pass ${MAX_BITS} bits or ${MAX_BUCKETS} buckets`,
    );
  }
  return { capacity, falsePositiveRate, bucketSize, growth, seed };
}
