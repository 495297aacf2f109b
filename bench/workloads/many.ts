// Workload (j): many filters, as they are used: one per SSTable, user or
// session. Each scenario runs in a child process of its own (the same
// bundle, BENCH_MANY_CHILD naming the scenario), so that its peak RSS is
// its own; the child prints one JSON line.
// - live: 10^6 filters of forCapacity(1000, 0.01), one item added to each,
//   all kept and each asked for its item, against bloomfilter.js's
//   new BloomFilter(9586, 7) plus add (the same m and k);
// - short-lived: 3 x 10^6 new BloomFilter(8192, 5), each added to and asked
//   once, then dropped (a turn of the event loop every 1,000, as a server
//   gives between requests, so that the collector's reports can run) or
//   disposed;
// - chain: has of absent URLs on a ScalableBloomFilter grown to 7 members,
//   against one fixed filter sized for the same items, under xxh64 and sbbf.

import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setImmediate as turn } from 'node:timers/promises';
import { BloomFilter as PeerBloomfilter } from 'bloomfilter';
import { BloomFilter, ScalableBloomFilter } from '../../src/index.node.js';
import { urls } from '../data.js';
import { documentPath, writeSection } from '../document.js';
import type { Context } from '../harness.js';
import { renderMany } from '../report.js';
import type { ManyRow, ManySummary } from '../results.js';

/** The scenarios, in the order they run. */
const SCENARIOS = ['live bloomwasm', 'live bloomfilter', 'short dropped', 'short disposed', 'short bloomfilter', 'chain xxh64', 'chain sbbf'] as const;
type Scenario = (typeof SCENARIOS)[number];

/** Peak resident set of this process so far, in MB. */
const peakMB = (): number => process.resourceUsage().maxRSS / 1024;

/** Runs one scenario in this process (a child) and prints its row. */
export async function manyChild(scenario: Scenario, quick: boolean): Promise<void> {
  const live = quick ? 20_000 : 1_000_000;
  const short = quick ? 60_000 : 3_000_000;
  const row: ManyRow = { scenario, count: 0, nsPerFilter: 0, peakMB: 0 };
  if (scenario === 'live bloomwasm' || scenario === 'live bloomfilter') {
    const js = scenario === 'live bloomfilter';
    const filters: { has(s: string): boolean }[] = new Array(live);
    const t0 = performance.now();
    for (let i = 0; i < live; i++) {
      if (js) {
        const f = new PeerBloomfilter(9586, 7);
        f.add(`key-${i}`);
        filters[i] = { has: (s) => f.test(s) };
      } else {
        const f = BloomFilter.forCapacity(1000, 0.01);
        f.add(`key-${i}`);
        filters[i] = f;
      }
    }
    row.nsPerFilter = ((performance.now() - t0) * 1e6) / live;
    let answered = 0;
    for (let i = 0; i < live; i++) if (filters[i].has(`key-${i}`)) answered++;
    row.count = live;
    row.answered = answered;
  } else if (scenario.startsWith('short')) {
    const t0 = performance.now();
    let answered = 0;
    for (let i = 0; i < short; i++) {
      const key = `key-${i}`;
      if (scenario === 'short bloomfilter') {
        const f = new PeerBloomfilter(8192, 5);
        f.add(key);
        if (f.test(key)) answered++;
      } else {
        const f = new BloomFilter(8192, 5);
        f.add(key);
        if (f.has(key)) answered++;
        if (scenario === 'short disposed') f.dispose();
      }
      if (i % 1000 === 999) await turn();
    }
    row.nsPerFilter = ((performance.now() - t0) * 1e6) / short;
    row.count = short;
    row.answered = answered;
  } else {
    // A chain from 1/64 of the items, doubling: 7 members once it holds them.
    const n = quick ? 20_000 : 200_000;
    const present = urls(n, 1, 'p').strings;
    const absent = urls(n, 2, 'q').strings;
    const scheme = scenario === 'chain sbbf' ? 'sbbf' : 'xxh64';
    const chain = new ScalableBloomFilter({ capacity: Math.ceil(n / 127), falsePositiveRate: 0.01, scheme });
    for (const s of present) chain.add(s);
    const fixed = BloomFilter.forCapacity(n, 0.01, { scheme });
    for (const s of present) fixed.add(s);
    const time = (f: { has(s: string): boolean }): number => {
      let found = 0;
      const t = performance.now();
      for (const s of absent) if (f.has(s)) found++;
      const ns = ((performance.now() - t) * 1e6) / absent.length;
      return found < 0 ? 0 : ns;
    };
    // Interleaved rounds, the median of each: the two share the machine's moments.
    const chainNs: number[] = [];
    const fixedNs: number[] = [];
    for (let round = 0; round < 15; round++) {
      chainNs.push(time(chain));
      fixedNs.push(time(fixed));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
    row.count = n;
    row.members = chain.members.length;
    row.nsPerFilter = median(chainNs);
    row.fixedNs = median(fixedNs);
  }
  row.peakMB = peakMB();
  console.log(JSON.stringify(row));
}

/** Runs every scenario in a child process and records the rows. */
export async function manyWorkload(ctx: Context): Promise<void> {
  ctx.log('workload (j): many filters, each scenario in a child process');
  const rows: ManyRow[] = [];
  for (const scenario of SCENARIOS) {
    const child = spawnSync(process.execPath, ['--max-old-space-size=8192', process.argv[1]], {
      env: { ...process.env, BENCH_MANY_CHILD: scenario },
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0) throw new Error(`many: the child for "${scenario}" failed: ${child.stderr}`);
    const row = JSON.parse(child.stdout.trim().split('\n').pop()!) as ManyRow;
    ctx.log(`  ${scenario}: ${row.nsPerFilter.toFixed(0)} ns, peak ${row.peakMB.toFixed(0)} MB`);
    rows.push(row);
  }
  const summary: ManySummary = { node: process.versions.node, rows };
  ctx.results.many = summary;
  // A section of its own, written even when (j) runs alone (BENCH_ONLY=j).
  const document = documentPath(ctx.settings.quick);
  writeSection(document, 'many', renderMany(summary, ctx.results.date, ctx.results.machine));
  ctx.log(`wrote the many-filters section of ${document}`);
}

/** The scenario a child was started for, if this process is one. */
export function manyChildScenario(): Scenario | undefined {
  const name = process.env.BENCH_MANY_CHILD;
  return SCENARIOS.find((s) => s === name);
}
