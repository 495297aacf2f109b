// A scalable Bloom filter (Almeida, Baquero, Preguiça and Hutchison,
// "Scalable Bloom Filters", Information Processing Letters 101(6), 2007):
// a chain of ordinary wasm BloomFilters for when the number of items is not
// known. When the newest member has taken its capacity of new items, the
// next add that must insert starts a member with `growth` times the capacity
// and `tightening` times the rate, so the compound false-positive rate stays
// at or below the requested one (the series is in src/scalable-plan.ts).
// Its twin is src/reference/scalable.ts.

import { BloomFilter } from '../filter/filter.js';
import type { Scheme } from '../filter/options.js';
import { decodeChain, encodeChain, type DecodedChain } from '../format/chain.js';
import { batchItem, checkBatch, type BatchItems, type CheckedBatch } from '../filter/items.js';
import {
  checkScalableOptions, compoundRate, memberPlan,
  type ScalableMember, type ScalableOptions, type ScalablePlan,
} from './plan.js';

const encoder = new TextEncoder();

/** Strings longer than this go to each member as they are, rather than through the shared buffer. */
const SHARED_ENCODE_UNITS = 1 << 16;

/** Items as one packed UTF-8 buffer and n + 1 offsets: the form every member's hasMany reads fastest. */
function packUtf8(list: readonly (string | Uint8Array)[]): { bytes: Uint8Array; offsets: Uint32Array } {
  let room = 0;
  for (const item of list) room += typeof item === 'string' ? item.length * 3 : item.length;
  const bytes = new Uint8Array(room);
  const offsets = new Uint32Array(list.length + 1);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item === 'string') at += encoder.encodeInto(item, bytes.subarray(at)).written;
    else {
      bytes.set(item, at);
      at += item.length;
    }
    offsets[i + 1] = at;
  }
  return { bytes, offsets };
}

/** Offsets [from, to) without a copy when they are a Uint32Array. */
function part(offsets: Uint32Array | number[], from: number, to: number): Uint32Array | number[] {
  return offsets instanceof Uint32Array ? offsets.subarray(from, to) : offsets.slice(from, to);
}

/**
 * The items of `view` (the undecided ones, n of them, starting at batch
 * position `first` of `index`) that `reported` does not flag, packed anew,
 * with their batch indices. Runs of kept items are copied at once.
 */
function dropReported(
  view: { bytes: Uint8Array; offsets: Uint32Array | number[] },
  index: Uint32Array | null,
  first: number,
  n: number,
  reported: Uint8Array,
): { items: { bytes: Uint8Array; offsets: Uint32Array }; index: Uint32Array } {
  const { bytes, offsets } = view;
  let kept = 0;
  for (let i = 0; i < n; i++) kept += reported[i] ^ 1;
  const keptIndex = new Uint32Array(kept);
  const keptOffsets = new Uint32Array(kept + 1);
  let size = 0;
  for (let i = 0; i < n; i++) if (!reported[i]) size += offsets[i + 1] - offsets[i];
  const keptBytes = new Uint8Array(size);
  let at = 0;
  let j = 0;
  for (let i = 0; i < n; ) {
    if (reported[i]) {
      i++;
      continue;
    }
    const runStart = i;
    while (i < n && !reported[i]) {
      keptIndex[j] = index === null ? first + i : index[first + i];
      keptOffsets[j + 1] = keptOffsets[j] + offsets[i + 1] - offsets[i];
      j++;
      i++;
    }
    const length = offsets[i] - offsets[runStart];
    keptBytes.set(bytes.subarray(offsets[runStart], offsets[i]), at);
    at += length;
  }
  return { items: { bytes: keptBytes, offsets: keptOffsets }, index: keptIndex };
}

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
  /** Holds one string's UTF-8, encoded once and shown to every member. */
  private utf8 = new Uint8Array(256);

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
    return this.addAfter(this.shared(item), 0);
  }

  /** False when the item was certainly never added; true when a member reports it. */
  has(item: string | Uint8Array): boolean {
    const shared = this.shared(item);
    // Newest first: it is the largest and holds the most items.
    for (let i = this.members.length - 1; i >= 0; i--) if (this.members[i].has(shared)) return true;
    return false;
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
    const batch = checkBatch(items);
    if (!batch.packed && this.scheme === 'poly') return this.addEach(batch);
    const { bytes, offsets } = batch.packed ? batch : packUtf8(batch.list);
    return this.addPacked(bytes, offsets, batch.count);
  }

  /** addMany item by item (after the full members are asked at once): poly strings, which have no packed form. */
  private addEach(batch: CheckedBatch): Uint8Array {
    const full = this.isNewestFull() ? this.members.length : this.members.length - 1;
    const reported = this.askMembers(batch, full);
    const out = new Uint8Array(batch.count);
    for (let i = 0; i < batch.count; i++) {
      if (!reported[i]) out[i] = this.addAfter(this.shared(batchItem(batch, i)), full) ? 1 : 0;
    }
    return out;
  }

  /**
   * addMany of `count` packed items. The undecided items shrink as it goes:
   * every full member not yet asked is asked about all of them at once, and
   * the ones it reports are dropped (their answer is 0); the newest member
   * then adds the next ones, no more than it has room for, since each item
   * adds at most one to its count. When it is full, it is asked about the
   * rest like the others, and a new member starts.
   */
  private addPacked(bytes: Uint8Array, offsets: ArrayLike<number>, count: number): Uint8Array {
    const out = new Uint8Array(count);
    let items = { bytes, offsets: offsets as Uint32Array | number[] };
    /** Batch index of each undecided item; null while they are all of them, in order. */
    let index: Uint32Array | null = null;
    let first = 0;
    let n = count;
    /** Members [0, asked) have been asked about the undecided items. */
    let asked = 0;
    while (n > 0) {
      const last = this.members.length - 1;
      const full = this.isNewestFull() ? last + 1 : last;
      if (asked < full) {
        const view = { bytes: items.bytes, offsets: part(items.offsets, first, first + n + 1) };
        const reported = new Uint8Array(n);
        let any = 0;
        for (let m = asked; m < full; m++) {
          const answers = this.members[m].hasMany(view);
          for (let i = 0; i < n; i++) any |= reported[i] |= answers[i];
        }
        asked = full;
        if (any) {
          ({ items, index } = dropReported(view, index, first, n, reported));
          first = 0;
          n = index.length;
        }
        continue;
      }
      if (this.isNewestFull()) {
        this.startMember();
        asked = this.members.length - 1;
        continue;
      }
      const take = Math.min(n, this.capacities[last] - this.counts[last]);
      const added = this.members[last].addMany({ bytes: items.bytes, offsets: part(items.offsets, first, first + take + 1) });
      for (let i = 0; i < take; i++) {
        if (added[i]) {
          out[index === null ? first + i : index[first + i]] = 1;
          this.counts[last]++;
        }
      }
      first += take;
      n -= take;
    }
    return out;
  }

  /** has() for each item: every member is asked about the whole batch at once; 1 where any reports it. */
  hasMany(items: BatchItems): Uint8Array {
    const batch = checkBatch(items);
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

  /** Empties the chain back to one fresh first member. */
  clear(): void {
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
  private addAfter(item: string | Uint8Array, checked: number): boolean {
    const last = this.members.length - 1;
    for (let i = checked; i < last; i++) if (this.members[i].has(item)) return false;
    if (this.isNewestFull()) {
      if (last >= checked && this.members[last].has(item)) return false;
      this.startMember();
    }
    return this.addToNewest(item);
  }

  /**
   * The item as every member will hash it, encoded once: under xxh64 and
   * bytesum a string hashes exactly as its UTF-8 bytes (lone surrogates as
   * U+FFFD, as in the members), so the members are shown those bytes and
   * skip encoding; poly hashes UTF-16 code units, so its strings pass as they
   * are. The bytes live in a buffer reused by the next call.
   */
  private shared(item: string | Uint8Array): string | Uint8Array {
    if (typeof item !== 'string' || this.scheme === 'poly' || item.length > SHARED_ENCODE_UNITS) return item;
    if (item.length * 3 > this.utf8.length) this.utf8 = new Uint8Array(item.length * 3);
    return this.utf8.subarray(0, encoder.encodeInto(item, this.utf8).written);
  }

  /** Whether the newest member holds its capacity, so the next insert starts a new one. */
  private isNewestFull(): boolean {
    const last = this.members.length - 1;
    return this.counts[last] >= this.capacities[last];
  }

  /** 1 where any of members [0, count) reports the item (their hasMany results ORed). */
  private askMembers(batch: CheckedBatch, count: number): Uint8Array {
    const out = new Uint8Array(batch.count);
    let input: BatchItems;
    if (batch.packed) input = { bytes: batch.bytes, offsets: batch.offsets as Uint32Array | number[] };
    else if (this.scheme === 'poly' || count < 2) input = batch.list;
    // Encoded once here into the packed form instead of once per member
    // (xxh64 and bytesum hash a string as its UTF-8).
    else input = packUtf8(batch.list);
    for (let m = 0; m < count; m++) {
      const answers = this.members[m].hasMany(input);
      for (let i = 0; i < out.length; i++) out[i] |= answers[i];
    }
    return out;
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
