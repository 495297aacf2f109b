// A scalable Bloom filter (Almeida, Baquero, Preguiça and Hutchison,
// "Scalable Bloom Filters", Information Processing Letters 101(6), 2007):
// a chain of ordinary wasm BloomFilters for when the number of items is not
// known. When the newest member has taken its capacity of new items, the
// next add that must insert starts a member with `growth` times the capacity
// and `tightening` times the rate, so the compound false-positive rate stays
// at or below the requested one (the series is in src/scalable-plan.ts).
// Its twin is src/reference/scalable.ts.

import { BloomFilter } from './filter.js';
import type { Scheme } from './options.js';
import { decodeChain, encodeChain, type DecodedChain } from './scalable-format.js';
import {
  batchItems, checkScalableOptions, compoundRate, memberPlan,
  type BatchItems, type ScalableMember, type ScalableOptions, type ScalablePlan,
} from './scalable-plan.js';

/** A decoded chain for the constructor to adopt instead of starting a member (set only inside fromBytes). */
let restoring: DecodedChain<BloomFilter> | undefined;

/** A chain of wasm Bloom filters that grows with the items and keeps its false-positive bound. */
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
  /** The members, oldest first; only the last one is ever added to. */
  private readonly members: BloomFilter[] = [];
  /** members[i]'s capacity. */
  private readonly capacities: number[] = [];
  /** members[i]'s sizing rate. */
  private readonly rates: number[] = [];
  /** Adds to members[i] that reported new. */
  private readonly counts: number[] = [];

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
    if (!loaded) {
      this.startMember();
      return;
    }
    loaded.members.forEach((filter, i) => {
      const p = memberPlan(this.plan, i);
      this.members.push(filter);
      this.capacities.push(p.capacity);
      this.rates.push(p.falsePositiveRate);
      this.counts.push(loaded.counts[i]);
    });
  }

  /** The chain in the chain format (README, "Chain format"): a 64-byte header, then each member as a version-1 filter file. */
  toBytes(): Uint8Array {
    return encodeChain(this.plan, this.members);
  }

  /**
   * Reads a chain written by toBytes (here or by the reference twin). The
   * header and every member's header are checked against the chain's plan,
   * and the length, before any member is allocated; any fault throws
   * BloomFormatError naming the field and its byte offset.
   */
  static fromBytes(bytes: Uint8Array): ScalableBloomFilter {
    const chain = decodeChain(bytes, (member) => BloomFilter.fromBytes(member));
    restoring = chain;
    try {
      return new ScalableBloomFilter(undefined as unknown as ScalableOptions);
    } finally {
      restoring = undefined;
    }
  }

  /**
   * Adds the item unless a member already reports it; true when it was new.
   * The full (older) members are checked first; the item is added only to
   * the newest, which is replaced by a fresh one once it holds its capacity.
   */
  add(item: string | Uint8Array): boolean {
    const last = this.members.length - 1;
    for (let i = 0; i < last; i++) if (this.members[i].has(item)) return false;
    if (this.counts[last] >= this.capacities[last]) {
      if (this.members[last].has(item)) return false;
      this.startMember();
      return this.addToNewest(item);
    }
    return this.addToNewest(item);
  }

  /** False when the item was certainly never added; true when a member reports it. */
  has(item: string | Uint8Array): boolean {
    // Newest first: it is the largest and holds the most items.
    for (let i = this.members.length - 1; i >= 0; i--) if (this.members[i].has(item)) return true;
    return false;
  }

  /** add() for each item in order; 1 where it was new. A bad batch throws before anything is added. */
  addMany(items: BatchItems): Uint8Array {
    const list = batchItems(items);
    const out = new Uint8Array(list.length);
    for (let i = 0; i < list.length; i++) out[i] = this.add(list[i]) ? 1 : 0;
    return out;
  }

  /** has() for each item; 1 where a member reports it. */
  hasMany(items: BatchItems): Uint8Array {
    const list = batchItems(items);
    const out = new Uint8Array(list.length);
    for (let i = 0; i < list.length; i++) out[i] = this.has(list[i]) ? 1 : 0;
    return out;
  }

  /** Adds that reported new, over all members. */
  addedCount(): number {
    let n = 0;
    for (const c of this.counts) n += c;
    return n;
  }

  /** The sum of the members' Swamidass-Baldi estimates, -(m/k) ln(1 - X/m). */
  estimatedCount(): number {
    let n = 0;
    for (const f of this.members) n += f.estimatedCount();
    return n;
  }

  /** The compound rate now: 1 - prod_i (1 - (X_i/m_i)^k_i), at most falsePositiveRate at the members' capacities. */
  currentFalsePositiveRate(): number {
    return compoundRate(this.members);
  }

  /** A snapshot of the members, oldest first: size, capacity, rate and fill of each. */
  get filters(): readonly ScalableMember[] {
    return Object.freeze(
      this.members.map((f, i) =>
        Object.freeze({
          bits: f.bits,
          hashes: f.hashes,
          capacity: this.capacities[i],
          falsePositiveRate: this.rates[i],
          addedCount: this.counts[i],
          bitsSet: f.bitsSet(),
          fill: f.bitsSet() / f.bits,
        }),
      ),
    );
  }

  /** Empties the chain back to one fresh first member. */
  clear(): void {
    this.members.length = 0;
    this.capacities.length = 0;
    this.rates.length = 0;
    this.counts.length = 0;
    this.startMember();
  }

  /** Adds to the newest member, counting it when it was new. */
  private addToNewest(item: string | Uint8Array): boolean {
    const last = this.members.length - 1;
    if (!this.members[last].add(item)) return false;
    this.counts[last]++;
    return true;
  }

  /** Appends member i = members.length, sized by the plan. */
  private startMember(): void {
    const p = memberPlan(this.plan, this.members.length);
    this.members.push(new BloomFilter(p.bits, p.hashes, { scheme: this.scheme, seed: this.seed }));
    this.capacities.push(p.capacity);
    this.rates.push(p.falsePositiveRate);
    this.counts.push(0);
  }
}
