// Types for seen-filter-solution.js, which stays as the exercise prints it.

/** The SeenFilter exercise's solution: m one-byte bits, k polynomial-hash positions. */
export class SeenFilter {
  constructor(m: number, k: number);
  readonly m: number;
  readonly k: number;
  readonly bits: Uint8Array;
  readonly count: number;
  /** The k positions of `url`. */
  positions(url: string): number[];
  /** Sets the positions of `url`. */
  add(url: string): void;
  /** True when every position of `url` is set. */
  mightContain(url: string): boolean;
  /** How many positions are set. */
  bitsSet(): number;
}
