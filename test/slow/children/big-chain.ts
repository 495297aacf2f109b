// The chain of test/slow/big-file.test.ts: member 2 (capacity 20,480,000 at a
// rate of 1.25e-75) has 18,740,082,561 bits, so the file passes 2 GiB. (At
// such rates k is capped at 64, so m is sized for 64 hashes: the rate of
// 1e-180 this test once used would now ask for more than MAX_BITS.)
import type { ScalableOptions } from '../../../src/index.js';

export const BIG_CHAIN = {
  options: { capacity: 20_000, falsePositiveRate: 1e-74, growth: 32, tightening: 0.5 } satisfies ScalableOptions,
  /** Items added to the newest member. */
  newestItems: 5000,
};

/** Item n of the chain. */
export function bigChainItem(n: number): string {
  return `https://chain.example/${n}`;
}
