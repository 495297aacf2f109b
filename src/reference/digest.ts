// The reference twin of assembly/digest.ts and src/filter/digest.ts: the
// digest is XXH64 of the item's UTF-8 bytes, and a filter's positions from
// it are the xxh64 scheme's enhanced double hashing or the sbbf scheme's
// block (src/reference/scheme.ts's probeHash), written plainly.

import { checkItem, checkSeed } from '../filter/options.js';
import { readOption } from '../filter/read-options.js';
import type { Item } from '../filter/items.js';
import { Digest, probeAllWith, type DigestOptions, type ProbeTarget } from '../filter/item-digest.js';
import { xxh64 } from './hash.js';
import { itemBytes } from './js-string.js';

/** XXH64 of the item's UTF-8 bytes (or the bytes given) under `seed`. */
export function digestItem(item: Item, seed: bigint): Digest {
  const h = xxh64(itemBytes(item), seed);
  return Digest.fromValue(h, seed);
}

/** The item's 64-bit XXH64 digest under `seed`, for hasDigest/addDigest of xxh64 filters with that seed. */
export function digest(item: Item, options?: DigestOptions): Digest {
  checkItem(item);
  const seed = readOption(options, 'seed', 'an object ({ seed }) or undefined');
  return digestItem(item, checkSeed(seed));
}

/**
 * Asks every filter about one item, hashing it once per distinct seed; flag
 * i is 1 when filters[i] may hold it. The flags go to `into` when it is
 * given (a Uint8Array of filters.length elements), as the wasm probeAll's do.
 */
export function probeAll(filters: readonly ProbeTarget[], item: Item, into?: Uint8Array): Uint8Array {
  return probeAllWith(digestItem, filters, item, into);
}
