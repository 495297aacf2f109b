// addMany's machinery for a chain (src/scalable/scalable-over.ts): a batch
// whose answers are exactly those of add() called item by item, while each
// full member is asked about all the undecided items at once and the newest
// member adds as many as it has room for. Its own file because it is one
// algorithm over two representations of a batch (digest pairs, packed
// bytes), with buffers of its own; the chain lends it its arrays and how to
// start a member, and keeps the item-by-item paths.

import { dropReported, dropReportedPairs, packBuffers, part } from './packed.js';
import type { ChainFilter } from './scalable-over.js';

/** Packed items: item i is bytes[offsets[i], offsets[i + 1]). */
type Packed = { bytes: Uint8Array; offsets: Uint32Array | number[] };

/** How addUndecided handles one representation of a batch (digest pairs, or packed bytes). */
interface Undecided<F extends ChainFilter, T> {
  /** Items [from, to) of `items`. */
  slice(items: T, from: number, to: number): T;
  /** The member's has() answer for each item of `view`. */
  has(member: F, view: T): Uint8Array;
  /** The member's add() answer for each item of `view`, in order. */
  add(member: F, view: T): Uint8Array;
  /** The `n` items of `view` that `reported` does not flag, and their batch indexes (`index`, or first + i when null). */
  drop(view: T, index: Uint32Array | null, first: number, n: number, reported: Uint8Array): { items: T; index: Uint32Array };
}

/** What a batch add reads and changes of its chain: the chain's own arrays (live, never copied) and how it grows. */
export interface GrowingChain<F> {
  /** The members, oldest first; only the last one is ever added to. */
  readonly members: readonly F[];
  /** members[i]'s capacity. */
  readonly capacities: readonly number[];
  /** Adds to members[i] that reported new: raised here as the newest member adds. */
  readonly counts: number[];
  /** Whether the newest member holds its capacity, so the next insert starts a new one. */
  isNewestFull(): boolean;
  /** Appends the next member, sized by the plan. */
  startMember(): void;
}

/** addMany for one chain: its reused buffers, and the steps over each representation of a batch. */
export class BatchAdd<F extends ChainFilter> {
  /** The chain whose members are asked and added to. */
  private readonly chain: GrowingChain<F>;
  /** addMany's packing buffers, used in turn: a round reads what the one before it packed. */
  private readonly packs = [packBuffers(), packBuffers()];
  /** addUndecided's flags of the items a full member reports, reused from call to call (it only grows). */
  private reportedBuffer = new Uint8Array(0);

  constructor(chain: GrowingChain<F>) {
    this.chain = chain;
  }

  /**
   * addMany under xxh64 and sbbf, each item hashed once: addUndecided over
   * the items' digests ((lo, hi) pairs) instead of their bytes, so that
   * members are asked and added to with 8 bytes per item and never hash.
   */
  addByDigest(pairs: Uint32Array, out?: Uint8Array): Uint8Array {
    this.pairRounds = 0;
    return this.addUndecided<Uint32Array>(pairs, pairs.length >> 1, this.byPairs, out);
  }

  /** Compactions so far in the current addByDigest, which choose the packing buffer. */
  private pairRounds = 0;

  /**
   * addUndecided's steps over digest pairs, made once: `bloom dedupe` calls
   * addByDigest once per chunk, and closures made per call would be garbage
   * that keeps the young generation growing.
   */
  private readonly byPairs: Undecided<F, Uint32Array> = {
    // The whole batch is the common case (no member is full): no view to make.
    slice: (items, from, to) => (from === 0 && 2 * to === items.length ? items : items.subarray(2 * from, 2 * to)),
    has: (member, view) => member.hasDigestPairs(view),
    add: (member, view) => member.addDigestPairs(view),
    drop: (view, index, first, n, reported) => dropReportedPairs(view, index, first, n, reported, this.packs[this.pairRounds++ & 1]),
  };

  /** addMany of `count` packed items: addUndecided over their bytes. */
  addPacked(bytes: Uint8Array, offsets: ArrayLike<number>, count: number): Uint8Array {
    /** Compactions so far, which choose the packing buffer. */
    let rounds = 0;
    return this.addUndecided<Packed>({ bytes, offsets: offsets as Uint32Array | number[] }, count, {
      slice: (items, from, to) => ({ bytes: items.bytes, offsets: part(items.offsets, from, to + 1) }),
      has: (member, view) => member.hasMany(view),
      add: (member, view) => member.addMany(view),
      drop: (view, index, first, n, reported) => dropReported(view, index, first, n, reported, this.packs[rounds++ & 1]),
    });
  }

  /**
   * addMany of `count` items in one representation. The undecided items
   * shrink as it goes: every full member not yet asked is asked about all
   * of them at once, and the ones it reports are dropped (their answer is
   * 0); the newest member then adds the next ones, no more than it has room
   * for, since each item adds at most one to its count. When it is full, it
   * is asked about the rest like the others, and a new member starts.
   */
  private addUndecided<T>(all: T, count: number, ways: Undecided<F, T>, into?: Uint8Array): Uint8Array {
    const out = into === undefined ? new Uint8Array(count) : into.fill(0, 0, count);
    let items = all;
    /** Batch index of each undecided item; null while they are all of them, in order. */
    let index: Uint32Array | null = null;
    let first = 0;
    let n = count;
    /** Members [0, asked) have been asked about the undecided items. */
    let asked = 0;
    while (n > 0) {
      const last = this.chain.members.length - 1;
      const full = this.chain.isNewestFull() ? last + 1 : last;
      if (asked < full) {
        const view = ways.slice(items, first, first + n);
        if (this.reportedBuffer.length < n) this.reportedBuffer = new Uint8Array(Math.max(n, 2 * this.reportedBuffer.length));
        const reported = this.reportedBuffer.subarray(0, n).fill(0);
        let any = 0;
        for (let m = asked; m < full; m++) {
          const answers = ways.has(this.chain.members[m], view);
          for (let i = 0; i < n; i++) any |= reported[i] |= answers[i];
        }
        asked = full;
        if (any) {
          ({ items, index } = ways.drop(view, index, first, n, reported));
          first = 0;
          n = index.length;
        }
        continue;
      }
      if (this.chain.isNewestFull()) {
        this.chain.startMember();
        asked = this.chain.members.length - 1;
        continue;
      }
      const take = Math.min(n, this.chain.capacities[last] - this.chain.counts[last]);
      const added = ways.add(this.chain.members[last], ways.slice(items, first, first + take));
      for (let i = 0; i < take; i++) {
        if (added[i]) {
          out[index === null ? first + i : index[first + i]] = 1;
          this.chain.counts[last]++;
        }
      }
      first += take;
      n -= take;
    }
    return out;
  }
}
