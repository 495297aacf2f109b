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
// state. addMany's batch machinery is in batch-add.ts, and the wrapping of a
// decoded chain for the constructor in restore.ts.)

import { BloomDigestError } from '../errors.js';
import { checkItem, type Scheme } from '../filter/options.js';
import { checkDigest, Digest, DIGEST_SCHEMES } from '../filter/item-digest.js';
import { batchItem, type BatchItems, type CheckedBatch, type Item } from '../filter/items.js';
import { encodeChain, type Checksum } from '../format/chain.js';
import {
  checkScalableOptions, compoundRate, memberPlan,
  type ScalableMember, type ScalableOptions, type ScalablePlan,
} from './plan.js';
import { BatchAdd } from './batch-add.js';
import { restoredChain } from './restore.js';
import { packUtf8 } from './packed.js';
import { checkBatchOf, markDisposed } from '../filter/dispose.js';

/** What the chain needs of a member filter. */
export interface ChainFilter {
  readonly bits: number;
  readonly hashes: number;
  add(item: Item): boolean;
  has(item: Item): boolean;
  addDigest(d: Digest): boolean;
  hasDigest(d: Digest): boolean;
  /** hasDigest for many items at once, their digests as (lo, hi) pairs (BloomFilter.hasDigestPairs); the answers may be a buffer that the member's next call reuses. */
  hasDigestPairs(pairs: Uint32Array): Uint8Array;
  /** addDigest for many items in order (BloomFilter.addDigestPairs); the answers as hasDigestPairs gives them. */
  addDigestPairs(pairs: Uint32Array): Uint8Array;
  hasMany(items: BatchItems): Uint8Array;
  addMany(items: BatchItems): Uint8Array;
  bitsSet(): number;
  addedCount(): number;
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
  /** The digests of a checked batch under `seed`, as (lo, hi) pairs, each item hashed once. */
  digestMany(batch: CheckedBatch, seed: bigint): Uint32Array;
  /**
   * Optional, for members of the xxh64 family: the index of the newest
   * member that reports `item`, or -1, found with one hash and one call;
   * undefined when it cannot serve (the chain then asks member by member).
   */
  hasAny?(members: readonly F[], item: Item): number | undefined;
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
export class ScalableBloomFilterOver<F extends ChainFilter> {
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
  private readonly members: F[] = [];
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
  /** addMany's machinery (batch-add.ts), over this chain's own arrays. */
  private readonly batches = new BatchAdd<F>({
    members: this.members,
    capacities: this.capacities,
    counts: this.counts,
    isNewestFull: () => this.isNewestFull(),
    startMember: () => this.startMember(),
  });

  /**
   * An empty chain with one member (or, from fromBytes, a decoded chain);
   * throws BloomRangeError or BloomTypeError on bad options.
   */
  constructor(options: ScalableOptions, kind: ChainKind<F>) {
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
      this.members.push(filter);
      this.capacities.push(p.capacity);
      this.rates.push(p.falsePositiveRate);
      this.counts.push(restored.counts[i]);
    });
  }

  /** The chain in the chain format (docs/FORMAT.md): a 64-byte header, then each member as a version-1 filter file. */
  toBytes(): Uint8Array {
    return encodeChain(this.plan, this.members, this.kind.xxh64);
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
    if (this.byDigest && this.kind.hasAny !== undefined) {
      const hit = this.kind.hasAny(this.members, item);
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
    for (let i = this.members.length - 1; i >= 0; i--) if (this.memberHas(i, key)) return true;
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
    return key instanceof Digest ? this.members[i].hasDigest(key) : this.members[i].has(key);
  }

  /**
   * add() for each item in order; 1 where it was new. A bad batch throws
   * before anything is added. Members that are full cannot change, so each
   * is asked about the whole batch at once (BloomFilter.hasMany: one wasm
   * crossing per chunk), and the items none of them reports go to the
   * newest member as batches too, each at most its remaining capacity, so
   * that the answers are exactly those of add() called item by item.
   */
  addMany(items: BatchItems): Uint8Array {
    const batch = checkBatchOf(this, 'ScalableBloomFilter.addMany', items);
    if (this.byDigest) return this.batches.addByDigest(this.kind.digestMany(batch, this.seed));
    if (!batch.packed && this.scheme === 'poly') return this.addEach(batch);
    const { bytes, offsets } = batch.packed ? batch : packUtf8(batch.list);
    return this.batches.addPacked(bytes, offsets, batch.count);
  }

  /** addMany item by item (after the full members are asked at once): poly strings, which have no packed form. */
  private addEach(batch: CheckedBatch): Uint8Array {
    const full = this.isNewestFull() ? this.members.length : this.members.length - 1;
    const out = new Uint8Array(batch.count);
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
    return this.batches.addByDigest(pairs, into);
  }

  /** has() for each item: every member is asked about the whole batch at once; 1 where any reports it. */
  hasMany(items: BatchItems): Uint8Array {
    const batch = checkBatchOf(this, 'ScalableBloomFilter.hasMany', items);
    if (this.byDigest) return this.askByDigest(this.kind.digestMany(batch, this.seed), this.members.length);
    return this.askMembers(batch, this.members.length);
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

  /** The compound rate now: 1 - prod_i (1 - (X_i/m_i)^k_i); its expectation stays at or below falsePositiveRate. */
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

  /**
   * Gives every member's memory back at once; any later call throws
   * BloomDisposedError naming it. Calling it again does nothing.
   */
  dispose(): void {
    for (const member of this.members) member.dispose();
    markDisposed(this, 'ScalableBloomFilter');
  }

  /** dispose(), for `using` (TC39 explicit resource management). */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** Empties the chain back to one fresh first member (the old members' memory is given back at once). */
  clear(): void {
    for (const member of this.members) member.dispose();
    this.members.length = 0;
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
    const last = this.members.length - 1;
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
    const last = this.members.length - 1;
    return this.counts[last] >= this.capacities[last];
  }

  /** 1 where any of members [0, count) reports the item whose digest is pair i (their answers ORed). */
  private askByDigest(pairs: Uint32Array, count: number): Uint8Array {
    const out = new Uint8Array(pairs.length >> 1);
    for (let m = 0; m < count; m++) {
      const answers = this.members[m].hasDigestPairs(pairs);
      for (let i = 0; i < out.length; i++) out[i] |= answers[i];
    }
    return out;
  }

  /** 1 where any of members [0, count) reports the item (their hasMany results ORed); poly and bytesum. */
  private askMembers(batch: CheckedBatch, count: number): Uint8Array {
    const out = new Uint8Array(batch.count);
    let input: BatchItems;
    if (batch.packed) input = { bytes: batch.bytes, offsets: batch.offsets as Uint32Array | number[] };
    else if (this.scheme === 'poly' || count < 2) input = batch.list;
    // Encoded once here into the packed form instead of once per member
    // (bytesum hashes a string as its UTF-8).
    else input = packUtf8(batch.list);
    for (let m = 0; m < count; m++) {
      const answers = this.members[m].hasMany(input);
      for (let i = 0; i < out.length; i++) out[i] |= answers[i];
    }
    return out;
  }

  /** Adds to the newest member, counting it when it was new. */
  private addToNewest(key: Key): boolean {
    const last = this.members.length - 1;
    const newest = this.members[last];
    if (!(key instanceof Digest ? newest.addDigest(key) : newest.add(key))) return false;
    this.counts[last]++;
    return true;
  }

  /** Appends member i = members.length, sized by the plan. */
  private startMember(): void {
    const p = memberPlan(this.plan, this.members.length);
    this.members.push(this.kind.create(p.bits, p.hashes, this.scheme, this.seed));
    this.capacities.push(p.capacity);
    this.rates.push(p.falsePositiveRate);
    this.counts.push(0);
  }
}
