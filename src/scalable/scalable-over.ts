// A scalable Bloom filter (Almeida, Baquero, Preguiça and Hutchison,
// "Scalable Bloom Filters", Information Processing Letters 101(6), 2007):
// a chain of ordinary Bloom filters for when the number of items is not
// known. When the newest member has taken its capacity of new items, the
// next add that must insert starts a member with `growth` times the capacity
// and `tightening` times the rate, so the compound false-positive rate stays
// at or below the requested one (the series is in src/scalable/plan.ts).
//
// Written once, over any member type: the wasm package (src/scalable/
// scalable.ts) and the reference twin (src/reference/scalable.ts) subclass it
// with their own BloomFilter, as SeenFilterOver does for the SeenFilter.
// (Over 300 lines: one class, whose item and digest paths need its private
// state. The wasm chain's batches run member by member in wasm, through
// ChainKind.walk; the wrapping of a decoded chain for the constructor is in
// restore.ts.)

import { BloomDigestError, BloomTypeError } from '../errors.js';
import { checkItem, type Scheme } from '../filter/options.js';
import { checkDigest, Digest, DIGEST_SCHEMES } from '../filter/item-digest.js';
import { batchItem, type BatchItems, type CheckedBatch, type Item } from '../filter/items.js';
import { encodeChain, type Checksum } from '../format/chain.js';
import {
  checkScalableOptions, compoundRate, memberPlan, SCALABLE_OPTIONS_HINT,
  type ScalableMember, type ScalableOptions, type ScalablePlan,
} from './plan.js';
import { restoredChain } from './restore.js';
import { checkBatchOf, markDisposed } from '../filter/dispose.js';
import { INSPECT, inspectLine, percent } from '../filter/describe.js';
import { toJSONOf, type FilterJSON } from '../format/json.js';

/** What the chain needs of a member filter. */
export interface ChainFilter {
  readonly bits: number;
  readonly hashes: number;
  add(item: Item): boolean;
  has(item: Item): boolean;
  addDigest(d: Digest): boolean;
  hasDigest(d: Digest): boolean;
  hasMany(items: BatchItems): Uint8Array;
  addMany(items: BatchItems): Uint8Array;
  bitsSet(): number;
  readonly size: number;
  estimatedCount(): number;
  currentFalsePositiveRate(): number;
  toBytes(): Uint8Array;
  dispose(): void;
}

/** How a chain makes, loads and checksums its members: supplied by each implementation. */
export interface ChainKind<F extends ChainFilter> {
  /** An empty member of m = `bits`, k = `hashes`. */
  create(bits: number, hashes: number, scheme: Scheme, seed: bigint): F;
  /** A member from its version-1 file bytes (BloomFilter.fromBytes). */
  fromBytes(bytes: Uint8Array): F;
  /** XXH64 (seed 0), for the chain header's checksum. */
  xxh64: Checksum;
  /** The item's digest under `seed` (digest(item, { seed })), for members of the xxh64 family. */
  digest(item: Item, seed: bigint): Digest;
  /** Optional, for members of the xxh64 family: walks over every member in one call (the wasm chain's). */
  walk?: ChainWalk<F>;
}

/** What a walk reads and changes of its chain. */
export interface GrowingMembers<F> {
  /** The members, oldest first; only the last one is ever added to. */
  readonly members: readonly F[];
  /** Items the newest member may still take before a new one starts. */
  room(): number;
  /** Counts `n` new items in the newest member. */
  counted(n: number): void;
  /** Appends the next member, sized by the plan. */
  startMember(): void;
  /** What the walk keeps of this chain between calls (ChainWalk's own; undefined at first). */
  walkState: unknown;
}

/** Walks over every member of a chain in one call each (members of the xxh64 family, one seed). */
export interface ChainWalk<F> {
  /** The index of the newest member that reports `item`, or -1; undefined when it cannot serve (the chain then asks member by member). */
  has(chain: GrowingMembers<F>, item: Item): number | undefined;
  /**
   * has (op 1) or add (op 0) of a checked batch, or of digests as (lo, hi)
   * pairs, answers in `out`, starting members as add() would; returns how
   * many items it answered, the chain going on item by item from there.
   */
  run(chain: GrowingMembers<F>, source: CheckedBatch | Uint32Array, op: 0 | 1, out: Uint8Array): number;
}

/**
 * What members are asked with: under the xxh64 family the item's digest,
 * encoded and hashed once whatever the number of members; otherwise the
 * item itself (encoded once when that helps, see shared()).
 */
type Key = Item | Digest;

const encoder = new TextEncoder();

/** Strings longer than this go to each member as they are, rather than through the shared buffer. */
const SHARED_ENCODE_UNITS = 1 << 16;

/** A chain of Bloom filters of type F that grows with the items and keeps its false-positive bound. */
class ScalableBloomFilter<F extends ChainFilter> {
  /** n_0: the first member's capacity (each next member's is `growth` times the one before). */
  readonly capacity: number;
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
  private readonly kind: ChainKind<F>;
  private readonly plan: ScalablePlan;
  /** The members, oldest first; only the last one is ever added to. */
  private readonly memberFilters: F[] = [];
  /** members[i]'s capacity. */
  private readonly capacities: number[] = [];
  /** members[i]'s sizing rate. */
  private readonly rates: number[] = [];
  /** Adds to members[i] that reported new. */
  private readonly counts: number[] = [];
  /** Holds one string's UTF-8, encoded once and shown to every member. */
  private utf8 = new Uint8Array(256);
  /** Whether members are asked by digest (the xxh64 family). */
  private readonly byDigest: boolean;
  /** What a walk (ChainKind.walk) reads and changes of this chain. */
  private readonly growing: GrowingMembers<F> = {
    members: this.memberFilters,
    room: () => this.capacities[this.memberFilters.length - 1] - this.counts[this.memberFilters.length - 1],
    counted: (n) => {
      this.counts[this.memberFilters.length - 1] += n;
    },
    startMember: () => this.startMember(),
    walkState: undefined,
  };

  /**
   * An empty chain with one member (or, from fromBytes, a decoded chain);
   * throws BloomRangeError or BloomTypeError on bad options.
   */
  constructor(options: ScalableOptions, kind: ChainKind<F>) {
    if (typeof options === 'number') throw new BloomTypeError('options', options, SCALABLE_OPTIONS_HINT);
    this.kind = kind;
    const restored = restoredChain<F>(options);
    this.plan = restored ? restored.plan : checkScalableOptions(options);
    this.capacity = this.plan.capacity;
    this.falsePositiveRate = this.plan.falsePositiveRate;
    this.growth = this.plan.growth;
    this.tightening = this.plan.tightening;
    this.scheme = this.plan.scheme;
    this.seed = this.plan.seed;
    this.byDigest = DIGEST_SCHEMES.includes(this.scheme);
    if (!restored) {
      this.startMember();
      return;
    }
    restored.members.forEach((filter, i) => {
      const p = memberPlan(this.plan, i);
      this.memberFilters.push(filter);
      this.capacities.push(p.capacity);
      this.rates.push(p.falsePositiveRate);
      this.counts.push(restored.counts[i]);
    });
  }

  /** The chain in the chain format (docs/FORMAT.md): a 64-byte header, then each member as a version-1 filter file. */
  toBytes(): Uint8Array {
    return encodeChain(this.plan, this.memberFilters, this.kind.xxh64);
  }

  /** The JSON form (docs/FORMAT.md, "JSON form, version 1"): `{ type: "bloomwasm/ScalableBloomFilter", version: 1, bytes: "<base64 of toBytes()>" }`, so that JSON.stringify works. */
  toJSON(): FilterJSON {
    return toJSONOf('ScalableBloomFilter', this.toBytes());
  }

  /**
   * Adds the item unless a member already reports it; true when it was new.
   * The full (older) members are checked first; the item is added only to
   * the newest, which is replaced by a fresh one once it holds its capacity.
   */
  add(item: Item): boolean {
    checkItem(item);
    return this.addAfter(this.key(item), 0);
  }

  /** False when the item was certainly never added; true when a member reports it. */
  has(item: Item): boolean {
    checkItem(item);
    if (this.byDigest && this.kind.walk !== undefined) {
      const hit = this.kind.walk.has(this.growing, item);
      if (hit !== undefined) return hit >= 0;
    }
    return this.hasKey(this.key(item));
  }

  /** has() for the item whose digest(item, { seed }) is `d`: no member sees the item (xxh64 and sbbf). */
  hasDigest(d: Digest): boolean {
    checkDigest(this, d, 'hasDigest');
    return this.hasKey(d);
  }

  /** add() for the item whose digest is `d` (xxh64 and sbbf). */
  addDigest(d: Digest): boolean {
    checkDigest(this, d, 'addDigest');
    return this.addAfter(d, 0);
  }

  private hasKey(key: Key): boolean {
    // Newest first: it is the largest and holds the most items.
    for (let i = this.memberFilters.length - 1; i >= 0; i--) if (this.memberHas(i, key)) return true;
    return false;
  }

  /**
   * The key members are asked with: under xxh64 the digest, so that each
   * member only computes its positions from it (no re-encoding, no
   * re-hashing, whatever the number of members).
   */
  private key(item: Item): Key {
    return this.byDigest ? this.kind.digest(item, this.seed) : this.shared(item);
  }

  private memberHas(i: number, key: Key): boolean {
    return key instanceof Digest ? this.memberFilters[i].hasDigest(key) : this.memberFilters[i].has(key);
  }

  /**
   * add() for each item in order; 1 where it was new. A bad batch throws
   * before anything is added. Under the xxh64 family the wasm chain runs
   * it member by member in wasm (ChainKind.walk), JS only starting members;
   * otherwise, and where the walk stops (members in more than one arena),
   * item by item, exactly as add() would.
   */
  addMany(items: BatchItems): Uint8Array {
    const batch = checkBatchOf(this, 'ScalableBloomFilter.addMany', items);
    const out = new Uint8Array(batch.count);
    if (!this.byDigest) return this.addEach(batch, out);
    const done = this.kind.walk === undefined ? 0 : this.kind.walk.run(this.growing, batch, 0, out);
    for (let i = done; i < batch.count; i++) out[i] = this.addAfter(this.key(batchItem(batch, i)), 0) ? 1 : 0;
    return out;
  }

  /** addMany item by item, after the full members are asked at once: poly and bytesum, which have no digest. */
  private addEach(batch: CheckedBatch, out: Uint8Array): Uint8Array {
    const full = this.isNewestFull() ? this.memberFilters.length : this.memberFilters.length - 1;
    const reported = this.askMembers(batch, full);
    for (let i = 0; i < batch.count; i++) {
      if (!reported[i]) out[i] = this.addAfter(this.shared(batchItem(batch, i)), full) ? 1 : 0;
    }
    return out;
  }

  /**
   * addDigest for many items in order, their digests as (lo, hi) pairs
   * under the chain's seed: addMany without the hashing, for a caller that
   * hashed the items where they lie (`bloom dedupe`'s line splitter) and
   * checked the seed. The answers go to `into` when given (at least one
   * per item; `bloom dedupe` passes its flags area), so that a batch per
   * chunk allocates nothing. Throws BloomDigestError under poly and
   * bytesum. @internal
   */
  addDigestPairs(pairs: Uint32Array, into?: Uint8Array): Uint8Array {
    if (!this.byDigest) {
      throw new BloomDigestError('addDigestPairs', 'scheme', `the ${this.scheme} scheme has no digest; use addMany with the items`);
    }
    const count = pairs.length >> 1;
    const out = into === undefined ? new Uint8Array(count) : into.fill(0, 0, count);
    const done = this.kind.walk === undefined ? 0 : this.kind.walk.run(this.growing, pairs, 0, out);
    for (let i = done; i < count; i++) out[i] = this.addAfter(new Digest(pairs[2 * i], pairs[2 * i + 1], this.seed), 0) ? 1 : 0;
    return out;
  }

  /** has() for each item; 1 where any member reports it. */
  hasMany(items: BatchItems): Uint8Array {
    const batch = checkBatchOf(this, 'ScalableBloomFilter.hasMany', items);
    if (!this.byDigest) return this.askMembers(batch, this.memberFilters.length);
    const out = new Uint8Array(batch.count);
    const done = this.kind.walk === undefined ? 0 : this.kind.walk.run(this.growing, batch, 1, out);
    for (let i = done; i < batch.count; i++) out[i] = this.hasKey(this.key(batchItem(batch, i))) ? 1 : 0;
    return out;
  }

  /** The items held, as Set.prototype.size counts them: adds that reported new, over all members. */
  get size(): number {
    let n = 0;
    for (const c of this.counts) n += c;
    return n;
  }

  /** The sum of the members' Swamidass-Baldi estimates, -(m/k) ln(1 - X/m). */
  estimatedCount(): number {
    let n = 0;
    for (const f of this.memberFilters) n += f.estimatedCount();
    return n;
  }

  /** The compound rate now: 1 - prod_i (1 - (X_i/m_i)^k_i); its expectation stays at or below falsePositiveRate. */
  currentFalsePositiveRate(): number {
    return compoundRate(this.memberFilters);
  }

  /** A snapshot of the members, oldest first: size, capacity, rate and fill of each. */
  get members(): readonly ScalableMember[] {
    return Object.freeze(
      this.memberFilters.map((f, i) =>
        Object.freeze({
          bits: f.bits,
          hashes: f.hashes,
          capacity: this.capacities[i],
          falsePositiveRate: this.rates[i],
          size: this.counts[i],
          bitsSet: f.bitsSet(),
          fill: f.bitsSet() / f.bits,
        }),
      ),
    );
  }

  /**
   * Gives every member's memory back at once; any later call throws
   * BloomDisposedError naming it. Calling it again does nothing.
   */
  dispose(): void {
    for (const member of this.memberFilters) member.dispose();
    markDisposed(this, 'ScalableBloomFilter');
  }

  /** dispose(), for `using` (TC39 explicit resource management). */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** One line for util.inspect and console.log: `ScalableBloomFilter { members: 2, bits: 2876, added: 300, fill: 41.2% }` (bits and fill over every member). */
  [INSPECT](): string {
    return inspectLine(this, 'ScalableBloomFilter', () => {
      let bits = 0;
      let set = 0;
      for (const f of this.members) {
        bits += f.bits;
        set += f.bitsSet;
      }
      return { members: this.members.length, bits, added: this.size, fill: percent(set, bits) };
    });
  }

  /** Empties the chain back to one fresh first member (the old members' memory is given back at once). */
  clear(): void {
    for (const member of this.memberFilters) member.dispose();
    this.memberFilters.length = 0;
    this.capacities.length = 0;
    this.rates.length = 0;
    this.counts.length = 0;
    this.startMember();
  }

  /**
   * add() for an item that members [0, checked) are known not to report:
   * asks the rest of the full members, then adds to the newest.
   */
  private addAfter(key: Key, checked: number): boolean {
    const last = this.memberFilters.length - 1;
    for (let i = checked; i < last; i++) if (this.memberHas(i, key)) return false;
    if (this.isNewestFull()) {
      if (last >= checked && this.memberHas(last, key)) return false;
      this.startMember();
    }
    return this.addToNewest(key);
  }

  /**
   * The item as every member will hash it, encoded once: under xxh64 and
   * bytesum a string hashes exactly as its UTF-8 bytes (lone surrogates as
   * U+FFFD, as in the members), so the members are shown those bytes and
   * skip encoding; poly hashes UTF-16 code units, so its strings pass as they
   * are. The bytes live in a buffer reused by the next call.
   */
  private shared(item: Item): Item {
    if (typeof item !== 'string' || this.scheme === 'poly' || item.length > SHARED_ENCODE_UNITS) return item;
    if (item.length * 3 > this.utf8.length) this.utf8 = new Uint8Array(item.length * 3);
    return this.utf8.subarray(0, encoder.encodeInto(item, this.utf8).written);
  }

  /** Whether the newest member holds its capacity, so the next insert starts a new one. */
  private isNewestFull(): boolean {
    const last = this.memberFilters.length - 1;
    return this.counts[last] >= this.capacities[last];
  }

  /** 1 where any of members [0, count) reports the item (their hasMany results ORed); poly and bytesum. */
  private askMembers(batch: CheckedBatch, count: number): Uint8Array {
    const out = new Uint8Array(batch.count);
    const input: BatchItems = batch.packed ? { bytes: batch.bytes, offsets: batch.offsets as Uint32Array | number[] } : batch.list;
    for (let m = 0; m < count; m++) {
      const answers = this.memberFilters[m].hasMany(input);
      for (let i = 0; i < out.length; i++) out[i] |= answers[i];
    }
    return out;
  }

  /** Adds to the newest member, counting it when it was new. */
  private addToNewest(key: Key): boolean {
    const last = this.memberFilters.length - 1;
    const newest = this.memberFilters[last];
    if (!(key instanceof Digest ? newest.addDigest(key) : newest.add(key))) return false;
    this.counts[last]++;
    return true;
  }

  /** Appends member i = members.length, sized by the plan. */
  private startMember(): void {
    const p = memberPlan(this.plan, this.memberFilters.length);
    this.memberFilters.push(this.kind.create(p.bits, p.hashes, this.scheme, this.seed));
    this.capacities.push(p.capacity);
    this.rates.push(p.falsePositiveRate);
    this.counts.push(0);
  }
}

// Declared under the public class's name, so that an editor's hover on an
// inherited member names the class a user has (`ScalableBloomFilter.add`), and
// exported under the name the implementations extend.
export { ScalableBloomFilter as ScalableBloomFilterOver };
