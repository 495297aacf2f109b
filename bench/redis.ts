// npm run bench:redis: items per second for RedisBloomFilter.addMany at
// batch sizes 1, 10, 100 and 1,000, against the naive client that crawlers
// use today (scrapy-redis style): for each item, one GETBIT per bit as the
// check, then one SETBIT per bit, every command pipelined. Both run against
// one local redis-server started here (no persistence), with the same m, k
// and positions. Fresh items in every call, so every add is a real insert.
// Writes its section of docs/BENCHMARKS.md (bench/report-redis.ts renders
// it); BENCH_QUICK=1 runs a tiny filter with short tasks and writes
// build/bench/BENCHMARKS.md instead.
import { execFileSync } from 'node:child_process';
import { createClient, type RedisClientType } from 'redis';
import { Bench } from 'tinybench';
import { BloomFilter } from '../src/index.node.js';
import { RedisBloomFilter } from '../src/redis/index.js';
import { RedisServer } from '../test/helpers/redis-server.js';
import { documentPath, writeSection } from './document.js';
import { describeMachine } from './harness.js';
import { renderRedis } from './report-redis.js';

const QUICK = process.env.BENCH_QUICK === '1';
const BATCHES = [1, 10, 100, 1000];
const CAPACITY = QUICK ? 10_000 : 10_000_000;
const FALSE_POSITIVE_RATE = 0.01;
const TASK_TIME_MS = QUICK ? 20 : 1500;

const date = new Date().toISOString();
const machine = describeMachine();

const server = await RedisServer.start();
const client: RedisClientType = createClient({ url: server.url });
client.on('error', (err) => console.error(err));
try {
  await client.connect();
  const rf = await RedisBloomFilter.reserve(client, 'bench', { capacity: CAPACITY, falsePositiveRate: FALSE_POSITIVE_RATE });
  const local = new BloomFilter(rf.shardBits, rf.hashes); // positions only, for the naive client
  let next = 0;
  const fresh = (n: number): string[] => Array.from({ length: n }, () => `https://bench.example/page/${next++}`);

  /** The naive client: pipelined GETBITs as the check, then pipelined SETBITs. Not atomic. */
  async function naiveAddMany(items: string[]): Promise<boolean[]> {
    const positions = items.map((x) => local.positions(x));
    const old = await Promise.all(positions.flat().map((p) => client.getBit('naive', p)));
    await Promise.all(positions.flat().map((p) => client.setBit('naive', p, 1)));
    return items.map((_, i) => old.slice(i * rf.hashes, (i + 1) * rf.hashes).includes(0));
  }
  await client.setBit('naive', rf.shardBits - 1, 0); // preallocate, as reserve does

  const bench = new Bench({ time: TASK_TIME_MS, warmup: !QUICK, warmupTime: 200 });
  for (const size of BATCHES) {
    bench.add(`bloomwasm addMany batch=${size}`, async () => {
      await rf.addMany(fresh(size));
    });
    bench.add(`naive GETBIT+SETBIT batch=${size}`, async () => {
      await naiveAddMany(fresh(size));
    });
  }
  await bench.run();

  const rate = (name: string, size: number): number => {
    const task = bench.getTask(name)!;
    const result = task.result as { period?: number };
    return result.period ? (size * 1000) / result.period : NaN;
  };
  // "Redis server v=7.0.15 sha=..." -> "7.0.15".
  const redisVersion = /v=(\S+)/.exec(execFileSync('redis-server', ['--version']).toString())?.[1] ?? 'unknown';
  const rows = BATCHES.map((size) => ({
    batch: size,
    addManyPerSecond: rate(`bloomwasm addMany batch=${size}`, size),
    naivePerSecond: rate(`naive GETBIT+SETBIT batch=${size}`, size),
  }));
  const info = await rf.info();
  const body = renderRedis({
    date, machine, redisVersion, bits: rf.bits, hashes: rf.hashes, shards: rf.shards, taskTimeMs: TASK_TIME_MS, quick: QUICK,
    rows, addedCount: info.addedCount, estimatedCount: info.estimatedCount,
  });
  process.stdout.write(body + '\n');
  const document = documentPath(QUICK);
  writeSection(document, 'redis', body);
  process.stderr.write(`wrote ${document}\n`);
} finally {
  await client.close().catch(() => {});
  await server.stop();
}
