// `npm run bench:soak`: what memory does when filters are made and
// dropped (or made and disposed) for a minute, in a process of its own per
// mode, under the runtime that runs it (run it under Node 24 and Node 20).
// Each turn of the event loop makes and uses 250 of each kind:
// BloomFilter(8192, 5), CountingBloomFilter(8192, 5), a count window of
// 1,000 (SlidingBloomFilter) and a Bitmap of 10^5, then yields with
// setImmediate, as a server handling requests would. RSS is sampled every
// 250 ms; the figures docs/MEMORY.md quotes are RSS at 15 s and at 60 s,
// their ratio, the peak, and the shared wasm memory at the end.
//
// Not a timed test: the targets (RSS at 60 s at most 1.3 times RSS at
// 15 s, never above 1 GB dropped and 300 MB disposed) are checked here and
// printed, and the run exits 1 when one fails.
//
//   node build/bench/soak.mjs [dropped|disposed|both] [seconds]

import { setImmediate as tick } from 'node:timers/promises';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Bitmap, BloomFilter, CountingBloomFilter, SlidingBloomFilter } from '../src/index.js';
import { sharedArenas } from '../src/wasm/placement.js';

/** Objects of each kind made per turn of the event loop. */
const PER_TURN = 250;

interface SoakResult {
  mode: string;
  runtime: string;
  seconds: number;
  made: number;
  rssAt15: number;
  rssAt60: number;
  peakRss: number;
  wasmAtEnd: number;
}

/** One kind's turn: make PER_TURN, use each once, and drop or dispose it. */
function turn(n: number, dispose: boolean): void {
  for (let j = 0; j < PER_TURN; j++) {
    const key = `x${n + j}`;
    const f = new BloomFilter(8192, 5);
    f.add(key);
    const c = new CountingBloomFilter(8192, 5);
    c.add(key);
    const w = new SlidingBloomFilter({ window: 1000, falsePositiveRate: 0.01 });
    w.add(key);
    const b = new Bitmap(100_000);
    b.set((n + j) % 100_000);
    if (dispose) {
      f.dispose();
      c.dispose();
      w.dispose();
      b.dispose();
    }
  }
}

async function soak(mode: string, seconds: number): Promise<SoakResult> {
  const dispose = mode === 'disposed';
  const start = Date.now();
  let made = 0;
  let rssAt15 = 0;
  let peakRss = 0;
  let nextSample = 0;
  for (;;) {
    turn(made, dispose);
    made += PER_TURN;
    await tick();
    const t = Date.now() - start;
    if (t >= nextSample) {
      nextSample += 250;
      const rss = process.memoryUsage().rss;
      peakRss = Math.max(peakRss, rss);
      if (rssAt15 === 0 && t >= 15_000) rssAt15 = rss;
    }
    if (t >= seconds * 1000) break;
  }
  const rssAt60 = process.memoryUsage().rss;
  const wasmAtEnd = sharedArenas().reduce((sum, a) => sum + a.memoryBytes, 0);
  return { mode, runtime: `Node ${process.versions.node}`, seconds, made, rssAt15, rssAt60, peakRss: Math.max(peakRss, rssAt60), wasmAtEnd };
}

const MB = 1e6;

function report(r: SoakResult): boolean {
  const limit = r.mode === 'dropped' ? 1000 * MB : 300 * MB;
  const ratio = r.rssAt60 / r.rssAt15;
  const ok = ratio <= 1.3 && r.peakRss <= limit;
  console.log(
    `| ${r.runtime} | ${r.mode} | ${(r.made * 4).toLocaleString('en-US')} | ${(r.rssAt15 / MB).toFixed(0)} MB | ${(r.rssAt60 / MB).toFixed(0)} MB | ` +
      `${ratio.toFixed(2)} | ${(r.peakRss / MB).toFixed(0)} MB | ${(r.wasmAtEnd / MB).toFixed(0)} MB | ${ok ? 'yes' : 'NO'} |`,
  );
  return ok;
}

const mode = process.argv[2] ?? 'both';
const seconds = Number(process.argv[3] ?? 60);
if (mode === 'both') {
  // Each mode in a process of its own, so neither inherits the other's heap.
  const self = fileURLToPath(import.meta.url);
  console.log('| runtime | filters | made (all kinds) | RSS at 15 s | RSS at 60 s | ratio | peak RSS | wasm memory at end | within targets |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
  let failed = false;
  for (const m of ['dropped', 'disposed']) {
    try {
      process.stdout.write(execFileSync(process.execPath, [self, m, String(seconds)], { encoding: 'utf8' }));
    } catch (error) {
      process.stdout.write((error as { stdout?: string }).stdout ?? '');
      failed = true;
    }
  }
  process.exitCode = failed ? 1 : 0;
} else {
  process.exitCode = report(await soak(mode, seconds)) ? 0 : 1;
}
