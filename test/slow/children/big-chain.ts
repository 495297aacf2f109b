// The chain of test/slow/big-file.test.ts: member 2 (capacity 20,480,000 at a
// rate of 1.25e-181) has 17,755,818,785 bits, so the file passes 2 GiB.
import type { ScalableOptions } from '../../../src/index.js';

export const BIG_CHAIN = {
  options: { capacity: 20_000, falsePositiveRate: 1e-180, growth: 32, tightening: 0.5 } satisfies ScalableOptions,
  /** Items added to the newest member. */
  newestItems: 5000,
};

/** Item n of the chain. */
export function bigChainItem(n: number): string {
  return `https://chain.example/${n}`;
}
