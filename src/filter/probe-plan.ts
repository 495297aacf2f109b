// probeAll's plan: what it knows of a list of filters, worked out once and
// cached by the list's identity (a WeakMap keyed by the array), so that a
// store asking the same 200 filters for key after key pays no per-call
// classification or allocation. The plan is checked cheaply on every call:
// same length, same filter at each index, no view detached (memory grew);
// anything else rebuilds it.
//
// The bit walks below answer exactly as each filter's has():
// - xxh64 (enhanced double hashing, Dillinger and Manolios, FMCAD 2004;
//   assembly/probe.ts): a = h mod m and b = splitmix64(h) mod m come from the
//   hasher (startAll); each later step only adds below m, so it runs here in
//   doubles (exact: m < 2^53), lazily, stopping at the first 0, with the same
//   distinct-positions rule as assembly/probe.ts.
// - sbbf (Parquet's split-block filter, assembly/sbbf.ts): the eight word
//   masks depend on the digest's low half alone, so they are made once per
//   item; per filter only the block j = ((h >>> 32) * z) >>> 32 is computed,
//   exactly, from 16-bit halves, and its eight words are read through a
//   cached Uint32Array.

import { PROBE_LAYOUT, type ProbeLayout, type ProbeTarget } from './item-digest.js';

/** How probeAll answers filters[i]. */
export const ASK_ITEM = 0; // has(item): poly, bytesum
export const ASK_DIGEST = 1; // hasDigest: reference filters, chains, a second seed
export const WALK_XXH64 = 2; // in place, enhanced double hashing
export const WALK_SBBF = 3; // in place, one block

/** A wasm filter whose bits probeAll reads in place. */
export interface InPlace extends ProbeTarget {
  [PROBE_LAYOUT](): ProbeLayout;
}

/** probeAll's cached knowledge of one list of filters. */
export interface Plan {
  /** The list's filters when the plan was made (identity check). */
  readonly filters: ProbeTarget[];
  /** ASK_ITEM, ASK_DIGEST, WALK_XXH64 or WALK_SBBF per filter. */
  readonly how: Uint8Array;
  /** The first in-place filter's seed: every walked filter has it. */
  readonly seed: bigint | undefined;
  /** The walked xxh64 filters: their indexes, layouts, and startAll's table (f64 m at 2j). */
  readonly xxh64: number[];
  readonly xxh64Layouts: ProbeLayout[];
  readonly table: Float64Array;
  /** The walked sbbf filters: indexes, layouts, blocks z, and word views (width 1) of their bits. */
  readonly sbbf: number[];
  readonly sbbfLayouts: ProbeLayout[];
  readonly blocks: number[];
  readonly words: Uint32Array[];
}

/** The plan for `filters`, built from their probe layouts. */
export function makePlan(filters: readonly ProbeTarget[], notAFilter: (i: number, f: unknown) => Error, digestible: (scheme: string) => boolean): Plan {
  const how = new Uint8Array(filters.length);
  const xxh64: number[] = [];
  const xxh64Layouts: ProbeLayout[] = [];
  const sbbf: number[] = [];
  const sbbfLayouts: ProbeLayout[] = [];
  const blocks: number[] = [];
  const words: Uint32Array[] = [];
  let seed: bigint | undefined;
  for (let i = 0; i < filters.length; i++) {
    const f = filters[i];
    if (f === null || typeof f !== 'object') throw notAFilter(i, f);
    const layout = typeof (f as InPlace)[PROBE_LAYOUT] === 'function' ? (f as InPlace)[PROBE_LAYOUT]() : undefined;
    if (layout === undefined) {
      if (typeof f.hasDigest !== 'function') throw notAFilter(i, f);
      how[i] = digestible(f.scheme) ? ASK_DIGEST : ASK_ITEM;
      continue;
    }
    if (!layout.digestible) how[i] = ASK_ITEM;
    else if (seed !== undefined && f.seed !== seed) how[i] = ASK_DIGEST;
    else {
      seed = f.seed;
      if (layout.sbbf) {
        how[i] = WALK_SBBF;
        sbbf.push(i);
        sbbfLayouts.push(layout);
        blocks.push(layout.bits / 256);
        const v = layout.view;
        words.push(layout.width === 1 ? new Uint32Array(v.buffer, v.byteOffset, v.length >>> 2) : new Uint32Array(0));
      } else {
        how[i] = WALK_XXH64;
        xxh64.push(i);
        xxh64Layouts.push(layout);
      }
    }
  }
  const table = new Float64Array(2 * xxh64.length);
  xxh64Layouts.forEach((l, j) => (table[2 * j] = l.bits));
  return { filters: filters.slice(), how, seed, xxh64, xxh64Layouts, table, sbbf, sbbfLayouts, blocks, words };
}

/** Whether `plan` still describes `filters`: the same filters in the same places, no view detached. */
export function planHolds(plan: Plan, filters: readonly ProbeTarget[]): boolean {
  const known = plan.filters;
  if (known.length !== filters.length) return false;
  for (let i = 0; i < known.length; i++) if (known[i] !== filters[i]) return false;
  // A detached view (its memory grew) has length 0; a filter's bits never do.
  for (const l of plan.xxh64Layouts) if (l.view.length === 0) return false;
  const { words, sbbfLayouts } = plan;
  for (let j = 0; j < words.length; j++) {
    if (sbbfLayouts[j].view.length === 0 || (sbbfLayouts[j].width === 1 && words[j].length === 0)) return false;
  }
  return true;
}

/** Positions so far of the current xxh64 walk, for the distinct-positions rule (k <= 64). */
const walked = new Float64Array(64);

/** Whether position p is set: bit p of packed bits (width 1), or counter p above 0 (width 4). */
function isSet(view: Uint8Array, width: number, p: number): boolean {
  return width === 1 ? (view[Math.floor(p / 8)] & (1 << (p % 8))) !== 0 : (view[Math.floor(p / 2)] & (15 << ((p % 2) * 4))) !== 0;
}

/**
 * has() of an xxh64 filter (m bits, k hashes) from a = h mod m and
 * b = splitmix64(h) mod m: the steps of assembly/probe.ts's enhancedDouble
 * (a += b, b += i, mod m; a repeated position moves on by +1 mod m), each
 * position tested as it is made. Below 2^31 bits every value is a small
 * integer and the bit tests are integer operations (a double % is a
 * runtime call in V8, measured as the walk's whole cost); larger filters
 * take walkWide, the same steps in doubles.
 */
export function walkXxh64(a: number, b: number, m: number, k: number, view: Uint8Array, width: number): boolean {
  if (m > 0x7fffffff) return walkWide(a, b, m, k, view, width);
  a |= 0;
  b |= 0;
  if (width === 1 ? (view[a >>> 3] & (1 << (a & 7))) === 0 : (view[a >>> 1] & (15 << ((a & 1) << 2))) === 0) return false;
  walked[0] = a;
  // seen: bit (p & 63) set for every position so far, as two 32-bit halves.
  let seenLo = 0;
  let seenHi = 0;
  if ((a & 32) === 0) seenLo |= 1 << a;
  else seenHi |= 1 << a;
  for (let i = 1; i < k; i++) {
    a += b;
    if (a >= m) a -= m;
    b += i;
    if (b >= m) b %= m;
    let p = a;
    // Shift counts are taken mod 32 in JS, so 1 << p is 1 << (p & 31).
    while ((((p & 32) === 0 ? seenLo : seenHi) >>> p) & 1) {
      let j = 0;
      while (j < i && walked[j] !== p) j++;
      if (j === i) break;
      p = p + 1 === m ? 0 : p + 1;
    }
    if ((p & 32) === 0) seenLo |= 1 << p;
    else seenHi |= 1 << p;
    walked[i] = p;
    if (width === 1 ? (view[p >>> 3] & (1 << (p & 7))) === 0 : (view[p >>> 1] & (15 << ((p & 1) << 2))) === 0) return false;
  }
  return true;
}

/** walkXxh64 in doubles, for filters of 2^31 bits and more (exact: m < 2^53). */
export function walkWide(a: number, b: number, m: number, k: number, view: Uint8Array, width: number): boolean {
  if (!isSet(view, width, a)) return false;
  walked[0] = a;
  let seenLo = 0;
  let seenHi = 0;
  let r = a % 64;
  if (r < 32) seenLo |= 1 << r;
  else seenHi |= 1 << (r - 32);
  for (let i = 1; i < k; i++) {
    a += b;
    if (a >= m) a -= m;
    b += i;
    if (b >= m) b %= m;
    let p = a;
    for (;;) {
      r = p % 64;
      if (((r < 32 ? seenLo >>> r : seenHi >>> (r - 32)) & 1) === 0) break;
      let j = 0;
      while (j < i && walked[j] !== p) j++;
      if (j === i) break;
      p = p + 1 === m ? 0 : p + 1;
    }
    if (r < 32) seenLo |= 1 << r;
    else seenHi |= 1 << (r - 32);
    walked[i] = p;
    if (!isSet(view, width, p)) return false;
  }
  return true;
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

/** has() of an sbbf filter: block j's eight words hold the masks (width 1, through `words`), or its counters are above 0 (width 4). */
export function walkSbbf(j: number, masks: Uint32Array, words: Uint32Array, view: Uint8Array, width: number): boolean {
  if (width === 1) {
    const w = j * 8;
    // Each mask has one bit, so "all of the mask's bits set" is "not 0": a
    // comparison with the mask itself would be wrong for bit 31, where & gives
    // a negative int32 and the Uint32Array a positive double.
    for (let i = 0; i < 8; i++) if ((words[w + i] & masks[i]) === 0) return false;
    return true;
  }
  for (let i = 0; i < 8; i++) if (!isSet(view, 4, j * 256 + i * 32 + (31 - Math.clz32(masks[i])))) return false;
  return true;
}
