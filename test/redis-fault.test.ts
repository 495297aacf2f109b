// kill -9 of the redis-server in the middle of a large addMany: the promise
// rejects and lists the uncertain items, nothing is replayed, and after a
// restart from the AOF no acknowledged add is missing.
import { createClient, type RedisClientType } from 'redis';
import { expect, it } from 'vitest';
import { NO_ANSWER, RedisBloomBatchError, RedisBloomFilter } from '../src/redis/index.js';
import { describeRedis } from './helpers/describe-redis.js';
import { RedisServer } from './helpers/redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function untilReady(client: RedisClientType): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await client.ping();
      return;
    } catch {
      await sleep(50);
    }
  }
  throw new Error('client did not reconnect within 10 s');
}

describeRedis('RedisBloomFilter when the server dies mid-batch', () => {
  it('rejects listing the uncertain items, replays nothing, and loses no acknowledged add after an AOF restart', async () => {
    let server = await RedisServer.start({ aof: true });
    // disableOfflineQueue: calls not yet written when the connection drops are
    // dropped with it, so nothing of this batch can reach the restarted server.
    const client: RedisClientType = createClient({
      url: server.url, disableOfflineQueue: true, socket: { reconnectStrategy: () => 100 },
    });
    client.on('error', () => {});
    const watcher: RedisClientType = createClient({ url: server.url, socket: { reconnectStrategy: false } });
    watcher.on('error', () => {});
    try {
      await client.connect();
      await watcher.connect();
      const rf = await RedisBloomFilter.reserve(client, 'fault', { bits: 1 << 23, hashes: 7 }, { shards: 2, batchSize: 250 });
      const items = Array.from({ length: 100_000 }, (_, i) => `https://fault.example/${i}`);
      const pending = rf.addMany(items).then(
        () => null,
        (err: unknown) => err,
      );
      // Kill once some batches have been acknowledged and many are in flight.
      for (let i = 0; i < 10_000; i++) {
        const added = await Promise.all([watcher.hGet('{fault:0}:meta', 'added'), watcher.hGet('{fault:1}:meta', 'added')]);
        if (added.some((a) => Number(a) > 0)) break;
        await sleep(1);
      }
      await watcher.close();
      await server.kill9();
      const err = await pending;
      expect(err).toBeInstanceOf(RedisBloomBatchError);
      const failure = err as RedisBloomBatchError<string>;
      expect(failure.message).toMatch(/^addMany: \d+ of 100000 items have an uncertain outcome/);
      expect(failure.message).toContain('Treat the uncertain items as new');
      const uncertain = new Set(failure.uncertain);
      const notAdded = new Set(failure.notAdded);
      const acknowledged = items.filter((_, i) => failure.results[i] === 1);
      expect(uncertain.size).toBeGreaterThan(0);
      expect(acknowledged.length).toBeGreaterThan(0);
      // Every item is in exactly one of: answered, uncertain, not added.
      const placed = items.filter(
        (x, i) => Number(failure.results[i] !== NO_ANSWER) + Number(uncertain.has(x)) + Number(notAdded.has(x)) !== 1,
      );
      expect(placed).toEqual([]);
      console.log(`fault: ${acknowledged.length} acknowledged new, ${uncertain.size} uncertain, ${notAdded.size} not added`);

      server = await server.restart();
      await untilReady(client);
      // The client reconnected, and no add was sent again behind our back.
      expect(await client.info('commandstats')).not.toMatch(/cmdstat_eval/);
      // Every add that was acknowledged before the kill survived it.
      expect((await rf.hasMany(acknowledged)).every(Boolean)).toBe(true);
      const added = (await rf.info()).addedCount;
      expect(added).toBeGreaterThanOrEqual(acknowledged.length);
      // The filter carries on: the crawler re-adds what it could not confirm.
      const rest = [...failure.uncertain, ...failure.notAdded];
      await rf.addMany(rest);
      expect((await rf.hasMany(items)).every(Boolean)).toBe(true);
    } finally {
      await client.close().catch(() => {});
      await server.stop();
    }
  });
});
