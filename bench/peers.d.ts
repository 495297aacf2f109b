// Types for the `bloomfilter` peer, which ships none.
declare module 'bloomfilter' {
  /** jasondavies' Bloom filter: m bits (rounded up to a multiple of 32), k hashes. */
  export class BloomFilter {
    constructor(m: number, k: number);
    readonly m: number;
    add(value: string): void;
    test(value: string): boolean;
  }
}
