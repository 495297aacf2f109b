// Workload (i): one shared filter of 10^9 bits (125 MB, xxh64, k = 7), the
// same total of URLs added and then queried by 1 worker thread, then split
// between 2 (each its own half), all started together (docs/SHARED.md). The
// figure is wall time per item: the slowest worker's time over all items,
// so the 2-worker row divided into the 1-worker row is the speed-up.
// Not tinybench: each measurement is one timed pass inside the workers,
// repeated and the median taken.

import { pathToFileURL } from 'node:url';
import { BloomFilter, loadSharedMemory } from '../../src/index.node.js';
import { runWorkers } from '../../test/helpers/shared-workers.js';
import { K, type Context } from '../harness.js';
import type { Row } from '../results.js';
import { count } from './standard.js';

/** What a timing worker posts back. */
interface Timing {
  addMs: number;
  hasMs: number;
  found: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Measures (i): addMany and hasMany on a shared filter from 1 and from 2 workers. */
export async function sharedWorkload(ctx: Context): Promise<void> {
  const bits = 1e9;
  const items = ctx.settings.quick ? 200_000 : Math.round(2_000_000 * ctx.settings.scale);
  const rounds = ctx.settings.quick ? 3 : 5;
  const workload = `(i) shared filter, 10^9 bits (125 MB), ${count(items)} URLs, k = ${K}, worker threads`;
  const root = pathToFileURL(process.cwd() + '/');
  ctx.log(`workload (i): ${workload}`);
  const perItem: Record<number, { add: number[]; has: number[] }> = { 1: { add: [], has: [] }, 2: { add: [], has: [] } };
  await loadSharedMemory();
  const filter = new BloomFilter(bits, K, { shared: true });
  const handle = filter.share();
  for (let round = 0; round < rounds; round++) {
    for (const workers of [1, 2]) {
      filter.clear();
      const share = items / workers;
      const timings = await runWorkers<Timing>(
        Array.from({ length: workers }, (_, w) => ({ handle, job: 'time' as const, first: w * share, count: share, worker: w, chunk: 1000 })),
        root,
      );
      if (timings.some((t) => t.found !== share)) throw new Error(`workload (i): a worker missed items it added`);
      perItem[workers].add.push((Math.max(...timings.map((t) => t.addMs)) * 1e6) / items);
      perItem[workers].has.push((Math.max(...timings.map((t) => t.hasMs)) * 1e6) / items);
    }
  }
  const rows: Row[] = [];
  for (const workers of [1, 2]) {
    const contestant = `shared, ${workers} worker${workers > 1 ? 's' : ''}`;
    const add = median(perItem[workers].add);
    const has = median(perItem[workers].has);
    const note = workers === 2
      ? `throughput ×${(median(perItem[1].add) / add).toFixed(2)} (add) and ×${(median(perItem[1].has) / has).toFixed(2)} (has) that of 1 worker; wall time per item, median of ${rounds}`
      : `wall time per item, median of ${rounds}`;
    rows.push({ workload, op: 'add', contestant, nsPerOp: add, note }, { workload, op: 'has present', contestant, nsPerOp: has, note });
  }
  ctx.results.rows.push(...rows);
  console.log(`\n== ${workload}`);
  console.table(rows.map((r) => ({ op: r.op, contestant: r.contestant, 'ns/item': Number(r.nsPerOp.toFixed(1)), note: r.note })));
}
