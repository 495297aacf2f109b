// `npm run bench`: bloomwasm against its pure-TypeScript reference, the npm
// peers `bloomfilter` and `bloom-filters`, the SeenFilter exercise's own
// solution, and the "encode only" floor. Every ratio comes from this one run.
// The workloads live in bench/workloads/, one file each; this file runs them
// in order, then writes bench/results.json and its section of
// docs/BENCHMARKS.md (bench/report.ts renders it).
//
// Env: BENCH_QUICK=1 (tiny sizes, to check that the suite works; the report
// goes to build/bench/BENCHMARKS.md), BENCH_TIME (ms per task, default 400),
// BENCH_SCALE (item counts, default 1), BENCH_REPORT (the document to write),
// BENCH_ONLY (workload letters to run, e.g. `a,g`: a partial run, so its
// report goes to build/bench/ like a quick one, never to docs/, unless
// BENCH_MERGE=1 puts its workloads in place of theirs in the last full run),
// BENCH_REPEAT (children per isolated contestant; each row keeps the median),
// BENCH_RESULTS (a file to write the results to instead of bench/results.json
// and docs/: bench:runtimes gathers one per runtime).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { urls, type ItemSet } from './data.js';
import { documentPath, writeSection } from './document.js';
import { describeMachine, gc, isIsolatedChild, settingsFromEnv, sinkValue, writeChildRows, type Context } from './harness.js';
import { renderBench } from './report.js';
import type { BenchResults } from './results.js';
import { heapWorkload, urlFalsePositives } from './workloads/accuracy.js';
import { bitmapWorkload } from './workloads/bitmap.js';
import { countingWorkload } from './workloads/counting.js';
import { probeManyWorkload } from './workloads/probe-many.js';
import { keyWorkloads } from './workloads/keys.js';
import { largeWorkload } from './workloads/large.js';
import { manyChild, manyChildScenario, manyWorkload } from './workloads/many.js';
import { polyWorkload } from './workloads/poly.js';
import { scalableWorkload } from './workloads/scalable.js';
import { sharedWorkload } from './workloads/shared.js';
import { slidingWorkload } from './workloads/sliding.js';
import { urlWorkload } from './workloads/urls.js';

const settings = settingsFromEnv();
// A child of workload (j): one scenario, its row on stdout, nothing else.
const manyScenario = manyChildScenario();
if (manyScenario !== undefined) {
  await manyChild(manyScenario, settings.quick);
  process.exit(0);
}
const started = Date.now();
const results: BenchResults = {
  date: new Date(started).toISOString(),
  machine: describeMachine(),
  taskTimeMs: settings.time,
  scale: settings.scale,
  quick: settings.quick,
  isolated: ['a', 'b', 'd', 'h'].filter((w) => settings.isolate.has(w)),
  seconds: 0,
  rows: [],
  falsePositives: [],
  heap: [],
};
const ctx: Context = {
  settings,
  results,
  log: (message) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`),
};
const m = results.machine;
ctx.log(`bloomwasm bench on ${m.cores} cores (${m.cpu}), ${m.runtime}, ${settings.time} ms per task, scale ${settings.scale}${settings.quick ? ' (quick)' : ''}`);

/** The workloads BENCH_ONLY names (every one when it is unset). */
const only = process.env.BENCH_ONLY === undefined ? undefined : new Set(process.env.BENCH_ONLY.split(',').map((w) => w.trim()));
const runs = (letter: string) => only === undefined || only.has(letter);

// The URL sets of (a), (c), (d), (e) and (h), made only when one of them runs
// (a run or an isolated child of (b), (f), (g) or (i) needs none).
const urlWorkloads = ['a', 'c', 'd', 'e', 'h'].filter(runs);
let present!: ItemSet;
let absent!: ItemSet;
if (urlWorkloads.length > 0) {
  ctx.log(`generating 2 × ${settings.n} URLs`);
  present = urls(settings.n, 1, 'p');
  absent = urls(settings.n, 2, 'q');
}

if (runs('a')) {
  let filled: Awaited<ReturnType<typeof urlWorkload>> | undefined = await urlWorkload(ctx, present, absent);
  if (!isIsolatedChild) urlFalsePositives(ctx, filled, present, absent);
  if (!isIsolatedChild) await heapWorkload(ctx, filled, present, absent);
  filled = undefined;
  gc();
}
if (runs('d')) await polyWorkload(ctx, present, absent);
if (runs('b')) await keyWorkloads(ctx);
gc();
if (runs('c')) await largeWorkload(ctx, present, absent);
gc();
if (runs('e')) await scalableWorkload(ctx, present, absent);
if (runs('f')) await bitmapWorkload(ctx);
gc();
if (runs('g')) await probeManyWorkload(ctx);
if (runs('h')) await countingWorkload(ctx, present, absent);
gc();
if (runs('i')) await sharedWorkload(ctx);
if (runs('j')) await manyWorkload(ctx);
gc();
if (runs('k')) await slidingWorkload(ctx);

if (isIsolatedChild) {
  writeChildRows(results);
  process.exit(0);
}
results.seconds = (Date.now() - started) / 1000;
// BENCH_MERGE=1 with BENCH_ONLY: the chosen workloads measured again replace
// theirs in bench/results.json, and docs/BENCHMARKS.md is written from the
// whole; the report says which workloads were measured again, and when.
const merge = only !== undefined && process.env.BENCH_MERGE === '1' && !settings.quick;
if (merge) {
  const before = JSON.parse(readFileSync(join(process.cwd(), 'bench/results.json'), 'utf8')) as BenchResults;
  const again = (title: string) => [...only].some((w) => title.startsWith(`(${w})`));
  const when = results.date.slice(11, 16);
  const repeat = Number(process.env.BENCH_REPEAT ?? 1);
  results.rows = [...before.rows.filter((r) => !again(r.workload)), ...results.rows];
  results.rows.sort((a, b) => a.workload.localeCompare(b.workload));
  results.falsePositives = before.falsePositives;
  results.heap = before.heap;
  results.scalable = before.scalable;
  results.bitmap = before.bitmap;
  results.many ??= before.many;
  results.note = `${before.note ? before.note + ' ' : ''}${only.size > 1 ? 'Workloads' : 'Workload'} ${[...only].map((w) => `(${w})`).join(', ')} ${only.size > 1 ? 'were' : 'was'} measured again at ${when} UTC${repeat > 1 ? `, each isolated contestant ${repeat} times (each row keeps the median of the runs)` : ''}; the rest comes from the run of ${before.date.slice(11, 16)} UTC.`;
  results.date = before.date;
  results.seconds = before.seconds;
  results.isolated = before.isolated;
}
if (process.env.BENCH_RESULTS !== undefined) {
  writeFileSync(process.env.BENCH_RESULTS, JSON.stringify({ ...results, sink: sinkValue() }, null, 2) + '\n');
  ctx.log(`done in ${results.seconds.toFixed(0)} s; wrote ${process.env.BENCH_RESULTS}`);
  process.exit(0);
}
const partial = settings.quick || (only !== undefined && !merge);
const resultsPath = join(process.cwd(), partial ? 'build/bench/results.json' : 'bench/results.json');
mkdirSync(join(resultsPath, '..'), { recursive: true });
writeFileSync(resultsPath, JSON.stringify({ ...results, sink: sinkValue() }, null, 2) + '\n');
const document = documentPath(partial);
writeSection(document, 'bench', renderBench(results));
ctx.log(`done in ${results.seconds.toFixed(0)} s; wrote ${resultsPath} and ${document}`);
