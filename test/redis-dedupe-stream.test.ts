// dedupeStream over the Redis filters, against one real redis-server: their
// add answers a promise, and the stream waits for each, so the items come
// out in order, each the first time the shared filter sees it, and two
// streams over one filter (two workers) pass each URL on exactly once
// between them.
import { expect, it } from 'vitest';
import { dedupeStream } from '../src/index.js';
import { RedisBloomFilter, RedisSlidingBloomFilter } from '../src/redis/index.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';

/** Writes `items` into the stream and reads everything it passes on. */
async function run(stream: TransformStream<string, string>, items: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const source = new ReadableStream<string>({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
  const reader = source.pipeThrough(stream).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

const urls: string[] = [];
for (let i = 0; i < 200; i++) urls.push(`https://example.com/${i}`, `https://example.com/${i >> 1}`);
const distinct = [...new Set(urls)];

describeRedis('dedupeStream over a Redis filter', () => {
  const redis = redisForSuite();

  it('passes on each URL the first time the RedisBloomFilter sees it, in order', async () => {
    const seen = await RedisBloomFilter.reserve(redis.client, 'dedupe-stream', { capacity: 10_000, falsePositiveRate: 1e-6 });
    expect(await run(dedupeStream(seen), urls)).toEqual(distinct);
    expect(await seen.has(distinct[0])).toBe(true);
  });

  it('passes each URL on once between two streams over one filter', async () => {
    const a = await RedisBloomFilter.reserve(redis.client, 'dedupe-two', { capacity: 10_000, falsePositiveRate: 1e-6 });
    const b = await RedisBloomFilter.open(redis.client, 'dedupe-two');
    const [outA, outB] = await Promise.all([run(dedupeStream(a), urls), run(dedupeStream(b), [...urls].reverse())]);
    expect([...outA, ...outB].sort()).toEqual([...distinct].sort());
  });

  it('works over a RedisSlidingBloomFilter', async () => {
    const recent = await RedisSlidingBloomFilter.reserve(redis.client, 'dedupe-sliding', { window: 10_000, falsePositiveRate: 1e-6 });
    expect(await run(dedupeStream(recent), urls)).toEqual(distinct);
  });
});
