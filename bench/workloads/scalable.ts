// Workload (e): a ScalableBloomFilter that starts at n/100 and grows to hold
// the URLs, against a fixed filter sized for exactly the final n at the same
// rate (the `wasm single` row, so the ratios are the cost of not knowing n).

import { BloomFilter, ScalableBloomFilter } from '../../src/index.js';
import { ScalableBloomFilter as ReferenceScalable } from '../../src/reference/index.js';
import type { ItemSet } from '../data.js';
import { blocksOf, loop, measure, type Context, type Spec } from '../harness.js';
import { count } from './standard.js';

/** Measures (e) and records the chain's size and false-positive rate. */
export async function scalableWorkload(ctx: Context, present: ItemSet, absent: ItemSet): Promise<void> {
  ctx.log('workload (e): scalable chain against a fixed filter of the final size');
  const n = present.strings.length;
  const workload = `(e) ScalableBloomFilter from n/100 against a fixed filter, URLs, n = ${count(n)}, p = 1%`;
  const options = { capacity: Math.max(1, Math.round(n / 100)), falsePositiveRate: 0.01 };
  const block = Math.min(1000, n);
  const refItems = Math.min(20_000, n);
  const fixed = BloomFilter.forCapacity(n, 0.01);
  fixed.addMany(present.strings);
  const chain = new ScalableBloomFilter(options);
  chain.addMany(present.strings);
  const refChain = new ReferenceScalable(options);
  for (let i = 0; i < refItems; i++) refChain.add(present.strings[i]);
  let fixedAdd = BloomFilter.forCapacity(n, 0.01);
  let chainAdd = new ScalableBloomFilter(options);
  let chainBatchAdd = new ScalableBloomFilter(options);
  let refAdd = new ReferenceScalable(options);
  const blocks = { present: blocksOf(present.strings, block), absent: blocksOf(absent.strings, block) };
  const grows = 'add: a fresh chain each pass, so the mean over its growth';
  const fixedNote = 'the fixed filter, forCapacity(n, 0.01)';
  const refNote = `the first ${count(refItems)} items only`;
  const specs: Spec[] = [
    { workload, op: 'add', contestant: 'wasm single', block, total: n, reset: () => (fixedAdd = BloomFilter.forCapacity(n, 0.01)), run: loop((s) => fixedAdd.add(s), present), note: fixedNote },
    { workload, op: 'has present', contestant: 'wasm single', block, total: n, run: loop((s) => fixed.has(s), present) },
    { workload, op: 'has absent', contestant: 'wasm single', block, total: n, run: loop((s) => fixed.has(s), absent) },
    { workload, op: 'add', contestant: 'scalable single', block, total: n, reset: () => (chainAdd = new ScalableBloomFilter(options)), run: loop((s) => chainAdd.add(s), present), note: grows },
    { workload, op: 'has present', contestant: 'scalable single', block, total: n, run: loop((s) => chain.has(s), present) },
    { workload, op: 'has absent', contestant: 'scalable single', block, total: n, run: loop((s) => chain.has(s), absent) },
    { workload, op: 'add', contestant: 'scalable batch', block, total: n, reset: () => (chainBatchAdd = new ScalableBloomFilter(options)), run: (from) => chainBatchAdd.addMany(blocks.present[from / block])[0], note: grows },
    { workload, op: 'has present', contestant: 'scalable batch', block, total: n, run: (from) => chain.hasMany(blocks.present[from / block])[0] },
    { workload, op: 'has absent', contestant: 'scalable batch', block, total: n, run: (from) => chain.hasMany(blocks.absent[from / block])[0] },
    { workload, op: 'add', contestant: 'scalable reference', block: 20, total: refItems, reset: () => (refAdd = new ReferenceScalable(options)), run: loop((s) => refAdd.add(s), present), note: refNote },
    { workload, op: 'has absent', contestant: 'scalable reference', block: 20, total: refItems, run: loop((s) => refChain.has(s), absent) },
  ];
  // The same chain and fixed filter under sbbf (members sized with the blocked rate).
  const sbbfOptions = { ...options, scheme: 'sbbf' as const };
  const sbbfFixed = BloomFilter.forCapacity(n, 0.01, { scheme: 'sbbf' });
  sbbfFixed.addMany(present.strings);
  const sbbfChain = new ScalableBloomFilter(sbbfOptions);
  sbbfChain.addMany(present.strings);
  let sbbfFixedAdd = BloomFilter.forCapacity(n, 0.01, { scheme: 'sbbf' });
  let sbbfChainAdd = new ScalableBloomFilter(sbbfOptions);
  let sbbfChainBatchAdd = new ScalableBloomFilter(sbbfOptions);
  specs.push(
    { workload, op: 'add', contestant: 'sbbf fixed single', block, total: n, reset: () => (sbbfFixedAdd = BloomFilter.forCapacity(n, 0.01, { scheme: 'sbbf' })), run: loop((s) => sbbfFixedAdd.add(s), present), note: "forCapacity(n, 0.01, { scheme: 'sbbf' })" },
    { workload, op: 'has present', contestant: 'sbbf fixed single', block, total: n, run: loop((s) => sbbfFixed.has(s), present) },
    { workload, op: 'has absent', contestant: 'sbbf fixed single', block, total: n, run: loop((s) => sbbfFixed.has(s), absent) },
    { workload, op: 'add', contestant: 'sbbf scalable single', block, total: n, reset: () => (sbbfChainAdd = new ScalableBloomFilter(sbbfOptions)), run: loop((s) => sbbfChainAdd.add(s), present), note: grows },
    { workload, op: 'has present', contestant: 'sbbf scalable single', block, total: n, run: loop((s) => sbbfChain.has(s), present) },
    { workload, op: 'has absent', contestant: 'sbbf scalable single', block, total: n, run: loop((s) => sbbfChain.has(s), absent) },
    { workload, op: 'add', contestant: 'sbbf scalable batch', block, total: n, reset: () => (sbbfChainBatchAdd = new ScalableBloomFilter(sbbfOptions)), run: (from) => sbbfChainBatchAdd.addMany(blocks.present[from / block])[0], note: grows },
    { workload, op: 'has present', contestant: 'sbbf scalable batch', block, total: n, run: (from) => sbbfChain.hasMany(blocks.present[from / block])[0] },
    { workload, op: 'has absent', contestant: 'sbbf scalable batch', block, total: n, run: (from) => sbbfChain.hasMany(blocks.absent[from / block])[0] },
  );
  await measure(ctx, specs);
  let chainHits = 0;
  let fixedHits = 0;
  for (const s of absent.strings) {
    if (chain.has(s)) chainHits++;
    if (fixed.has(s)) fixedHits++;
  }
  const chainBits = chain.filters.reduce((sum, f) => sum + f.bits, 0);
  ctx.results.scalable = { members: chain.filters.length, chainBits, fixedBits: fixed.bits, chainFalsePositives: chainHits, fixedFalsePositives: fixedHits, queries: n };
}
