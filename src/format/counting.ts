// The counting filter's file: the same 56-byte header as the plain filter's
// (src/format/filter.ts) under its own magic, "BLM4", with its own version
// sequence (1 so far), and a payload of packed 4-bit counters. The fields
// mean what they mean for the plain filter, with counters for bits:
// bitsSet counts the counters above 0, addedCount the items held (adds
// minus removes), payloadLength is ceil(bits / 2), and the high nibble past
// an odd m is padding, always 0. docs/FORMAT.md, "Counting filter format, version 1".

import { knownKind, type FileKind } from './filter.js';

/** The counting filter format version this release writes; it reads every version up to this one. */
export const COUNTING_FORMAT_VERSION = 1;

/** The counting filter's file kind: magic "BLM4" (4-bit counters). */
export const COUNTING_KIND: FileKind = {
  ...knownKind('BLM4'),
  version: COUNTING_FORMAT_VERSION,
  width: 4,
  ones: 'counters above 0',
};

/** Counters above 0 among the first `bits` counters of `counters` (the padding nibble is not one). */
export function countersAboveZero(counters: Uint8Array, bits: number): number {
  let n = 0;
  for (let i = 0; i < counters.length; i++) {
    const b = counters[i];
    if (b & 0x0f) n++;
    if (b & 0xf0 && 2 * i + 1 < bits) n++;
  }
  return n;
}
