// The wasm ScalableBloomFilter: the chain of src/scalable/scalable-over.ts
// over wasm BloomFilters. Its twin is src/reference/scalable.ts.

import { BloomFilter, engineOf } from '../filter/filter.js';
import { bytesChecksum } from '../wasm/checksum.js';
import { chainHas, chainRun, nextStamp, type WalkList } from '../wasm/chain-walk.js';
import type { Engine } from '../wasm/engine.js';
import { digestChecked } from '../filter/digest.js';
import type { DecodedChain } from '../format/chain.js';
import { restoreChain, restoredFrom } from './restore.js';
import { ScalableBloomFilterOver, type ChainKind, type ChainWalk, type GrowingMembers } from './scalable-over.js';
import { scalableCapacityOptions, type ScalableCapacityOptions, type ScalableOptions, type ScalablePlan } from './plan.js';
import { bytesFromJSON, type FilterJSON } from '../format/json.js';

/** A chain's WalkList, and which members it was made from. */
interface KnownList extends WalkList {
  readonly engines: Engine[];
  readonly newest: BloomFilter;
}

/**
 * The WalkList of `chain`'s members, kept in the chain (GrowingMembers'
 * walkState) and made again when the count or the newest member differs:
 * its members array is only ever pushed to, or emptied.
 */
function walkList(chain: GrowingMembers<BloomFilter>): KnownList {
  const members = chain.members;
  const count = members.length;
  let known = chain.walkState as KnownList | undefined;
  if (known === undefined || known.engines.length !== count || known.newest !== members[count - 1]) {
    known = { newest: members[count - 1], engines: members.map(engineOf), stamp: nextStamp() };
    chain.walkState = known;
  }
  return known;
}

/** The members walked in wasm (assembly/chain.ts), when they all live in one arena. */
const WALK: ChainWalk<BloomFilter> = {
  has: (chain, item) => chainHas(walkList(chain), item),
  run: (chain, source, op, out) => {
    const known = walkList(chain);
    const engines = known.engines.slice();
    return chainRun({
      engines,
      stamp: known.stamp,
      room: chain.room,
      counted: chain.counted,
      startMember: () => {
        chain.startMember();
        const e = engineOf(chain.members[chain.members.length - 1]);
        engines.push(e);
        return e;
      },
    }, source, op, out);
  },
};

/** Wasm members, and the header checksum computed in wasm. */
const WASM_MEMBERS: ChainKind<BloomFilter> = {
  create: (bits, hashes, scheme, seed) => new BloomFilter(bits, hashes, { scheme, seed }),
  fromBytes: (bytes) => BloomFilter.fromBytes(bytes),
  xxh64: (bytes) => bytesChecksum(bytes),
  digest: digestChecked,
  walk: WALK,
};

/** A chain of wasm Bloom filters that grows with the items and keeps its false-positive bound. */
export class ScalableBloomFilter extends ScalableBloomFilterOver<BloomFilter> {
  /** An empty chain with one member; throws BloomRangeError or BloomTypeError on bad options. */
  constructor(options: ScalableOptions) {
    super(options, WASM_MEMBERS);
  }

  /**
   * The chain for n = `capacity` items in its first member at compound rate
   * p = `falsePositiveRate`: the same chain as
   * `new ScalableBloomFilter({ capacity, falsePositiveRate, ...options })`.
   */
  static forCapacity(capacity: number, falsePositiveRate: number, options?: ScalableCapacityOptions): ScalableBloomFilter {
    return new ScalableBloomFilter(scalableCapacityOptions(capacity, falsePositiveRate, options));
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

  /**
   * Reads the JSON form that toJSON gives (the parsed object, or its JSON
   * text): the same filter, byte for byte, as fromBytes of its bytes. Throws
   * BloomTypeError naming `value`, `type` or `bytes`, BloomRangeError naming
   * `version`, and BloomFormatError for bad base64 or bad bytes.
   */
  static fromJSON(value: FilterJSON | string): ScalableBloomFilter {
    return ScalableBloomFilter.fromBytes(bytesFromJSON(value, 'ScalableBloomFilter'));
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
  return { plan: chain['plan'], members: chain['memberFilters'] };
}
