// The shape of a cuckoo filter: its options, checked, and the size of each
// member. Shared by the wasm CuckooFilter and its reference twin, so that
// both build the same tables and refuse the same options.
//
// Fan, Andersen, Kaminsky and Mitzenmacher, "Cuckoo Filter: Practically
// Better Than Bloom", CoNEXT 2014, section 4: a lookup compares the item's
// f-bit fingerprint with the 2b slots of its two buckets, so an absent item
// is reported present with probability at most 2b / 2^f, however full the
// table. f is the smallest width with 2b / 2^f <= p. Buckets of 2, 4 and 8
// slots fill to about 84%, 95% and 98% before an insert fails (section 5.1,
// Figure 4); a table for n items has ceil(n / (b * load)) buckets.
//
// Growth: member j (from 0) holds n s^j items at rate p / 2^(j + 1), one
// more fingerprint bit each time. A lookup asks every member, so the
// compound rate is at most the sum, p (1/2 + 1/4 + ...) < p, however many
// members there are (the union bound, as for ScalableBloomFilter).

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { checkSeed, MAX_BITS } from '../filter/options.js';

/** The bucket sizes a cuckoo filter takes. */
export const BUCKET_SIZES = [2, 4, 8] as const;
export type BucketSize = (typeof BUCKET_SIZES)[number];

/** The load each bucket size is sized for (the paper's measured maxima, a little under). */
export const LOAD_FACTORS: Readonly<Record<BucketSize, number>> = { 2: 0.84, 4: 0.95, 8: 0.98 };

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

/** The rate member j is sized for: p for a fixed filter, p / 2^(j + 1) for one that grows. */
function memberRate(shape: CuckooShape, j: number): number {
  return shape.growth === 0 ? shape.falsePositiveRate : shape.falsePositiveRate / 2 ** (j + 1);
}

/** The items member j is sized for. */
function memberCapacity(shape: CuckooShape, j: number): number {
  return j === 0 ? shape.capacity : Math.ceil(shape.capacity * shape.growth ** j);
}

/** Buckets for `capacity` items in buckets of b at b's load. */
function bucketsFor(capacity: number, bucketSize: BucketSize): number {
  return Math.max(1, Math.ceil(capacity / (bucketSize * LOAD_FACTORS[bucketSize])));
}

/** Whether a table of `buckets` buckets of b slots of f bits can be made. */
function tableFits(buckets: number, bucketSize: number, fingerprintBits: number): boolean {
  return buckets <= MAX_BUCKETS && buckets * bucketSize * fingerprintBits <= MAX_BITS;
}

/** Member j's size, or undefined when it cannot exist (its fingerprint would pass 32 bits, or its table the memory). */
export function memberShape(shape: CuckooShape, j: number): MemberShape | undefined {
  if (j >= MAX_CUCKOO_MEMBERS || (j > 0 && shape.growth === 0)) return undefined;
  const fingerprintBits = fingerprintBitsFor(memberRate(shape, j), shape.bucketSize);
  if (fingerprintBits === 0) return undefined;
  const capacity = memberCapacity(shape, j);
  if (!Number.isSafeInteger(capacity)) return undefined;
  const buckets = bucketsFor(capacity, shape.bucketSize);
  if (!tableFits(buckets, shape.bucketSize, fingerprintBits)) return undefined;
  return { capacity, falsePositiveRate: (2 * shape.bucketSize) / 2 ** fingerprintBits, buckets, fingerprintBits };
}

/** The largest capacity a first member can have at fingerprints of f bits in buckets of b. */
function maxCapacity(bucketSize: BucketSize, fingerprintBits: number): number {
  const buckets = Math.min(MAX_BUCKETS, Math.floor(MAX_BITS / (bucketSize * fingerprintBits)));
  return Math.floor(buckets * bucketSize * LOAD_FACTORS[bucketSize]);
}

/**
 * Checks forCapacity's arguments; throws BloomRangeError or BloomTypeError
 * naming the parameter, before anything is allocated.
 */
export function checkShape(capacity: unknown, falsePositiveRate: unknown, options: CuckooOptions | undefined): CuckooShape {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new BloomTypeError('options', options, 'an object or undefined');
  }
  // Options the other filters take and this one has not: refused rather than ignored.
  const { shared, scheme } = (options ?? {}) as { shared?: unknown; scheme?: unknown };
  if (shared !== undefined && shared !== false) throw new BloomTypeError('shared', shared, 'false or absent: a CuckooFilter cannot be shared between threads');
  if (scheme !== undefined && scheme !== 'xxh64') throw new BloomTypeError('scheme', scheme, "'xxh64' or absent: a CuckooFilter hashes items with XXH64");
  const b = options?.bucketSize ?? 4;
  if (typeof b !== 'number') throw new BloomTypeError('bucketSize', b, '2, 4 or 8');
  if (!(BUCKET_SIZES as readonly number[]).includes(b)) throw new BloomRangeError('bucketSize', b, '2, 4 or 8');
  const bucketSize = b as BucketSize;
  const growth = options?.growth ?? 0;
  if (typeof growth !== 'number') throw new BloomTypeError('growth', growth, `a number in [1, ${MAX_CUCKOO_GROWTH}], or absent for a fixed filter`);
  if (options?.growth !== undefined && !(growth >= 1 && growth <= MAX_CUCKOO_GROWTH)) {
    throw new BloomRangeError('growth', growth, `a number in [1, ${MAX_CUCKOO_GROWTH}], or absent for a fixed filter`);
  }
  if (typeof falsePositiveRate !== 'number') throw new BloomTypeError('falsePositiveRate', falsePositiveRate, 'a number in (0, 1)');
  // The first member's rate is p, or p / 2 when the filter grows; its fingerprint must fit in 32 bits.
  const smallest = ((2 * bucketSize) / 2 ** MAX_FINGERPRINT_BITS) * (growth === 0 ? 1 : 2);
  if (!(falsePositiveRate >= smallest && falsePositiveRate < 1)) {
    throw new BloomRangeError(
      'falsePositiveRate', falsePositiveRate,
      `a number in [${smallest}, 1) for buckets of ${bucketSize}${growth === 0 ? '' : ' that grow'} (fingerprints of at most ${MAX_FINGERPRINT_BITS} bits)`,
    );
  }
  const seed = checkSeed(options?.seed ?? 0);
  const f = fingerprintBitsFor(growth === 0 ? falsePositiveRate : falsePositiveRate / 2, bucketSize);
  const most = maxCapacity(bucketSize, f);
  if (typeof capacity !== 'number') throw new BloomTypeError('capacity', capacity, `an integer in [1, ${most}]`);
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > most) {
    throw new BloomRangeError('capacity', capacity, `an integer in [1, ${most}] at this rate and bucket size (fingerprints of ${f} bits)`);
  }
  return { capacity, falsePositiveRate, bucketSize, growth, seed };
}
