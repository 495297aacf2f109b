// The reference twin of assembly/sliding.ts and src/sliding/sliding.ts: the
// sliding-window filter's words (docs/SLIDING.md), written plainly. Word i
// of m is byte i when G = 8, bytes 2i and 2i + 1 (little-endian) when
// G = 16; bit j of word i is position i of generation plane j. An item's k
// positions are BloomFilter's under xxh64 with the filter's seed.

import { batchItem, type CheckedBatch, type Item } from '../filter/items.js';
import { restoreSliding, SlidingBloomFilterOver, type SlidingKind, type SlidingWords } from '../sliding/sliding-over.js';
import { slidingCapacityOptions, type SlidingCapacityOptions, type SlidingOptions } from '../sliding/shape.js';
import { checksum } from './checksum.js';
import { itemPositions } from './scheme.js';
import { bytesFromJSON, type FilterJSON } from '../format/json.js';

/** The op of slidingItem and slidingBatch that only tests; the other, 0, adds. */
const OP_HAS = 1;

/** What the functions below work on: the words' bytes, m, k, the seed, and bytes per word. */
export interface SlidingRecord {
  readonly words: Uint8Array;
  readonly bits: number;
  readonly hashes: number;
  readonly seed: bigint;
  readonly wordBytes: 1 | 2;
}

/** Word p. */
export function getWord(r: SlidingRecord, p: number): number {
  return r.wordBytes === 1 ? r.words[p] : r.words[2 * p] | (r.words[2 * p + 1] << 8);
}

/** Sets the bits of `bit` in word p. */
export function orWord(r: SlidingRecord, p: number, bit: number): void {
  if (r.wordBytes === 1) {
    r.words[p] |= bit;
  } else {
    r.words[2 * p] |= bit & 0xff;
    r.words[2 * p + 1] |= bit >> 8;
  }
}

/**
 * Runs `op` on the item's positions: has is 1 when some generation of
 * `live` has all k bits; add tests the same, sets the bit of `plane` in
 * all k words, and is 1 when the item was not present.
 */
export function slidingProbed(r: SlidingRecord, positions: readonly number[], op: number, plane: number, live: number): number {
  let all = live;
  for (const p of positions) all &= getWord(r, p);
  if (op === OP_HAS) return all !== 0 ? 1 : 0;
  for (const p of positions) orWord(r, p, 1 << plane);
  return all === 0 ? 1 : 0;
}

/** Runs `op` (0 add, 1 has) on one item. */
export function slidingItem(r: SlidingRecord, item: Item, op: number, plane: number, live: number): number {
  const positions = itemPositions({ scheme: 'xxh64', bits: r.bits, hashes: r.hashes, seed: r.seed }, item);
  return slidingProbed(r, positions, op, plane, live);
}

/** slidingItem on each item of a batch, in order; flag i is item i's answer. */
export function slidingBatch(r: SlidingRecord, batch: CheckedBatch, op: number, plane: number, live: number): Uint8Array {
  const flags = new Uint8Array(batch.count);
  for (let i = 0; i < batch.count; i++) flags[i] = slidingItem(r, batchItem(batch, i), op, plane, live);
  return flags;
}

/** Clears bit `plane` of every word. */
export function slidingClearPlane(r: SlidingRecord, plane: number): void {
  for (let p = 0; p < r.bits; p++) {
    const word = getWord(r, p) & ~(1 << plane);
    if (r.wordBytes === 1) {
      r.words[p] = word;
    } else {
      r.words[2 * p] = word & 0xff;
      r.words[2 * p + 1] = word >> 8;
    }
  }
}

/** The words in a plain array, the checksum by the reference XXH64. */
const REFERENCE_WORDS: SlidingKind = {
  name: 'SlidingBloomFilter',
  create: (shape, seed): SlidingWords => {
    const wordBytes = shape.generations === 8 ? 1 : 2;
    const r: SlidingRecord = { words: new Uint8Array(shape.bits * wordBytes), bits: shape.bits, hashes: shape.hashes, seed, wordBytes };
    return {
      words: r.words,
      run: (item, op, plane, live) => slidingItem(r, item, op, plane, live),
      runBatch: (batch, op, plane, live) => slidingBatch(r, batch, op, plane, live),
      clearPlane: (plane) => slidingClearPlane(r, plane),
      checksum: (header) => checksum(header, r.words),
      // The twin holds no wasm memory: dispose() only marks it disposed.
      release: () => {},
    };
  },
  checksum,
};

/** A sliding-window Bloom filter computed in plain TypeScript, word-for-word equal to the wasm SlidingBloomFilter. */
export class SlidingBloomFilter extends SlidingBloomFilterOver {
  /** As the wasm SlidingBloomFilter's constructor. */
  constructor(options: SlidingOptions) {
    super(options, REFERENCE_WORDS);
  }

  /**
   * A window of n = `capacity` adds at rate p = `falsePositiveRate`: the
   * last n adds, or with `{ windowMs }` the adds of the last `windowMs` ms
   * for up to n adds in any window. The same filter as the constructor's
   * `{ window: n, falsePositiveRate }` or `{ windowMs, capacity: n, falsePositiveRate, clock }`.
   */
  static forCapacity(capacity: number, falsePositiveRate: number, options?: SlidingCapacityOptions): SlidingBloomFilter {
    return new SlidingBloomFilter(slidingCapacityOptions(capacity, falsePositiveRate, options));
  }

  /** Reads a filter written by toBytes (here or by the wasm filter), as the wasm SlidingBloomFilter.fromBytes. */
  static fromBytes(bytes: Uint8Array, options?: { clock?: () => number }): SlidingBloomFilter {
    return new SlidingBloomFilter(restoreSliding(bytes, options, REFERENCE_WORDS));
  }

  /**
   * Reads the JSON form that toJSON gives (the parsed object, or its JSON
   * text): the same filter, byte for byte, as fromBytes of its bytes. Throws
   * BloomTypeError naming `value`, `type` or `bytes`, BloomRangeError naming
   * `version`, and BloomFormatError for bad base64 or bad bytes.
   */
  static fromJSON(value: FilterJSON | string, options?: { clock?: () => number }): SlidingBloomFilter {
    return SlidingBloomFilter.fromBytes(bytesFromJSON(value, 'SlidingBloomFilter'), options);
  }
}
