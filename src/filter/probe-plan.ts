// probeAll's plan: what it knows of a list of filters, worked out once and
// cached by the list's identity (a WeakMap keyed by the array), so that a
// store asking the same 200 filters for key after key pays no per-call
// classification or allocation. The plan is checked cheaply on every call:
// same length, same filter at each index, and no filter's bits moved since
// (a memory grew and detached its views, or share() moved the bits: one
// counter, viewEpoch in src/wasm/staging.ts, instead of a check of every
// view); anything else rebuilds it. Which filters are read
// in place, and how, is in src/filter/probe-walks.ts.

import { viewEpoch } from '../wasm/staging.js';
import { PROBE_LAYOUT, type ProbeLayout, type ProbeTarget } from './item-digest.js';
import { sbbfWalks, xxh64Walks, type SbbfWalks, type Xxh64Walks } from './probe-walks.js';

/** How probeAll asks filters[i] that it cannot read in place. */
export const ASK_ITEM = 0; // has(item): poly, bytesum
export const ASK_DIGEST = 1; // hasDigest: reference filters, chains, a second seed, xxh64 beyond IN_PLACE_MAX_BITS

/**
 * The largest xxh64 filter read in place: below 2^30 bits, a, b, a + b and
 * the remainder's correction all stay int32 (reduce, in probe-walks.ts). Larger filters
 * (over 128 MiB) are asked with hasDigest, one call into their instance.
 * Below 64 bits too (b + i could pass 2m; such a filter is a few bytes).
 */
export const IN_PLACE_MAX_BITS = 2 ** 30 - 1;
const IN_PLACE_MIN_BITS = 64;

/** A wasm filter whose bits probeAll reads in place. */
export interface InPlace extends ProbeTarget {
  [PROBE_LAYOUT](): ProbeLayout;
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
  /** viewEpoch.count when the plan was made: a change since means some view may be stale. */
  readonly growths: number;
  /** The in-place xxh64 filters of packed bits, and those of 4-bit counters (a separate list, so each walk's bit test is fixed). */
  readonly xxh64: Xxh64Walks;
  readonly xxh64Counters: Xxh64Walks;
  /** The same for sbbf filters. */
  readonly sbbf: SbbfWalks;
  readonly sbbfCounters: SbbfWalks;
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
  // Each walk takes filters of one width, so that its loops hold no test of the width.
  const ofWidth = <T>(layouts: ProbeLayout[], index: number[], width: 1 | 4, make: (l: ProbeLayout[], i: number[], w: 1 | 4) => T): T => {
    const js = layouts.flatMap((l, j) => (l.width === width ? [j] : []));
    return make(js.map((j) => layouts[j]), js.map((j) => index[j]), width);
  };
  return {
    filters: filters.slice(), asked: Int32Array.from(asked), how: Uint8Array.from(how), seed, growths: viewEpoch.count,
    xxh64: ofWidth(xxh64Layouts, xxh64, 1, xxh64Walks),
    xxh64Counters: ofWidth(xxh64Layouts, xxh64, 4, xxh64Walks),
    sbbf: ofWidth(sbbfLayouts, sbbf, 1, sbbfWalks),
    sbbfCounters: ofWidth(sbbfLayouts, sbbf, 4, sbbfWalks),
  };
}

/** Whether `plan` still describes `filters`: the same filters in the same places, and no filter's bits moved since. */
export function planHolds(plan: Plan, filters: readonly ProbeTarget[]): boolean {
  const known = plan.filters;
  const n = known.length;
  if (n !== filters.length || plan.growths !== viewEpoch.count) return false;
  for (let i = 0; i < n; i++) if (known[i] !== filters[i]) return false;
  return true;
}

