// Many workers on one RedisSlidingBloomFilter: 4 child processes adding the
// same items at once, through rotations, are told "new" exactly once per
// item, in a count window and in a time window; a reply lost to a dropped
// connection or to kill -9 of the server is an uncertain outcome
// (RedisBloomBatchError), never "seen", nothing is replayed, and after an
// AOF restart every acknowledged add is there.
import { createClient, type RedisClientType } from 'redis';
import { expect, it } from 'vitest';
import { NO_ANSWER, RedisBloomBatchError, RedisSlidingBloomFilter, type SlidingOptions } from '../src/redis/index.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';
import { raceWorkers } from './helpers/redis-race.js';
import { RedisServer } from './helpers/redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeRedis('RedisSlidingBloomFilter shared by many workers', () => {
  const redis = redisForSuite();

  const race = (name: string, count: number) => raceWorkers(redis.server.url, name, count, 'sliding');

  // p = 1e-9 (k = 33): an item whose first add meets a false positive is
  // never told new, so at p = 0.001 about one item in such a run would be
  // (seen in the full suite); here the chance is about 1e-6.
  const windows: [string, SlidingOptions][] = [
    // c = 2000: 4 x 3000 adds make 6 rotations, and nothing leaves the window (8c = 16,000).
    ['count', { window: 14_000, falsePositiveRate: 1e-9 }],
    // c = 1000: 12 rotations by count within a minute, 16 slots, nothing expires.
    ['time', { windowMs: 60_000, capacity: 7000, falsePositiveRate: 1e-9 }],
  ];
  for (const [mode, window] of windows) {
    it(`a ${mode} window: 4 processes adding the same 3,000 items at once see each one new exactly once`, async () => {
      const name = `race-${mode}`;
      const rf = await RedisSlidingBloomFilter.reserve(redis.client, name, window);
      const count = 3000;
      const fresh = await race(name, count);
      const times = new Array(count).fill(0);
      for (const list of fresh) for (const i of list) times[i]++;
      expect(times.filter((t) => t !== 1)).toEqual([]);
      for (const list of fresh) expect(list.length).toBeGreaterThan(0);
      const info = await rf.info();
      expect([info.addedCount, info.addCount]).toEqual([count, 4 * count]);
      expect(info.live.length).toBeGreaterThanOrEqual(6);
      await rf.drop();
    });
  }

  /** Checks a failed addMany's outcome: each item answered, uncertain or not added, exactly once; none of these fresh items "seen". */
  function checkOutcome(err: unknown, items: string[]): RedisBloomBatchError<string> {
    expect(err).toBeInstanceOf(RedisBloomBatchError);
    const failure = err as RedisBloomBatchError<string>;
    expect(failure.message).toMatch(new RegExp(`^addMany: \\d+ of ${items.length} items have an uncertain outcome`));
    const uncertain = new Set(failure.uncertain);
    const notAdded = new Set(failure.notAdded);
    expect(uncertain.size).toBeGreaterThan(0);
    const placed = items.filter(
      (x, i) => Number(failure.results[i] !== NO_ANSWER) + Number(uncertain.has(x)) + Number(notAdded.has(x)) !== 1,
    );
    expect(placed).toEqual([]);
    // Every uncertain item reads as new in a plain truth test of results.
    for (let i = 0; i < items.length; i++) if (uncertain.has(items[i])) expect(failure.results[i]).toBe(NO_ANSWER);
    return failure;
  }

  it('a connection dropped mid-batch: uncertain items, never "seen"; nothing replayed; acknowledged items are there', async () => {
    const client: RedisClientType = createClient({
      url: redis.server.url, disableOfflineQueue: true, socket: { reconnectStrategy: () => 50 },
    });
    client.on('error', () => {});
    await client.connect();
    try {
      const rf = await RedisSlidingBloomFilter.reserve(client, 'dropped', { window: 700_000, falsePositiveRate: 0.01 }, { batchSize: 100 });
      const id = String(await client.sendCommand(['CLIENT', 'ID']));
      const items = Array.from({ length: 100_000 }, (_, i) => `https://dropped.example/${i}`);
      const pending = rf.addMany(items).then(() => null, (err: unknown) => err);
      // Kill the connection once some calls have been acknowledged and many are in flight.
      for (let i = 0; i < 10_000; i++) {
        if (Number(await redis.client.hGet('{dropped}:sliding', 'adds')) > 0) break;
        await sleep(1);
      }
      await redis.client.sendCommand(['CLIENT', 'KILL', 'ID', id]);
      const failure = checkOutcome(await pending, items);
      const acknowledged = items.filter((_, i) => failure.results[i] === 1);
      expect(acknowledged.length).toBeGreaterThan(0);
      console.log(`dropped connection: ${acknowledged.length} acknowledged new, ${failure.uncertain.length} uncertain, ${failure.notAdded.length} not added`);
      // Nothing is sent again behind the caller's back: the count of adds in Redis stays put.
      const adds = Number(await redis.client.hGet('{dropped}:sliding', 'adds'));
      expect(adds).toBeGreaterThanOrEqual(acknowledged.length);
      const answered = failure.results.filter((f) => f !== NO_ANSWER).length;
      expect(adds).toBeLessThanOrEqual(answered + failure.uncertain.length);
      await sleep(300);
      expect(Number(await redis.client.hGet('{dropped}:sliding', 'adds'))).toBe(adds);
      // The acknowledged adds are there; the crawler re-adds the rest.
      const reader = await RedisSlidingBloomFilter.open(redis.client, 'dropped');
      expect((await reader.hasMany(acknowledged)).every(Boolean)).toBe(true);
      await reader.addMany([...failure.uncertain, ...failure.notAdded]);
      expect((await reader.hasMany(items)).every(Boolean)).toBe(true);
      await reader.drop();
    } finally {
      await client.close().catch(() => {});
    }
  });

  it('kill -9 of the server mid-batch: the promise rejects at once, listing the uncertain items; after an AOF restart every acknowledged add is there', async () => {
    let server = await RedisServer.start({ aof: true });
    const client: RedisClientType = createClient({ url: server.url, disableOfflineQueue: true, socket: { reconnectStrategy: false } });
    client.on('error', () => {});
    const watcher: RedisClientType = createClient({ url: server.url, socket: { reconnectStrategy: false } });
    watcher.on('error', () => {});
    let after: RedisClientType | undefined;
    try {
      await client.connect();
      await watcher.connect();
      // c = 200: the batch rotates every 200 adds (and overloads after 3,200),
      // so the kill lands after several rotations, among more.
      const rf = await RedisSlidingBloomFilter.reserve(client, 'killed', { windowMs: 3_600_000, capacity: 1400, falsePositiveRate: 0.01 });
      const items = Array.from({ length: 100_000 }, (_, i) => `https://killed.example/${i}`);
      const pending = rf.addMany(items).then(() => null, (err: unknown) => err);
      for (let i = 0; i < 10_000; i++) {
        if (Number(await watcher.hGet('{killed}:sliding', 'adds')) > 600) break;
        await sleep(1);
      }
      await watcher.close();
      await server.kill9();
      const failure = checkOutcome(await pending, items);
      const acknowledged = items.filter((_, i) => failure.results[i] === 1);
      expect(acknowledged.length).toBeGreaterThan(0);
      console.log(`kill -9: ${acknowledged.length} acknowledged new, ${failure.uncertain.length} uncertain, ${failure.notAdded.length} not added`);
      // appendfsync always: what was acknowledged was in the AOF. The restarted
      // server finds every acknowledged item, and a state its scripts accept
      // (every live generation whole), whatever the kill cut.
      server = await server.restart();
      after = createClient({ url: server.url });
      after.on('error', () => {});
      await after.connect();
      const reopened = await RedisSlidingBloomFilter.open(after, 'killed');
      expect((await reopened.hasMany(acknowledged)).every(Boolean)).toBe(true);
      const info = await reopened.info();
      expect(info.addCount).toBeGreaterThanOrEqual(acknowledged.length);
      expect(info.live.reduce((sum, g) => sum + g.adds, 0)).toBe(info.addCount);
      await reopened.addMany([...failure.uncertain, ...failure.notAdded]);
      expect((await reopened.hasMany(items)).every(Boolean)).toBe(true);
    } finally {
      await client.close().catch(() => {});
      await after?.close().catch(() => {});
      await server.stop();
    }
  });
});
