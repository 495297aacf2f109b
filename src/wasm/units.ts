// Strings as UTF-16 code units: how the poly scheme (the SeenFilter
// exercise's hash, over a string's code units rather than its UTF-8) stages
// its strings, for single items and for a batch chunk that is not all
// ASCII. Only the full build hashes poly (the lean BloomFilter refuses the
// scheme), so this file is installed by src/wasm/full-build.ts and a bundle
// of the lean class does not carry it (src/wasm/staging.ts, useUnitsStaging).

import type { Item } from '../filter/items.js';
import type { Staging, UnitsStaging } from './staging.js';

/**
 * Stages `item` as UTF-16 code units, or as its bytes when every unit is
 * ASCII (then they are the same, and encodeInto is the fastest copy:
 * written === n exactly when every unit was ASCII); returns its length in
 * units, or -1 when it was streamed through streamBegin/streamUpdate.
 */
function stage(staging: Staging, item: string, r: number, generation: number): number {
  const n = item.length;
  if (n <= staging.maxUtf8Units && staging.encodeAt(item, 0) === n) {
    staging.wide = 0;
    return n;
  }
  const units = staging.scratchUnits;
  if (n > units.length) return stream(staging, item, r, generation);
  for (let i = 0; i < n; i++) units[i] = item.charCodeAt(i);
  staging.wide = 1;
  return n;
}

/** Streams a string too long for scratch into record `r`'s hash, a scratch's worth of code units at a time. */
function stream(staging: Staging, item: string, r: number, generation: number): number {
  const units = staging.scratchUnits;
  const x = staging.x;
  x.streamBegin(r, generation, 1);
  for (let at = 0; at < item.length; at += units.length) {
    const n = Math.min(units.length, item.length - at);
    for (let i = 0; i < n; i++) units[i] = item.charCodeAt(at + i);
    x.streamUpdate(r, generation, n);
  }
  return -1;
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

/** The poly scheme's staging, for useUnitsStaging. */
export const unitsStaging: UnitsStaging = { stage, chunk };
