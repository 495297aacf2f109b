// What a filter in Redis does when its keys go away behind its back: a
// DEL, a TTL that runs out, real LRU eviction under maxmemory. Whatever is
// left is refused, never rebuilt around (which would answer "absent" for
// every item of the lost keys), until reserve is told to start over
// (recreate); reserve reads maxmemory-policy and the keys' TTLs and warns
// or refuses; a server without CONFIG is said so. Each suite starts its
// own redis-server on loopback.
import type { RedisClientType } from 'redis';
import { beforeAll, expect, it } from 'vitest';
import { BloomTypeError } from '../src/index.js';
import {
  EVICTION_WARNING, RedisBloomConfigError, RedisBloomFilter, RedisSlidingBloomFilter, UNCHECKED_WARNING, WARNING_TYPE,
} from '../src/redis/index.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const urls = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** Runs `run`, collecting the RedisBloomWarning process warnings it emits (emitted on the next tick). */
async function withWarnings<T>(run: () => Promise<T>): Promise<{ value?: T; error?: unknown; warnings: (Error & { code?: string })[] }> {
  const warnings: (Error & { code?: string })[] = [];
  const listener = (w: Error) => {
    if (w.name === WARNING_TYPE) warnings.push(w);
  };
  process.on('warning', listener);
  try {
    return { value: await run(), warnings };
  } catch (error) {
    return { error, warnings };
  } finally {
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', listener);
  }
}

/** Awaits a promise that must reject with RedisBloomConfigError, and returns the error. */
async function configError(pending: Promise<unknown>): Promise<RedisBloomConfigError> {
  const err = await pending.then(() => null, (e: unknown) => e);
  const cause = (err as { cause?: unknown } | null)?.cause;
  const e = cause instanceof RedisBloomConfigError ? cause : err;
  expect(e).toBeInstanceOf(RedisBloomConfigError);
  return e as RedisBloomConfigError;
}

/** The keys of both kinds of filter named `name`, sorted. */
async function keysOf(client: RedisClientType, name: string): Promise<string[]> {
  return (await client.keys('*')).filter((k) => k.startsWith(`{${name}}`) || k.startsWith(`{${name}:`)).sort();
}

describeRedis('Redis filters whose keys are deleted or expire', () => {
  const redis = redisForSuite();

  it('the configuration and a shard deleted: reserve refuses naming them, the old handle refuses, recreate starts over', async () => {
    const c = redis.client;
    const f = await RedisBloomFilter.reserve(c, 'crawl', { capacity: 10_000, falsePositiveRate: 0.01 }, { shards: 2 });
    const items = urls(1000, 'https://crawl.example/');
    await f.addMany(items);
    await c.del(['{crawl}:config', '{crawl:1}', '{crawl:1}:meta']);
    const refused = await configError(RedisBloomFilter.reserve(c, 'crawl', { capacity: 10_000, falsePositiveRate: 0.01 }, { shards: 2 }));
    expect([refused.filter, refused.field]).toEqual(['crawl', 'missing']);
    expect(refused.message).toBe(
      'cannot reserve filter "crawl": {crawl}:config, {crawl:1}, {crawl:1}:meta are missing (evicted, expired or deleted), ' +
        'but {crawl:0}, {crawl:0}:meta survive. What was added to the lost keys would read as absent, so reserve does not ' +
        'rebuild the filter around what is left: reserve with { recreate: true } to delete it and start over empty ' +
        '(and set maxmemory-policy noeviction, docs/REDIS.md)',
    );
    // Without shards given (the default is 1 here): refused alike, and nothing was written.
    expect((await configError(RedisBloomFilter.reserve(c, 'crawl', { capacity: 10_000, falsePositiveRate: 0.01 }))).field).toBe('missing');
    expect(await keysOf(c, 'crawl')).toEqual(['{crawl:0}', '{crawl:0}:meta']);
    expect((await configError(RedisBloomFilter.open(c, 'crawl'))).field).toBe('missing');
    // The old handle: shard 1 is refused, shard 0 still answers.
    const inZero = items.filter((x) => f.shardOf(x) === 0);
    expect(inZero.length).toBeGreaterThan(400);
    expect((await configError(f.hasMany(items))).message).toContain('{crawl:1}:meta config is missing');
    expect((await f.hasMany(inZero)).every((x) => x === 1)).toBe(true);
    // Starting over: empty, and the old handle does not take the new shards for its own.
    const g = await RedisBloomFilter.reserve(c, 'crawl', { capacity: 10_000, falsePositiveRate: 0.01 }, { shards: 2, recreate: true });
    expect((await g.hasMany(items)).every((x) => x === 0)).toBe(true);
    expect((await configError(f.hasMany(inZero))).field).toBe('config');
    expect((await configError(f.add('new'))).message).toMatch(/\{crawl:[01]\}:meta config is bloomwasm\/1 .* epoch=[0-9a-f]{16}; expected /);
    await g.drop();
  });

  it('a TTL on a key is reported at reserve (warn, or refuse with nothing written), and once it runs out the rest is refused', async () => {
    const c = redis.client;
    const f = await RedisBloomFilter.reserve(c, 'ttl', { bits: 2000, hashes: 3 }, { shards: 2 });
    const items = urls(200, 'https://ttl.example/');
    await f.addMany(items);
    await c.pExpire('{ttl}:config', 1500);
    await c.pExpire('{ttl:1}', 1500);
    const refusedTtl = await withWarnings(() => RedisBloomFilter.reserve(c, 'ttl', { bits: 2000, hashes: 3 }, { shards: 2, eviction: 'refuse' }));
    const ttlError = refusedTtl.error as RedisBloomConfigError;
    expect(ttlError).toBeInstanceOf(RedisBloomConfigError);
    expect(ttlError.field).toBe('ttl');
    expect(ttlError.message).toMatch(
      /^filter "ttl" may lose keys behind its back: \{ttl\}:config expires in \d+ ms, \{ttl:1\} expires in \d+ ms \(a TTL deletes the key under every policy\)\. A lost key is refused/,
    );
    expect(ttlError.message).toMatch(/\(PERSIST them\); reserve refused \(eviction: 'refuse'\)$/);
    expect(refusedTtl.warnings).toEqual([]);
    const warned = await withWarnings(() => RedisBloomFilter.reserve(c, 'ttl', { bits: 2000, hashes: 3 }, { shards: 2 }));
    expect(warned.value).toBeInstanceOf(RedisBloomFilter);
    expect(warned.warnings.map((w) => w.code)).toEqual([EVICTION_WARNING]);
    expect(warned.warnings[0].message).toMatch(/^filter "ttl" may lose keys behind its back: \{ttl\}:config expires in \d+ ms, \{ttl:1\} expires in/);
    await sleep(1600);
    const gone = await configError(RedisBloomFilter.reserve(c, 'ttl', { bits: 2000, hashes: 3 }, { shards: 2 }));
    expect(gone.field).toBe('missing');
    expect(gone.message).toMatch(/^cannot reserve filter "ttl": \{ttl\}:config, \{ttl:1\} are missing \(evicted, expired or deleted\), but \{ttl:0\}, \{ttl:0\}:meta, \{ttl:1\}:meta survive\./);
    expect((await configError(f.hasMany(items))).message).toContain('{ttl:1} is 0 bytes; expected 125');
    await (await RedisBloomFilter.reserve(c, 'ttl', { bits: 2000, hashes: 3 }, { shards: 2, recreate: true })).drop();
    expect(await keysOf(c, 'ttl')).toEqual([]);
  });

  it('maxmemory-policy: noeviction and volatile-* pass quietly, allkeys-* warns or refuses; a TTL warns under any', async () => {
    const c = redis.client;
    try {
      for (const policy of ['noeviction', 'volatile-lru', 'volatile-ttl']) {
        await c.configSet('maxmemory-policy', policy);
        const quiet = await withWarnings(() => RedisBloomFilter.reserve(c, 'policy', { bits: 1000, hashes: 3 }, { eviction: 'refuse' }));
        expect(quiet.warnings).toEqual([]);
        await quiet.value!.drop();
      }
      await c.configSet('maxmemory-policy', 'allkeys-lru');
      const refused = await withWarnings(() => RedisBloomFilter.reserve(c, 'policy', { bits: 1000, hashes: 3 }, { eviction: 'refuse' }));
      const e = refused.error as RedisBloomConfigError;
      expect(e).toBeInstanceOf(RedisBloomConfigError);
      expect([e.field, e.filter]).toEqual(['maxmemory-policy', 'policy']);
      expect(e.message).toBe(
        'filter "policy" may lose keys behind its back: maxmemory-policy is allkeys-lru on the server holding {policy}:config, ' +
          'so under memory pressure Redis may evict any of its keys. A lost key is refused (by reserve, add and has), never ' +
          'read as empty, but what was added to it is gone. Use maxmemory-policy noeviction (or a volatile-* policy) and no ' +
          "TTL on the filter's keys (PERSIST them); reserve refused (eviction: 'refuse')",
      );
      expect(await keysOf(c, 'policy')).toEqual([]);
      const warned = await withWarnings(() => RedisBloomFilter.reserve(c, 'policy', { bits: 1000, hashes: 3 }));
      expect(warned.warnings.map((w) => [w.name, w.code])).toEqual([[WARNING_TYPE, EVICTION_WARNING]]);
      expect(warned.warnings[0].message).toBe(e.message.replace("; reserve refused (eviction: 'refuse')", ''));
      expect(await warned.value!.add('x')).toBe(true);
      await warned.value!.drop();
      // The sliding filter alike.
      const sliding = await withWarnings(() => RedisSlidingBloomFilter.reserve(c, 'policy', { window: 70, falsePositiveRate: 0.01 }, { eviction: 'refuse' }));
      expect((sliding.error as RedisBloomConfigError).field).toBe('maxmemory-policy');
      expect((sliding.error as Error).message).toMatch(/^sliding filter "policy" may lose keys behind its back: maxmemory-policy is allkeys-lru on the server holding \{policy\}:sliding/);
      expect(await keysOf(c, 'policy')).toEqual([]);
      const slidingWarned = await withWarnings(() => RedisSlidingBloomFilter.reserve(c, 'policy', { window: 70, falsePositiveRate: 0.01 }));
      expect(slidingWarned.warnings.map((w) => w.code)).toEqual([EVICTION_WARNING]);
      // volatile-lru, and a TTL on a generation: warned.
      await c.configSet('maxmemory-policy', 'volatile-lru');
      await c.expire('{policy}:gen:0', 3600);
      const ttl = await withWarnings(() => RedisSlidingBloomFilter.reserve(c, 'policy', { window: 70, falsePositiveRate: 0.01 }));
      expect(ttl.warnings.map((w) => w.message)).toEqual([
        expect.stringMatching(/^sliding filter "policy" may lose keys behind its back: \{policy\}:gen:0 expires in \d+ ms \(a TTL deletes the key under every policy\)/),
      ]);
      await ttl.value!.drop();
      await expect(RedisBloomFilter.reserve(c, 'policy', { bits: 1000, hashes: 3 }, { eviction: 'ignore' as never })).rejects.toThrow(BloomTypeError);
      await expect(RedisSlidingBloomFilter.reserve(c, 'policy', { window: 70, falsePositiveRate: 0.01 }, { eviction: 'ignore' as never }))
        .rejects.toThrow("eviction must be 'warn' or 'refuse'; got \"ignore\"");
    } finally {
      await c.configSet('maxmemory-policy', 'noeviction');
    }
  });

  it('sliding: the metadata deleted or expired is refused naming it, a live generation deleted too, until recreate', async () => {
    const c = redis.client;
    const window = { window: 14, falsePositiveRate: 0.01 };
    const rf = await RedisSlidingBloomFilter.reserve(c, 'slide', window);
    await rf.addMany(urls(5, 'https://slide.example/')); // c = 2: generations 0, 1 and 2
    expect(await keysOf(c, 'slide')).toEqual(['{slide}:gen:0', '{slide}:gen:1', '{slide}:gen:2', '{slide}:sliding']);
    // A live generation deleted: reserve refuses, rather than open a filter whose adds would fail later.
    await c.del('{slide}:gen:1');
    const damaged = await configError(RedisSlidingBloomFilter.reserve(c, 'slide', window));
    expect(damaged.field).toBe('bits');
    expect(damaged.message).toBe(
      'sliding filter "slide" exists, but {slide}:gen:1 is missing or of another size while its metadata says it holds adds ' +
        '(a generation was deleted, evicted or expired, so what was added to it is lost; reserve does not recreate it empty: ' +
        'reserve with { recreate: true } to start over, and use maxmemory-policy noeviction)',
    );
    expect((await configError(rf.has('x'))).field).toBe('bits');
    // The metadata gone: the generations left are named, nothing is written.
    await c.pExpire('{slide}:sliding', 200);
    await sleep(300);
    const left = await configError(RedisSlidingBloomFilter.reserve(c, 'slide', window));
    expect([left.field, left.filter]).toEqual(['missing', 'slide']);
    expect(left.message).toBe(
      'sliding filter "slide" cannot be reserved: {slide}:gen:0, {slide}:gen:2 exist, but {slide}:sliding does not (its metadata ' +
        "was evicted, expired or deleted, or the keys are someone else's); what was added to the generations cannot be read " +
        'without it, so reserve does not rebuild the filter around them; its keys are {slide}:sliding (a hash) and ' +
        '{slide}:gen:i (a string) for each generation slot i: reserve with { recreate: true } to delete them and start over ' +
        'empty, or pick another name',
    );
    expect(await keysOf(c, 'slide')).toEqual(['{slide}:gen:0', '{slide}:gen:2']);
    expect((await configError(RedisSlidingBloomFilter.open(c, 'slide'))).field).toBe('missing');
    expect((await configError(rf.has('x'))).field).toBe('config');
    // Starting over, with the same window: one script deletes what was left and creates it; the old handle is refused.
    const again = await RedisSlidingBloomFilter.reserve(c, 'slide', window, { recreate: true });
    expect(await keysOf(c, 'slide')).toEqual(['{slide}:gen:0', '{slide}:sliding']);
    expect(await again.hasMany(urls(5, 'https://slide.example/'))).toEqual(new Uint8Array(5));
    expect((await configError(rf.has('x'))).message).toMatch(/fingerprint is bloomwasm-sliding\/1 .* epoch=[0-9a-f]{16}; expected .* epoch=[0-9a-f]{16}/);
    // recreate also replaces another shape.
    const other = await RedisSlidingBloomFilter.reserve(c, 'slide', { window: 28, falsePositiveRate: 0.01 }, { recreate: true });
    expect(other.window).toBe(28);
    expect((await configError(again.has('x'))).field).toBe('config');
    await other.drop();
  });

  it('FLUSHDB under open handles: they refuse, and after a new reserve they refuse the new filter too', async () => {
    const c = redis.client;
    const f = await RedisBloomFilter.reserve(c, 'flushed', { bits: 2000, hashes: 3 }, { shards: 2 });
    const s = await RedisSlidingBloomFilter.reserve(c, 'flushed', { window: 70, falsePositiveRate: 0.01 });
    await f.addMany(['a', 'b']);
    await s.addMany(['a', 'b']);
    await c.flushDb();
    expect((await configError(f.has('a'))).field).toBe('config');
    expect((await configError(s.has('a'))).field).toBe('config');
    // Nothing is left to tell the filters from new ones: reserve creates them empty, and the old handles stay refused.
    const g = await RedisBloomFilter.reserve(c, 'flushed', { bits: 2000, hashes: 3 }, { shards: 2 });
    const t = await RedisSlidingBloomFilter.reserve(c, 'flushed', { window: 70, falsePositiveRate: 0.01 });
    expect([await g.has('a'), await t.has('a')]).toEqual([false, false]);
    expect((await configError(f.hasMany(['a', 'b']))).field).toBe('config');
    expect((await configError(f.add('c'))).field).toBe('config');
    expect((await configError(s.has('a'))).field).toBe('config');
    expect((await configError(s.add('c'))).field).toBe('config');
    await g.drop();
    await t.drop();
  });

  it('sliding: another capacity, rate or window is refused naming the field with both values', async () => {
    const c = redis.client;
    const rf = await RedisSlidingBloomFilter.reserve(c, 'shape', { windowMs: 60_000, capacity: 1000, falsePositiveRate: 0.01 });
    const cases: [object, string, string][] = [
      [{ windowMs: 60_000, capacity: 2000, falsePositiveRate: 0.01 }, 'capacity', 'capacity = 1000; reserve asked for capacity = 2000'],
      [{ windowMs: 60_000, capacity: 1000, falsePositiveRate: 0.02 }, 'falsePositiveRate', 'falsePositiveRate = 0.01; reserve asked for falsePositiveRate = 0.02'],
      [{ windowMs: 30_000, capacity: 1000, falsePositiveRate: 0.01 }, 'windowMs', 'windowMs = 60000; reserve asked for windowMs = 30000'],
    ];
    for (const [asked, field, text] of cases) {
      const e = await configError(RedisSlidingBloomFilter.reserve(c, 'shape', asked as never));
      expect([e.field, e.message]).toEqual([field, `sliding filter "shape" already exists with ${text}`]);
    }
    await rf.drop();
  });
});

describeRedis('Redis filters under maxmemory with allkeys-lru (real eviction)', () => {
  // 64 samples (the most): eviction takes the idlest keys nearly in order,
  // so the fillers take the filter's keys a few at a time, not all at once.
  const redis = redisForSuite({ args: ['--maxmemory', '8mb', '--maxmemory-policy', 'allkeys-lru', '--maxmemory-samples', '64'] });
  let c: RedisClientType;
  beforeAll(() => {
    c = redis.client;
  });

  /**
   * Writes 1 KB fillers, 16 at a time, until eviction has taken `done`'s
   * keys; returns the fillers' names. LRU idle times count in seconds, so
   * the caller leaves its keys idle for two before.
   */
  async function fillUntil(done: () => Promise<boolean>): Promise<string[]> {
    const fillers: string[] = [];
    for (let batch = 0; batch < 4000; batch++) {
      const names = Array.from({ length: 16 }, (_, i) => `filler:${batch}:${i}`);
      await Promise.all(names.map((k) => c.set(k, 'x'.repeat(1024))));
      fillers.push(...names);
      if (await done()) return fillers;
    }
    throw new Error('eviction did not take the keys after 64 MB of fillers');
  }

  async function unlinkAll(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 500) await c.unlink(keys.slice(i, i + 500));
  }

  it('RedisBloomFilter: eviction takes the configuration and shards; reserve refuses naming them, the old handle refuses', async () => {
    const warned = await withWarnings(() => RedisBloomFilter.reserve(c, 'lru', { bits: 8 * 1024 * 1024, hashes: 5 }, { shards: 8 }));
    expect(warned.warnings.map((w) => w.code)).toEqual([EVICTION_WARNING]);
    expect(warned.warnings[0].message).toMatch(/^filter "lru" may lose keys behind its back: maxmemory-policy is allkeys-lru/);
    const f = warned.value!;
    const items = urls(4000, 'https://lru.example/');
    await sleep(1100); // the configuration is read at reserve only: it is the least recently used
    await f.addMany(items);
    await sleep(2100);
    const shardKeys = Array.from({ length: 8 }, (_, s) => [`{lru:${s}}`, `{lru:${s}}:meta`]).flat();
    const exists = async (keys: string[]) => Promise.all(keys.map(async (k) => (await c.exists(k)) === 1));
    const fillers = await fillUntil(async () => {
      // Shard 0 is touched at each step, so it stays among the most recently
      // used and survives: the case under test is keys lost beside keys left.
      // (Untouched, one round of approximate LRU can take all 16.)
      await c.sendCommand(['TOUCH', '{lru:0}', '{lru:0}:meta']);
      const [config, ...shards] = await exists(['{lru}:config', ...shardKeys]);
      return !config && shards.includes(false);
    });
    // As for the sliding filter below: the keys read before and after the
    // refused reserve agree, so they are the keys reserve saw.
    const reserveAgain = () => withWarnings(() => RedisBloomFilter.reserve(c, 'lru', { bits: 8 * 1024 * 1024, hashes: 5 }, { shards: 8 }));
    let present = await exists(shardKeys);
    let refused = await reserveAgain();
    for (let tries = 0; tries < 5; tries++) {
      const after = await exists(shardKeys);
      if (after.every((p, i) => p === present[i])) break;
      present = after;
      refused = await reserveAgain();
    }
    const absent = shardKeys.filter((_, i) => !present[i]);
    const survivors = shardKeys.filter((_, i) => present[i]);
    console.log(`allkeys-lru: after ${fillers.length} KB of fillers, {lru}:config and ${absent.length} of 16 shard keys were evicted`);
    expect(survivors.length).toBeGreaterThan(0);
    expect(refused.warnings.map((w) => w.code)).toEqual([EVICTION_WARNING]);
    const e = refused.error as RedisBloomConfigError;
    expect(e).toBeInstanceOf(RedisBloomConfigError);
    expect(e.field).toBe('missing');
    const missing = ['{lru}:config', ...absent];
    const named = missing.length <= 6 ? missing.join(', ') : `${missing.slice(0, 6).join(', ')} and ${missing.length - 6} more`;
    expect(e.message.startsWith(`cannot reserve filter "lru": ${named} ${missing.length === 1 ? 'is' : 'are'} missing (evicted, expired or deleted), but ${survivors[0]}`)).toBe(true);
    // The old handle refuses the shards that were evicted instead of answering "absent".
    expect((await configError(f.hasMany(items))).field).toMatch(/^(config|bits)$/);
    await unlinkAll(fillers);
    const g = await RedisBloomFilter.reserve(c, 'lru', { bits: 8 * 1024 * 1024, hashes: 5 }, { shards: 8, recreate: true });
    expect((await g.hasMany(items)).every((x) => x === 0)).toBe(true);
    await configError(f.hasMany(items));
    await g.drop();
  });

  it('RedisSlidingBloomFilter: eviction takes a generation or the metadata; reserve refuses naming it', async () => {
    const window = { window: 70_000, falsePositiveRate: 0.01 };
    const rf = await RedisSlidingBloomFilter.reserve(c, 'lru-slide', window);
    const items = urls(75_000, 'https://lru-slide.example/');
    await rf.addMany(items); // 8 live generations of about 14 KB
    await sleep(2100);
    const keys = ['{lru-slide}:sliding', ...Array.from({ length: 8 }, (_, i) => `{lru-slide}:gen:${i}`)];
    const exists = async () => Promise.all(keys.map(async (k) => (await c.exists(k)) === 1));
    const fillers = await fillUntil(async () => (await exists()).includes(false));
    // The server may evict again on any command while it is over maxmemory,
    // so the keys are read before and after the refused reserve, until both
    // reads agree: the keys reserve saw.
    let present = await exists();
    let e = await configError(RedisSlidingBloomFilter.reserve(c, 'lru-slide', window));
    for (let tries = 0; tries < 5; tries++) {
      const after = await exists();
      if (after.every((p, i) => p === present[i])) break;
      present = after;
      e = await configError(RedisSlidingBloomFilter.reserve(c, 'lru-slide', window));
    }
    const evicted = keys.filter((_, i) => !present[i]);
    console.log(`allkeys-lru: after ${fillers.length} KB of fillers, ${evicted.join(', ')} evicted`);
    if (present[0]) {
      expect(e.field).toBe('bits');
      expect(e.message).toContain(`sliding filter "lru-slide" exists, but ${evicted.join(', ')} `);
    } else {
      expect(e.field).toBe('missing');
      expect(e.message).toContain(`exist${keys.filter((_, i) => i > 0 && present[i]).length === 1 ? 's' : ''}, but {lru-slide}:sliding does not`);
    }
    await configError(rf.hasMany(items.slice(0, 100)));
    await unlinkAll(fillers);
    const again = await RedisSlidingBloomFilter.reserve(c, 'lru-slide', window, { recreate: true });
    expect((await again.hasMany(items.slice(0, 1000))).every((x) => x === 0)).toBe(true);
    await again.drop();
  });
});

describeRedis('Redis filters on a server without CONFIG (renamed away)', () => {
  const redis = redisForSuite({ args: ['--rename-command', 'CONFIG', ''] });
  let c: RedisClientType;
  beforeAll(() => {
    c = redis.client;
  });

  it('reserve says it cannot read maxmemory-policy and carries on, also with eviction refuse', async () => {
    for (const eviction of ['warn', 'refuse'] as const) {
      const plain = await withWarnings(() => RedisBloomFilter.reserve(c, 'noconfig', { bits: 1000, hashes: 3 }, { eviction }));
      expect(plain.warnings.map((w) => w.code)).toEqual([UNCHECKED_WARNING]);
      expect(plain.warnings[0].message).toMatch(
        /^filter "noconfig": cannot read maxmemory-policy on the server holding \{noconfig\}:config \(CONFIG GET answered: ERR unknown command 'CONFIG'.*\); reserve carries on unchecked\. The filter needs maxmemory-policy noeviction, or a volatile-\* policy with no TTL on its keys \(docs\/REDIS\.md\)$/,
      );
      expect(await plain.value!.add('x')).toBe(true);
      await plain.value!.drop();
      const sliding = await withWarnings(() => RedisSlidingBloomFilter.reserve(c, 'noconfig', { window: 70, falsePositiveRate: 0.01 }, { eviction }));
      expect(sliding.warnings.map((w) => w.code)).toEqual([UNCHECKED_WARNING]);
      expect(sliding.warnings[0].message).toMatch(/^sliding filter "noconfig": cannot read maxmemory-policy on the server holding \{noconfig\}:sliding/);
      expect(await sliding.value!.add('x')).toBe(true);
      await sliding.value!.drop();
    }
  });
});
