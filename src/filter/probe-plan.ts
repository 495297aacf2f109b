// probeAll's plan: what it knows of a list of filters, worked out once and
// cached by the list's identity (a WeakMap keyed by the array), so that a
// store asking the same 200 filters for key after key pays no per-call
// classification or allocation. The plan is checked cheaply on every call:
// same length, same filter at each index, no view detached (memory grew);
// anything else rebuilds it. Its per-filter facts are flat typed arrays, so
// the loops below read numbers, not layout objects.
//
// The walks answer exactly as each filter's has(), and are written for the
// memory system. Every filter's bits live in its own wasm memory, so each
// read is a cache miss, and a read whose bit decides a branch before the next
// filter's read is issued makes the misses wait for one another (measured:
// the old filter-by-filter walk cost ~2 serialized misses per filter, most
// of probeAll). So each step reads one position of every filter still in
// play, with no branch on the bit it read: the bit only decides whether the
// filter stays in the list for the next step (a branch-free compaction). The
// reads of one step are independent, and the CPU overlaps them as it does
// the floor's plain byte reads.
// - xxh64 (enhanced double hashing, Dillinger and Manolios, FMCAD 2004;
//   assembly/probe.ts): a = h mod m and b = splitmix64(h) mod m are made
//   here without a division (xxh64Start), step i adds below m, with the
//   same distinct-positions rule as assembly/probe.ts. Step 0 reads every
//   filter, step 1 about half (a filter at its designed fill has half its
//   bits set), and so on: about two reads per filter for an absent key.
// - sbbf (Parquet's split-block filter, assembly/sbbf.ts): one step. The
//   eight word masks depend on the digest's low half alone, so they are made
//   once per item; per filter only the block j = ((h >>> 32) * z) >>> 32 is
//   computed, exactly, from 16-bit halves, and its eight words are read
//   through a cached Int32Array and combined without a branch.

import { memoryGrowths } from '../wasm/staging.js';
import { PROBE_LAYOUT, type ProbeLayout, type ProbeTarget } from './item-digest.js';

/** How probeAll answers filters[i]. */
export const ASK_ITEM = 0; // has(item): poly, bytesum
export const ASK_DIGEST = 1; // hasDigest: reference filters, chains, a second seed, xxh64 beyond IN_PLACE_MAX_BITS
export const WALK_XXH64 = 2; // in place, enhanced double hashing
export const WALK_SBBF = 3; // in place, one block

/**
 * The largest xxh64 filter read in place: below 2^30 bits, a, b, a + b and
 * the remainder's correction all stay int32 (xxh64Start). Larger filters
 * (over 128 MiB) are asked with hasDigest, one call into their instance.
 * Below 64 bits too (b + i could pass 2m; such a filter is a few bytes).
 */
export const IN_PLACE_MAX_BITS = 2 ** 30 - 1;
const IN_PLACE_MIN_BITS = 64;

/** A wasm filter whose bits probeAll reads in place. */
export interface InPlace extends ProbeTarget {
  [PROBE_LAYOUT](): ProbeLayout;
}

/** The xxh64 filters read in place: per filter j, flat. */
export interface Xxh64Walks {
  readonly count: number;
  /** Index j's place in the list (and in the answer). */
  readonly index: Int32Array;
  /** m and k. */
  readonly bits: Int32Array;
  readonly hashes: Int32Array;
  /** 2^32 mod m, 2^48 mod m and 1 / m, for xxh64Start. */
  readonly r32: Float64Array;
  readonly r48: Float64Array;
  readonly inverse: Float64Array;
  /** 1: every view holds packed bits; 4: 4-bit counters (a list of CountingBloomFilters). */
  readonly width: 1 | 4;
  readonly views: Uint8Array[];
  /** The largest k: the most steps. */
  readonly maxHashes: number;
  /** Scratch of a walk: a and b per filter, the filters still in play, and positions so far (step i at i * count + j). */
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly live: Int32Array;
  readonly walked: Int32Array;
}

/** The sbbf filters read in place: per filter j, flat. */
export interface SbbfWalks {
  readonly count: number;
  readonly index: Int32Array;
  /** z, the number of 256-bit blocks. */
  readonly blocks: Float64Array;
  /** 1: words hold bits; 4: views hold 4-bit counters. */
  readonly width: Uint8Array;
  /** Word views (width 1; empty otherwise) and byte views of the bits. */
  readonly words: Int32Array[];
  readonly views: Uint8Array[];
  /** Scratch of a walk: each filter's block. */
  readonly at: Int32Array;
}

/** probeAll's cached knowledge of one list of filters. */
export interface Plan {
  /** The list's filters when the plan was made (identity check). */
  readonly filters: ProbeTarget[];
  /** The indexes asked with has or hasDigest, and how (ASK_ITEM or ASK_DIGEST). */
  readonly asked: Int32Array;
  readonly how: Uint8Array;
  /** The first in-place filter's seed: every walked filter has it. */
  readonly seed: bigint | undefined;
  /** memoryGrowths.count when the plan was made: any growth since may have detached its views. */
  readonly growths: number;
  /** The in-place xxh64 filters of packed bits, and those of 4-bit counters (a separate list, so each walk's bit test is fixed). */
  readonly xxh64: Xxh64Walks;
  readonly xxh64Counters: Xxh64Walks;
  readonly sbbf: SbbfWalks;
}

/** 2^e mod m, exactly (e <= 53, m < 2^31): doubling below m. */
function powerMod(e: number, m: number): number {
  let r = 1 % m;
  for (let i = 0; i < e; i++) r = (r * 2) % m;
  return r;
}

function xxh64Walks(layouts: ProbeLayout[], index: number[], width: 1 | 4): Xxh64Walks {
  const count = layouts.length;
  // At least two rows of positions: the first step writes positions 0 and 1 of every filter.
  const maxHashes = layouts.reduce((k, l) => Math.max(k, l.hashes), 2);
  const w = {
    count, maxHashes,
    index: Int32Array.from(index),
    bits: Int32Array.from(layouts, (l) => l.bits),
    hashes: Int32Array.from(layouts, (l) => l.hashes),
    r32: Float64Array.from(layouts, (l) => powerMod(32, l.bits)),
    r48: Float64Array.from(layouts, (l) => powerMod(48, l.bits)),
    inverse: Float64Array.from(layouts, (l) => 1 / l.bits),
    width,
    views: layouts.map((l) => l.view),
    a: new Int32Array(count),
    b: new Int32Array(count),
    live: new Int32Array(count),
    walked: new Int32Array(count * maxHashes),
  };
  return w;
}

function sbbfWalks(layouts: ProbeLayout[], index: number[]): SbbfWalks {
  return {
    count: layouts.length,
    index: Int32Array.from(index),
    blocks: Float64Array.from(layouts, (l) => l.bits / 256),
    width: Uint8Array.from(layouts, (l) => l.width),
    words: layouts.map((l) => (l.width === 1 ? new Int32Array(l.view.buffer, l.view.byteOffset, l.view.length >>> 2) : new Int32Array(0))),
    views: layouts.map((l) => l.view),
    at: new Int32Array(layouts.length),
  };
}

/** The plan for `filters`, built from their probe layouts. */
export function makePlan(filters: readonly ProbeTarget[], notAFilter: (i: number, f: unknown) => Error, digestible: (scheme: string) => boolean): Plan {
  const asked: number[] = [];
  const how: number[] = [];
  const xxh64: number[] = [];
  const xxh64Layouts: ProbeLayout[] = [];
  const sbbf: number[] = [];
  const sbbfLayouts: ProbeLayout[] = [];
  let seed: bigint | undefined;
  const ask = (i: number, way: number) => {
    asked.push(i);
    how.push(way);
  };
  for (let i = 0; i < filters.length; i++) {
    const f = filters[i];
    if (f === null || typeof f !== 'object') throw notAFilter(i, f);
    const layout = typeof (f as InPlace)[PROBE_LAYOUT] === 'function' ? (f as InPlace)[PROBE_LAYOUT]() : undefined;
    if (layout === undefined) {
      if (typeof f.hasDigest !== 'function') throw notAFilter(i, f);
      ask(i, digestible(f.scheme) ? ASK_DIGEST : ASK_ITEM);
    } else if (!layout.digestible) ask(i, ASK_ITEM);
    else if (seed !== undefined && f.seed !== seed) ask(i, ASK_DIGEST);
    else if (layout.sbbf) {
      seed = f.seed;
      sbbf.push(i);
      sbbfLayouts.push(layout);
    } else if (layout.bits > IN_PLACE_MAX_BITS || layout.bits < IN_PLACE_MIN_BITS) ask(i, ASK_DIGEST);
    else {
      seed = f.seed;
      xxh64.push(i);
      xxh64Layouts.push(layout);
    }
  }
  const byWidth = (width: 1 | 4) => {
    const js = xxh64Layouts.flatMap((l, j) => (l.width === width ? [j] : []));
    return xxh64Walks(js.map((j) => xxh64Layouts[j]), js.map((j) => xxh64[j]), width);
  };
  const x = byWidth(1);
  const xc = byWidth(4);
  const s = sbbfWalks(sbbfLayouts, sbbf);
  return { filters: filters.slice(), asked: Int32Array.from(asked), how: Uint8Array.from(how), seed, growths: memoryGrowths.count, xxh64: x, xxh64Counters: xc, sbbf: s };
}

/** Whether `plan` still describes `filters`: the same filters in the same places, and no memory grown since (a grown memory detaches views). */
export function planHolds(plan: Plan, filters: readonly ProbeTarget[]): boolean {
  const known = plan.filters;
  const n = known.length;
  if (n !== filters.length || plan.growths !== memoryGrowths.count) return false;
  for (let i = 0; i < n; i++) if (known[i] !== filters[i]) return false;
  return true;
}

/** The low and high halves of splitmix64 of the last digest given to splitmix64Halves. */
export const mixed = new Int32Array(2);

/** The high 32 bits of x * y for x, y < 2^32, exactly: from 16-bit halves every partial sum stays below 2^53. */
function multiplyHigh(x: number, y: number): number {
  const x1 = x >>> 16;
  const x0 = x & 0xffff;
  const y1 = y >>> 16;
  const y0 = y & 0xffff;
  const middle = x1 * y0 + x0 * y1 + Math.floor((x0 * y0) / 65536);
  return x1 * y1 + Math.floor(middle / 65536);
}

/**
 * splitmix64's output function (assembly/hash.ts) of the digest hi:lo, in
 * 32-bit halves (mixed[0] low, mixed[1] high): the 64-bit products keep
 * their low 64 bits, (xH·2^32 + xL)(cH·2^32 + cL) mod 2^64 =
 * xL·cL + ((xL·cH + xH·cL + high(xL·cL)) mod 2^32)·2^32.
 */
export function splitmix64Halves(lo: number, hi: number): void {
  let l = (lo ^ ((lo >>> 30) | (hi << 2))) >>> 0;
  let h = (hi ^ (hi >>> 30)) >>> 0;
  // * 0xbf58476d1ce4e5b9
  let high = (multiplyHigh(l, 0x1ce4e5b9) + Math.imul(l, 0xbf58476d) + Math.imul(h, 0x1ce4e5b9)) >>> 0;
  l = Math.imul(l, 0x1ce4e5b9) >>> 0;
  h = high;
  l = (l ^ ((l >>> 27) | (h << 5))) >>> 0;
  h = (h ^ (h >>> 27)) >>> 0;
  // * 0x94d049bb133111eb
  high = (multiplyHigh(l, 0x133111eb) + Math.imul(l, 0x94d049bb) + Math.imul(h, 0x133111eb)) >>> 0;
  l = Math.imul(l, 0x133111eb) >>> 0;
  h = high;
  mixed[0] = l ^ ((l >>> 31) | (h << 1));
  mixed[1] = h ^ (h >>> 31);
}

/**
 * (hh·2^48 + hl·2^32 + lo) mod m, exactly, for hh, hl < 2^16, lo < 2^32 and
 * 64 <= m < 2^30, with r32 = 2^32 mod m, r48 = 2^48 mod m, inverse = 1/m:
 * x = hh·r48 + hl·r32 + lo is congruent and below 2^49, so it is an exact
 * double; q = floor(x · inverse) is within 1 of floor(x / m) (the relative
 * error of two roundings, 2^-52, times x/m < 2^49), so x - q·m lies in
 * [-m, 2m) and two conditional adds bring it into [0, m), in int32.
 * No division: a 64-bit remainder costs tens of cycles, this a few.
 */
export function reduce(hh: number, hl: number, lo: number, m: number, r32: number, r48: number, inverse: number): number {
  const x = hh * r48 + hl * r32 + lo;
  let r = (x - Math.floor(x * inverse) * m) | 0;
  r += m & (r >> 31);
  r -= m;
  return r + (m & (r >> 31));
}

/** Whether position p is set: bit p of packed bits (bitsWide), or counter p above 0, as 1 or 0. */
function setAt(view: Uint8Array, p: number, bitsWide: boolean): number {
  return bitsWide ? (view[p >>> 3] >>> (p & 7)) & 1 : -((view[p >>> 1] >>> ((p & 1) << 2)) & 15) >>> 31;
}

/**
 * Answers the in-place xxh64 filters for digest hi:lo: out[index[j]] = 1
 * when filter j holds every position (assembly/probe.ts's enhancedDouble:
 * a = h mod m, b = splitmix64(h) mod m; then a += b, b += i, below m; a
 * position equal to an earlier one moves on by +1 mod m).
 *
 * In steps, each in two passes: the arithmetic for every filter still in
 * play, then a tight loop of reads alone, whose bits only decide (without a
 * branch) which filters stay in the list. The first step makes positions 0
 * and 1 of every filter and reads both: that is more reads than stopping at
 * the first 0 (a half-full filter's position 1 is read in vain half the
 * time), but one fewer wait for a step's reads to land, and measured
 * faster; after it a quarter of the filters are still in play.
 */
export function walkXxh64(w: Xxh64Walks, lo: number, hi: number, out: Uint8Array): void {
  const { count, bits, hashes, views, a: as, b: bs, live, walked, index, r32, r48, inverse } = w;
  const bitsWide = w.width === 1;
  splitmix64Halves(lo, hi);
  const sLo = mixed[0] >>> 0;
  const sHi = mixed[1] >>> 0;
  const hh = hi >>> 16;
  const hl = hi & 0xffff;
  const sh = sHi >>> 16;
  const sl = sHi & 0xffff;
  // Positions 0 and 1 (walked[j] and walked[count + j]), as and bs after step 1.
  for (let j = 0; j < count; j++) {
    const m = bits[j];
    const a0 = reduce(hh, hl, lo, m, r32[j], r48[j], inverse[j]);
    const b0 = reduce(sh, sl, sLo, m, r32[j], r48[j], inverse[j]);
    let a = a0 + b0 - m;
    a += m & (a >> 31);
    let b = b0 + 1 - m;
    b += m & (b >> 31);
    as[j] = a;
    bs[j] = b;
    walked[j] = a0;
    // Position 1 may only repeat position 0; with k = 1 there is no position 1, and position 0 is read twice.
    walked[count + j] = hashes[j] === 1 ? a0 : a !== a0 ? a : a + 1 === m ? 0 : a + 1;
  }
  let n = 0;
  for (let j = 0; j < count; j++) {
    const v = views[j];
    live[n] = j;
    n += setAt(v, walked[j], bitsWide) & setAt(v, walked[count + j], bitsWide);
  }
  for (let i = 2; n > 0; i++) {
    const row = i * count;
    let going = 0;
    for (let t = 0; t < n; t++) {
      const j = live[t];
      if (i >= hashes[j]) {
        // Every position of filter j was set.
        out[index[j]] = 1;
        continue;
      }
      const m = bits[j];
      let a = as[j] + bs[j] - m;
      a += m & (a >> 31);
      let b = bs[j] + i - m;
      b += m & (b >> 31);
      as[j] = a;
      bs[j] = b;
      let p = a;
      // The distinct-positions rule: scan the earlier positions (k <= 64; a
      // repeat is rare, so the loop's one branch is predictable).
      for (let q = 0; q < i; q++) {
        if (walked[q * count + j] === p) {
          p = p + 1 === m ? 0 : p + 1;
          q = -1;
        }
      }
      walked[row + j] = p;
      live[going++] = j;
    }
    n = 0;
    for (let t = 0; t < going; t++) {
      const j = live[t];
      live[n] = j;
      n += setAt(views[j], walked[row + j], bitsWide);
    }
  }
}

/** The sbbf block ((hi * z) >>> 32) for hi < 2^32 and z < 2^32 blocks, exact: from hi's 16-bit halves, every product stays below 2^53. */
export function sbbfBlock(hi: number, z: number): number {
  const high = Math.floor((hi >>> 16) * z);
  const low = (hi & 0xffff) * z;
  return Math.floor((high + Math.floor(low / 65536)) / 65536);
}

/** The sbbf SALT constants (Parquet BloomFilter.md), as assembly/sbbf.ts has them. */
const SALT = [0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31];

/** The eight word masks of an sbbf item, from the digest's low half, written to `masks`. */
export function sbbfMasks(lo: number, masks: Uint32Array): void {
  for (let i = 0; i < 8; i++) masks[i] = (1 << (Math.imul(lo, SALT[i]) >>> 27)) >>> 0;
}

/** The eight bit indexes (0..31, one per word of a block) of an sbbf item. */
const slots = new Int32Array(8);

/**
 * Answers the in-place sbbf filters for digest hi:lo: out[index[j]] = 1 when
 * block ((hi * z) >>> 32) holds all eight of the item's bits. Two passes:
 * every filter's block index first (arithmetic only), then the block reads,
 * so that the loop of reads is short and keeps many in flight.
 */
export function walkSbbf(w: SbbfWalks, lo: number, hi: number, out: Uint8Array): void {
  for (let i = 0; i < 8; i++) slots[i] = Math.imul(lo, SALT[i]) >>> 27;
  const m0 = 1 << slots[0], m1 = 1 << slots[1], m2 = 1 << slots[2], m3 = 1 << slots[3];
  const m4 = 1 << slots[4], m5 = 1 << slots[5], m6 = 1 << slots[6], m7 = 1 << slots[7];
  const hh = hi >>> 16;
  const hl = hi & 0xffff;
  const { count, blocks, words, index, width, at } = w;
  for (let j = 0; j < count; j++) {
    const z = blocks[j];
    at[j] = Math.floor((hh * z + Math.floor((hl * z) / 65536)) / 65536);
  }
  for (let j = 0; j < count; j++) {
    if (width[j] !== 1) {
      out[index[j]] = countersHold(w.views[j], at[j]);
      continue;
    }
    const v = words[j];
    const k = at[j] << 3;
    // Each mask has one bit, so "the mask's bit is set" is "& is not 0": a
    // comparison with the mask itself would be wrong for bit 31, where &
    // gives a negative int32.
    out[index[j]] = (v[k] & m0) !== 0 && (v[k + 1] & m1) !== 0 && (v[k + 2] & m2) !== 0 && (v[k + 3] & m3) !== 0
      && (v[k + 4] & m4) !== 0 && (v[k + 5] & m5) !== 0 && (v[k + 6] & m6) !== 0 && (v[k + 7] & m7) !== 0 ? 1 : 0;
  }
}

/** Whether the eight counters of the item (slots) in `block` of 4-bit counters are above 0, as 1 or 0. */
function countersHold(view: Uint8Array, block: number): number {
  // Counter p = block·256 + i·32 + slot is nibble (p & 1) of byte p >>> 1.
  for (let i = 0; i < 8; i++) {
    const s = slots[i];
    if (((view[block * 128 + i * 16 + (s >>> 1)] >>> ((s & 1) << 2)) & 15) === 0) return 0;
  }
  return 1;
}
