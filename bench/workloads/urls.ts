// Workload (a): URLs of 64 to 70 characters, n = 10^6, m = 10n, k = 7.

import type { ItemSet } from '../data.js';
import { K, measure, type Context } from '../harness.js';
import { count, standardSpecs, type Filled } from './standard.js';

/** Measures (a) and returns its filled filters for the accuracy and heap measurements. */
export async function urlWorkload(ctx: Context, present: ItemSet, absent: ItemSet): Promise<Filled> {
  const n = present.strings.length;
  ctx.log('workload (a): filling filters');
  const a = standardSpecs({
    workload: `(a) URLs of 64-70 characters, n = ${count(n)}, m = 10n, k = ${K}`,
    bits: 10 * n, present, absent, fast: Math.min(1000, n), slow: 20, bytesum: true,
  });
  ctx.log('workload (a): measuring');
  await measure(ctx, a.specs, 'a');
  return a.filled;
}
