// Hash once, probe many, on the wasm path. digest() encodes and hashes an
// item once, in one instance kept for the purpose (the hasher);
// hasDigest/addDigest on a filter cross into that filter's own instance with
// the 64-bit digest as two i32 arguments and compute only the positions and
// the bit reads there.
//
// probeAll goes further. Filters live in separate instances (separate
// memories), and a call into a different instance each time costs far more
// than a call into the same one (measured several times slower, see
// src/wasm/digest.ts). So probeAll makes no call into any filter's
// instance: it reads each filter's bits in place, stopping at the first 0
// (src/filter/probe-plan.ts). Cost: one encode, one hash, one startAll call
// (two remainders mod m per xxh64 filter) when any xxh64 filter is in the
// list, and the bit reads. The twin is src/reference/digest.ts.

import { BloomTypeError } from '../errors.js';
import { theHasher, type Hasher } from '../wasm/digest.js';
import { checkItem, checkSeed } from './options.js';
import type { CheckedBatch, Item } from './items.js';
import { Digest, DIGEST_SCHEMES, type DigestOptions, type ProbeTarget } from './item-digest.js';
import { ASK_DIGEST, ASK_ITEM, makePlan, planHolds, sbbfBlock, sbbfMasks, walkSbbf, walkXxh64, type Plan } from './probe-plan.js';

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

/** The eight sbbf word masks of the current item. */
const masks = new Uint32Array(8);

/**
 * Asks every filter about one item; flag i is 1 when filters[i] may hold it.
 * The item is encoded and hashed once (once per distinct seed among the
 * filters). Wasm BloomFilters and CountingBloomFilters of the xxh64 family
 * with the first such filter's seed are read in place: sbbf filters with
 * no further call, xxh64 filters after one startAll call for all of them
 * (src/filter/probe-plan.ts); any other filter is asked with hasDigest
 * (xxh64, sbbf) or has (poly, bytesum: their hash depends on m). What it
 * learns of the list is cached by the array's identity, and checked on each
 * call, so that asking the same array again allocates only the answer.
 */
export function probeAll(filters: readonly ProbeTarget[], item: Item): Uint8Array {
  if (!Array.isArray(filters)) throw new BloomTypeError('filters', filters, 'an array of filters');
  checkItem(item);
  let plan = plans.get(filters);
  if (plan === undefined || !planHolds(plan, filters)) {
    plan = makePlan(filters, notAFilter, digestible);
    plans.set(filters, plan);
  }
  const out = new Uint8Array(filters.length);
  const { how, seed } = plan;
  let lo = 0;
  let hi = 0;
  if (seed !== undefined) {
    const h = theHasher(seed);
    h.hash(item, seed);
    lo = h.lo();
    hi = h.hi();
    walkAllXxh64(h, plan, lo, hi, out);
    const { sbbf, sbbfLayouts, blocks, words } = plan;
    if (sbbf.length > 0) {
      sbbfMasks(lo, masks);
      for (let j = 0; j < sbbf.length; j++) {
        const l = sbbfLayouts[j];
        out[sbbf[j]] = walkSbbf(sbbfBlock(hi, blocks[j]), masks, words[j], l.view, l.width) ? 1 : 0;
      }
    }
  }
  // The rest: has(item) for poly and bytesum; hasDigest for reference
  // filters, chains and filters of a second seed, reusing the digest when
  // their seed is the first one.
  let other: Digest | undefined;
  for (let i = 0; i < how.length; i++) {
    if (how[i] === ASK_ITEM) out[i] = filters[i].has(item) ? 1 : 0;
    else if (how[i] === ASK_DIGEST) {
      const f = filters[i];
      if (other === undefined || other.seed !== f.seed) {
        other = seed !== undefined && f.seed === seed ? new Digest(lo, hi, seed) : digestChecked(item, f.seed);
      }
      out[i] = f.hasDigest(other) ? 1 : 0;
    }
  }
  return out;
}

/** Answers the plan's xxh64 filters: startAll (up to startsMax filters per call), then each walk in place. */
function walkAllXxh64(h: Hasher, plan: Plan, lo: number, hi: number, out: Uint8Array): void {
  const { xxh64, xxh64Layouts, table } = plan;
  const room = h.startsMax();
  for (let first = 0; first < xxh64.length; first += room) {
    const count = Math.min(room, xxh64.length - first);
    const starts = h.starts(lo, hi, table.subarray(2 * first, 2 * (first + count)), count);
    for (let j = 0; j < count; j++) {
      const l = xxh64Layouts[first + j];
      out[xxh64[first + j]] = walkXxh64(starts[2 * j], starts[2 * j + 1], l.bits, l.hashes, l.view, l.width) ? 1 : 0;
    }
  }
}
