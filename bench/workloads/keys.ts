// Workload (b): short keys (8 to 16 bytes, n = 10^6) and long keys (1 KiB, n = 10^5).

import { longKeys, shortKeys } from '../data.js';
import { K, measure, type Context } from '../harness.js';
import { count, standardSpecs } from './standard.js';

/** Measures (b), short keys then long keys. */
export async function keyWorkloads(ctx: Context): Promise<void> {
  ctx.log('workload (b): short keys');
  {
    const n = ctx.settings.n;
    const present = shortKeys(n, 3, 'p');
    const absent = shortKeys(n, 4, 'q');
    const b = standardSpecs({
      workload: `(b) short keys of 8-16 bytes, n = ${count(n)}, m = 10n, k = ${K}`,
      bits: 10 * n, present, absent, fast: Math.min(1000, n), slow: 50, slowFill: 100_000,
    });
    await measure(ctx, b.specs, 'b');
  }
  ctx.log('workload (b): long keys');
  {
    const n = Math.max(4, Math.round(100_000 * ctx.settings.scale));
    const present = longKeys(n, 5, 'p');
    const absent = longKeys(n, 6, 'q');
    const b = standardSpecs({
      workload: `(b) long keys of 1 KiB, n = ${count(n)}, m = 10n, k = ${K}`,
      bits: 10 * n, present, absent, fast: Math.min(100, n), slow: 4, slowFill: 5_000,
    });
    await measure(ctx, b.specs, 'b');
  }
}
