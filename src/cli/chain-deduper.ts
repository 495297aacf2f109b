// `bloom dedupe` over a chain or a sliding window: the lines are split in
// wasm (src/wasm/lines.ts's split mode) and each chunk's items go to the
// set as one batch.

import { BloomTypeError } from '../errors.js';
import { DIGEST_SCHEMES } from '../filter/item-digest.js';
import type { PackedItems } from '../filter/items.js';
import type { ScalableBloomFilter } from '../scalable/scalable.js';
import { LineDeduper, SPLIT_AREA_SIZES, wasmSplitLines, type LinesWriter, type SplitCore } from '../wasm/lines.js';

/** A set the split-mode deduper adds lines to as bytes: a SlidingBloomFilter. */
export interface BytesSet {
  add(item: Uint8Array): boolean;
  addMany(items: PackedItems): Uint8Array;
}

/**
 * `bloom dedupe` over a ScalableBloomFilter. The lines are split in split
 * mode in one small instance of this deduper's, and each chunk's items go
 * to the chain as one batch. Under xxh64 and sbbf that instance hashes
 * each line once, where its bytes already are, and the batch is the lines'
 * digests, which the chain walks over its members in wasm
 * (ScalableBloomFilter.addDigestPairs); under poly and bytesum, whose
 * hashes depend on each member's m, it is the packed bytes (addMany), and
 * a streamed line is handed to the chain whole, once it ends.
 * A SlidingBloomFilter (`bloom dedupe --window`) is served the same way,
 * by the packed bytes: its clock and rotation live in JS.
 */
export class ChainLineDeduper extends LineDeduper {
  private readonly chain: ScalableBloomFilter | BytesSet;
  private readonly split: SplitCore;

  /**
   * Splits for `chain` with `split` (by default the wasm split-mode core,
   * digesting under the chain's seed when it is a chain whose scheme has
   * digests); prints the lines already seen when `printSeen`.
   */
  constructor(chain: ScalableBloomFilter | BytesSet, printSeen: boolean, split?: SplitCore) {
    const digests = 'scheme' in chain && DIGEST_SCHEMES.includes(chain.scheme);
    const core = split ?? wasmSplitLines(printSeen, SPLIT_AREA_SIZES, digests ? (chain as ScalableBloomFilter).seed : null);
    if (core.digestSeed !== null && (!digests || core.digestSeed !== (chain as ScalableBloomFilter).seed)) {
      const target = 'scheme' in chain ? `the chain's seed ${chain.seed}n (${chain.scheme})` : 'no seed: this set takes bytes, not digests';
      throw new BloomTypeError('split', `digests under seed ${core.digestSeed}n`, `a core that digests under ${target}`);
    }
    super(core);
    this.chain = chain;
    this.split = core;
  }

  override push(n: number, write: LinesWriter): void {
    this.decide(this.split.linesProcess(n));
    this.collect(this.split.linesEmit(), write);
  }

  override finish(write: LinesWriter): void {
    const count = this.split.linesFinish();
    if (count === 0) return this.collect(0, write);
    this.decide(count);
    this.collect(this.split.linesEmit(), write);
  }

  /** Writes the chain's answer for each of the `count` items into the flags area, in order. */
  private decide(count: number): void {
    if (count === 0) return;
    const flags = this.split.itemFlags(count);
    if (this.split.digestSeed !== null) {
      // The constructor let a digesting core in only for a chain.
      (this.chain as ScalableBloomFilter).addDigestPairs(this.split.itemDigests(count), flags);
      return;
    }
    const { bytes, offsets } = this.split.packedItems(count);
    let first = 0;
    if (this.split.linesStreamEnd() === 3) {
      // Item 0 ends the streamed line: the pieces are its start (their \r held back, as in the item).
      let length = offsets[1];
      for (const piece of this.pieces) length += piece.length;
      const whole = new Uint8Array(length);
      let at = 0;
      for (const piece of this.pieces) {
        whole.set(piece, at);
        at += piece.length;
      }
      whole.set(bytes.subarray(0, offsets[1]), at);
      flags[0] = this.chain.add(whole) ? 1 : 0;
      first = 1;
    }
    if (count > first) flags.set(this.chain.addMany({ bytes, offsets: offsets.subarray(first) }), first);
  }
}
