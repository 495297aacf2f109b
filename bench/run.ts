// `npm run bench`: bloomwasm against its pure-TypeScript reference, the npm
// peers `bloomfilter` and `bloom-filters`, the SeenFilter exercise's own
// solution, and the "encode only" floor. Every ratio comes from this one run.
// The workloads live in bench/workloads/, one file each; this file runs them
// in order, then writes bench/results.json and its section of
// docs/BENCHMARKS.md (bench/report.ts renders it).
//
// Env: BENCH_QUICK=1 (tiny sizes, to check that the suite works; the report
// goes to build/bench/BENCHMARKS.md), BENCH_TIME (ms per task, default 400),
// BENCH_SCALE (item counts, default 1), BENCH_REPORT (the document to write).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { urls } from './data.js';
import { documentPath, writeSection } from './document.js';
import { describeMachine, gc, settingsFromEnv, sinkValue, type Context } from './harness.js';
import { renderBench, type BenchResults } from './report.js';
import { heapWorkload, urlFalsePositives } from './workloads/accuracy.js';
import { bitmapWorkload } from './workloads/bitmap.js';
import { countingWorkload } from './workloads/counting.js';
import { probeManyWorkload } from './workloads/probe-many.js';
import { keyWorkloads } from './workloads/keys.js';
import { largeWorkload } from './workloads/large.js';
import { polyWorkload } from './workloads/poly.js';
import { scalableWorkload } from './workloads/scalable.js';
import { sharedWorkload } from './workloads/shared.js';
import { urlWorkload } from './workloads/urls.js';

const settings = settingsFromEnv();
const started = Date.now();
const results: BenchResults = {
  date: new Date(started).toISOString(),
  machine: describeMachine(),
  taskTimeMs: settings.time,
  scale: settings.scale,
  quick: settings.quick,
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
ctx.log(`bloomwasm bench on ${m.cores} cores (${m.cpu}), Node ${m.node}, ${settings.time} ms per task, scale ${settings.scale}${settings.quick ? ' (quick)' : ''}`);

ctx.log(`generating 2 × ${settings.n} URLs`);
const present = urls(settings.n, 1, 'p');
const absent = urls(settings.n, 2, 'q');

let filled: Awaited<ReturnType<typeof urlWorkload>> | undefined = await urlWorkload(ctx, present, absent);
urlFalsePositives(ctx, filled, present, absent);
await heapWorkload(ctx, filled, present, absent);
filled = undefined;
gc();
await polyWorkload(ctx, present, absent);
await keyWorkloads(ctx);
gc();
await largeWorkload(ctx, present, absent);
gc();
await scalableWorkload(ctx, present, absent);
await bitmapWorkload(ctx);
gc();
await probeManyWorkload(ctx);
await countingWorkload(ctx, present, absent);
gc();
await sharedWorkload(ctx);

results.seconds = (Date.now() - started) / 1000;
const resultsPath = join(process.cwd(), settings.quick ? 'build/bench/results.json' : 'bench/results.json');
mkdirSync(join(resultsPath, '..'), { recursive: true });
writeFileSync(resultsPath, JSON.stringify({ ...results, sink: sinkValue() }, null, 2) + '\n');
const document = documentPath(settings.quick);
writeSection(document, 'bench', renderBench(results));
ctx.log(`done in ${results.seconds.toFixed(0)} s; wrote ${resultsPath} and ${document}`);
