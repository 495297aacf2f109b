// Hash once, probe many, on the wasm path. digest() encodes and hashes an
// item once, in a shared arena, with the seed as an argument;
// hasDigest/addDigest on a filter cross into that filter's instance with
// the 64-bit digest as two i32 arguments and compute only the positions and
// the bit reads there.
//
// probeAll goes further: the filters of one arena are walked in one call
// into the chain's module over that arena's memory (assembly/digest.ts's
// probeRecords, a walk over many records as a chain's is), which hashes
// the item once and reads every filter's bits where they lie. The twin is
// src/reference/digest.ts.

import { BloomDisposedError, BloomTypeError } from '../errors.js';
import { isDisposed } from './dispose.js';
import type { Arena } from '../wasm/arena.js';
import type { ChainExports } from '../wasm/abi.js';
import { chainModule } from '../wasm/chain-walk.js';
import { hashingArena } from '../wasm/placement.js';
import { checkItem, checkSeed } from './options.js';
import { readOption } from './read-options.js';
import type { Item } from './items.js';
import { Digest, DIGEST_SCHEMES, type DigestOptions, probeAnswers, type ProbeTarget } from './item-digest.js';
import { walkHandleOf } from './filter-base.js';
import { high32, low32 } from '../wasm/inputs.js';

/** The seed whose halves were asked for last, and its halves. */
let lastSeed = 0n;
let lastLo = 0;
let lastHi = 0;

/** The item's digest under `seed`, already checked. @internal */
export function digestChecked(item: Item, seed: bigint): Digest {
  if (seed !== lastSeed) {
    lastLo = low32(seed);
    lastHi = high32(seed);
    lastSeed = seed;
  }
  const staging = hashingArena().staging;
  staging.hashItem(item, lastLo, lastHi);
  return new Digest(staging.digestOut[0], staging.digestOut[1], seed);
}

/**
 * The item's 64-bit XXH64 digest (of its UTF-8 bytes, or the bytes given),
 * encoded and hashed once, in wasm. Pass it to hasDigest/addDigest of any
 * number of xxh64 filters with the same seed, of any sizes.
 */
export function digest(item: Item, options?: DigestOptions): Digest {
  checkItem(item);
  const seed = readOption(options, 'seed', 'an object ({ seed }) or undefined');
  return digestChecked(item, checkSeed(seed));
}

function notAFilter(i: number, f: unknown): BloomTypeError {
  return new BloomTypeError(`filters[${i}]`, f, 'a filter (BloomFilter, CountingBloomFilter or ScalableBloomFilter)');
}

/**
 * What probeAll found out about one list of filters: which it walks (their
 * indexes and (record, generation) pairs, in one arena) and which it asks
 * itself. Kept by the array's identity, so that asking the same array for
 * key after key reads each filter's handle once (planned on every call, a
 * probeAll over 200 filters cost twice the instructions); a call checks
 * only that the array holds the same filters. A pair whose record was
 * since released (dispose(), share()) is refused by the walk itself
 * (assembly/record.ts's generations) and asked, or refused by name, here.
 * Only walks in a shared arena are kept: an arena of its own (a large
 * filter's) must not be held past its filter's dispose().
 */
interface Walk {
  readonly filters: readonly ProbeTarget[];
  readonly arena: Arena | undefined;
  /** The chain's module over `arena`, whose probeRecords walks the filters there. */
  readonly walker: ChainExports | undefined;
  readonly count: number;
  readonly index: Int32Array;
  readonly pairs: Uint32Array;
  /** The indexes asked here, not walked. */
  readonly asked: Int32Array;
  /** Whether the walked filters are filters[0, count) in order, so that their flags are copied as one block. */
  readonly inOrder: boolean;
}

const walks = new WeakMap<readonly ProbeTarget[], Walk>();

/** The walk of `filters`: the wasm filters of the first such filter's arena. */
function planWalk(filters: readonly ProbeTarget[]): Walk {
  const n = filters.length;
  const index: number[] = [];
  const pairs: number[] = [];
  const asked: number[] = [];
  let arena: Arena | undefined;
  for (let i = 0; i < n; i++) {
    const f = filters[i];
    if (f === null || typeof f !== 'object') throw notAFilter(i, f);
    const handle = walkHandleOf(f);
    if (handle === undefined) {
      if (typeof f.hasDigest !== 'function') throw notAFilter(i, f);
      asked.push(i);
      continue;
    }
    // A disposed filter's handle has no arena: probeAll names the filter (its own hasDigest would name itself).
    if (!handle.live) throw new BloomDisposedError('probeAll', `filters[${i}]`);
    const at = handle.walkArena();
    if (at === undefined || (arena !== undefined && at !== arena)) {
      asked.push(i);
      continue;
    }
    arena = at;
    index.push(i);
    pairs.push(handle.walkRecord(), handle.walkGeneration());
  }
  return {
    filters: filters.slice(), arena, walker: arena === undefined ? undefined : chainModule.of(arena), count: index.length,
    index: Int32Array.from(index), pairs: Uint32Array.from(pairs), asked: Int32Array.from(asked),
    inOrder: index.every((at, j) => at === j),
  };
}

/** Whether `walk` was planned for the same filters, in the same places. */
function walkHolds(walk: Walk, filters: readonly ProbeTarget[]): boolean {
  const known = walk.filters;
  if (known.length !== filters.length) return false;
  for (let i = 0; i < known.length; i++) if (known[i] !== filters[i]) return false;
  return true;
}

/**
 * Asks every filter about one item; flag i is 1 when filters[i] may hold it.
 * The wasm BloomFilters of the arena of the first such filter are walked
 * in one call into it, which hashes the item once (assembly/digest.ts's
 * probeRecords); the walk answers those of the xxh64 family with the first
 * one's seed. Any other filter is asked with hasDigest (counting filters,
 * whose counters their own module reads, reference filters, chains,
 * filters in another arena or of a second seed, the digest computed once
 * per seed) or has (poly, bytesum: their hash depends on m).
 *
 * The answers go to `into` when it is given (a Uint8Array of exactly
 * filters.length elements; every element is written, and `into` is
 * returned): a caller asking key after key saves making a new array per
 * key, which costs as much as walking a hundred filters. If the call
 * throws, what `into` holds is unspecified.
 */
export function probeAll(filters: readonly ProbeTarget[], item: Item, into?: Uint8Array): Uint8Array {
  if (!Array.isArray(filters)) throw new BloomTypeError('filters', filters, 'an array of filters');
  checkItem(item);
  const n = filters.length;
  const out = probeAnswers(n, into);
  let walk = walks.get(filters);
  if (walk === undefined || !walkHolds(walk, filters)) {
    walk = planWalk(filters);
    if (walk.arena !== undefined && !walk.arena.dedicated) walks.set(filters, walk);
    else walks.delete(filters);
  }
  const { arena, walker, count, index: walkedIndex, pairs: walkedRecords, asked, inOrder } = walk;
  for (let t = 0; t < asked.length; t++) out[asked[t]] = 2;
  let walked: Digest | undefined;
  if (arena !== undefined && walker !== undefined) {
    const { staging } = arena;
    const seed = filters[walkedIndex[0]].seed;
    let len = staging.put(item, undefined);
    let lo = 0;
    let hi = 0;
    if (len < 0) {
      staging.hashItem(item, low32(seed), high32(seed));
      lo = staging.digestOut[0];
      hi = staging.digestOut[1];
    }
    // (record, generation) pairs fill the batch offsets region (assembly/digest.ts's PROBE_RECORDS_MAX).
    const max = (staging.batchMax + 1) >> 1;
    for (let first = 0; first < count; first += max) {
      const m = Math.min(max, count - first);
      staging.batchOffsets.set(m === count ? walkedRecords : walkedRecords.subarray(2 * first, 2 * (first + m)));
      walker.probeRecords(m, len, lo, hi);
      if (len >= 0) {
        // Hashed in the first call; the next ones take its digest.
        lo = staging.digestOut[0];
        hi = staging.digestOut[1];
        len = -1;
      }
      const flags = staging.batchFlags;
      if (inOrder) out.set(flags.subarray(0, m), first);
      else for (let j = 0; j < m; j++) out[walkedIndex[first + j]] = flags[j];
    }
    walked = new Digest(lo, hi, seed);
  }
  // The rest (flag 2): has(item) for poly and bytesum, hasDigest for the others.
  let other: Digest | undefined;
  // indexOf skips, natively, the common case of every filter walked and answered.
  for (let i = out.indexOf(2); i >= 0 && i < n; i = out.indexOf(2, i + 1)) {
    const f = filters[i];
    // A disposed filter has no record, so it is never walked: it is refused here, by name.
    if (isDisposed(f)) throw new BloomDisposedError('probeAll', `filters[${i}]`);
    if (!DIGEST_SCHEMES.includes(f.scheme)) {
      out[i] = f.has(item) ? 1 : 0;
      continue;
    }
    if (walked !== undefined && f.seed === walked.seed) other = walked;
    else if (other === undefined || other.seed !== f.seed) other = digestChecked(item, f.seed);
    out[i] = f.hasDigest(other) ? 1 : 0;
  }
  return out;
}
