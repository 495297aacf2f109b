// Hash once, probe many, on the wasm path: digest() encodes and hashes an
// item once, in one instance kept for the purpose; hasDigest/addDigest on
// each filter then cross into that filter's own instance with the 64-bit
// digest as two i32 arguments and compute only the positions and the bit
// reads there. Filters live in separate instances (separate memories), so
// probeAll costs one encode, one hash crossing, and one crossing per
// filter: no filter re-encodes or re-hashes the item.
// The twin is src/reference/digest.ts.

import { Engine } from '../wasm/engine.js';
import { checkItem, checkSeed } from './options.js';
import type { Item } from './items.js';
import { Digest, probeAllWith, type DigestOptions, type ProbeTarget } from './item-digest.js';

/** The exports of assembly/digest.ts (with the two of assembly/index.ts that the hasher needs). */
export interface DigestExports {
  configureHashing(bits: number, hashes: number, scheme: number, seedLo: number, seedHi: number): number;
  digestItem(len: number): void;
  digestStream(): void;
  hasDigest(lo: number, hi: number): number;
  addDigest(lo: number, hi: number): number;
  positionsPtr(): number;
  memory: WebAssembly.Memory;
}

/** An engine's digest exports. @internal */
export function digestExports(engine: Engine): DigestExports {
  return engine.x as unknown as DigestExports;
}

/** The hashing instance, its exports, the seed it is configured with, and a u32[2] view of where the digest lands. */
let hasher: { engine: Engine; x: DigestExports; seed: bigint; out: Uint32Array } | undefined;

function hasherFor(seed: bigint): NonNullable<typeof hasher> {
  if (hasher === undefined) {
    const engine = new Engine({ bits: 8, hashes: 1, scheme: 'xxh64', schemeId: 0, seed }, true);
    const x = engine.x as unknown as DigestExports;
    // Memory grew, if at all, in the constructor's configureHashing; the
    // reconfigurations below never grow it, so this view stays attached.
    hasher = { engine, x, seed, out: new Uint32Array(x.memory.buffer, x.positionsPtr(), 2) };
  } else if (hasher.seed !== seed) {
    hasher.x.configureHashing(8, 1, 0, Number(seed & 0xffffffffn), Number(seed >> 32n));
    hasher.seed = seed;
  }
  return hasher;
}

/** The item's digest under `seed`, already checked. @internal */
export function digestChecked(item: Item, seed: bigint): Digest {
  const h = hasherFor(seed);
  const len = h.engine.stage(item);
  if (len >= 0) h.x.digestItem(len);
  else h.x.digestStream();
  return new Digest(h.out[0], h.out[1], seed);
}

/**
 * The item's 64-bit XXH64 digest (of its UTF-8 bytes, or the bytes given),
 * encoded and hashed once, in wasm. Pass it to hasDigest/addDigest of any
 * number of xxh64 filters with the same seed, of any sizes.
 */
export function digest(item: Item, options?: DigestOptions): Digest {
  checkItem(item);
  return digestChecked(item, checkSeed(options?.seed ?? 0));
}

/**
 * Asks every filter about one item; flag i is 1 when filters[i] may hold it.
 * The item is encoded and hashed once (once per distinct seed among the
 * filters); each xxh64 filter is then one wasm call with the digest. poly
 * and bytesum filters are asked with the item (their hash depends on m).
 */
export function probeAll(filters: readonly ProbeTarget[], item: Item): Uint8Array {
  return probeAllWith(digestChecked, filters, item);
}
