// Redis batches while local filters are made in the same process. Every
// filter's bits live in one shared wasm memory, and making a large one grows
// it, which detaches every typed-array view of the old buffer. A Redis batch
// yields between its script calls (setImmediate, and the awaits of the
// replies), so local code runs in the middle of it: the batch must read each
// item's positions out of wasm memory right after hashing it, and send them
// all. An error is not an acceptable answer here: nothing went wrong.
import { afterAll, expect, it } from 'vitest';
import { BloomFilter, CountingBloomFilter } from '../src/index.js';
import { RedisBloomFilter, RedisSlidingBloomFilter } from '../src/redis/index.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';

/** The local filters made during the batches; kept alive so that each one needs memory of its own. */
const kept: Array<BloomFilter | CountingBloomFilter> = [];
/** Capacities of the local filters, made in turn: 1.2 to 4.8 MB of bits each. */
const CAPACITIES = [1e6, 2e6, 4e6];

/** Makes one large local filter (a plain or a counting one), as unrelated code of the same process would. */
function makeLocalFilter(): void {
  const capacity = CAPACITIES[kept.length % CAPACITIES.length];
  kept.push(kept.length % 4 === 3 ? CountingBloomFilter.forCapacity(capacity / 4, 0.01) : BloomFilter.forCapacity(capacity, 0.01));
}

/**
 * Runs `call` while large local filters are made in microtasks and in the
 * next `ticks` macrotasks (setImmediate), as a server's other requests would.
 */
async function whileFiltersAreMade<T>(call: () => Promise<T>, ticks = 8): Promise<T> {
  let made = 0;
  const tick = (): void => {
    if (made++ >= ticks) return;
    makeLocalFilter();
    setImmediate(tick);
  };
  setImmediate(tick);
  // Run at the batch's first await, after its first script call was hashed and sent.
  queueMicrotask(makeLocalFilter);
  void Promise.resolve().then(() => Promise.resolve()).then(makeLocalFilter);
  const before = kept.length;
  const result = await call();
  // The batch really overlapped with the local filters (else this test proves nothing).
  expect(kept.length - before).toBeGreaterThanOrEqual(3);
  return result;
}

const urls = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describeRedis('Redis batches while local filters grow the shared wasm memory', () => {
  const redis = redisForSuite();
  afterAll(() => {
    for (const filter of kept) filter.dispose();
  });

  it('RedisBloomFilter: addMany and hasMany of 5,000 URLs send every item while large local filters are made', async () => {
    const rf = await RedisBloomFilter.reserve(redis.client, 'growth', { capacity: 100_000, falsePositiveRate: 0.01 }, { shards: 2 });
    const items = urls(5000, 'https://growth.example/');
    const local = new BloomFilter(rf.shardBits, rf.hashes);
    const added = await whileFiltersAreMade(() => rf.addMany(items));
    expect(added.length).toBe(5000);
    expect(added.every((flag) => flag === 1)).toBe(true);
    const present = await whileFiltersAreMade(() => rf.hasMany(items));
    expect(present.every((flag) => flag === 1)).toBe(true);
    // The bits sent are the items' own: each shard equals a local filter of its items.
    const shardItems = [0, 1].map((s) => items.filter((x) => rf.shardOf(x) === s));
    local.addMany(shardItems[0]);
    expect(await rf.bitArray(0)).toEqual(local.bitArray());
    const absent = await whileFiltersAreMade(() => rf.hasMany(urls(5000, 'https://never.example/')));
    expect(absent.filter((flag) => flag === 1).length).toBeLessThan(200);
    await rf.drop();
  });

  it('RedisSlidingBloomFilter: addMany and hasMany of 5,000 URLs send every item while large local filters are made', async () => {
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'growth-sliding', { window: 100_000, falsePositiveRate: 0.01 });
    const items = urls(5000, 'https://growth-sliding.example/');
    const added = await whileFiltersAreMade(() => rf.addMany(items));
    expect(added.length).toBe(5000);
    expect(added.every((flag) => flag === 1)).toBe(true);
    const present = await whileFiltersAreMade(() => rf.hasMany(items));
    expect(present.every((flag) => flag === 1)).toBe(true);
    expect((await rf.info()).addCount).toBe(5000);
    await rf.drop();
  });

  it('single add and has calls, started together, each answer while large local filters are made', async () => {
    const rf = await RedisBloomFilter.reserve(redis.client, 'growth-single', { capacity: 10_000, falsePositiveRate: 0.01 });
    const items = urls(200, 'https://growth-single.example/');
    const added = await whileFiltersAreMade(() => Promise.all(items.map((x) => rf.add(x))));
    expect(added.every(Boolean)).toBe(true);
    const present = await whileFiltersAreMade(() => Promise.all(items.map((x) => rf.has(x))));
    expect(present.every(Boolean)).toBe(true);
    await rf.drop();
  });
});
