// After workload (a): the measured false-positive rates of the filled
// filters against (1 - e^(-kn/m))^k, and the JS heap growth over 10^6 single
// calls (the wasm filter must not allocate per call).

import { PerformanceObserver, performance } from 'node:perf_hooks';
import { BloomFilter, falsePositiveRate } from '../../src/index.node.js';
import type { ItemSet } from '../data.js';
import { consume, gc, K, type Context } from '../harness.js';
import type { FalsePositiveRow } from '../results.js';
import type { Filled } from './standard.js';

/** One false-positive row of a filter of `bits` bits with k = 7. */
export function falsePositiveRow(workload: string, contestant: string, bits: number, items: number, queries: number, hits: number, note?: string): FalsePositiveRow {
  const row: FalsePositiveRow = { workload, contestant, bits, hashes: K, items, queries, falsePositives: hits, theoretical: falsePositiveRate(bits, items, K) };
  if (note) row.note = note;
  return row;
}

/** Counts the false positives of every contestant of (a) over the absent URLs. */
export function urlFalsePositives(ctx: Context, filled: Filled, present: ItemSet, absent: ItemSet): void {
  ctx.log('false-positive rates of workload (a)');
  const n = present.strings.length;
  const wasm = filled.wasm;
  const flags = wasm.hasMany(absent.packed);
  let hits = 0;
  for (const f of flags) hits += f;
  let singleHits = 0;
  for (const s of absent.strings) if (wasm.has(s)) singleHits++;
  if (singleHits !== hits) throw new Error(`hasMany found ${hits} false positives, has found ${singleHits}`);
  const rows = ctx.results.falsePositives;
  rows.push(falsePositiveRow('(a)', 'wasm', wasm.bits, n, n, hits, 'single and batch: the same answers'));
  // BigInt XXH64 takes tens of µs per query: the reference answers the first
  // 100,000 queries, and each answer is checked equal to the wasm filter's.
  filled.loadReference();
  const ref = filled.reference;
  const refQueries = Math.min(n, 100_000);
  let refHits = 0;
  for (let i = 0; i < refQueries; i++) {
    const r = ref.has(absent.strings[i]);
    if (r !== (flags[i] === 1)) throw new Error(`reference and wasm disagree on absent item ${i}`);
    if (r) refHits++;
  }
  rows.push(falsePositiveRow('(a)', 'reference', ref.bits, n, refQueries, refHits, 'every answer equal to the wasm filter\'s'));
  if (filled.bloomfilter) {
    let bfHits = 0;
    for (const s of absent.strings) if (filled.bloomfilter.test(s)) bfHits++;
    rows.push(falsePositiveRow('(a)', 'bloomfilter', filled.bloomfilter.m, n, n, bfHits, 'm rounded up to a multiple of 32'));
  }
  if (filled.bloomFilters) {
    const bs = filled.bloomFilters();
    let bsHits = 0;
    for (const s of absent.strings) if (bs.has(s)) bsHits++;
    rows.push(falsePositiveRow('(a)', 'bloom-filters', wasm.bits, n, n, bsHits));
  }
}

/** Heap growth (after GC) over `calls` calls of `fn`, and the GCs during the loop. */
async function heapGrowth(ctx: Context, call: string, calls: number, fn: (i: number) => unknown): Promise<void> {
  const entries: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) entries.push(e.startTime);
  });
  observer.observe({ entryTypes: ['gc'] });
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  let c = 0;
  for (let i = 0; i < calls; i++) c += fn(i) ? 1 : 0;
  const t1 = performance.now();
  consume(c);
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  await new Promise((resolve) => setTimeout(resolve, 20));
  observer.disconnect();
  ctx.results.heap.push({ call, calls, growthBytes: after - before, gcsDuringLoop: entries.filter((t) => t >= t0 && t <= t1).length });
}

/** Heap growth over n single calls of each kind on the filled URL filter. */
export async function heapWorkload(ctx: Context, filled: Filled, present: ItemSet, absent: ItemSet): Promise<void> {
  ctx.log('heap growth over single calls');
  const wasm = filled.wasm;
  const fresh = new BloomFilter(wasm.bits, K);
  const calls = present.strings.length;
  await heapGrowth(ctx, 'add(string)', calls, (i) => fresh.add(present.strings[i]));
  await heapGrowth(ctx, 'has(string), present', calls, (i) => wasm.has(present.strings[i]));
  await heapGrowth(ctx, 'has(string), absent', calls, (i) => wasm.has(absent.strings[i]));
  await heapGrowth(ctx, 'has(Uint8Array)', calls, (i) => wasm.has(present.views[i]));
  const short = ['a1b2c3d4', 'key:1234567', 'user/98765432'];
  await heapGrowth(ctx, 'has(short string)', calls, (i) => wasm.has(short[i % 3]));
  console.table(ctx.results.heap.map((h) => ({ call: h.call, 'growth KiB': Number((h.growthBytes / 1024).toFixed(1)), 'GCs in loop': h.gcsDuringLoop })));
}
