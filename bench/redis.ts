// npm run bench:redis: items per second for RedisBloomFilter.addMany at
// batch sizes 1, 10, 100 and 1,000, against the naive client that crawlers
// use today (scrapy-redis style): for each item, one GETBIT per bit as the
// check, then one SETBIT per bit, every command pipelined. Both run against
// one local redis-server started here (no persistence), with the same m, k
// and positions. Fresh items in every call, so every add is a real insert.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { createClient, type RedisClientType } from 'redis';
import { Bench } from 'tinybench';
import { BloomFilter } from '../src/index.js';
import { RedisBloomFilter } from '../src/redis/index.js';
import { RedisServer } from '../test/helpers/redis-server.js';

const BATCHES = [1, 10, 100, 1000];
const CAPACITY = 10_000_000;
const FALSE_POSITIVE_RATE = 0.01;

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

  const bench = new Bench({ time: 1500, warmup: true, warmupTime: 200 });
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
  const redisVersion = execFileSync('redis-server', ['--version']).toString().trim().split(' ').slice(0, 3).join(' ');
  console.log(`\n${new Date().toISOString().slice(0, 10)}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ` +
    `Node ${process.version}, ${redisVersion}; m = ${rf.bits}, k = ${rf.hashes}, 1 shard, loopback, no persistence\n`);
  console.log('| batch | bloomwasm addMany (items/s) | naive GETBIT+SETBIT (items/s) | ratio |');
  console.log('|---:|---:|---:|---:|');
  for (const size of BATCHES) {
    const ours = rate(`bloomwasm addMany batch=${size}`, size);
    const naive = rate(`naive GETBIT+SETBIT batch=${size}`, size);
    const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
    console.log(`| ${size} | ${fmt(ours)} | ${fmt(naive)} | ${(ours / naive).toFixed(1)}x |`);
  }
  const info = await rf.info();
  console.log(`\nadded ${info.addedCount.toLocaleString('en-US')} items; estimated count ${Math.round(info.estimatedCount).toLocaleString('en-US')}`);
} finally {
  await client.close().catch(() => {});
  await server.stop();
}
