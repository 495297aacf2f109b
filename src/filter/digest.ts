// Hash once, probe many, on the wasm path. digest() encodes and hashes an
// item once, in one instance kept for the purpose (the hasher);
// hasDigest/addDigest on a filter cross into that filter's own instance with
// the 64-bit digest as two i32 arguments and compute only the positions and
// the bit reads there.
//
// probeAll goes further. Filters live in separate instances (separate
// memories), and a call into a different instance each time costs far more
// than a call into the same one (measured several times slower, see
// src/wasm/digest.ts). So probeAll makes no call into
// any filter's instance: the hasher computes every filter's positions in
// one call (placeAll), and JS reads each filter's bits in place, stopping at
// the first 0. Cost: one encode, one hash, one placeAll call per 4096
// positions, and the bit reads. The twin is src/reference/digest.ts.

import { BloomTypeError } from '../errors.js';
import { theHasher } from '../wasm/digest.js';
import { checkItem, checkSeed } from './options.js';
import type { CheckedBatch, Item } from './items.js';
import { Digest, DIGEST_SCHEMES, type DigestOptions, type ProbeLayout, type ProbeTarget } from './item-digest.js';

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

/** What probeAll reads in place: a wasm filter of the xxh64 family. */
interface InPlace extends ProbeTarget {
  probeLayout(): ProbeLayout;
}

function notAFilter(i: number, f: unknown): BloomTypeError {
  return new BloomTypeError(`filters[${i}]`, f, 'a filter (BloomFilter, CountingBloomFilter or ScalableBloomFilter)');
}

/** probeAll's working lists, reused from call to call (emptied at the start of each). */
const inPlaceIndexes: number[] = [];
const inPlaceLayouts: ProbeLayout[] = [];
const restIndexes: number[] = [];

/**
 * Asks every filter about one item; flag i is 1 when filters[i] may hold it.
 * The item is encoded and hashed once (once per distinct seed among the
 * filters). Wasm BloomFilters and CountingBloomFilters of the xxh64 family
 * with the first such filter's seed are answered from one placeAll call and
 * reads of their bits in place (src/wasm/digest.ts); any other filter is
 * asked with hasDigest (xxh64) or has (poly, bytesum: their hash depends on m).
 */
export function probeAll(filters: readonly ProbeTarget[], item: Item): Uint8Array {
  if (!Array.isArray(filters)) throw new BloomTypeError('filters', filters, 'an array of filters');
  checkItem(item);
  const out = new Uint8Array(filters.length);
  const which = inPlaceIndexes;
  const layouts = inPlaceLayouts;
  const rest = restIndexes;
  which.length = layouts.length = rest.length = 0;
  let seed: bigint | undefined;
  let seedLo = 0;
  let seedHi = 0;
  for (let i = 0; i < filters.length; i++) {
    const f = filters[i];
    if (f === null || typeof f !== 'object') throw notAFilter(i, f);
    // A wasm filter: everything this loop needs is in its cached layout.
    const layout = typeof (f as InPlace).probeLayout === 'function' ? (f as InPlace).probeLayout() : undefined;
    if (layout !== undefined) {
      if (!layout.digestible) out[i] = f.has(item) ? 1 : 0;
      else if (seed === undefined || (layout.seedLo === seedLo && layout.seedHi === seedHi)) {
        if (seed === undefined) {
          seed = f.seed;
          seedLo = layout.seedLo;
          seedHi = layout.seedHi;
        }
        which.push(i);
        layouts.push(layout);
      } else rest.push(i);
      continue;
    }
    if (typeof f.hasDigest !== 'function') throw notAFilter(i, f);
    if (!DIGEST_SCHEMES.includes(f.scheme)) out[i] = f.has(item) ? 1 : 0;
    else rest.push(i);
  }
  // The rest (reference filters, chains, filters with a second seed) reuse
  // the digest when their seed is the first one.
  let other: Digest | undefined;
  if (which.length > 0) {
    const h = theHasher(seed!);
    h.hash(item, seed!);
    h.probeSites(h.lo(), h.hi(), layouts, which, out);
    if (rest.length > 0) other = new Digest(h.lo(), h.hi(), seed!);
  }
  for (const i of rest) {
    const f = filters[i];
    if (other === undefined || other.seed !== f.seed) other = digestChecked(item, f.seed);
    out[i] = f.hasDigest(other) ? 1 : 0;
  }
  return out;
}
