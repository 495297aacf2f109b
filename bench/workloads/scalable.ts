// Workload (e): a ScalableBloomFilter that starts at n/100 and grows to hold
// the URLs, against a fixed filter sized for exactly the final n at the same
// rate (the `wasm single` row, so the ratios are the cost of not knowing n).

import { BloomFilter, ScalableBloomFilter } from '../../src/index.node.js';
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
  const blocks = { present: blocksOf(present.strings, block), absent: blocksOf(absent.strings, block) };
  const grows = 'add: a fresh chain each pass, so the mean over its growth';

  /**
   * The rows of one scheme: single calls on a fixed filter of the final
   * size, then single calls and batches on a chain that starts at n/100.
   * Adds go into fresh filters each pass; has runs on filters holding every
   * present item, which are returned for the false-positive count.
   */
  const schemeRows = (names: { fixed: string; chain: string }, scheme: 'xxh64' | 'sbbf', fixedNote: string) => {
    const newFixed = () => BloomFilter.forCapacity(n, 0.01, { scheme });
    const newChain = () => new ScalableBloomFilter({ ...options, scheme });
    const fixed = newFixed();
    fixed.addMany(present.strings);
    const chain = newChain();
    chain.addMany(present.strings);
    let fixedAdd = newFixed();
    let chainAdd = newChain();
    let chainBatchAdd = newChain();
    const rows: Spec[] = [
      { workload, op: 'add', contestant: names.fixed, block, total: n, reset: () => (fixedAdd = newFixed()), run: loop((s) => fixedAdd.add(s), present), note: fixedNote },
      { workload, op: 'has present', contestant: names.fixed, block, total: n, run: loop((s) => fixed.has(s), present) },
      { workload, op: 'has absent', contestant: names.fixed, block, total: n, run: loop((s) => fixed.has(s), absent) },
      { workload, op: 'add', contestant: `${names.chain} single`, block, total: n, reset: () => (chainAdd = newChain()), run: loop((s) => chainAdd.add(s), present), note: grows },
      { workload, op: 'has present', contestant: `${names.chain} single`, block, total: n, run: loop((s) => chain.has(s), present) },
      { workload, op: 'has absent', contestant: `${names.chain} single`, block, total: n, run: loop((s) => chain.has(s), absent) },
      { workload, op: 'add', contestant: `${names.chain} batch`, block, total: n, reset: () => (chainBatchAdd = newChain()), run: (from) => chainBatchAdd.addMany(blocks.present[from / block])[0], note: grows },
      { workload, op: 'has present', contestant: `${names.chain} batch`, block, total: n, run: (from) => chain.hasMany(blocks.present[from / block])[0] },
      { workload, op: 'has absent', contestant: `${names.chain} batch`, block, total: n, run: (from) => chain.hasMany(blocks.absent[from / block])[0] },
    ];
    return { rows, fixed, chain };
  };

  const { rows, fixed, chain } = schemeRows({ fixed: 'wasm single', chain: 'scalable' }, 'xxh64', 'the fixed filter, forCapacity(n, 0.01)');
  const refChain = new ReferenceScalable(options);
  for (let i = 0; i < refItems; i++) refChain.add(present.strings[i]);
  let refAdd = new ReferenceScalable(options);
  const refNote = `the first ${count(refItems)} items only`;
  const specs: Spec[] = [
    ...rows,
    { workload, op: 'add', contestant: 'scalable reference', block: 20, total: refItems, reset: () => (refAdd = new ReferenceScalable(options)), run: loop((s) => refAdd.add(s), present), note: refNote },
    { workload, op: 'has absent', contestant: 'scalable reference', block: 20, total: refItems, run: loop((s) => refChain.has(s), absent) },
    // The same chain and fixed filter under sbbf (members sized with the blocked rate).
    ...schemeRows({ fixed: 'sbbf fixed single', chain: 'sbbf scalable' }, 'sbbf', "forCapacity(n, 0.01, { scheme: 'sbbf' })").rows,
  ];
  await measure(ctx, specs);
  let chainHits = 0;
  let fixedHits = 0;
  for (const s of absent.strings) {
    if (chain.has(s)) chainHits++;
    if (fixed.has(s)) fixedHits++;
  }
  const chainBits = chain.members.reduce((sum, f) => sum + f.bits, 0);
  ctx.results.scalable = { members: chain.members.length, chainBits, fixedBits: fixed.bits, chainFalsePositives: chainHits, fixedFalsePositives: fixedHits, queries: n };
}
