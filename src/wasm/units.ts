// Strings as UTF-16 code units: how the poly scheme (the SeenFilter
// exercise's hash, over a string's code units rather than its UTF-8) stages
// its strings, for single items and for a batch chunk that is not all
// ASCII. The engines of the classes that take poly (src/wasm/engine.ts,
// counting.ts) pass it to the staging calls of a poly record.

import type { Item } from './inputs.js';
import type { Staging, UnitsStaging } from './staging.js';

/**
 * Puts `item` into scratch as UTF-16 code units, or as its bytes when every
 * unit is ASCII (then they are the same, and encodeInto is the fastest
 * copy: written === n exactly when every unit was ASCII); returns its
 * length in units, or -1, writing nothing more, when it does not fit.
 */
function put(staging: Staging, item: string): number {
  const n = item.length;
  if (n <= staging.maxUtf8Units && staging.encodeAt(item, 0) === n) {
    staging.wide = 0;
    return n;
  }
  const units = staging.scratchUnits;
  if (n > units.length) return -1;
  for (let i = 0; i < n; i++) units[i] = item.charCodeAt(i);
  staging.wide = 1;
  return n;
}

/** Writes a string too long for scratch into it a scratch's worth of code units at a time, calling `update(units)` on each. */
function feed(staging: Staging, item: string, update: (len: number) => void): void {
  const units = staging.scratchUnits;
  for (let at = 0; at < item.length; at += units.length) {
    const n = Math.min(units.length, item.length - at);
    for (let i = 0; i < n; i++) units[i] = item.charCodeAt(at + i);
    update(n);
  }
}

/**
 * Copies the strings list[first, first + n) of a batch chunk into scratch
 * as code units, back to back, and writes each one's end (in bytes) to the
 * batch offsets region; they fit, as the part was cut to maxUtf8Units
 * (src/wasm/batch.ts, runStrings).
 */
function chunk(staging: Staging, list: readonly Item[], first: number, n: number): void {
  const codes = staging.scratchUnits;
  const table = staging.batchOffsets;
  let at = 0;
  for (let j = 0; j < n; j++) {
    const s = list[first + j] as string;
    for (let c = 0; c < s.length; c++) codes[at++] = s.charCodeAt(c);
    table[j + 1] = at << 1;
  }
}

/** The poly scheme's staging, which the engines of poly records pass to Staging (see above). */
export const unitsStaging: UnitsStaging = { put, feed, chunk };
