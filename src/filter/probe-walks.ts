// probeAll's walks: the filters it reads in place, answered exactly as each
// filter's has() would, written for the memory system. Every filter's bits
// live in its own wasm memory, so nearly every read misses the cache (and
// costs more than a read of the JS heap: the bench's floor, one byte read per
// filter, took 1.8x as long over the filters' memories as over JS copies of
// their bits, measured). What makes a walk dearer than that is a read whose bit decides a
// branch before the next filter's read is issued: the misses then wait for
// one another (measured: the filter-by-filter walk this replaces cost about
// 4x the floor over xxh64 filters, this one about 2-2.5x). So the walks go in
// steps, each in two passes: the arithmetic for every filter still in play,
// then a tight loop of reads alone, whose bits only decide (without a
// branch) which filters stay in the list.
// - xxh64 (enhanced double hashing, Dillinger and Manolios, FMCAD 2004;
//   assembly/probe.ts): a = h mod m and b = splitmix64(h) mod m are made
//   here without a division (probe-arithmetic.ts), step i adds below m,
//   with the same distinct-positions rule. The first step reads
//   positions 0 and 1 of every filter; a quarter of the filters (at their
//   designed fill) are then still in play, and each later step reads one
//   position of those: about 2.5 reads per filter for an absent key.
// - sbbf (Parquet's split-block filter, assembly/sbbf.ts): one step. The
//   eight word masks depend on the digest's low half alone, so they are made
//   once per item; per filter only the block j = ((h >>> 32) * z) >>> 32 is
//   computed, exactly, from 16-bit halves, and its eight words are read
//   through a cached Int32Array.

import type { ProbeLayout } from './item-digest.js';
import { mixed, powerMod, reduce, SALT, splitmix64Halves } from './probe-arithmetic.js';

/** The xxh64 filters read in place: per filter j, flat. */
export interface Xxh64Walks {
  readonly count: number;
  /** Index j's place in the list (and in the answer). */
  readonly index: Int32Array;
  /** m and k. */
  readonly bits: Int32Array;
  readonly hashes: Int32Array;
  /** 2^32 mod m, 2^48 mod m and 1 / m, for reduce. */
  readonly r32: Float64Array;
  readonly r48: Float64Array;
  readonly inverse: Float64Array;
  /** 1: every view holds packed bits; 4: 4-bit counters (a list of CountingBloomFilters). */
  readonly width: 1 | 4;
  readonly views: Uint8Array[];
  /** The largest k (at least 2: the first step makes positions 0 and 1). */
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
  /** 1: every filter's words hold bits; 4: its views hold 4-bit counters (a list of CountingBloomFilters). */
  readonly width: 1 | 4;
  /** Word views of the bits (width 1; none otherwise) and byte views. */
  readonly words: Int32Array[];
  readonly views: Uint8Array[];
  /** Scratch of a walk: each filter's block. */
  readonly at: Int32Array;
}

/** The flat facts of the in-place xxh64 filters of one width. */
export function xxh64Walks(layouts: ProbeLayout[], index: number[], width: 1 | 4): Xxh64Walks {
  const count = layouts.length;
  // At least two rows of positions: the first step writes positions 0 and 1 of every filter.
  const maxHashes = layouts.reduce((k, l) => Math.max(k, l.hashes), 2);
  return {
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
}

/** The flat facts of the in-place sbbf filters of one width. */
export function sbbfWalks(layouts: ProbeLayout[], index: number[], width: 1 | 4): SbbfWalks {
  return {
    count: layouts.length,
    index: Int32Array.from(index),
    blocks: Float64Array.from(layouts, (l) => l.bits / 256),
    width,
    words: width === 1 ? layouts.map((l) => new Int32Array(l.view.buffer, l.view.byteOffset, l.view.length >>> 2)) : [],
    views: layouts.map((l) => l.view),
    at: new Int32Array(layouts.length),
  };
}

/**
 * The reads of the first step: positions 0 and 1 (walked[j] and
 * walked[count + j]) of every filter; keeps in `live` the filters with both
 * set and returns how many. One loop per width, so that the loop of reads
 * holds no test of the width (a test there measured slower).
 */
function readFirst(views: Uint8Array[], walked: Int32Array, count: number, live: Int32Array, bitsWide: boolean): number {
  let n = 0;
  if (bitsWide) {
    for (let j = 0; j < count; j++) {
      const v = views[j];
      const p = walked[j];
      const q = walked[count + j];
      live[n] = j;
      n += (v[p >>> 3] >>> (p & 7)) & (v[q >>> 3] >>> (q & 7)) & 1;
    }
  } else {
    for (let j = 0; j < count; j++) {
      const v = views[j];
      const p = walked[j];
      const q = walked[count + j];
      live[n] = j;
      // -c is negative exactly when counter c is above 0.
      const c = (v[p >>> 1] >>> ((p & 1) << 2)) & 15;
      const d = (v[q >>> 1] >>> ((q & 1) << 2)) & 15;
      n += (-c & -d) >>> 31;
    }
  }
  return n;
}

/** The reads of a later step: position walked[row + j] of the first `going` filters in `live`; keeps those with it set and returns how many. */
function readStep(views: Uint8Array[], walked: Int32Array, row: number, going: number, live: Int32Array, bitsWide: boolean): number {
  let n = 0;
  if (bitsWide) {
    for (let t = 0; t < going; t++) {
      const j = live[t];
      const p = walked[row + j];
      live[n] = j;
      n += (views[j][p >>> 3] >>> (p & 7)) & 1;
    }
  } else {
    for (let t = 0; t < going; t++) {
      const j = live[t];
      const p = walked[row + j];
      live[n] = j;
      n += -((views[j][p >>> 1] >>> ((p & 1) << 2)) & 15) >>> 31;
    }
  }
  return n;
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
  let n = readFirst(views, walked, count, live, bitsWide);
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
    n = readStep(views, walked, row, going, live, bitsWide);
  }
}

/** The eight bit indexes (0..31, one per word of a block) of an sbbf item. */
const slots = new Int32Array(8);

/**
 * Answers the in-place sbbf filters for digest hi:lo: out[index[j]] = 1 when
 * block ((hi * z) >>> 32) holds all eight of the item's bits. Two passes:
 * every filter's block index first (arithmetic only), then the block reads,
 * so that the loop of reads is short and keeps many in flight. The eight
 * word tests of a block stop at the first clear bit: the words share one
 * cache line, so the branch waits on one miss, and this measured faster
 * than combining all eight without a branch.
 */
export function walkSbbf(w: SbbfWalks, lo: number, hi: number, out: Uint8Array): void {
  for (let i = 0; i < 8; i++) slots[i] = Math.imul(lo, SALT[i]) >>> 27;
  const m0 = 1 << slots[0], m1 = 1 << slots[1], m2 = 1 << slots[2], m3 = 1 << slots[3];
  const m4 = 1 << slots[4], m5 = 1 << slots[5], m6 = 1 << slots[6], m7 = 1 << slots[7];
  const hh = hi >>> 16;
  const hl = hi & 0xffff;
  const { count, blocks, words, index, at } = w;
  for (let j = 0; j < count; j++) {
    const z = blocks[j];
    at[j] = Math.floor((hh * z + Math.floor((hl * z) / 65536)) / 65536);
  }
  if (w.width !== 1) {
    for (let j = 0; j < count; j++) out[index[j]] = countersHold(w.views[j], at[j]);
    return;
  }
  for (let j = 0; j < count; j++) {
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
