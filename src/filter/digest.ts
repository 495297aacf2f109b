// Hash once, probe many, on the wasm path. digest() encodes and hashes an
// item once, in one instance kept for the purpose (the hasher);
// hasDigest/addDigest on a filter cross into that filter's own instance with
// the 64-bit digest as two i32 arguments and compute only the positions and
// the bit reads there.
//
// probeAll goes further. Filters live in separate instances (separate
// memories), and a call into a different instance each time costs far more
// than a call into the same one (measured: about 10x for an empty export
// over 200 instances, bench workload (g)). So probeAll makes no call into
// any filter's instance: the hasher computes every filter's positions in
// one call (placeAll), and JS reads each filter's bits in place, stopping at
// the first 0. Cost: one encode, one hash, one placeAll call per 4096
// positions, and the bit reads. The twin is src/reference/digest.ts.

import { Engine } from '../wasm/engine.js';
import { checkItem, checkSeed } from './options.js';
import type { Item } from './items.js';
import { BloomTypeError } from '../errors.js';
import { Digest, DIGEST_SCHEMES, type DigestOptions, type ProbeLayout, type ProbeTarget } from './item-digest.js';

/** The exports of assembly/digest.ts (with the two of assembly/index.ts that the hasher needs). */
export interface DigestExports {
  configureHashing(bits: number, hashes: number, scheme: number, seedLo: number, seedHi: number): number;
  digestItem(len: number): void;
  digestStream(): void;
  hasDigest(lo: number, hi: number): number;
  addDigest(lo: number, hi: number): number;
  placeAll(lo: number, hi: number, count: number): number;
  positionsPtr(): number;
  scratchPtr(): number;
  batchOffsetsPtr(): number;
  batchFlagsPtr(): number;
  batchMax(): number;
  memory: WebAssembly.Memory;
}

/** An engine's digest exports. @internal */
export function digestExports(engine: Engine): DigestExports {
  return engine.x as unknown as DigestExports;
}

/** The hashing instance, its exports, the seed it is configured with, and its views. */
interface Hasher {
  engine: Engine;
  x: DigestExports;
  seed: bigint;
  /** u32[2] at positionsPtr: where digestItem leaves the digest. */
  out: Uint32Array;
  /** placeAll's table at scratch: per filter f64 m, then u32 k and u32 width (as f64[2j] and u32[4j + 2..3]). */
  table: Float64Array;
  tableUnits: Uint32Array;
  /** placeAll's output: u32 byte offsets at batchOffsetsPtr and u8 masks at batchFlagsPtr. */
  offsets: Uint32Array;
  masks: Uint8Array;
  /** Positions per placeAll call. */
  room: number;
}

let hasher: Hasher | undefined;

function hasherFor(seed: bigint): Hasher {
  if (hasher === undefined) {
    const engine = new Engine({ bits: 8, hashes: 1, scheme: 'xxh64', schemeId: 0, seed }, true);
    const x = engine.x as unknown as DigestExports;
    // Memory grew, if at all, in the constructor's configureHashing; the
    // reconfigurations below never grow it, so this view stays attached.
    const buffer = x.memory.buffer;
    const room = x.batchMax();
    hasher = {
      engine, x, seed, room,
      out: new Uint32Array(buffer, x.positionsPtr(), 2),
      table: new Float64Array(buffer, x.scratchPtr(), room * 2),
      tableUnits: new Uint32Array(buffer, x.scratchPtr(), room * 4),
      offsets: new Uint32Array(buffer, x.batchOffsetsPtr(), room),
      masks: new Uint8Array(buffer, x.batchFlagsPtr(), room),
    };
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
  return digestChecked(item, options?.seed === undefined ? 0n : checkSeed(options.seed));
}

/** What probeAll reads in place: a wasm filter of the xxh64 family. */
interface InPlace extends ProbeTarget {
  probeLayout(): ProbeLayout;
}

/**
 * Asks every filter about one item; flag i is 1 when filters[i] may hold it.
 * The item is encoded and hashed once (once per distinct seed among the
 * filters). Wasm BloomFilters and CountingBloomFilters of the xxh64 family
 * with the first such filter's seed are answered from one placeAll call and
 * reads of their bits in place; any other filter is asked with hasDigest
 * (xxh64) or has (poly, bytesum: their hash depends on m).
 */
export function probeAll(filters: readonly ProbeTarget[], item: Item): Uint8Array {
  if (!Array.isArray(filters)) throw new BloomTypeError('filters', filters, 'an array of filters');
  checkItem(item);
  const out = new Uint8Array(filters.length);
  const which = inPlaceIndexes;
  const layouts = inPlaceLayouts;
  const rest = restIndexes;
  which.length = layouts.length = rest.length = 0;
  let seed: bigint | undefined;
  for (let i = 0; i < filters.length; i++) {
    const f = filters[i];
    if (f === null || typeof f !== 'object' || typeof f.hasDigest !== 'function') {
      throw new BloomTypeError(`filters[${i}]`, f, 'a filter (BloomFilter, CountingBloomFilter or ScalableBloomFilter)');
    }
    if (!DIGEST_SCHEMES.includes(f.scheme)) out[i] = f.has(item) ? 1 : 0;
    else if (typeof (f as InPlace).probeLayout === 'function' && (seed === undefined || seed === f.seed)) {
      seed = f.seed;
      which.push(i);
      layouts.push((f as InPlace).probeLayout());
    } else rest.push(i);
  }
  if (which.length > 0) probeInPlace(which, layouts, digestChecked(item, seed!), out);
  // The rest: reference filters, chains, and filters with a second seed.
  let other: Digest | undefined;
  for (const i of rest) {
    const f = filters[i];
    if (other === undefined || other.seed !== f.seed) other = digestChecked(item, f.seed);
    out[i] = f.hasDigest(other) ? 1 : 0;
  }
  return out;
}

/** probeAll's working lists, reused from call to call (emptied at the start of each). */
const inPlaceIndexes: number[] = [];
const inPlaceLayouts: ProbeLayout[] = [];
const restIndexes: number[] = [];

/** Sets out[which[j]] from layouts[j]: positions from placeAll, bits read in place, the first 0 stops. */
function probeInPlace(which: number[], layouts: ProbeLayout[], d: Digest, out: Uint8Array): void {
  const h = hasher!;
  const { table, tableUnits, offsets, masks, room } = h;
  let next = 0;
  while (next < which.length) {
    // A group whose positions fit the output regions.
    const first = next;
    let total = 0;
    while (next < which.length && total + layouts[next].hashes <= room) {
      const layout = layouts[next];
      const j = next - first;
      table[2 * j] = layout.bits;
      tableUnits[4 * j + 2] = layout.hashes;
      tableUnits[4 * j + 3] = layout.width;
      total += layout.hashes;
      next++;
    }
    h.x.placeAll(d.lo, d.hi, next - first);
    let at = 0;
    for (let j = first; j < next; j++) {
      const { view, hashes } = layouts[j];
      const end = at + hashes;
      let found = 1;
      for (; at < end; at++) {
        if ((view[offsets[at]] & masks[at]) === 0) {
          found = 0;
          break;
        }
      }
      at = end;
      out[which[j]] = found;
    }
  }
}
