// The reference twin of assembly/scheme.ts: the one place where the four
// schemes differ, from an item to its positions and to the u64 its shard is
// chosen from.

import type { Scheme } from '../filter/options.js';
import { bytesum, poly, xxh64 } from './hash.js';
import { probeDouble, probeEnhancedDouble } from './probe.js';
import { sbbfPositions } from './sbbf.js';
import { pairKey } from './shard.js';
import { copyUnits, itemBytes } from './js-string.js';

/** The bytes a scheme hashes: a string's UTF-8, or the Uint8Array itself. */
function utf8(item: string | Uint8Array): Uint8Array {
  return itemBytes(item);
}

/** The codes poly hashes: a string's UTF-16 code units, or the bytes. */
function codeUnits(item: string | Uint8Array): ArrayLike<number> {
  return typeof item === 'string' ? copyUnits(item) : itemBytes(item);
}

/** What positions and shards are computed from. */
export interface SchemeShape {
  scheme: Scheme;
  bits: number;
  hashes: number;
  seed: bigint;
}

/** The item's k positions in probe order (sbbf: word 0 to word 7 of its block). */
export function itemPositions(f: SchemeShape, item: string | Uint8Array): number[] {
  if (f.scheme === 'poly') {
    const { h1, h2 } = poly(codeUnits(item));
    return probeDouble(h1, h2, f.bits, f.hashes);
  }
  if (f.scheme === 'bytesum') {
    const { h1, h2 } = bytesum(utf8(item), f.bits);
    return probeDouble(h1, h2, f.bits, f.hashes);
  }
  return probeHash(f, xxh64(utf8(item), f.seed));
}

/** A filter's positions for a 64-bit XXH64 hash `h` (xxh64 or sbbf): an item's, or a digest given (src/reference/digest.ts). */
export function probeHash(f: SchemeShape, h: bigint): number[] {
  return f.scheme === 'sbbf' ? sbbfPositions(h, f.bits) : probeEnhancedDouble(h, f.bits, f.hashes);
}

/** The u64 an item's shard is chosen from: the XXH64 hash, or the pair key of poly and bytesum. */
export function itemKey(f: SchemeShape, item: string | Uint8Array): bigint {
  if (f.scheme === 'poly') {
    const { h1, h2 } = poly(codeUnits(item));
    return pairKey(h1, h2);
  }
  if (f.scheme === 'bytesum') {
    const { h1, h2 } = bytesum(utf8(item), f.bits);
    return pairKey(h1, h2);
  }
  return xxh64(utf8(item), f.seed);
}
