// A crawler worker for the sliding filter's concurrency test: opens the
// shared sliding filter, waits for "go" on stdin, adds the same items as its
// siblings in its own order, and prints the indices of the items it was
// told were new (JSON).
// Usage: node redis-sliding-worker.mjs <url> <name> <worker> <count>
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import { mulberry32 } from '../../src/cli/mulberry32.js';
import { RedisSlidingBloomFilter } from '../../src/redis/index.js';

const [url, name, workerText, countText] = process.argv.slice(2);
const worker = Number(workerText);
const count = Number(countText);

const client = createClient({ url });
client.on('error', (err) => console.error('worker', worker, err));
await client.connect();
const filter = await RedisSlidingBloomFilter.open(client, name, { batchSize: 100 });

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
for (let at = 0; at < count; at += 250) {
  const chunk = order.slice(at, at + 250);
  const results = await filter.addMany(chunk.map((i) => `https://example.com/crawl/${i}`));
  results.forEach((isNew, j) => {
    if (isNew === 1) fresh.push(chunk[j]);
  });
}
process.stdout.write(JSON.stringify(fresh) + '\n');
await client.close();
