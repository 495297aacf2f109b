// The SeenFilter exercise's SeenFilter: add / mightContain / bitsSet over a `poly`-scheme
// filter. The wasm package and the reference twin subclass this with their
// own BloomFilter, so the exercise's semantics are written once.

import { markDisposed } from './dispose.js';

/** What SeenFilter needs of a BloomFilter. */
export interface PolyFilter {
  add(item: string): boolean;
  has(item: string): boolean;
  bitsSet(): number;
  dispose(): void;
}

/** The crawler's seen-set of the SeenFilter exercise, over any filter on the `poly` scheme. */
export class SeenFilterOver {
  private readonly filter: PolyFilter;

  /** Wraps a filter built with `{ scheme: 'poly' }`. */
  constructor(filter: PolyFilter) {
    this.filter = filter;
  }

  /** Sets the URL's k bits. */
  add(url: string): void {
    this.filter.add(url);
  }

  /** True when all k bits of the URL are 1. */
  mightContain(url: string): boolean {
    return this.filter.has(url);
  }

  /** How many of the m bits are 1. */
  bitsSet(): number {
    return this.filter.bitsSet();
  }

  /** Gives the filter's memory back at once; later calls throw BloomDisposedError naming them. */
  dispose(): void {
    this.filter.dispose();
    markDisposed(this, 'SeenFilter');
  }

  /** dispose(), for `using`. */
  [Symbol.dispose](): void {
    this.dispose();
  }
}
