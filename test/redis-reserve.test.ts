// RedisBloomFilter.reserve against one real redis-server: a refused reserve
// changes nothing (every key of the name is byte-for-byte as before, and no
// configuration hash is left behind), leftovers of the same filter are
// adopted, a missing shard is never recreated empty, and two reserves racing
// with different parameters leave one whole filter or nothing.
import { expect, it } from 'vitest';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { RedisBloomConfigError, RedisBloomFilter } from '../src/redis/index.js';
import { CREATE_SHARD_SCRIPT } from '../src/redis/scripts.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeRedis('RedisBloomFilter.reserve', () => {
  const redis = redisForSuite();

  /** Every key of filter `name`, with its DUMP (type and value), sorted by key. */
  async function snapshot(name: string): Promise<[string, string][]> {
    const keys = (await redis.client.keys('*')).filter((k) => k.startsWith(`{${name}}`) || k.startsWith(`{${name}:`)).sort();
    const dumps = await Promise.all(keys.map((k) => redis.client.sendCommand(['DUMP', k], { typeMapping: { 36: Buffer } })));
    return keys.map((k, i) => [k, Buffer.from(dumps[i] as unknown as Buffer).toString('hex')]);
  }

  async function refusedUnchanged(name: string, reserve: () => Promise<unknown>, message: string | RegExp): Promise<void> {
    const before = await snapshot(name);
    const refused = reserve();
    await expect(refused).rejects.toThrow(RedisBloomConfigError);
    await expect(refused).rejects.toThrow(message);
    expect(await snapshot(name)).toEqual(before);
  }

  it('changes nothing when a shard left by another configuration refuses it, and leaves no configuration hash', async () => {
    // Shard 1 of a filter of 2 shards, without its configuration: the other
    // keys were deleted by hand, or its reserve stopped before step 3.
    const old = await RedisBloomFilter.reserve(redis.client, 'leftover', { bits: 2000, hashes: 3 }, { shards: 2 });
    const kept = ['a', 'b', 'c', 'd', 'e'].find((x) => old.shardOf(x) === 1)!;
    await old.add(kept);
    await redis.client.del(['{leftover}:config', '{leftover:0}', '{leftover:0}:meta']);
    expect((await snapshot('leftover')).map(([k]) => k)).toEqual(['{leftover:1}', '{leftover:1}:meta']);
    // Shard 0 is free and gets created first; shard 1 then refuses: shard 0 is removed again.
    await refusedUnchanged(
      'leftover',
      () => RedisBloomFilter.reserve(redis.client, 'leftover', { bits: 2000, hashes: 4 }, { shards: 2 }),
      /^cannot reserve filter "leftover": \{leftover:1\}:meta config is bloomwasm\/1 bits=1000 hashes=3 .*; expected bloomwasm\/1 bits=1000 hashes=4 .*delete \{leftover:1\} and \{leftover:1\}:meta$/,
    );
    // More shards than were there, and a wrong size: refused alike.
    await refusedUnchanged('leftover', () => RedisBloomFilter.reserve(redis.client, 'leftover', { bits: 4000, hashes: 3 }, { shards: 4 }), 'config is');
    expect(await redis.client.exists('{leftover}:config')).toBe(0);
    // The same parameters adopt the leftover shard: what was added to it is still there.
    const again = await RedisBloomFilter.reserve(redis.client, 'leftover', { bits: 2000, hashes: 3 }, { shards: 2 });
    expect(await again.has(kept)).toBe(true);
    expect(await redis.client.hGet('{leftover}:config', 'hashes')).toBe('3');
    await again.drop();
    expect(await snapshot('leftover')).toEqual([]);
  });

  it('changes nothing when the existing configuration differs', async () => {
    const rf = await RedisBloomFilter.reserve(redis.client, 'differs', { capacity: 1000, falsePositiveRate: 0.01 });
    await rf.addMany(['a', 'b']);
    await refusedUnchanged(
      'differs',
      () => RedisBloomFilter.reserve(redis.client, 'differs', { capacity: 1000, falsePositiveRate: 0.001 }),
      // 14,378 bits by the formula; the small-n sizing takes 14,403 at 1,000 items and 0.001 (docs/SCHEMES.md).
      'filter "differs" already exists with shardBits = 9586; reserve asked for shardBits = 14403',
    );
    await refusedUnchanged('differs', () => RedisBloomFilter.reserve(redis.client, 'differs', { bits: 9586, hashes: 7 }, { shards: 2 }), 'shardBits');
    await rf.drop();
  });

  it('opens a filter that an earlier release reserved for the same capacity and rate, with the bits its sizing gave', async () => {
    // As the earlier release stored it: 1,000 items at 0.001 took 14,378 bits (the formula), where the small-n sizing now takes 14,403.
    const earlier = await RedisBloomFilter.reserve(redis.client, 'earlier', { bits: 14_378, hashes: 10 });
    await earlier.addMany(['a', 'b']);
    await redis.client.hSet('{earlier}:config', { capacity: '1000', falsePositiveRate: '0.001' });
    const before = await snapshot('earlier');
    const again = await RedisBloomFilter.reserve(redis.client, 'earlier', { capacity: 1000, falsePositiveRate: 0.001 });
    expect([again.bits, again.hashes]).toEqual([14_378, 10]);
    expect(Array.from(await again.hasMany(['a', 'b']))).toEqual([1, 1]);
    expect(await snapshot('earlier')).toEqual(before);
    // Another rate is another filter: still refused.
    await refusedUnchanged('earlier', () => RedisBloomFilter.reserve(redis.client, 'earlier', { capacity: 1000, falsePositiveRate: 0.01 }), 'shardBits');
    await again.drop();
  });

  it('refuses, and does not recreate empty, a shard missing under an existing configuration', async () => {
    const rf = await RedisBloomFilter.reserve(redis.client, 'evicted', { bits: 3000, hashes: 3 }, { shards: 3 });
    await rf.add('x');
    await redis.client.del('{evicted:2}');
    await refusedUnchanged(
      'evicted',
      () => RedisBloomFilter.reserve(redis.client, 'evicted', { bits: 3000, hashes: 3 }, { shards: 3 }),
      'filter "evicted" exists, but {evicted:2} is 0 bytes; expected 125 (a shard was deleted or evicted',
    );
    await redis.client.del('{evicted:1}:meta');
    await refusedUnchanged(
      'evicted',
      () => RedisBloomFilter.reserve(redis.client, 'evicted', { bits: 3000, hashes: 3 }, { shards: 3 }),
      /\{evicted:1\}:meta config is missing/,
    );
    await rf.drop();
  });

  it('refuses a bitmap without its meta hash (a foreign key of that name), changing nothing', async () => {
    await redis.client.set('{foreign:0}', 'not a bitmap of ours');
    await refusedUnchanged('foreign', () => RedisBloomFilter.reserve(redis.client, 'foreign', { bits: 100, hashes: 2 }), /\{foreign:0\}:meta config is missing/);
    await redis.client.del('{foreign:0}');
  });

  /**
   * A client that holds back its shard-creating calls: the call for shard s
   * goes out after delay(s) ms. Two reserves through two such clients cross
   * in a chosen order.
   */
  function delaying(delay: (shard: number) => number) {
    return {
      sendCommand: async (args: string[], options?: never): Promise<unknown> => {
        const create = /^EVAL/i.test(args[0]) && (args[1] === CREATE_SHARD_SCRIPT.sha || args[1] === CREATE_SHARD_SCRIPT.source);
        if (create) await sleep(delay(Number(/:(\d+)\}$/.exec(args[3])![1])));
        return redis.client.sendCommand(args, options);
      },
    };
  }

  it('leaves one whole filter or nothing when two reserves with different parameters race', async () => {
    const shapes = [{ bits: 4000, hashes: 3 }, { bits: 4000, hashes: 4 }] as const;
    const race = async (name: string, delays: [(s: number) => number, (s: number) => number]): Promise<number> => {
      const outcomes = await Promise.allSettled(
        shapes.map((sizing, i) => RedisBloomFilter.reserve(delaying(delays[i]), name, sizing, { shards: 4 })),
      );
      const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(RedisBloomConfigError);
      expect(won.length).toBeLessThanOrEqual(1);
      const keys = (await snapshot(name)).map(([k]) => k);
      if (won.length === 0) {
        expect(keys).toEqual([]);
        return 0;
      }
      const [rf] = won;
      const shards = [0, 1, 2, 3].flatMap((s) => [`{${name}:${s}}`, `{${name}:${s}}:meta`]);
      expect(keys).toEqual([...shards, `{${name}}:config`]);
      expect(await redis.client.hGet(`{${name}}:config`, 'hashes')).toBe(String(rf.hashes));
      expect(await rf.add('works')).toBe(true);
      await rf.drop();
      return 1;
    };
    // Crossed: the first takes shards 1-3 while holding back 0, the second
    // takes 0 while holding back 3. Both are refused and both undo.
    expect(await race('race-crossed', [(s) => (s === 0 ? 50 : 0), (s) => (s === 3 ? 50 : 0)])).toBe(0);
    // Random interleavings (seeded): one whole filter or nothing, every time.
    const random = mulberry32(7);
    let wins = 0;
    for (let round = 0; round < 40; round++) {
      const jitter = Array.from({ length: 8 }, () => Math.floor(random() * 4));
      wins += await race(`race-${round}`, [(s) => jitter[s], (s) => jitter[4 + s]]);
    }
    console.log(`reserve race: ${wins} of 40 rounds left one filter, the others none`);
  });
});
