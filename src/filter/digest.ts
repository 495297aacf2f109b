// Hash once, probe many, on the wasm path. digest() encodes and hashes an
// item once, in one instance kept for the purpose (the hasher);
// hasDigest/addDigest on a filter cross into that filter's instance with
// the 64-bit digest as two i32 arguments and compute only the positions and
// the bit reads there.
//
// probeAll goes further: one call into wasm, the hash, and no call into any
// filter's instance. It makes each filter's positions in JS and reads its
// bits in place, in whichever instance's memory they lie (src/filter/probe-walks.ts). Cost: one encode and one hash (one wasm
// call), then per filter a few dozen arithmetic operations and the reads: one
// 32-byte block per sbbf filter, about 2.5 bytes per xxh64 filter for an
// absent key. The twin is src/reference/digest.ts.

import { BloomTypeError } from '../errors.js';
import { checkNoneDisposed } from './dispose.js';
import { theHasher } from '../wasm/digest.js';
import { checkItem, checkSeed } from './options.js';
import type { CheckedBatch, Item } from './items.js';
import { Digest, DIGEST_SCHEMES, type DigestOptions, type ProbeTarget } from './item-digest.js';
import { ASK_ITEM, makePlan, planHolds, type Plan } from './probe-plan.js';
import { walkSbbf, walkXxh64 } from './probe-walks.js';

/** The item's digest under `seed`, already checked. @internal */
export function digestChecked(item: Item, seed: bigint): Digest {
  const h = theHasher(seed);
  h.hash(item, seed);
  return new Digest(h.lo(), h.hi(), seed);
}

/** The digests of a checked batch under `seed`, as (lo, hi) pairs, hashed in wasm a chunk at a time. @internal */
export function digestManyChecked(batch: CheckedBatch, seed: bigint): Uint32Array {
  return theHasher(seed).digestMany(batch, seed);
}

/**
 * The item's 64-bit XXH64 digest (of its UTF-8 bytes, or the bytes given),
 * encoded and hashed once, in wasm. Pass it to hasDigest/addDigest of any
 * number of xxh64 filters with the same seed, of any sizes.
 */
export function digest(item: Item, options?: DigestOptions): Digest {
  checkItem(item);
  return digestChecked(item, options?.seed === undefined ? 0n : checkSeed(options.seed));
}

function notAFilter(i: number, f: unknown): BloomTypeError {
  return new BloomTypeError(`filters[${i}]`, f, 'a filter (BloomFilter, CountingBloomFilter or ScalableBloomFilter)');
}

const digestible = (scheme: string): boolean => DIGEST_SCHEMES.includes(scheme);

/** probeAll's plans, by the identity of the filters array (src/filter/probe-plan.ts). */
const plans = new WeakMap<readonly ProbeTarget[], Plan>();

/**
 * Asks every filter about one item; flag i is 1 when filters[i] may hold it.
 * The item is encoded and hashed once (once per distinct seed among the
 * filters). Wasm BloomFilters and CountingBloomFilters of the xxh64 family
 * with the first such filter's seed are read in place, with no call besides
 * the hash (src/filter/probe-walks.ts); any other filter is asked with
 * hasDigest (xxh64 filters beyond 2^30 bits, reference filters, chains, a
 * second seed) or has (poly, bytesum: their hash depends on m). What it
 * learns of the list is cached by the array's identity, and checked on each
 * call, so that asking the same array again allocates only the answer.
 */
export function probeAll(filters: readonly ProbeTarget[], item: Item): Uint8Array {
  if (!Array.isArray(filters)) throw new BloomTypeError('filters', filters, 'an array of filters');
  checkItem(item);
  let plan = plans.get(filters);
  if (plan === undefined || !planHolds(plan, filters)) {
    // A dispose() frees a region, which stales every plan (viewEpoch): a
    // disposed filter is refused here, before any view of its memory is made.
    checkNoneDisposed('probeAll', filters);
    plan = makePlan(filters, notAFilter, digestible);
    plans.set(filters, plan);
  }
  const out = new Uint8Array(filters.length);
  const { asked, how, seed } = plan;
  let lo = 0;
  let hi = 0;
  if (seed !== undefined) {
    const h = theHasher(seed);
    h.hash(item, seed);
    lo = h.lo();
    hi = h.hi();
    if (plan.xxh64.count > 0) walkXxh64(plan.xxh64, lo, hi, out);
    if (plan.xxh64Counters.count > 0) walkXxh64(plan.xxh64Counters, lo, hi, out);
    if (plan.sbbf.count > 0) walkSbbf(plan.sbbf, lo, hi, out);
    if (plan.sbbfCounters.count > 0) walkSbbf(plan.sbbfCounters, lo, hi, out);
  }
  // The rest: has(item) for poly and bytesum; hasDigest for reference
  // filters, chains, large xxh64 filters and filters of a second seed,
  // reusing the digest when their seed is the first one.
  let other: Digest | undefined;
  for (let t = 0; t < asked.length; t++) {
    const i = asked[t];
    const f = filters[i];
    if (how[t] === ASK_ITEM) out[i] = f.has(item) ? 1 : 0;
    else {
      if (other === undefined || other.seed !== f.seed) {
        other = seed !== undefined && f.seed === seed ? new Digest(lo, hi, seed) : digestChecked(item, f.seed);
      }
      out[i] = f.hasDigest(other) ? 1 : 0;
    }
  }
  return out;
}
