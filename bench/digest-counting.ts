// Two workloads, runnable on their own (`npm run bench:digest-counting`):
//
// (g) Hash once, probe many: which of 200 filters of different sizes may
//     hold key K (the SSTable read path)? probeAll against 200 separate
//     has() calls, and against the floor it is held to: one has() plus 200
//     bit-block reads (one u32 read from each filter's bits, at a place the
//     key picks). Target: probeAll <= 3x that floor.
// (h) CountingBloomFilter on the URL workload (URLs of 64-70 characters,
//     m = 10n, k = 7): add, has and remove against bloom-filters'
//     CountingBloomFilter with the same m and k. Target: >= 50x faster.
//
// Each tinybench call processes a block of keys; ns per key is its median
// time over the block. Env: BENCH_TIME (ms per task, default 400),
// BENCH_SCALE (items, default 1: n = 1e5 for (h)).

import BloomFilters from 'bloom-filters';
import { Bench } from 'tinybench';
import { BloomFilter, CountingBloomFilter, probeAll } from '../src/index.js';
import { engineOf } from '../src/filter/filter.js';
import { urls } from './data.js';

const TIME = Number(process.env.BENCH_TIME ?? 400);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
let sink = 0;

interface Task {
  name: string;
  block: number;
  run: (from: number) => number;
  before?: () => void;
}

/** Runs the tasks and returns ns per key for each, by name. */
async function measure(title: string, tasks: Task[]): Promise<Record<string, number>> {
  const bench = new Bench({ time: TIME, warmupTime: Math.min(150, TIME / 2), iterations: 8, warmupIterations: 2 });
  for (const t of tasks) {
    let cursor = 0;
    bench.add(t.name, () => {
      sink ^= t.run(cursor) | 0;
      cursor += t.block;
    }, { beforeAll: () => { cursor = 0; t.before?.(); } });
  }
  await bench.run();
  const out: Record<string, number> = {};
  bench.tasks.forEach((task, i) => {
    const latency = (task.result as { latency?: { p50: number } }).latency;
    if (!latency) throw new Error(`${task.name} failed`);
    out[tasks[i].name] = (latency.p50 * 1e6) / tasks[i].block;
  });
  console.log(`\n== ${title}`);
  console.table(Object.entries(out).map(([task, ns]) => ({ task, 'ns/key': Number(ns.toFixed(1)) })));
  return out;
}

// ----------------------------------------------------------------- (g)
const FILES = 200;
const keys = urls(4096, 3, 'g').strings;
const filters: BloomFilter[] = [];
for (let i = 0; i < FILES; i++) {
  // SSTables of 1,000 to 50,000 keys each, 10 bits per key, k = 7.
  const n = 1000 + Math.floor((49_000 * i) / (FILES - 1));
  const f = new BloomFilter(10 * n, 7);
  for (let j = 0; j < n; j++) f.add(`file${i}/key${j}`);
  // Every 4th key of the probe set lives in some file.
  for (let j = i % 4 === 0 ? i : -1; j >= 0 && j < keys.length; j += FILES * 4) f.add(keys[j]);
  filters.push(f);
}
const views = filters.map((f) => new Uint32Array(engineOf(f).bitsView().buffer, engineOf(f).bitsPtr & ~3, (f.bits >> 5) || 1));
const BLOCK_G = 64;
const g = await measure(`(g) one key against ${FILES} filters of 10^4 to 5*10^5 bits, k = 7`, [
  {
    name: 'probeAll(200 filters, key)',
    block: BLOCK_G,
    run: (from) => {
      let c = 0;
      for (let i = 0; i < BLOCK_G; i++) c += probeAll(filters, keys[(from + i) & 4095])[0];
      return c;
    },
  },
  {
    name: '200 × has(key)',
    block: BLOCK_G,
    run: (from) => {
      let c = 0;
      for (let i = 0; i < BLOCK_G; i++) {
        const key = keys[(from + i) & 4095];
        for (const f of filters) c += f.has(key) ? 1 : 0;
      }
      return c;
    },
  },
  {
    name: 'floor: 1 has(key) + 200 block reads',
    block: BLOCK_G,
    run: (from) => {
      let c = 0;
      for (let i = 0; i < BLOCK_G; i++) {
        const key = keys[(from + i) & 4095];
        c += filters[0].has(key) ? 1 : 0;
        // A place that depends on the key, so the reads are not hoisted.
        const at = (key.charCodeAt(20) * 2654435761) >>> 0;
        for (let f = 0; f < FILES; f++) c ^= views[f][at % views[f].length];
      }
      return c;
    },
  },
]);
const floor = g['floor: 1 has(key) + 200 block reads'];
console.log(
  `(g) probeAll ${(g['probeAll(200 filters, key)'] / floor).toFixed(2)}x the floor (target <= 3x); ` +
    `200 has calls ${(g['200 × has(key)'] / floor).toFixed(2)}x`,
);

// ----------------------------------------------------------------- (h)
const N = Math.round(100_000 * SCALE);
const present = urls(N, 1, 'p').strings;
const absent = urls(N, 2, 'q').strings;
const M = 10 * N;
const ours = new CountingBloomFilter(M, 7);
const theirs = new BloomFilters.CountingBloomFilter(M, 7);
for (const u of present) {
  ours.add(u);
  theirs.add(u);
}
const FAST = 1000;
const SLOW = 20;
const wrap = (i: number) => i % (N - FAST);
let churn = new CountingBloomFilter(M, 7);
let churnPeer = new BloomFilters.CountingBloomFilter(M, 7);
const h = await measure(`(h) CountingBloomFilter, URLs, n = ${N}, m = 10n, k = 7`, [
  { name: 'wasm has present', block: FAST, run: (from) => { let c = 0; for (let i = 0; i < FAST; i++) c += ours.has(present[wrap(from) + i]) ? 1 : 0; return c; } },
  { name: 'wasm has absent', block: FAST, run: (from) => { let c = 0; for (let i = 0; i < FAST; i++) c += ours.has(absent[wrap(from) + i]) ? 1 : 0; return c; } },
  {
    name: 'wasm add + remove', block: FAST, before: () => { churn = new CountingBloomFilter(M, 7); },
    run: (from) => { const b = wrap(from); for (let i = 0; i < FAST; i++) churn.add(present[b + i]); for (let i = 0; i < FAST; i++) churn.remove(present[b + i]); return 0; },
  },
  { name: 'bloom-filters has present', block: SLOW, run: (from) => { let c = 0; for (let i = 0; i < SLOW; i++) c += theirs.has(present[wrap(from) + i]) ? 1 : 0; return c; } },
  { name: 'bloom-filters has absent', block: SLOW, run: (from) => { let c = 0; for (let i = 0; i < SLOW; i++) c += theirs.has(absent[wrap(from) + i]) ? 1 : 0; return c; } },
  {
    name: 'bloom-filters add + remove', block: SLOW, before: () => { churnPeer = new BloomFilters.CountingBloomFilter(M, 7); },
    run: (from) => { const b = wrap(from); for (let i = 0; i < SLOW; i++) churnPeer.add(present[b + i]); for (let i = 0; i < SLOW; i++) churnPeer.remove(present[b + i]); return 0; },
  },
]);
for (const op of ['has present', 'has absent', 'add + remove']) {
  console.log(`(h) ${op}: ${(h[`bloom-filters ${op}`] / h[`wasm ${op}`]).toFixed(1)}x faster than bloom-filters (target >= 50x)`);
}
console.log(`(sink ${sink})`);
