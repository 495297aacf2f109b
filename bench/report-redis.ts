// The section `npm run bench:redis` owns in docs/BENCHMARKS.md, rendered from
// measured results. Pure functions only, like bench/report.ts (the shared
// formatting is bench/format.ts, the section markers
// bench/document-sections.ts); test/bench-report.test.ts pins the output.

import { formatDate, formatMachine, int } from './format.js';
import type { Machine } from './results.js';

/** One batch size: items per second for addMany and for the naive client. */
export interface RedisRow {
  batch: number;
  addManyPerSecond: number;
  naivePerSecond: number;
}

/** Everything `npm run bench:redis` measured in one run. */
export interface RedisResults {
  /** ISO 8601 time of the run's start. */
  date: string;
  machine: Machine;
  /** The server's version, as `redis-server --version` prints it after "v=". */
  redisVersion: string;
  bits: number;
  hashes: number;
  shards: number;
  taskTimeMs: number;
  quick: boolean;
  rows: RedisRow[];
  /** The filter's addedCount and its estimated count after the run. */
  addedCount: number;
  estimatedCount: number;
  note?: string;
}

/** How `npm run bench:redis` measures. */
export const REDIS_METHOD = [
  '### Method',
  '',
  '`bench/redis.ts` starts one local redis-server (loopback, no persistence) and reserves one filter sized for 10,000,000 items at 1%. Each tinybench task adds a batch of fresh URLs, so every add is a real insert: `RedisBloomFilter.addMany` (one script call per shard per batch), against the naive client crawlers use today (scrapy-redis style): for each item one GETBIT per bit as the check, then one SETBIT per bit, every command pipelined, not atomic (two workers can both decide a URL is new). Both use the same m, k and positions. Items per second is the batch size divided by the mean task time. `BENCH_QUICK=1` sizes the filter for 10,000 items and runs each task for 20 ms, to check that the benchmark works.',
].join('\n');

/** The section `npm run bench:redis` owns. */
export function renderRedis(r: RedisResults): string {
  const out: string[] = [
    '## RedisBloomFilter against GETBIT and SETBIT (`npm run bench:redis`)',
    '',
    `Run of ${formatDate(r.date)} on ${formatMachine(r.machine)}; Redis ${r.redisVersion}, m = ${int(r.bits)}, k = ${r.hashes}, ` +
      `${r.shards} shard${r.shards === 1 ? '' : 's'}; ${r.taskTimeMs} ms per task` +
      `${r.quick ? ' (quick smoke mode: a tiny filter and short tasks, the figures mean nothing)' : ''}.`,
  ];
  if (r.note) out.push('', r.note);
  out.push('', '| batch | addMany (items/s) | naive GETBIT+SETBIT (items/s) | addMany / naive |', '|---:|---:|---:|---:|');
  for (const row of r.rows) {
    out.push(`| ${int(row.batch)} | ${int(row.addManyPerSecond)} | ${int(row.naivePerSecond)} | ${(row.addManyPerSecond / row.naivePerSecond).toFixed(1)}× |`);
  }
  out.push('', `After the run the filter had ${int(r.addedCount)} adds and an estimated count of ${int(r.estimatedCount)}.`, '', REDIS_METHOD);
  return out.join('\n');
}
