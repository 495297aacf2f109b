// Workload (c): a 10^10-bit filter (1.25 GB) holding the 10^6 URLs: the cost
// is cache misses. `bloomfilter` is left out: it allows at most 2^32 bits.

import type { ItemSet } from '../data.js';
import { K, measure, type Context } from '../harness.js';
import { count, standardSpecs } from './standard.js';

/** Measures (c); at a smaller scale the filter shrinks with the item count. */
export async function largeWorkload(ctx: Context, present: ItemSet, absent: ItemSet): Promise<void> {
  ctx.log('workload (c): 10^10 bits');
  const bits = Math.round(1e10 * Math.min(1, ctx.settings.scale * 10));
  const n = present.strings.length;
  const c = standardSpecs({
    workload: `(c) ${bits === 1e10 ? '10^10' : count(bits)} bits (${(bits / 8e9).toFixed(bits === 1e10 ? 2 : 4)} GB), ${count(n)} URLs, k = ${K}`,
    bits, present, absent, fast: Math.min(1000, n), slow: 20, slowFill: 20_000,
    skipBloomfilter: 'bloomfilter allows at most 2^32 bits',
  });
  await measure(ctx, c.specs);
}
