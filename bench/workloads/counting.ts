// Workload (h): the CountingBloomFilter on the URL workload (m = 10n, k = 7)
// against its reference twin and bloom-filters' CountingBloomFilter with the
// same m and k. Target: at least 50× faster than bloom-filters.

import BloomFilters from 'bloom-filters';
import { CountingBloomFilter } from '../../src/index.node.js';
import { CountingBloomFilter as ReferenceCounting } from '../../src/reference/index.js';
import type { ItemSet } from '../data.js';
import { blocksOf, K, loop, measure, type Context, type Spec } from '../harness.js';
import { count } from './standard.js';

/** Measures (h) on the first n/10 URLs of the shared sets. */
export async function countingWorkload(ctx: Context, present: ItemSet, absent: ItemSet): Promise<void> {
  // n/10 items, a whole number of blocks (1,000 items per block above 1,000).
  const tenth = Math.max(100, Math.floor(present.strings.length / 10));
  const n = tenth > 1000 ? tenth - (tenth % 1000) : tenth;
  const bits = 10 * n;
  const workload = `(h) CountingBloomFilter, URLs, n = ${count(n)}, m = 10n, k = ${K}`;
  ctx.log('workload (h): counting filters');
  const fast = Math.min(1000, n);
  const slow = 20;
  const slowItems = Math.min(n, 20_000);
  const refItems = Math.min(n, 2_000);
  const fill = <F extends { add(s: string): unknown }>(f: F, items: number): F => {
    for (let i = 0; i < items; i++) f.add(present.strings[i]);
    return f;
  };
  const full = fill(new CountingBloomFilter(bits, K), n);
  const peer = fill(new BloomFilters.CountingBloomFilter(bits, K), slowItems);
  const ref = fill(new ReferenceCounting(bits, K), refItems);
  const refAdding = new ReferenceCounting(bits, K);
  let adding = new CountingBloomFilter(bits, K);
  const batchAdding = new CountingBloomFilter(bits, K);
  const blocks = { present: blocksOf(present.strings.slice(0, n), fast), absent: blocksOf(absent.strings.slice(0, n), fast) };
  let removing = full.clone();
  let peerAdding = new BloomFilters.CountingBloomFilter(bits, K);
  let peerRemoving = fill(new BloomFilters.CountingBloomFilter(bits, K), slowItems);
  const peerNote = `filled with the first ${count(slowItems)} items`;
  const specs: Spec[] = [
    { workload, op: 'add', contestant: 'wasm single', block: fast, total: n, reset: () => adding.clear(), run: loop((s) => adding.add(s), present) },
    { workload, op: 'has present', contestant: 'wasm single', block: fast, total: n, run: loop((s) => full.has(s), present) },
    { workload, op: 'has absent', contestant: 'wasm single', block: fast, total: n, run: loop((s) => full.has(s), absent) },
    { workload, op: 'remove', contestant: 'wasm single', block: fast, total: n, reset: () => (removing = full.clone()), run: loop((s) => removing.remove(s), present) },
    { workload, op: 'add', contestant: 'wasm batch', block: fast, total: n, reset: () => batchAdding.clear(), run: (from) => batchAdding.addMany(blocks.present[from / fast])[0] },
    { workload, op: 'has present', contestant: 'wasm batch', block: fast, total: n, run: (from) => full.hasMany(blocks.present[from / fast])[0] },
    { workload, op: 'has absent', contestant: 'wasm batch', block: fast, total: n, run: (from) => full.hasMany(blocks.absent[from / fast])[0] },
    { workload, op: 'add', contestant: 'reference', block: slow, total: refItems, reset: () => refAdding.clear(), run: loop((s) => refAdding.add(s), present), note: `the first ${count(refItems)} items only` },
    { workload, op: 'has absent', contestant: 'reference', block: slow, total: refItems, run: loop((s) => ref.has(s), absent) },
    { workload, op: 'add', contestant: 'bloom-filters', block: slow, total: slowItems, reset: () => (peerAdding = new BloomFilters.CountingBloomFilter(bits, K)), run: loop((s) => peerAdding.add(s), present), note: peerNote },
    { workload, op: 'has present', contestant: 'bloom-filters', block: slow, total: slowItems, run: loop((s) => peer.has(s), present) },
    { workload, op: 'has absent', contestant: 'bloom-filters', block: slow, total: slowItems, run: loop((s) => peer.has(s), absent) },
    { workload, op: 'remove', contestant: 'bloom-filters', block: slow, total: slowItems, reset: () => (peerRemoving = fill(new BloomFilters.CountingBloomFilter(bits, K), slowItems)), run: loop((s) => peerRemoving.remove(s), present) },
  ];
  await measure(ctx, specs, 'h');
}
