// RedisBloomFilter against one real redis-server (started here on a free
// loopback port, with requirepass): the bits equal the local filter's,
// concurrent workers see each item as new exactly once, SCRIPT FLUSH is
// survived, and bad credentials or configurations are refused loudly.
import { createClient } from 'redis';
import { expect, it } from 'vitest';
import { BloomFilter, BloomRangeError, BloomTypeError, SCHEMES } from '../src/index.js';
import {
  NO_ANSWER, RedisBloomAuthError, RedisBloomBatchError, RedisBloomConfigError, RedisBloomFilter, RedisSlidingBloomFilter,
} from '../src/redis/index.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';
import { raceWorkers } from './helpers/redis-race.js';
import { PASSWORD } from './helpers/redis-server.js';

describeRedis('RedisBloomFilter on one redis-server', () => {
  const redis = redisForSuite();

  const items = (n: number, prefix = 'https://example.com/'): string[] =>
    Array.from({ length: n }, (_, i) => `${prefix}${i}${i % 7 === 0 ? '/é/𝄞' : ''}`);

  it('stores exactly the local filter\'s bits, shard by shard, for every scheme', async () => {
    for (const scheme of SCHEMES) {
      // sbbf takes 8 hashes and rounds each shard up to whole 256-bit blocks: 10,004 -> 10,240.
      const [hashes, shardBits] = scheme === 'sbbf' ? [8, 10_240] : [5, 10_004];
      const rf = await RedisBloomFilter.reserve(redis.client, `bits-${scheme}`, { bits: 30_011, hashes }, { scheme, shards: 3 });
      expect([rf.bits, rf.shardBits, rf.hashes, rf.shards, rf.scheme]).toEqual([shardBits * 3, shardBits, hashes, 3, scheme]);
      const local = Array.from({ length: 3 }, () => new BloomFilter(shardBits, hashes, { scheme }));
      const added: (string | Uint8Array)[] = [
        ...items(2000),
        new Uint8Array([0, 1, 2, 255]),
        'x'.repeat(70_000) + 'é', // longer than the wasm scratch region: streamed
        'https://example.com/3', // a repeat inside the batch: not new the second time
      ];
      const expected = Uint8Array.from(added, (x) => Number(local[local[0].shardOf(x, 3)].add(x)));
      expect(await rf.addMany(added)).toEqual(expected);
      expect(expected.at(-1)).toBe(0);
      for (const x of added.slice(0, 50)) {
        const s = rf.shardOf(x);
        expect(rf.positions(x)).toEqual(local[s].positions(x));
      }
      for (let s = 0; s < 3; s++) expect(await rf.bitArray(s)).toEqual(local[s].bitArray());
      // The raw Redis string is the same bytes: GET needs no conversion.
      const raw = await redis.client.sendCommand(['GET', `{bits-${scheme}:1}`], { typeMapping: { 36: Buffer } });
      expect(new Uint8Array(raw as unknown as Buffer)).toEqual(local[1].bitArray());
      expect(await rf.hasMany(added)).toEqual(new Uint8Array(added.length).fill(1));
      const absent = items(2000, 'https://example.org/');
      expect(await rf.hasMany(absent)).toEqual(Uint8Array.from(absent, (x) => Number(local[rf.shardOf(x)].has(x))));
      const info = await rf.info();
      expect(info.addedCount).toBe(expected.filter(Boolean).length);
      expect(info.bitsSet).toBe(local.reduce((sum, f) => sum + f.bitsSet(), 0));
      // The mean of the shards' rates, each as the local filter reports it (the blocked rate under sbbf).
      expect(info.currentFalsePositiveRate).toBeCloseTo(local.reduce((sum, f) => sum + f.currentFalsePositiveRate(), 0) / 3, 15);
      expect(info.estimatedCount).toBeCloseTo(local.reduce((sum, f) => sum + f.estimatedCount(), 0), 9);
      if (scheme === 'xxh64') {
        // 2,002 distinct items; the estimate's error is a few percent here.
        expect(info.estimatedCount).toBeGreaterThan(1900);
        expect(info.estimatedCount).toBeLessThan(2100);
      }
      await rf.drop();
      expect(await redis.client.exists([`{bits-${scheme}}:config`, `{bits-${scheme}:0}`, `{bits-${scheme}:2}:meta`])).toBe(0);
    }
  });

  it('reserves an sbbf filter by capacity with the blocked sizing, in whole 256-bit blocks per shard', async () => {
    const rf = await RedisBloomFilter.reserve(redis.client, 'capacity-sbbf', { capacity: 10_000, falsePositiveRate: 0.01 }, { scheme: 'sbbf', shards: 2 });
    // forCapacity(10,000, 0.01, { scheme: 'sbbf' }) has 105,472 bits and k = 8; each shard holds half, 206 blocks.
    expect([rf.bits, rf.shardBits, rf.hashes, rf.shards, rf.scheme]).toEqual([105_472, 52_736, 8, 2, 'sbbf']);
    expect(await redis.client.strLen('{capacity-sbbf:1}')).toBe(52_736 / 8);
    const local = new BloomFilter(52_736, 8, { scheme: 'sbbf' });
    const url = 'https://a.example/';
    expect(await rf.add(url)).toBe(true);
    local.add(url);
    expect(await rf.bitArray(rf.shardOf(url))).toEqual(local.bitArray());
  });

  it('reserves by capacity, preallocates every shard, and adds and tests single items', async () => {
    const rf = await RedisBloomFilter.reserve(redis.client, 'capacity', { capacity: 10_000, falsePositiveRate: 0.01 }, { shards: 2 });
    expect([rf.bits, rf.hashes, rf.shards, rf.capacity, rf.falsePositiveRate]).toEqual([95_852, 7, 2, 10_000, 0.01]);
    expect(await redis.client.strLen('{capacity:0}')).toBe(Math.ceil(47_926 / 8));
    expect(await redis.client.strLen('{capacity:1}')).toBe(Math.ceil(47_926 / 8));
    expect(await rf.add('https://a.example/')).toBe(true);
    expect(await rf.add('https://a.example/')).toBe(false);
    expect(await rf.has('https://a.example/')).toBe(true);
    expect(await rf.has('https://b.example/')).toBe(false);
    expect(await rf.addMany([])).toEqual(new Uint8Array(0));
    const packed = { bytes: new TextEncoder().encode('abcdef'), offsets: [0, 3, 6] };
    expect(await rf.addMany(packed)).toEqual(Uint8Array.of(1, 1));
    expect(await rf.hasMany(['abc', 'def', 'ghi'])).toEqual(Uint8Array.of(1, 1, 0));
    const again = await RedisBloomFilter.open(redis.client, 'capacity');
    expect([again.bits, again.hashes, again.shards, again.capacity, again.falsePositiveRate]).toEqual([95_852, 7, 2, 10_000, 0.01]);
    expect(await again.has('abc')).toBe(true);
    // Reserving again with the same configuration opens it.
    await RedisBloomFilter.reserve(redis.client, 'capacity', { capacity: 10_000, falsePositiveRate: 0.01 }, { shards: 2 });
    expect(await rf.has('abc')).toBe(true);
    const info = await rf.info();
    expect(info).toMatchObject({ name: 'capacity', capacity: 10_000, falsePositiveRate: 0.01, addedCount: 3, shards: 2, bitsSet: 21 });
    await rf.drop();
  });

  it('reports each item new exactly once across 4 child processes adding the same 10,000 items', async () => {
    const name = 'crawl';
    const rf = await RedisBloomFilter.reserve(redis.client, name, { bits: 1 << 24, hashes: 7 }, { shards: 4 });
    const count = 10_000;
    const fresh = await raceWorkers(redis.server.url, name, count, 'plain');
    const times = new Array(count).fill(0);
    for (const list of fresh) for (const i of list) times[i]++;
    expect(times.filter((t) => t !== 1)).toEqual([]);
    // Every worker won some races: the runs really overlapped.
    for (const list of fresh) expect(list.length).toBeGreaterThan(0);
    expect((await rf.info()).addedCount).toBe(count);
    await rf.drop();
  });

  it('carries on through SCRIPT FLUSH in the middle of a run', async () => {
    const rf = await RedisBloomFilter.reserve(redis.client, 'flush', { bits: 200_003, hashes: 6 }, { shards: 2, batchSize: 50 });
    const local = [new BloomFilter(rf.shardBits, 6), new BloomFilter(rf.shardBits, 6)];
    const flusher = createClient({ url: redis.server.url });
    flusher.on('error', () => {});
    await flusher.connect();
    const before = await noscriptErrors();
    for (let round = 0; round < 20; round++) {
      const batch = items(300, `https://flush.example/${round}/`);
      const expected = Uint8Array.from(batch, (x) => Number(local[rf.shardOf(x)].add(x)));
      // The flush lands between (or among) the round's script calls.
      const [results] = await Promise.all([rf.addMany(batch), flusher.scriptFlush()]);
      expect(results).toEqual(expected);
      expect(await rf.hasMany(batch)).toEqual(new Uint8Array(batch.length).fill(1));
    }
    expect(await noscriptErrors()).toBeGreaterThan(before);
    for (let s = 0; s < 2; s++) expect(await rf.bitArray(s)).toEqual(local[s].bitArray());
    await flusher.close();
    await rf.drop();
  });

  async function noscriptErrors(): Promise<number> {
    const stats = await redis.client.info('errorstats');
    return Number(/errorstat_NOSCRIPT:count=(\d+)/.exec(stats)?.[1] ?? 0);
  }

  it('refuses a wrong password, and names the problem for an unauthenticated client', async () => {
    const wrong = createClient({ url: `redis://:not-${PASSWORD}@127.0.0.1:${redis.server.port}`, socket: { reconnectStrategy: false } });
    wrong.on('error', () => {});
    await expect(wrong.connect()).rejects.toThrow(/WRONGPASS/);
    const anonymous = createClient({ url: `redis://127.0.0.1:${redis.server.port}`, socket: { reconnectStrategy: false } });
    anonymous.on('error', () => {});
    await anonymous.connect();
    const noauth = RedisBloomFilter.reserve(anonymous, 'auth', { bits: 1000, hashes: 3 });
    await expect(noauth).rejects.toThrow(RedisBloomAuthError);
    await expect(noauth).rejects.toThrow(/^Redis refused filter "auth": NOAUTH .*\(pass username and password/);
    // A long command (over 10 arguments, as the scripts send) from an
    // unauthenticated client gets a protocol error instead of NOAUTH, and the
    // connection is closed: still named as an authentication problem.
    const authed = await RedisBloomFilter.reserve(redis.client, 'auth', { bits: 1000, hashes: 3 });
    const split = {
      sendCommand: (args: string[], options?: never) => (args[0] === 'HGETALL' ? redis.client : anonymous).sendCommand(args, options),
    };
    const opened = await RedisBloomFilter.open(split, 'auth');
    const refused = (await opened.add('x').catch((err: unknown) => err)) as RedisBloomBatchError;
    expect(refused).toBeInstanceOf(RedisBloomBatchError);
    expect(refused.cause).toBeInstanceOf(RedisBloomAuthError);
    expect((refused.cause as Error).message).toMatch(/unauthenticated.*pass username and password/);
    expect([refused.notAdded, refused.uncertain]).toEqual([['x'], []]);
    // Named after the call that failed, add, though add runs the addMany machinery.
    expect(refused.call).toBe('add');
    expect(refused.message).toMatch(/^add: 0 of 1 items have an uncertain outcome and 1 were not added \(.*unauthenticated.*\); 0 have results\. /);
    await authed.drop();
    // Redis closes the connection after that protocol error; a fresh one gets NOAUTH.
    const again = createClient({ url: `redis://127.0.0.1:${redis.server.port}`, socket: { reconnectStrategy: false } });
    again.on('error', () => {});
    await again.connect();
    await expect(RedisBloomFilter.open(again, 'auth')).rejects.toThrow(/^Redis refused filter "auth": NOAUTH/);
    await again.close().catch(() => {});
    await anonymous.close().catch(() => {});
  });

  it('refuses a mismatched or missing configuration, and a filter re-reserved under an open one', async () => {
    const rf = await RedisBloomFilter.reserve(redis.client, 'mismatch', { bits: 1000, hashes: 3 });
    await rf.add('a');
    const other = RedisBloomFilter.reserve(redis.client, 'mismatch', { bits: 1000, hashes: 4 });
    await expect(other).rejects.toThrow(RedisBloomConfigError);
    await expect(other).rejects.toThrow('filter "mismatch" already exists with hashes = 3; reserve asked for hashes = 4');
    await expect(RedisBloomFilter.reserve(redis.client, 'mismatch', { bits: 1001, hashes: 3 })).rejects.toThrow(
      'filter "mismatch" already exists with bits = 1000; reserve asked for bits = 1001 (open it with RedisBloomFilter.open, ' +
        'reserve with { recreate: true } to start over, or pick another name)',
    );
    await expect(RedisBloomFilter.reserve(redis.client, 'mismatch', { bits: 1000, hashes: 3 }, { scheme: 'poly' })).rejects.toThrow(
      'with scheme = xxh64; reserve asked for scheme = poly',
    );
    await expect(RedisBloomFilter.reserve(redis.client, 'mismatch', { bits: 1000, hashes: 3 }, { seed: 5 })).rejects.toThrow('with seed = 0');
    const missing = RedisBloomFilter.open(redis.client, 'nobody');
    await expect(missing).rejects.toThrow(RedisBloomConfigError);
    await expect(missing).rejects.toThrow('no Bloom filter named "nobody": {nobody}:config does not exist');
    // Someone drops the filter and reserves it again with another k while rf is open.
    await rf.drop();
    const replaced = await RedisBloomFilter.reserve(redis.client, 'mismatch', { bits: 1000, hashes: 4 });
    const failed = await rf.add('b').catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(RedisBloomBatchError);
    const batchError = failed as RedisBloomBatchError;
    expect(batchError.cause).toBeInstanceOf(RedisBloomConfigError);
    expect(String((batchError.cause as Error).message)).toContain('hashes=4');
    expect([batchError.notAdded, batchError.uncertain]).toEqual([['b'], []]);
    await expect(rf.has('a')).rejects.toThrow(RedisBloomConfigError);
    // Many calls, all refused before running: every item is "not added", none uncertain.
    const many = Array.from({ length: 1000 }, (_, i) => `https://many.example/${i}`);
    await expect(rf.hasMany(many)).rejects.toThrow(RedisBloomConfigError);
    const refusedMany = (await rf.addMany(many).catch((err: unknown) => err)) as RedisBloomBatchError;
    expect([refusedMany.notAdded.length, refusedMany.uncertain.length]).toEqual([1000, 0]);
    expect(refusedMany.results).toEqual(new Uint8Array(1000).fill(NO_ANSWER));
    expect(refusedMany.call).toBe('addMany');
    expect(refusedMany.message).toMatch(/^addMany: 0 of 1000 items have an uncertain outcome and 1000 were not added \(.*hashes=4.*\); 0 have results\. /);
    expect([batchError.call, batchError.message.startsWith('add: 0 of 1 items')]).toEqual(['add', true]);
    // A shard deleted behind the filter's back (as eviction would) is refused, not silently recreated.
    await redis.client.del('{mismatch:0}');
    const evicted = await replaced.add('c').catch((err: unknown) => err);
    expect((evicted as RedisBloomBatchError).cause).toBeInstanceOf(RedisBloomConfigError);
    expect(String((evicted as Error).message)).toContain('{mismatch:0} is 0 bytes; expected 125');
    await replaced.drop();
  });

  it('rejects bad arguments before talking to Redis', async () => {
    await expect(RedisBloomFilter.reserve(redis.client, 'a{b', { bits: 100, hashes: 3 })).rejects.toThrow(BloomRangeError);
    await expect(RedisBloomFilter.reserve(redis.client, 'x', { bits: 0, hashes: 3 })).rejects.toThrow('bits must be an integer in [1, ');
    await expect(RedisBloomFilter.reserve(redis.client, 'x', { capacity: 1e9, falsePositiveRate: 0.01 }, { shards: 2 })).rejects.toThrow(
      'shards must be an integer in [3, 65536] (a shard holds at most 2^32 bits, and m = 9585058378); got 2',
    );
    await expect(RedisBloomFilter.reserve(redis.client, 'x', { capacity: 10, falsePositiveRate: 1 })).rejects.toThrow(
      'falsePositiveRate must be a number in (0, 1); got 1',
    );
    // The option's earlier name is refused by name, not silently ignored; so is any field or option the call does not have.
    await expect(RedisBloomFilter.reserve(redis.client, 'x', { capacity: 10, errorRate: 0.01 } as never)).rejects.toThrow(
      'sizing.errorRate must be absent: the fields here are capacity, falsePositiveRate, bits, hashes; got 0.01',
    );
    await expect(RedisBloomFilter.reserve(redis.client, 'x', { capacity: 10, falsePositiveRate: 0.01 }, { shard: 2 } as never)).rejects.toThrow(
      'options.shard must be absent: the options here are batchSize, scheme, seed, shards, recreate, eviction; got 2',
    );
    await expect(RedisBloomFilter.open(redis.client, 'x', { batchsize: 5 } as never)).rejects.toThrow(
      'options.batchsize must be absent: the options here are batchSize; got 5',
    );
    await expect(RedisSlidingBloomFilter.reserve(redis.client, 'x', { window: 10, falsePositiveRate: 0.01 }, { seeds: 1 } as never)).rejects.toThrow(
      'options.seeds must be absent: the options here are seed, batchSize, recreate, eviction; got 1',
    );
    await expect(RedisSlidingBloomFilter.reserve(redis.client, 'x', { window: 10, falsePositiveRate: 0.01, generation: 4 } as never)).rejects.toThrow(
      /^options\.generation must be absent: /,
    );
    // A sizing by both capacity and bits: which one was meant?
    await expect(RedisBloomFilter.reserve(redis.client, 'x', { capacity: 10, falsePositiveRate: 0.01, bits: 100, hashes: 3 } as never)).rejects.toThrow(
      'sizing must be { capacity, falsePositiveRate } or { bits, hashes }; got [object Object]',
    );
    await expect(RedisBloomFilter.reserve(redis.client, 'x', {} as never)).rejects.toThrow(BloomTypeError);
    await expect(RedisBloomFilter.reserve(redis.client, 'x', null as never)).rejects.toThrow('sizing must be { capacity, falsePositiveRate } or { bits, hashes }; got null');
    await expect(RedisBloomFilter.reserve(redis.client, 'x', { bits: 100, hashes: 3 }, [] as never)).rejects.toThrow(/^options must be an object with .*; got \[object Array\]$/);
    // Each option is read once: a getter that answers otherwise the second time changes nothing.
    let reads = 0;
    const shifty = { get shards() { reads++; return reads === 1 ? 2 : 1; } };
    const once = await RedisBloomFilter.reserve(redis.client, 'once', { capacity: 1000, falsePositiveRate: 0.01 }, shifty as never);
    expect([once.shards, reads]).toEqual([2, 1]);
    await once.drop();
    await expect(RedisBloomFilter.reserve({} as never, 'x', { bits: 100, hashes: 3 })).rejects.toThrow('client must be');
    const rf = await RedisBloomFilter.reserve(redis.client, 'args', { bits: 100, hashes: 3 });
    await expect(rf.add(5 as never)).rejects.toThrow(BloomTypeError);
    await expect(rf.addMany([`ok`, null] as never)).rejects.toThrow(BloomTypeError);
    await expect(rf.bitArray(1)).rejects.toThrow('shard must be an integer in [0, 0]; got 1');
    await rf.drop();
  });
});
