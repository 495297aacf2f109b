// A plain-TypeScript model of a count window, written from the design and
// nothing else, as the oracle of the Redis sliding filter's count-window
// answers: G generations, each a local BloomFilter(m, k, { seed }) (so the
// same positions); an item is present when some generation holding adds
// has all its bits; add() answers "not present before", then sets the bits
// in the current generation, after rotating when the current one already
// holds c adds (the oldest is dropped).
import { BloomFilter } from '../../src/index.js';
import type { SlidingShape } from '../../src/sliding/shape.js';

/** The count-window oracle. */
export class SlidingCountModel {
  private readonly generations: BloomFilter[];
  private readonly counts: number[];
  private current = 0;

  constructor(private readonly shape: SlidingShape, private readonly seed: bigint = 0n) {
    this.generations = Array.from({ length: shape.generations }, () => this.fresh());
    this.counts = new Array(shape.generations).fill(0);
  }

  private fresh(): BloomFilter {
    return new BloomFilter(this.shape.bits, this.shape.hashes, { scheme: 'xxh64', seed: this.seed });
  }

  /** True when some generation holding adds has all the item's bits. */
  has(item: string): boolean {
    return this.generations.some((g, i) => this.counts[i] > 0 && g.has(item));
  }

  /** Rotates when the current generation is full, then sets the item's bits in it; true when it was not present. */
  add(item: string): boolean {
    if (this.counts[this.current] >= this.shape.generationCapacity) {
      this.current = (this.current + 1) % this.shape.generations;
      this.generations[this.current].dispose();
      this.generations[this.current] = this.fresh();
      this.counts[this.current] = 0;
    }
    const present = this.has(item);
    this.generations[this.current].add(item);
    this.counts[this.current]++;
    return !present;
  }

  /** The add counts of the generations holding adds. */
  liveCounts(): number[] {
    return this.counts.filter((n) => n > 0);
  }
}
