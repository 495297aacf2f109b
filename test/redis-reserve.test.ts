// RedisBloomFilter.reserve against one real redis-server: a refused reserve
// changes nothing (every key of the name is byte-for-byte as before, and no
// configuration hash is left behind), leftovers of the same filter are
// adopted, a missing shard is never recreated empty, and two reserves racing
// with different parameters leave one whole filter or nothing.
import { createClient, type RedisClientType } from 'redis';
import { expect, it } from 'vitest';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { RedisBloomConfigError, RedisBloomConnectionError, RedisBloomFilter, RedisSlidingBloomFilter } from '../src/redis/index.js';
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

  it('refuses shards left without their configuration, changing nothing, until recreate starts over', async () => {
    // Shard 1 of a filter of 2 shards, without its configuration: the other
    // keys were deleted by hand (or evicted, or expired).
    const old = await RedisBloomFilter.reserve(redis.client, 'leftover', { bits: 2000, hashes: 3 }, { shards: 2 });
    const kept = ['a', 'b', 'c', 'd', 'e'].find((x) => old.shardOf(x) === 1)!;
    await old.add(kept);
    await redis.client.del(['{leftover}:config', '{leftover:0}', '{leftover:0}:meta']);
    expect((await snapshot('leftover')).map(([k]) => k)).toEqual(['{leftover:1}', '{leftover:1}:meta']);
    // The same parameters, other ones, more shards: all refused, naming what is missing and what survives.
    const missing = 'cannot reserve filter "leftover": {leftover}:config, {leftover:0}, {leftover:0}:meta are missing ' +
      '(evicted, expired or deleted), but {leftover:1}, {leftover:1}:meta survive. What was added to the lost keys would ' +
      'read as absent, so reserve does not rebuild the filter around what is left: reserve with { recreate: true } to ' +
      'delete it and start over empty (and set maxmemory-policy noeviction, docs/REDIS.md)';
    await refusedUnchanged('leftover', () => RedisBloomFilter.reserve(redis.client, 'leftover', { bits: 2000, hashes: 3 }, { shards: 2 }), missing);
    await refusedUnchanged('leftover', () => RedisBloomFilter.reserve(redis.client, 'leftover', { bits: 2000, hashes: 4 }, { shards: 2 }), 'survive');
    await refusedUnchanged('leftover', () => RedisBloomFilter.reserve(redis.client, 'leftover', { bits: 4000, hashes: 3 }, { shards: 4 }), 'survive');
    const err = await RedisBloomFilter.reserve(redis.client, 'leftover', { bits: 2000, hashes: 3 }, { shards: 2 }).catch((e: unknown) => e);
    expect([(err as RedisBloomConfigError).field, (err as RedisBloomConfigError).filter]).toEqual(['missing', 'leftover']);
    expect(await redis.client.exists('{leftover}:config')).toBe(0);
    // recreate: what was left is deleted, and the filter starts over empty.
    const again = await RedisBloomFilter.reserve(redis.client, 'leftover', { bits: 2000, hashes: 3 }, { shards: 2, recreate: true });
    expect(await again.has(kept)).toBe(false);
    expect(await redis.client.hGet('{leftover}:config', 'hashes')).toBe('3');
    expect(await redis.client.hExists('{leftover}:config', 'reserving')).toBe(0);
    // The old handle does not take the new filter for its own (another epoch): refused, not "absent".
    await expect(old.has(kept)).rejects.toThrow(/\{leftover:1\}:meta config is bloomwasm\/1 bits=1000 hashes=3 .* epoch=[0-9a-f]{16}; expected .* epoch=[0-9a-f]{16}/);
    await again.drop();
    expect(await snapshot('leftover')).toEqual([]);
  });

  it('recreate deletes the keys of both the stored and the asked shard counts, and replaces another configuration', async () => {
    const four = await RedisBloomFilter.reserve(redis.client, 'recreate', { bits: 4000, hashes: 3 }, { shards: 4 });
    await four.addMany(['a', 'b', 'c', 'd', 'e', 'f']);
    const two = await RedisBloomFilter.reserve(redis.client, 'recreate', { bits: 2000, hashes: 5 }, { shards: 2, recreate: true });
    expect([two.shards, two.hashes]).toEqual([2, 5]);
    const keys = (await snapshot('recreate')).map(([k]) => k);
    expect(keys).toEqual(['{recreate:0}', '{recreate:0}:meta', '{recreate:1}', '{recreate:1}:meta', '{recreate}:config']);
    expect(Array.from(await two.hasMany(['a', 'b', 'c', 'd', 'e', 'f']))).toEqual([0, 0, 0, 0, 0, 0]);
    await expect(four.has('a')).rejects.toThrow(RedisBloomConfigError);
    // The recreated filter is an ordinary one: reserved again as it is, it opens.
    const same = await RedisBloomFilter.reserve(redis.client, 'recreate', { bits: 2000, hashes: 5 }, { shards: 2 });
    expect(await same.add('x')).toBe(true);
    expect(await two.has('x')).toBe(true);
    await expect(RedisBloomFilter.reserve(redis.client, 'recreate', { bits: 2000, hashes: 5 }, { recreate: 'yes' as never })).rejects.toThrow(
      'recreate must be a boolean; got "yes"',
    );
    await two.drop();
  });

  it('names the field the caller set with both values: shards, capacity, falsePositiveRate, bits, hashes', async () => {
    const one = await RedisBloomFilter.reserve(redis.client, 'fields', { capacity: 10_000, falsePositiveRate: 0.01 });
    const tail = ' (open it with RedisBloomFilter.open, reserve with { recreate: true } to start over, or pick another name)';
    const refusal = async (pending: Promise<unknown>, field: string, message: string): Promise<void> => {
      const err = await pending.then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(RedisBloomConfigError);
      expect((err as RedisBloomConfigError).field).toBe(field);
      expect((err as Error).message).toBe(message + tail);
    };
    await refusal(
      RedisBloomFilter.reserve(redis.client, 'fields', { capacity: 10_000, falsePositiveRate: 0.01 }, { shards: 4 }), 'shards',
      'filter "fields" already exists with shards = 1; reserve asked for shards = 4',
    );
    await refusal(
      RedisBloomFilter.reserve(redis.client, 'fields', { capacity: 20_000, falsePositiveRate: 0.01 }), 'capacity',
      'filter "fields" already exists with capacity = 10000; reserve asked for capacity = 20000',
    );
    await refusal(
      RedisBloomFilter.reserve(redis.client, 'fields', { capacity: 10_000, falsePositiveRate: 0.001 }), 'falsePositiveRate',
      'filter "fields" already exists with falsePositiveRate = 0.01; reserve asked for falsePositiveRate = 0.001',
    );
    await refusal(
      RedisBloomFilter.reserve(redis.client, 'fields', { bits: 50_000, hashes: 7 }), 'bits',
      `filter "fields" already exists with bits = ${one.bits}; reserve asked for bits = 50000`,
    );
    await refusal(
      RedisBloomFilter.reserve(redis.client, 'fields', { bits: one.bits, hashes: 6 }), 'hashes',
      'filter "fields" already exists with hashes = 7; reserve asked for hashes = 6',
    );
    await refusal(
      RedisBloomFilter.reserve(redis.client, 'fields', { capacity: 10_000, falsePositiveRate: 0.01 }, { scheme: 'poly' }), 'scheme',
      'filter "fields" already exists with scheme = xxh64; reserve asked for scheme = poly',
    );
    // The same m and k asked by bits and hashes: the same filter.
    expect((await RedisBloomFilter.reserve(redis.client, 'fields', { bits: one.bits, hashes: one.hashes })).capacity).toBe(10_000);
    await one.drop();
    // Shards given explicitly, and a default that differs; bits rounded up over the shards.
    const four = await RedisBloomFilter.reserve(redis.client, 'fields', { bits: 4001, hashes: 3 }, { shards: 4 });
    expect(four.bits).toBe(4004);
    await refusal(
      RedisBloomFilter.reserve(redis.client, 'fields', { bits: 4001, hashes: 3 }), 'shards',
      'filter "fields" already exists with shards = 4; reserve asked for shards = 1 (the default for this size; pass shards to match)',
    );
    await refusal(
      RedisBloomFilter.reserve(redis.client, 'fields', { bits: 8001, hashes: 3 }, { shards: 4 }), 'bits',
      'filter "fields" already exists with bits = 4004; reserve asked for bits = 8001 (8004 over 4 shards)',
    );
    await refusal(
      RedisBloomFilter.reserve(redis.client, 'fields', { capacity: 300, falsePositiveRate: 0.01 }, { shards: 4 }), 'capacity',
      'filter "fields" already exists with capacity = none (reserved by bits = 4004 and hashes = 3); reserve asked for capacity = 300',
    );
    expect((await RedisBloomFilter.reserve(redis.client, 'fields', { bits: 4004, hashes: 3 }, { shards: 4 })).bits).toBe(4004);
    await four.drop();
  });

  it('changes nothing when the existing configuration differs', async () => {
    const rf = await RedisBloomFilter.reserve(redis.client, 'differs', { capacity: 1000, falsePositiveRate: 0.01 });
    await rf.addMany(['a', 'b']);
    await refusedUnchanged(
      'differs',
      () => RedisBloomFilter.reserve(redis.client, 'differs', { capacity: 1000, falsePositiveRate: 0.001 }),
      'filter "differs" already exists with falsePositiveRate = 0.01; reserve asked for falsePositiveRate = 0.001',
    );
    await refusedUnchanged(
      'differs', () => RedisBloomFilter.reserve(redis.client, 'differs', { bits: 9586, hashes: 7 }, { shards: 2 }),
      'filter "differs" already exists with shards = 1; reserve asked for shards = 2',
    );
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
    await refusedUnchanged('earlier', () => RedisBloomFilter.reserve(redis.client, 'earlier', { capacity: 1000, falsePositiveRate: 0.01 }), 'falsePositiveRate = 0.001; reserve asked for falsePositiveRate = 0.01');
    await again.drop();
  });

  it('opens a filter reserved before epochs: configuration without epoch or mark, fingerprint without epoch', async () => {
    const c = redis.client;
    const legacy = 'bloomwasm/1 bits=1000 hashes=3 scheme=xxh64 seed=0 shards=2';
    for (const s of [0, 1]) {
      await c.setBit(`{legacy:${s}}`, 999, 0);
      await c.hSet(`{legacy:${s}}:meta`, { config: legacy, added: '0' });
    }
    await c.hSet('{legacy}:config', {
      format: '1', bits: '2000', shardBits: '1000', hashes: '3', scheme: 'xxh64', seed: '0', shards: '2', capacity: '', falsePositiveRate: '',
    });
    const before = await snapshot('legacy');
    const rf = await RedisBloomFilter.reserve(c, 'legacy', { bits: 2000, hashes: 3 }, { shards: 2 });
    expect(await snapshot('legacy')).toEqual(before);
    expect(await rf.add('a')).toBe(true);
    expect(await (await RedisBloomFilter.open(c, 'legacy')).has('a')).toBe(true);
    expect(await c.hGet('{legacy:0}:meta', 'config')).toBe(legacy);
    await rf.drop();
  });

  it('refuses, and does not recreate empty, a shard missing under an existing configuration', async () => {
    const rf = await RedisBloomFilter.reserve(redis.client, 'evicted', { bits: 3000, hashes: 3 }, { shards: 3 });
    await rf.add('x');
    await redis.client.del('{evicted:2}');
    await refusedUnchanged(
      'evicted',
      () => RedisBloomFilter.reserve(redis.client, 'evicted', { bits: 3000, hashes: 3 }, { shards: 3 }),
      'filter "evicted" exists, but {evicted:2} is 0 bytes; expected 125 (a shard was deleted, evicted or expired, so what was ' +
        'added to it is lost; reserve does not recreate it empty: reserve with { recreate: true } to start over)',
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
    await refusedUnchanged(
      'foreign', () => RedisBloomFilter.reserve(redis.client, 'foreign', { bits: 100, hashes: 2 }),
      /^cannot reserve filter "foreign": \{foreign\}:config, \{foreign:0\}:meta are missing .*, but \{foreign:0\} survives\./,
    );
    // Under a configuration of this filter, a meta hash that is not one of its shards' is refused as well.
    await redis.client.del('{foreign:0}');
    const rf = await RedisBloomFilter.reserve(redis.client, 'foreign', { bits: 100, hashes: 2 }, { shards: 2 });
    await redis.client.hSet('{foreign:1}:meta', 'config', 'someone else');
    await refusedUnchanged('foreign', () => RedisBloomFilter.reserve(redis.client, 'foreign', { bits: 100, hashes: 2 }, { shards: 2 }),
      /^filter "foreign" exists, but \{foreign:1\}:meta config is someone else; expected bloomwasm\/1 bits=50 /);
    await rf.drop();
    await redis.client.del('{foreign:0}');
  });

  /**
   * A client that holds back its calls: a shard-creating call for shard s
   * goes out after delay(s) ms, every other call after `other` ms. Two
   * reserves through two such clients cross in a chosen order.
   */
  function delaying(delay: (shard: number) => number, other = 0) {
    return {
      sendCommand: async (args: string[], options?: never): Promise<unknown> => {
        const create = /^EVAL/i.test(args[0]) && (args[1] === CREATE_SHARD_SCRIPT.sha || args[1] === CREATE_SHARD_SCRIPT.source);
        await sleep(create ? delay(Number(/:(\d+)\}$/.exec(args[3])![1])) : other);
        return redis.client.sendCommand(args, options);
      },
    };
  }

  /** Two reserves of `name` through delaying clients; checks that one whole filter is left, and returns the outcomes. */
  async function race(
    name: string, shapes: readonly { bits: number; hashes: number }[], delays: [(s: number) => number, (s: number) => number], others: [number, number],
  ): Promise<PromiseSettledResult<RedisBloomFilter>[]> {
    const outcomes = await Promise.allSettled(
      shapes.map((sizing, i) => RedisBloomFilter.reserve(delaying(delays[i], others[i]), name, sizing, { shards: 4 })),
    );
    const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(RedisBloomConfigError);
    expect(won.length).toBeGreaterThanOrEqual(1);
    const keys = (await snapshot(name)).map(([k]) => k);
    const shards = [0, 1, 2, 3].flatMap((s) => [`{${name}:${s}}`, `{${name}:${s}}:meta`]);
    expect(keys).toEqual([...shards, `{${name}}:config`]);
    const [rf] = won;
    expect(await redis.client.hGet(`{${name}}:config`, 'hashes')).toBe(String(rf.hashes));
    expect(await redis.client.hExists(`{${name}}:config`, 'reserving')).toBe(0);
    expect(await rf.add('works')).toBe(true);
    for (const other of won.slice(1)) expect(await other.has('works')).toBe(true);
    expect((await RedisBloomFilter.open(redis.client, name)).hashes).toBe(rf.hashes);
    await rf.drop();
    return outcomes;
  }

  it('leaves one whole filter when two reserves with different parameters race; the other is refused naming the field', async () => {
    const shapes = [{ bits: 4000, hashes: 3 }, { bits: 4000, hashes: 4 }] as const;
    // Crossed: the first holds back shard 0, the second shard 3. The first
    // configuration stored wins; the other reserve writes nothing.
    const crossed = await race('race-crossed', shapes, [(s) => (s === 0 ? 50 : 0), (s) => (s === 3 ? 50 : 0)], [0, 0]);
    expect(crossed.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    // Random interleavings (seeded): one whole filter every time, the loser refused on hashes.
    const random = mulberry32(7);
    for (let round = 0; round < 40; round++) {
      const jitter = Array.from({ length: 10 }, () => Math.floor(random() * 4));
      const outcomes = await race(`race-${round}`, shapes, [(s) => jitter[s], (s) => jitter[4 + s]], [jitter[8], jitter[9]]);
      const lost = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
      expect(lost.map((o) => (o.reason as RedisBloomConfigError).field)).toEqual(['hashes']);
    }
  });

  it('two reserves with the same parameters racing both get the one filter', async () => {
    const shape = { bits: 4000, hashes: 3 };
    const random = mulberry32(11);
    for (let round = 0; round < 30; round++) {
      const jitter = Array.from({ length: 10 }, () => Math.floor(random() * 4));
      const outcomes = await race(`same-${round}`, [shape, shape], [(s) => jitter[s], (s) => jitter[4 + s]], [jitter[8], jitter[9]]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    }
  });

  it('finishes a reserve that stopped after storing its configuration; open refuses it until then', async () => {
    // As a process that died after step 2 leaves it: the configuration, marked, and one shard of two.
    const full = await RedisBloomFilter.reserve(redis.client, 'stopped', { bits: 2000, hashes: 3 }, { shards: 2 });
    await full.drop();
    const rf = await RedisBloomFilter.reserve(redis.client, 'stopped', { bits: 2000, hashes: 3 }, { shards: 2 });
    await redis.client.hSet('{stopped}:config', 'reserving', '1');
    await redis.client.del(['{stopped:1}', '{stopped:1}:meta']);
    const open = await RedisBloomFilter.open(redis.client, 'stopped').catch((e: unknown) => e);
    expect(open).toBeInstanceOf(RedisBloomConfigError);
    expect((open as RedisBloomConfigError).field).toBe('reserving');
    expect((open as Error).message).toMatch(/^filter "stopped" is not ready: \{stopped\}:config is marked reserving/);
    // Other parameters: refused naming the field, nothing written.
    await refusedUnchanged('stopped', () => RedisBloomFilter.reserve(redis.client, 'stopped', { bits: 2000, hashes: 4 }, { shards: 2 }), 'hashes = 3');
    // The same: finished.
    const done = await RedisBloomFilter.reserve(redis.client, 'stopped', { bits: 2000, hashes: 3 }, { shards: 2 });
    expect(await redis.client.hExists('{stopped}:config', 'reserving')).toBe(0);
    expect(await redis.client.strLen('{stopped:1}')).toBe(125);
    expect(await done.add('x')).toBe(true);
    expect(await rf.has('x')).toBe(true);
    expect((await RedisBloomFilter.open(redis.client, 'stopped')).shards).toBe(2);
    await done.drop();
  });

  it('reserves and reports through a client whose command queue holds one call (commandsQueueMaxLength: 1)', async () => {
    // reserve sends its checks and its shards' scripts side by side; node-redis
    // refuses a call while its queue is full, before sending it. Such a call
    // waits for one of reserve's own calls to be answered, and is made again.
    const client: RedisClientType = createClient({ url: redis.server.url, commandsQueueMaxLength: 1, disableClientInfo: true });
    client.on('error', () => {});
    await client.connect();
    try {
      for (const recreate of [false, true]) {
        const f = await RedisBloomFilter.reserve(client, 'one-call', { capacity: 1000, falsePositiveRate: 0.01 }, { shards: 4, recreate });
        expect(await f.add('a')).toBe(true);
        expect(await f.has('a')).toBe(true);
        expect(await f.info()).toMatchObject({ shards: 4, addedCount: 1 });
        const again = await RedisBloomFilter.reserve(client, 'one-call', { capacity: 1000, falsePositiveRate: 0.01 }, { shards: 4 });
        expect(await again.has('a')).toBe(true);
        // hasMany's calls, one a shard, wait for room as reserve's do: reads, whose order does not matter.
        const asked = ['a', ...Array.from({ length: 40 }, (_, i) => `absent ${i}`)];
        expect(new Set(asked.map((x) => f.shardOf(x))).size).toBe(4);
        const one: number[] = [];
        for (const x of asked) one.push((await again.has(x)) ? 1 : 0);
        expect(one[0]).toBe(1);
        expect(Array.from(await again.hasMany(asked))).toEqual(one);
        const w = await RedisSlidingBloomFilter.reserve(client, 'one-call-window', { window: 1000, falsePositiveRate: 0.01 }, { recreate });
        expect(await w.add('a')).toBe(true);
        expect((await w.info()).generations).toBeGreaterThan(1);
      }
      await (await RedisBloomFilter.open(client, 'one-call')).drop();
      expect(await redis.client.keys('{one-call[}:]*')).toEqual([]);
      // The queue's place held by the caller's own call (BLPOP waiting 0.5 s): none of reserve's calls is in flight, so the refusal stands.
      const blocking = client.blPop('one-call-nothing', 0.5);
      const refused = await RedisBloomFilter.reserve(client, 'one-call', { capacity: 1000, falsePositiveRate: 0.01 }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RedisBloomConnectionError);
      expect(((refused as Error).cause as Error).message).toBe('The queue is full');
      expect(await blocking).toBeNull();
      expect(await redis.client.keys('{one-call[}:]*')).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
