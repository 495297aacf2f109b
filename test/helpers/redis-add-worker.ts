// A crawler worker for the concurrency tests: opens the shared filter (a
// RedisBloomFilter, or a RedisSlidingBloomFilter with `sliding`), waits for
// "go" on stdin, adds the same items as its siblings in its own order, and
// prints the indices of the items it was told were new (JSON).
// Usage: node redis-add-worker.mjs <url> <name> <worker> <count> [plain|sliding]
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import { mulberry32 } from '../../src/cli/mulberry32.js';
import { RedisBloomFilter, RedisSlidingBloomFilter } from '../../src/redis/index.js';

const [url, name, workerText, countText, kind = 'plain'] = process.argv.slice(2);
const worker = Number(workerText);
const count = Number(countText);
// The sliding filter's batches are smaller, so that its rotations fall inside and between them.
const chunkSize = kind === 'sliding' ? 250 : 500;

const client = createClient({ url });
client.on('error', (err) => console.error('worker', worker, err));
await client.connect();
const filter = kind === 'sliding'
  ? await RedisSlidingBloomFilter.open(client, name, { batchSize: 100 })
  : await RedisBloomFilter.open(client, name, { batchSize: 100 });

// Each worker visits the items in its own order (a seeded Fisher-Yates
// shuffle, mulberry32), so the runs collide all over the set.
const random = mulberry32(0x9e3779b9 ^ worker);
const order = Array.from({ length: count }, (_, i) => i);
for (let i = count - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [order[i], order[j]] = [order[j], order[i]];
}

process.stdout.write('ready\n');
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));

const fresh: number[] = [];
for (let at = 0; at < count; at += chunkSize) {
  const chunk = order.slice(at, at + chunkSize);
  const results = await filter.addMany(chunk.map((i) => `https://example.com/crawl/${i}`));
  results.forEach((isNew, j) => {
    if (isNew === 1) fresh.push(chunk[j]);
  });
}
process.stdout.write(JSON.stringify(fresh) + '\n');
await client.close();
