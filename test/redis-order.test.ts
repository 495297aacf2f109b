// addMany answers exactly what sequential add() calls would answer even when
// the server has lost its script cache (a fresh server, SCRIPT FLUSH, a
// failover): no batch of a shard may run before an earlier batch of the
// same shard. Against one real redis-server; the script cache is flushed
// before, and in the middle of, the batch stream; and through a client
// whose command queue holds only a few calls, which refuses the others.
import { createClient, type RedisClientType } from 'redis';
import { expect, it } from 'vitest';
import { BloomFilter } from '../src/index.js';
import { RedisBloomFilter } from '../src/redis/index.js';
import { ADD_SCRIPT } from '../src/redis/scripts.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';

/** 20,000 items over 300 distinct values, in a fixed order: most items repeat one seen earlier. */
function repeating(count: number, distinct: number): string[] {
  return Array.from({ length: count }, (_, i) => `https://order.example/${(i * 7919 + (i >> 5)) % distinct}`);
}

/** What sequential add() calls answer: one local filter per shard, same bits, hashes and shard choice. */
function sequential(rf: RedisBloomFilter, items: string[]): number[] {
  const local = Array.from({ length: rf.shards }, () => new BloomFilter(rf.shardBits, rf.hashes, { scheme: rf.scheme, seed: rf.seed }));
  return items.map((x) => Number(local[rf.shardOf(x)].add(x)));
}

/**
 * A client that hands every command to `client`, but first sends the extra
 * commands that `inject` returns for the n-th script call. They go out on
 * the same connection just before that call, so Redis runs them exactly
 * between two batches of the stream: a deterministic mid-stream flush.
 */
function injecting(client: RedisClientType, inject: (n: number, command: string) => string[][]) {
  let calls = 0;
  return {
    sendCommand(args: string[], options?: unknown): Promise<unknown> {
      if (/^EVAL/i.test(args[0])) {
        for (const extra of inject(calls++, args[0].toUpperCase())) client.sendCommand(extra).catch(() => {});
      }
      return client.sendCommand(args, options as never);
    },
  };
}

describeRedis('RedisBloomFilter.addMany with a lost script cache', () => {
  const redis = redisForSuite();

  async function noscriptErrors(): Promise<number> {
    const stats = await redis.client.info('errorstats');
    return Number(/errorstat_NOSCRIPT:count=(\d+)/.exec(stats)?.[1] ?? 0);
  }

  it('answers as sequential adds after SCRIPT FLUSH: 20,000 items over 300 distinct values', async () => {
    for (const shards of [1, 3]) {
      const rf = await RedisBloomFilter.reserve(redis.client, `flushed-${shards}`, { bits: 30_000 * shards, hashes: 7 }, { shards });
      const items = repeating(20_000, 300);
      const expected = sequential(rf, items);
      expect(expected.filter(Boolean).length).toBe(300);
      await redis.client.sendCommand(['SCRIPT', 'FLUSH']);
      expect(Array.from(await rf.addMany(items), Number)).toEqual(expected);
      // And again on a warm cache: every item is now seen.
      expect(Array.from(await rf.addMany(items), Number)).toEqual(items.map(() => 0));
      expect((await rf.info()).addedCount).toBe(300);
      await rf.drop();
    }
  });

  it('answers as sequential adds when the cache is flushed between batches and reloaded by someone else', async () => {
    const before = await noscriptErrors();
    // Flush before the 3rd script call, and load the add script again (as
    // another worker's retry would) before the 6th: a call pipelined by
    // EVALSHA behind a refused one would then run before the refused one's
    // retry.
    const races = injecting(redis.client, (n) => {
      if (n % 6 === 2) return [['SCRIPT', 'FLUSH']];
      if (n % 6 === 5) return [['SCRIPT', 'LOAD', ADD_SCRIPT.source]];
      return [];
    });
    // Every call meets an empty cache.
    const empty = injecting(redis.client, () => [['SCRIPT', 'FLUSH']]);
    for (const [label, proxy] of [['races', races], ['empty', empty]] as const) {
      for (const batchSize of [1, 7, 256]) {
        const name = `mid-${label}-${batchSize}`;
        const rf = await RedisBloomFilter.reserve(proxy, name, { bits: 40_000, hashes: 5 }, { shards: 2, batchSize });
        const items = repeating(batchSize === 1 ? 600 : 6000, 250);
        const expected = sequential(rf, items);
        expect(Array.from(await rf.addMany(items), Number)).toEqual(expected);
        const local = Array.from({ length: 2 }, () => new BloomFilter(rf.shardBits, 5));
        for (const x of items) local[rf.shardOf(x)].add(x);
        for (let s = 0; s < 2; s++) expect(await rf.bitArray(s)).toEqual(local[s].bitArray());
        expect((await rf.info()).addedCount).toBe(250);
        await rf.drop();
      }
    }
    // The streams really met NOSCRIPT.
    expect(await noscriptErrors()).toBeGreaterThan(before);
  });
});

describeRedis('RedisBloomFilter.addMany through a small command queue', () => {
  const redis = redisForSuite();

  it('answers as sequential adds when the client refuses calls for a full queue (commandsQueueMaxLength 1 to 3)', async () => {
    // With a queue of 1 the caller sends nothing else: a call refused while
    // only the caller's own calls hold the queue is refused for good (docs/REDIS.md).
    for (const [length, traffic] of [[1, false], [2, true], [3, true]] as const) {
      const client: RedisClientType = createClient({ url: redis.server.url, commandsQueueMaxLength: length, disableClientInfo: true });
      client.on('error', () => {});
      await client.connect();
      try {
        const name = `small-queue-${length}`;
        const rf = await RedisBloomFilter.reserve(client, name, { bits: 30_000, hashes: 7 }, { shards: 3, batchSize: 7 });
        const items = repeating(3000, 250);
        const expected = sequential(rf, items);
        // The caller's own calls, one at a time, share the queue and free
        // places that wake none of addMany's waiting calls.
        let sending = traffic;
        const pings = (async () => {
          let answered = 0;
          while (sending) {
            await client.ping().then(() => answered++, () => {});
            await new Promise((resolve) => setImmediate(resolve));
          }
          return answered;
        })();
        const flags = await rf.addMany(items);
        sending = false;
        if (traffic) expect(await pings).toBeGreaterThan(0);
        expect(Array.from(flags, Number)).toEqual(expected);
        const local = Array.from({ length: 3 }, () => new BloomFilter(rf.shardBits, 7));
        for (const x of items) local[rf.shardOf(x)].add(x);
        for (let s = 0; s < 3; s++) expect(await rf.bitArray(s)).toEqual(local[s].bitArray());
        expect((await rf.info()).addedCount).toBe(250);
        await rf.drop();
      } finally {
        await client.close();
      }
    }
  });
});
