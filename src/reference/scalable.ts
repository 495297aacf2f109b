// The reference twin of src/scalable.ts: the scalable Bloom filter of
// Almeida, Baquero, Preguiça and Hutchison (IPL 101(6), 2007) as a chain of
// reference BloomFilters, written plainly. The member sizes come from the
// same plan (src/scalable-plan.ts), so both chains hold the same bits.

import type { Scheme } from '../filter/options.js';
import { decodeChain, encodeChain, type DecodedChain } from '../format/chain.js';
import { batchItem, checkBatch, type BatchItems } from '../filter/items.js';
import {
  checkScalableOptions, compoundRate, memberPlan,
  type ScalableMember, type ScalableOptions, type ScalablePlan,
} from '../scalable/plan.js';
import { BloomFilter } from './filter.js';
import { checkItem } from '../filter/options.js';
import { checkDigest, Digest, DIGEST_SCHEMES } from '../filter/item-digest.js';
import { digestItem } from './digest.js';

/** One link of the chain: a filter, the size it was planned for, and its new adds. */
interface Member {
  filter: BloomFilter;
  capacity: number;
  falsePositiveRate: number;
  addedCount: number;
}

/** A decoded chain for the constructor to adopt (set only inside fromBytes). */
let restoring: DecodedChain<BloomFilter> | undefined;

/** A chain of Bloom filters that grows with the items and keeps its false-positive bound, in plain TypeScript. */
export class ScalableBloomFilter {
  /** n_0: the first member's capacity. */
  readonly initialCapacity: number;
  /** The bound on the compound false-positive rate. */
  readonly falsePositiveRate: number;
  /** s: capacity factor from one member to the next. */
  readonly growth: number;
  /** r: rate factor from one member to the next. */
  readonly tightening: number;
  /** The hash scheme of every member. */
  readonly scheme: Scheme;
  /** The XXH64 seed of every member (0 for the other schemes). */
  readonly seed: bigint;
  private readonly plan: ScalablePlan;
  /** Oldest first. */
  private members: Member[] = [];

  /** An empty chain with one member; throws BloomRangeError or BloomTypeError on bad options. */
  constructor(options: ScalableOptions) {
    const loaded = restoring;
    restoring = undefined;
    this.plan = loaded ? loaded.plan : checkScalableOptions(options);
    this.initialCapacity = this.plan.initialCapacity;
    this.falsePositiveRate = this.plan.falsePositiveRate;
    this.growth = this.plan.growth;
    this.tightening = this.plan.tightening;
    this.scheme = this.plan.scheme;
    this.seed = this.plan.seed;
    this.members = loaded
      ? loaded.members.map((filter, i) => {
          const p = memberPlan(this.plan, i);
          return { filter, capacity: p.capacity, falsePositiveRate: p.falsePositiveRate, addedCount: loaded.counts[i] };
        })
      : [this.newMember(0)];
  }

  /** The chain in the chain format: a 64-byte header, then each member as a version-1 filter file. */
  toBytes(): Uint8Array {
    return encodeChain(this.plan, this.members.map((m) => m.filter));
  }

  /** Reads a chain written by toBytes (here or by the wasm chain), checking all of it as the wasm chain does. */
  static fromBytes(bytes: Uint8Array): ScalableBloomFilter {
    restoring = decodeChain(bytes, (member) => BloomFilter.fromBytes(member));
    try {
      return new ScalableBloomFilter(undefined as unknown as ScalableOptions);
    } finally {
      restoring = undefined;
    }
  }

  /** Adds the item unless a member already reports it; true when it was new. */
  add(item: string | Uint8Array): boolean {
    checkItem(item);
    return this.addKey(this.key(item));
  }

  /** False when the item was certainly never added; true when a member reports it. */
  has(item: string | Uint8Array): boolean {
    checkItem(item);
    return this.hasKey(this.key(item));
  }

  /** has() for the item whose digest is `d` (xxh64 only). */
  hasDigest(d: Digest): boolean {
    checkDigest(this, d, 'hasDigest');
    return this.hasKey(d);
  }

  /** add() for the item whose digest is `d` (xxh64 only). */
  addDigest(d: Digest): boolean {
    checkDigest(this, d, 'addDigest');
    return this.addKey(d);
  }

  /** Under xxh64 the item's digest, hashed once for all members; otherwise the item. */
  private key(item: string | Uint8Array): string | Uint8Array | Digest {
    return DIGEST_SCHEMES.includes(this.scheme) ? digestItem(item, this.seed) : item;
  }

  private hasKey(key: string | Uint8Array | Digest): boolean {
    return this.members.some((m) => (key instanceof Digest ? m.filter.hasDigest(key) : m.filter.has(key)));
  }

  private addKey(key: string | Uint8Array | Digest): boolean {
    // Any member that reports the item, the newest included, makes it not new.
    if (this.hasKey(key)) return false;
    let newest = this.members[this.members.length - 1];
    if (newest.addedCount >= newest.capacity) {
      newest = this.newMember(this.members.length);
      this.members.push(newest);
    }
    if (!(key instanceof Digest ? newest.filter.addDigest(key) : newest.filter.add(key))) return false;
    newest.addedCount++;
    return true;
  }

  /** add() for each item in order; 1 where it was new. A bad batch throws before anything is added. */
  addMany(items: BatchItems): Uint8Array {
    const batch = checkBatch(items);
    const out = new Uint8Array(batch.count);
    for (let i = 0; i < batch.count; i++) out[i] = this.add(batchItem(batch, i)) ? 1 : 0;
    return out;
  }

  /** has() for each item; 1 where a member reports it. */
  hasMany(items: BatchItems): Uint8Array {
    const batch = checkBatch(items);
    const out = new Uint8Array(batch.count);
    for (let i = 0; i < batch.count; i++) out[i] = this.has(batchItem(batch, i)) ? 1 : 0;
    return out;
  }

  /** Adds that reported new, over all members. */
  addedCount(): number {
    return this.members.reduce((n, m) => n + m.addedCount, 0);
  }

  /** The sum of the members' Swamidass-Baldi estimates, -(m/k) ln(1 - X/m). */
  estimatedCount(): number {
    return this.members.reduce((n, m) => n + m.filter.estimatedCount(), 0);
  }

  /** The compound rate now: 1 - prod_i (1 - (X_i/m_i)^k_i). */
  currentFalsePositiveRate(): number {
    return compoundRate(this.members.map((m) => m.filter));
  }

  /** A snapshot of the members, oldest first: size, capacity, rate and fill of each. */
  get filters(): readonly ScalableMember[] {
    return Object.freeze(
      this.members.map((m) =>
        Object.freeze({
          bits: m.filter.bits,
          hashes: m.filter.hashes,
          capacity: m.capacity,
          falsePositiveRate: m.falsePositiveRate,
          addedCount: m.addedCount,
          bitsSet: m.filter.bitsSet(),
          fill: m.filter.bitsSet() / m.filter.bits,
        }),
      ),
    );
  }

  /** Empties the chain back to one fresh first member. */
  clear(): void {
    this.members = [this.newMember(0)];
  }

  private newMember(i: number): Member {
    const p = memberPlan(this.plan, i);
    const filter = new BloomFilter(p.bits, p.hashes, { scheme: this.scheme, seed: this.seed });
    return { filter, capacity: p.capacity, falsePositiveRate: p.falsePositiveRate, addedCount: 0 };
  }
}
