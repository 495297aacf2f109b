// Workload (d): the `poly` scheme (the SeenFilter exercise) on the URLs,
// against that exercise's own printed solution, with the same m and k. The
// two must give the same answers, which is checked after measuring.

import { BloomFilter, SeenFilter } from '../../src/index.node.js';
import { BloomFilter as ReferenceFilter } from '../../src/reference/index.js';
import type { ItemSet } from '../data.js';
import { blocksOf, encoder, floorView, K, loadReference, loop, measure, type Context, type Spec } from '../harness.js';
import { SeenFilter as SolutionSeenFilter } from '../seen-filter-solution.js';
import { falsePositiveRow } from './accuracy.js';
import { count } from './standard.js';

/** Measures (d) and records the false-positive rate both share. */
export async function polyWorkload(ctx: Context, present: ItemSet, absent: ItemSet): Promise<void> {
  ctx.log('workload (d): poly scheme against the SeenFilter exercise solution');
  const n = present.strings.length;
  const bits = 10 * n;
  const workload = `(d) poly scheme (SeenFilter exercise), URLs, n = ${count(n)}, m = 10n, k = ${K}`;
  const block = Math.min(1000, n);
  let wasmAdd = new SeenFilter(bits, K);
  const wasmFull = new SeenFilter(bits, K);
  for (const s of present.strings) wasmFull.add(s);
  const polyBatch = new BloomFilter(bits, K, { scheme: 'poly' });
  polyBatch.addMany(present.strings);
  const polyAdd = new BloomFilter(bits, K, { scheme: 'poly' });
  let solutionAdd = new SolutionSeenFilter(bits, K);
  const solutionFull = new SolutionSeenFilter(bits, K);
  for (const s of present.strings) solutionFull.add(s);
  const refAdd = new ReferenceFilter(bits, K, { scheme: 'poly' });
  const refFull = new ReferenceFilter(bits, K, { scheme: 'poly' });
  loadReference(refFull, polyBatch);
  const blocks = { present: blocksOf(present.strings, block), absent: blocksOf(absent.strings, block) };
  const solution = 'exercise solution';
  const specs: Spec[] = [
    { workload, op: 'add', contestant: 'wasm single', block, total: n, reset: () => (wasmAdd = new SeenFilter(bits, K)), run: loop((s) => wasmAdd.add(s), present) },
    { workload, op: 'has present', contestant: 'wasm single', block, total: n, run: loop((s) => wasmFull.mightContain(s), present) },
    { workload, op: 'has absent', contestant: 'wasm single', block, total: n, run: loop((s) => wasmFull.mightContain(s), absent) },
    { workload, op: 'add', contestant: 'wasm batch', block, total: n, reset: () => polyAdd.clear(), run: (from) => polyAdd.addMany(blocks.present[from / block])[0] },
    { workload, op: 'has present', contestant: 'wasm batch', block, total: n, run: (from) => polyBatch.hasMany(blocks.present[from / block])[0] },
    { workload, op: 'has absent', contestant: 'wasm batch', block, total: n, run: (from) => polyBatch.hasMany(blocks.absent[from / block])[0] },
    { workload, op: 'add', contestant: 'reference', block, total: n, reset: () => refAdd.clear(), run: loop((s) => refAdd.add(s), present) },
    { workload, op: 'has present', contestant: 'reference', block, total: n, run: loop((s) => refFull.has(s), present), note: 'for has, the bits are loaded from the wasm filter' },
    { workload, op: 'has absent', contestant: 'reference', block, total: n, run: loop((s) => refFull.has(s), absent), note: 'for has, the bits are loaded from the wasm filter' },
    { workload, op: 'add', contestant: solution, block, total: n, reset: () => (solutionAdd = new SolutionSeenFilter(bits, K)), run: loop((s) => solutionAdd.add(s), present) },
    { workload, op: 'has present', contestant: solution, block, total: n, run: loop((s) => solutionFull.mightContain(s), present) },
    { workload, op: 'has absent', contestant: solution, block, total: n, run: loop((s) => solutionFull.mightContain(s), absent) },
    { workload, op: 'encode', contestant: 'encode only (floor)', block, total: n, run: loop((s) => encoder.encodeInto(s, floorView).written, present) },
  ];
  await measure(ctx, specs, 'd');
  let hits = 0;
  let solutionHits = 0;
  for (const s of absent.strings) {
    if (wasmFull.mightContain(s)) hits++;
    if (solutionFull.mightContain(s)) solutionHits++;
  }
  if (hits !== solutionHits) throw new Error(`poly in wasm found ${hits} false positives, the exercise solution ${solutionHits}`);
  if (wasmFull.bitsSet() !== solutionFull.bitsSet()) throw new Error('poly in wasm and the exercise solution set different numbers of bits');
  ctx.results.falsePositives.push(falsePositiveRow('(d)', 'wasm poly', bits, n, n, hits, 'the exercise solution gives the same answers; plain double hashing, repeats allowed'));
}
