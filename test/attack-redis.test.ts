// RedisBloomFilter against keys an outside program put in its place, and
// batch edges, on one real redis-server. A key of the filter's name that
// holds another Redis type (a list where the configuration hash belongs, a
// set where a shard's meta hash belongs) must give a RedisBloomConfigError
// naming the filter and the key layout, never a bare WRONGTYPE Error.
import { expect, it } from 'vitest';
import { BloomFilter } from '../src/index.js';
import { RedisBloomConfigError, RedisBloomFilter } from '../src/redis/index.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';

describeRedis('RedisBloomFilter against foreign keys and edge batches', () => {
  const redis = redisForSuite();

  async function refused(pending: Promise<unknown>, name: string): Promise<RedisBloomConfigError> {
    const err = await pending.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(RedisBloomConfigError);
    const e = err as RedisBloomConfigError;
    expect(e.filter).toBe(name);
    expect(e.field).toBe('type');
    expect(e.message).toContain(`filter "${name}"`);
    expect(e.message).toContain('WRONGTYPE');
    expect(e.message).toContain(`{${name}}:config`);
    return e;
  }

  it('a list where the configuration hash belongs: reserve and open refuse with a typed error, and the list is kept', async () => {
    await redis.client.rPush('{list-config}:config', 'x');
    await refused(RedisBloomFilter.reserve(redis.client, 'list-config', { bits: 1000, hashes: 3 }), 'list-config');
    await refused(RedisBloomFilter.open(redis.client, 'list-config'), 'list-config');
    expect(await redis.client.lRange('{list-config}:config', 0, -1)).toEqual(['x']);
  });

  it('a set where shard 0 meta hash belongs: reserve refuses with a typed error', async () => {
    await redis.client.sAdd('{set-meta:0}:meta', 'x');
    await refused(RedisBloomFilter.reserve(redis.client, 'set-meta', { bits: 1000, hashes: 3 }), 'set-meta');
    expect(await redis.client.sMembers('{set-meta:0}:meta')).toEqual(['x']);
  });

  it('empty batches, NUL bytes and a 20 MB item: same answers as a local filter', async () => {
    const f = await RedisBloomFilter.reserve(redis.client, 'edges', { bits: 10_000, hashes: 5 });
    const local = new BloomFilter(10_000, 5);
    expect(await f.addMany([])).toEqual(new Uint8Array(0));
    expect(await f.hasMany([])).toEqual(new Uint8Array(0));
    const big = 'x'.repeat(20_000_000);
    const items = ['a\u0000b', '\u0000', big, new Uint8Array([0, 0, 1])];
    expect(await f.addMany(items)).toEqual(local.addMany(items));
    expect(await f.hasMany(['a', 'a\u0000', 'a\u0000b', big + 'y', big])).toEqual(local.hasMany(['a', 'a\u0000', 'a\u0000b', big + 'y', big]));
    expect(await f.bitArray()).toEqual(local.bitArray());
  });
});
