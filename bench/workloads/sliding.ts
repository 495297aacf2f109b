// Workload (k): a SlidingBloomFilter with a window of 10^5 URLs at p = 0.01
// (docs/SLIDING.md), against one plain forCapacity(10^5, 0.01) filter: its
// memory (target at most 2x), its has() on the same items (target at most
// 3x, medians of interleaved rounds), and the rate of never-added URLs at
// checkpoints of a stream of 4 windows that are not aligned with a rotation
// (target within 1.25p). Writes its own section of the benchmark document,
// also when it runs alone (BENCH_ONLY=k).

import { BloomFilter, SlidingBloomFilter } from '../../src/index.node.js';
import { urls } from '../data.js';
import { documentPath, writeSection } from '../document.js';
import { consume, type Context } from '../harness.js';
import { renderSliding } from '../report.js';
import type { SlidingSummary } from '../results.js';

/** Rounds of the interleaved has() timing; each figure is the median. */
const ROUNDS = 15;

/** ns per call of `f` over `items`, one pass. */
function pass(f: (s: string) => boolean, items: readonly string[]): number {
  let hits = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < items.length; i++) if (f(items[i])) hits++;
  const ns = Number(process.hrtime.bigint() - start);
  consume(hits);
  return ns / items.length;
}

const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

/** Runs (k) and writes its section. */
export async function slidingWorkload(ctx: Context): Promise<void> {
  const n = ctx.settings.quick ? 2_000 : 100_000;
  const p = 0.01;
  ctx.log(`workload (k): a sliding window of ${n} URLs at p = ${p}`);
  const sliding = new SlidingBloomFilter({ window: n, falsePositiveRate: p });
  const timed = new SlidingBloomFilter({ windowMs: 86_400_000, capacity: n, falsePositiveRate: p });
  const plain = BloomFilter.forCapacity(n, p);
  const stream = urls(4 * n, 31, 's');
  const absent = urls(n, 32, 't').strings;
  const c = sliding.shape.generationCapacity;

  // Rates at checkpoints off the rotation, and at the fullest phase (c - 1 adds into a generation).
  const checkpoints = [n + 3_001, Math.floor(1.5 * n) + 17, 8 * c + c - 1, 3 * n + Math.floor(c / 3), 4 * n - 1].sort((a, b) => a - b);
  const rates: SlidingSummary['rates'] = [];
  let at = 0;
  for (const checkpoint of checkpoints) {
    sliding.addMany({ bytes: stream.packed.bytes, offsets: stream.packed.offsets.subarray(at, checkpoint + 1) });
    at = checkpoint;
    const hits = sliding.hasMany(absent).reduce((a, b) => a + b, 0);
    // A generation ends at the add after its c-th, so after A adds the current one holds ((A - 1) mod c) + 1.
    rates.push({ adds: checkpoint, inGeneration: ((checkpoint - 1) % c) + 1, measured: hits / absent.length, estimated: sliding.currentFalsePositiveRate() });
  }

  // has() timing: the plain filter holds the same last n items the window holds.
  const window = stream.strings.slice(at - n, at);
  plain.addMany(window);
  timed.addMany(window);
  const rows: Record<string, number[]> = {};
  const time = (name: string, f: (s: string) => boolean, items: readonly string[]): void => {
    (rows[name] ??= []).push(pass(f, items));
  };
  for (let round = 0; round < ROUNDS; round++) {
    time('plain present', (s) => plain.has(s), window);
    time('sliding present', (s) => sliding.has(s), window);
    time('time present', (s) => timed.has(s), window);
    time('plain absent', (s) => plain.has(s), absent);
    time('sliding absent', (s) => sliding.has(s), absent);
    time('time absent', (s) => timed.has(s), absent);
  }
  const ns = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
  const summary: SlidingSummary = {
    node: process.versions.node,
    window: n,
    falsePositiveRate: p,
    generationCapacity: c,
    plainBits: plain.bits,
    countBits: sliding.bits,
    timeBits: timed.bits,
    hashes: { plain: plain.hashes, sliding: sliding.hashes },
    ns: {
      plainPresent: ns['plain present'], slidingPresent: ns['sliding present'], timePresent: ns['time present'],
      plainAbsent: ns['plain absent'], slidingAbsent: ns['sliding absent'], timeAbsent: ns['time absent'],
    },
    rates,
  };
  ctx.log(`  memory ${(sliding.bits / plain.bits).toFixed(3)}x, has ${(summary.ns.slidingPresent / summary.ns.plainPresent).toFixed(2)}x present, ${(summary.ns.slidingAbsent / summary.ns.plainAbsent).toFixed(2)}x absent`);
  const document = documentPath(ctx.settings.quick);
  writeSection(document, 'sliding', renderSliding(summary, ctx.results.date, ctx.results.machine));
  ctx.log(`wrote the sliding-window section of ${document}`);
}
