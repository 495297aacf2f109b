// The wasm ScalableBloomFilter: the chain of src/scalable/scalable-over.ts
// over wasm BloomFilters. Its twin is src/reference/scalable.ts.

import { BloomFilter, engineOf } from '../filter/filter.js';
import { checkerEngine, xxh64 } from '../wasm/checksum.js';
import { Engine, type ChainRecords } from '../wasm/engine.js';
import { digestChecked, digestManyChecked } from '../filter/digest.js';
import type { Item } from '../filter/items.js';
import type { DecodedChain } from '../format/chain.js';
import { restoreChain, restoredFrom } from './restore.js';
import { ScalableBloomFilterOver, type ChainKind } from './scalable-over.js';
import type { ScalableOptions, ScalablePlan } from './plan.js';

/**
 * Each chain's member records for Engine.chainHas, by its members array
 * (which the chain keeps and only pushes to, or empties): made again when
 * the count or the newest member differs.
 */
const chainRecords = new WeakMap<readonly BloomFilter[], { count: number; newest: BloomFilter; records: ChainRecords | undefined }>();

/** The index of the newest member that reports `item`, in one call into wasm; undefined when that call cannot serve. */
function hasAny(members: readonly BloomFilter[], item: Item): number | undefined {
  const count = members.length;
  let known = chainRecords.get(members);
  if (known === undefined || known.count !== count || known.newest !== members[count - 1]) {
    known = { count, newest: members[count - 1], records: Engine.chainRecords(members.map(engineOf)) };
    chainRecords.set(members, known);
  }
  return known.records === undefined ? undefined : Engine.chainHas(known.records, item);
}

/** Wasm members, and the header checksum computed in wasm. */
const WASM_MEMBERS: ChainKind<BloomFilter> = {
  create: (bits, hashes, scheme, seed) => new BloomFilter(bits, hashes, { scheme, seed }),
  fromBytes: (bytes) => BloomFilter.fromBytes(bytes),
  xxh64: (bytes) => xxh64(checkerEngine(), bytes),
  digest: digestChecked,
  digestMany: digestManyChecked,
  // Members in one instance: hashed once and probed in one call.
  hasAny,
};

/** A chain of wasm Bloom filters that grows with the items and keeps its false-positive bound. */
export class ScalableBloomFilter extends ScalableBloomFilterOver<BloomFilter> {
  /** An empty chain with one member; throws BloomRangeError or BloomTypeError on bad options. */
  constructor(options: ScalableOptions) {
    super(options, WASM_MEMBERS);
  }

  /**
   * Reads a chain written by toBytes (here or by the reference twin). The
   * header and every member's header are checked against the chain's plan,
   * and the length, before any member is allocated; any fault throws
   * BloomFormatError naming the field and its byte offset.
   */
  static fromBytes(bytes: Uint8Array): ScalableBloomFilter {
    return new ScalableBloomFilter(restoreChain(bytes, WASM_MEMBERS));
  }
}

/** XXH64 (seed 0) computed in wasm: the chain header's checksum. @internal */
export const wasmXxh64 = WASM_MEMBERS.xxh64;

/** A wasm chain of members decoded elsewhere (src/node streams them from a file). @internal */
export function adoptChain(chain: DecodedChain<BloomFilter>): ScalableBloomFilter {
  return new ScalableBloomFilter(restoredFrom(chain));
}

/** The plan and the members, oldest first, for src/node, which streams them to a file. @internal */
export function chainParts(chain: ScalableBloomFilter): { plan: ScalablePlan; members: readonly BloomFilter[] } {
  return { plan: chain['plan'], members: chain['members'] };
}
