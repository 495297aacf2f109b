// RedisSlidingBloomFilter against one real redis-server: a count window
// answers exactly as a plain model of the design (rotations inside and
// across batches, calls split by batchSize), keeps every item of the window,
// forgets after (1 + 1/7) windows, holds the promised rate; reserve, open,
// clear and drop; foreign keys, a deleted generation and bad options give
// typed errors naming the field or option.
import { createClient } from 'redis';
import { expect, it } from 'vitest';
import { BloomFilter, BloomRangeError, BloomTypeError } from '../src/index.js';
import { RedisBloomAuthError, RedisBloomConfigError, RedisBloomFilter, RedisSlidingBloomFilter } from '../src/redis/index.js';
import { slidingFalsePositiveRate, slidingShape } from '../src/sliding/shape.js';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';
import { SlidingCountModel } from './helpers/sliding-count-model.js';

describeRedis('RedisSlidingBloomFilter on one redis-server', () => {
  const redis = redisForSuite();

  const urls = (n: number, prefix = 'https://example.com/'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  it('a count window answers add and has exactly as the model, through rotations inside and across batches', async () => {
    const window = { window: 70, falsePositiveRate: 0.01 };
    // batchSize 7: a batch goes out as several script calls, some spanning a rotation (c = 10).
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'count-model', window, { seed: 42, batchSize: 7 });
    const shape = slidingShape(window);
    expect(rf.shape).toEqual(shape);
    expect([rf.bits, rf.hashes, rf.seed, rf.window, rf.windowMs, rf.capacity]).toEqual([shape.bits * 8, shape.hashes, 42n, 70, 0, 70]);
    expect([shape.generationCapacity, shape.generations]).toEqual([10, 8]);
    const model = new SlidingCountModel(shape, 42n);
    const local = new BloomFilter(shape.bits, shape.hashes, { seed: 42 });
    expect(rf.positions('https://a.example/')).toEqual(local.positions('https://a.example/'));
    const random = mulberry32(23);
    // 300 distinct values, 3,000 adds: values come back both inside and after the window.
    const pool = urls(300, 'https://model.example/');
    for (let round = 0; round < 150; round++) {
      const size = Math.floor(random() * 40);
      const batch = Array.from({ length: size }, () => pool[Math.floor(random() * pool.length)]);
      const expected = Uint8Array.from(batch, (x) => Number(model.add(x)));
      if (size === 1 && round % 2 === 0) expect(await rf.add(batch[0])).toBe(expected[0] === 1);
      else expect(await rf.addMany(batch)).toEqual(expected);
      if (round % 10 === 0) expect(await rf.hasMany(pool)).toEqual(Uint8Array.from(pool, (x) => Number(model.has(x))));
    }
    const info = await rf.info();
    expect(info.live.map((g) => g.adds).sort()).toEqual(model.liveCounts().sort());
    expect(info.live[0].current).toBe(true);
    expect(info.currentFalsePositiveRate).toBeCloseTo(slidingFalsePositiveRate(shape.bits, shape.hashes, model.liveCounts()), 15);
    await rf.drop();
  });

  it('keeps every item of the last window adds, and forgets an item after (1 + 1/7) windows of other adds', async () => {
    // p = 1e-6, and answers checked against the model: stream item 1889 meets
    // a false positive of the 8 generations there too, the rest are new.
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'count-forget', { window: 700, falsePositiveRate: 1e-6 });
    const c = rf.shape.generationCapacity;
    expect(c).toBe(100);
    const model = new SlidingCountModel(rf.shape);
    expect(await rf.add('https://old.example/')).toBe(model.add('https://old.example/'));
    const stream = urls(3000, 'https://stream.example/');
    for (let at = 0; at < stream.length; at += 250) {
      const chunk = stream.slice(at, at + 250);
      expect(await rf.addMany(chunk)).toEqual(Uint8Array.from(chunk, (x) => Number(model.add(x))));
      // No false negative inside the window: the last 700 adds are all there.
      const seen = stream.slice(Math.max(0, at + 250 - 700), at + 250);
      expect((await rf.hasMany(seen)).every((f) => f === 1)).toBe(true);
    }
    // After clear, the item sits in generation 0 with c - 1 others. 8c - 1
    // adds later (8/7 windows) it is still there; the next add rotates
    // generation 0 away, and with it the item.
    await rf.clear();
    let next = 0;
    const others = async (count: number) => {
      await rf.addMany(stream.slice(next, next + count));
      next += count;
    };
    expect(await rf.add('https://old.example/')).toBe(true);
    await others(8 * c - 1);
    expect(await rf.has('https://old.example/')).toBe(true);
    await others(1);
    expect(await rf.has('https://old.example/')).toBe(false);
    // A refresh: added again while present, it answers "seen" and lives on
    // in the current generation after the one it first sat in is dropped.
    expect(await rf.add('https://old.example/')).toBe(true); // slot 0 (1 + 1 adds)
    await others(c - 2 + 50); // slot 0 full, 50 in slot 1
    expect(await rf.add('https://old.example/')).toBe(false); // set again in slot 1
    await others(49 + 6 * c + 1); // slots 1..7 full, and the rotation to slot 0 drops the first copy
    expect(await rf.has('https://old.example/')).toBe(true);
    await others(c - 1 + 1); // slot 0 full, and the rotation to slot 1 drops the second copy
    expect(await rf.has('https://old.example/')).toBe(false);
    expect(await rf.add('https://old.example/')).toBe(true);
    await rf.drop();
  });

  it('holds the promised rate in the steady state of a count window, and reports it', async () => {
    const p = 0.01;
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'count-rate', { window: 7000, falsePositiveRate: p });
    // Three windows of distinct adds: the steady state, all 8 generations in use.
    const adds = urls(21_000 + 3_500, 'https://rate.example/');
    for (let at = 0; at < adds.length; at += 5000) await rf.addMany(adds.slice(at, at + 5000));
    const info = await rf.info();
    expect(info.live.length).toBe(8);
    expect(info.currentFalsePositiveRate).toBeLessThanOrEqual(p);
    expect(info.currentFalsePositiveRate).toBeGreaterThan(p / 2);
    const never = urls(40_000, 'https://never.example/');
    const positives = (await rf.hasMany(never)).reduce((sum, f) => sum + f, 0);
    const rate = positives / never.length;
    console.log(`sliding count window n = 7000, p = ${p}: measured ${rate} over ${never.length} never-added items; reported ${info.currentFalsePositiveRate}`);
    // The binomial's standard deviation at 40,000 trials and p = 0.01 is 0.0005: allow 4 of them.
    expect(rate).toBeLessThan(info.currentFalsePositiveRate + 0.002);
    expect(rate).toBeGreaterThan(info.currentFalsePositiveRate / 2);
    await rf.drop();
  });

  it('stores its keys under one hash tag, allocates a generation when it becomes current, and UNLINKs the one it drops', async () => {
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'layout', { window: 14, falsePositiveRate: 0.01 });
    const bytes = Math.ceil(rf.shape.bits / 8);
    expect(await redis.client.type('{layout}:sliding')).toBe('hash');
    expect(await redis.client.strLen('{layout}:gen:0')).toBe(bytes);
    expect(await redis.client.exists('{layout}:gen:1')).toBe(0);
    await rf.addMany(urls(2, 'https://layout.example/')); // c = 2: generation 0 is full
    expect(await redis.client.exists('{layout}:gen:1')).toBe(0);
    await rf.add('https://layout.example/x'); // rotates to slot 1
    expect(await redis.client.strLen('{layout}:gen:1')).toBe(bytes);
    await rf.addMany(urls(14, 'https://more.example/')); // slots 1..7 full, then slot 0 again: its old bitmap dropped
    const state = await redis.client.hGetAll('{layout}:sliding');
    expect(state.current).toBe('0');
    expect(state['n:0']).toBe('1');
    expect(Number(state.adds)).toBe(17);
    // The generation in slot 0 is a fresh one: only the last add's bits are set.
    const local = new BloomFilter(rf.shape.bits, rf.hashes);
    local.add('https://more.example/13');
    const raw = await redis.client.sendCommand(['GET', '{layout}:gen:0'], { typeMapping: { 36: Buffer } });
    expect(new Uint8Array(raw as unknown as Buffer)).toEqual(local.bitArray());
    const keys = (await redis.client.keys('*layout*')).sort();
    expect(keys).toEqual(['{layout}:sliding', ...Array.from({ length: 8 }, (_, i) => `{layout}:gen:${i}`)].sort());
    await rf.drop();
    expect(await redis.client.keys('*layout*')).toEqual([]);
  });

  it('reserve opens the same configuration and refuses another one naming the field; open and clear', async () => {
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'reserve', { window: 1000, falsePositiveRate: 0.01 });
    await rf.addMany(['a', 'b']);
    const same = await RedisSlidingBloomFilter.reserve(redis.client, 'reserve', { window: 1000, falsePositiveRate: 0.01 });
    expect(await same.hasMany(['a', 'b', 'c'])).toEqual(Uint8Array.of(1, 1, 0));
    const refusal = async (pending: Promise<unknown>, field: string, text: RegExp) => {
      const err = await pending.then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(RedisBloomConfigError);
      expect((err as RedisBloomConfigError).field).toBe(field);
      expect((err as Error).message).toMatch(text);
    };
    await refusal(RedisSlidingBloomFilter.reserve(redis.client, 'reserve', { window: 2000, falsePositiveRate: 0.01 }), 'window',
      /^sliding filter "reserve" already exists with window = 1000; reserve asked for window = 2000$/);
    await refusal(RedisSlidingBloomFilter.reserve(redis.client, 'reserve', { window: 1000, falsePositiveRate: 0.001 }), 'falsePositiveRate',
      /falsePositiveRate = 0.01; reserve asked for falsePositiveRate = 0.001/);
    await refusal(RedisSlidingBloomFilter.reserve(redis.client, 'reserve', { windowMs: 1000, capacity: 1000, falsePositiveRate: 0.01 }), 'mode',
      /mode = count; reserve asked for mode = time/);
    await refusal(RedisSlidingBloomFilter.reserve(redis.client, 'reserve', { window: 1000, falsePositiveRate: 0.01 }, { seed: 1 }), 'seed',
      /seed = 0; reserve asked for seed = 1/);
    // A refused reserve changed nothing.
    expect(await rf.hasMany(['a', 'b'])).toEqual(Uint8Array.of(1, 1));
    const opened = await RedisSlidingBloomFilter.open(redis.client, 'reserve', { batchSize: 3 });
    expect([opened.shape, opened.seed, opened.batchSize]).toEqual([rf.shape, 0n, 3]);
    expect(await opened.has('a')).toBe(true);
    await refusal(RedisSlidingBloomFilter.open(redis.client, 'no-such'), 'missing', /^no sliding filter named "no-such": \{no-such\}:sliding does not exist/);
    await opened.clear();
    expect(await rf.hasMany(['a', 'b'])).toEqual(Uint8Array.of(0, 0));
    expect((await rf.info()).addedCount).toBe(0);
    expect(await rf.add('a')).toBe(true);
    // Dropped and reserved again with another shape: the old handle fails loudly instead of answering "new".
    await rf.drop();
    await RedisSlidingBloomFilter.reserve(redis.client, 'reserve', { window: 5000, falsePositiveRate: 0.01 });
    await refusal(opened.has('a'), 'config', /^sliding filter "reserve" no longer matches its keys: \{reserve\}:sliding fingerprint is bloomwasm-sliding\/1 mode=count/);
    await refusal(opened.info(), 'fingerprint', /no longer matches \{reserve\}:sliding/);
    const err = await opened.add('a').then(() => null, (e: unknown) => e) as { notAdded: string[]; cause: unknown };
    expect(err.notAdded).toEqual(['a']);
    expect(err.cause).toBeInstanceOf(RedisBloomConfigError);
    // A sliding filter and a RedisBloomFilter of one name do not share keys.
    const plain = await RedisBloomFilter.reserve(redis.client, 'reserve', { bits: 1000, hashes: 3 });
    expect(await plain.add('a')).toBe(true);
    await plain.drop();
    await (await RedisSlidingBloomFilter.open(redis.client, 'reserve')).drop();
  });

  it('refuses bad options with typed errors naming the option, before anything is written', async () => {
    const bad = async (options: unknown, type: typeof BloomTypeError | typeof BloomRangeError, parameter: string, extra?: object) => {
      const err = await RedisSlidingBloomFilter.reserve(redis.client, 'bad', options as never, extra as never).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(type);
      expect((err as { parameter: string }).parameter).toBe(parameter);
    };
    await bad({ window: 0, falsePositiveRate: 0.01 }, BloomRangeError, 'window');
    await bad({ window: 10, falsePositiveRate: 1 }, BloomRangeError, 'falsePositiveRate');
    await bad({ window: 10 }, BloomTypeError, 'falsePositiveRate');
    await bad({ windowMs: -1, capacity: 10, falsePositiveRate: 0.01 }, BloomRangeError, 'windowMs');
    await bad({ windowMs: 1000, capacity: 10, falsePositiveRate: 0.01, clock: () => 0 }, BloomTypeError, 'clock');
    // One generation must fit one Redis bitmap (2^32 bits).
    await bad({ window: 4e9, falsePositiveRate: 0.01 }, BloomRangeError, 'window');
    await bad({ windowMs: 1000, capacity: 4e9, falsePositiveRate: 0.01 }, BloomRangeError, 'capacity');
    await bad({ window: 10, falsePositiveRate: 0.01 }, BloomRangeError, 'batchSize', { batchSize: 0 });
    await bad({ window: 10, falsePositiveRate: 0.01 }, BloomRangeError, 'seed', { seed: -1 });
    // null is a value to refuse, as for every option, not the default seed.
    await bad({ window: 10, falsePositiveRate: 0.01 }, BloomTypeError, 'seed', { seed: null });
    await expect(RedisSlidingBloomFilter.reserve(redis.client, 'a{b', { window: 10, falsePositiveRate: 0.01 })).rejects.toThrow(BloomRangeError);
    expect(await redis.client.keys('*bad*')).toEqual([]);
  });

  it('foreign keys and a deleted generation give a RedisBloomConfigError naming the key, and change nothing', async () => {
    const typeRefusal = async (pending: Promise<unknown>, name: string) => {
      const err = await pending.then(() => null, (e: unknown) => e);
      const e = (err as { cause?: unknown })?.cause instanceof RedisBloomConfigError ? (err as { cause: unknown }).cause : err;
      expect(e).toBeInstanceOf(RedisBloomConfigError);
      expect((e as RedisBloomConfigError).field).toBe('type');
      expect((e as Error).message).toContain(`sliding filter "${name}"`);
      expect((e as Error).message).toContain('WRONGTYPE');
      expect((e as Error).message).toContain(`{${name}}:sliding (a hash) and {${name}}:gen:i (a string)`);
    };
    // A list where the metadata hash belongs.
    await redis.client.rPush('{list-meta}:sliding', 'x');
    await typeRefusal(RedisSlidingBloomFilter.reserve(redis.client, 'list-meta', { window: 70, falsePositiveRate: 0.01 }), 'list-meta');
    await typeRefusal(RedisSlidingBloomFilter.open(redis.client, 'list-meta'), 'list-meta');
    expect(await redis.client.lRange('{list-meta}:sliding', 0, -1)).toEqual(['x']);
    expect(await redis.client.exists('{list-meta}:gen:0')).toBe(0);
    // A string at a generation slot before reserve: someone else's key.
    await redis.client.set('{foreign}:gen:5', 'theirs');
    const foreign = await RedisSlidingBloomFilter.reserve(redis.client, 'foreign', { window: 70, falsePositiveRate: 0.01 }).then(() => null, (e: unknown) => e);
    expect(foreign).toBeInstanceOf(RedisBloomConfigError);
    expect((foreign as RedisBloomConfigError).field).toBe('missing');
    expect((foreign as Error).message).toMatch(/^sliding filter "foreign" cannot be reserved: \{foreign\}:gen:5 exists, but \{foreign\}:sliding does not/);
    expect(await redis.client.keys('{foreign}*')).toEqual(['{foreign}:gen:5']);
    // A set where a later generation belongs: adds and reads refuse before touching anything.
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'set-gen', { window: 14, falsePositiveRate: 0.01 });
    await rf.addMany(['a', 'b']);
    await redis.client.sAdd('{set-gen}:gen:3', 'x');
    const before = await redis.client.hGetAll('{set-gen}:sliding');
    await typeRefusal(rf.addMany(['c', 'd', 'e']), 'set-gen');
    await typeRefusal(rf.has('a'), 'set-gen');
    await typeRefusal(rf.clear(), 'set-gen');
    expect(await redis.client.hGetAll('{set-gen}:sliding')).toEqual(before);
    expect(await redis.client.sMembers('{set-gen}:gen:3')).toEqual(['x']);
    await redis.client.del('{set-gen}:gen:3');
    expect(await rf.hasMany(['a', 'b', 'c'])).toEqual(Uint8Array.of(1, 1, 0));
    // A live generation deleted (or evicted): refused, never read as empty.
    await redis.client.del('{set-gen}:gen:0');
    const gone = await rf.has('a').then(() => null, (e: unknown) => e);
    expect(gone).toBeInstanceOf(RedisBloomConfigError);
    expect((gone as RedisBloomConfigError).field).toBe('bits');
    expect((gone as Error).message).toMatch(/\{set-gen\}:gen:0 is 0 bytes; expected \d+ .*maxmemory-policy noeviction/);
    await rf.drop();
  });

  it('racing reserves of one name with different windows leave one whole filter; the loser is refused', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `race-reserve-${round}`;
      const asked = [{ window: 1000, falsePositiveRate: 0.01 }, { window: 2000, falsePositiveRate: 0.01 }];
      const outcomes = await Promise.allSettled(asked.map((w) => RedisSlidingBloomFilter.reserve(redis.client, name, w)));
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(lost.reason).toBeInstanceOf(RedisBloomConfigError);
      expect((lost.reason as RedisBloomConfigError).field).toBe('window');
      const winner = (won[0] as PromiseFulfilledResult<RedisSlidingBloomFilter>).value;
      expect((await RedisSlidingBloomFilter.open(redis.client, name)).shape).toEqual(winner.shape);
      await winner.drop();
    }
  });

  it('answers as sequential adds while SCRIPT FLUSH drops the scripts in the middle of batches', async () => {
    const window = { window: 140, falsePositiveRate: 0.01 };
    // batchSize 25: a batch is several calls, of which all but the last go by source (EVAL).
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'flush', window, { batchSize: 25 });
    const model = new SlidingCountModel(rf.shape);
    const flusher = createClient({ url: redis.server.url });
    flusher.on('error', () => {});
    await flusher.connect();
    const pool = urls(400, 'https://flush.example/');
    const noscript = async () => Number(/errorstat_NOSCRIPT:count=(\d+)/.exec(await redis.client.info('errorstats'))?.[1] ?? 0);
    const before = await noscript();
    for (let round = 0; round < 20; round++) {
      const batch = pool.slice((round * 37) % 300, ((round * 37) % 300) + 100);
      const expected = Uint8Array.from(batch, (x) => Number(model.add(x)));
      const [answers] = await Promise.all([rf.addMany(batch), flusher.scriptFlush()]);
      expect(answers).toEqual(expected);
      const [read] = await Promise.all([rf.hasMany(pool), flusher.scriptFlush()]);
      expect(read).toEqual(Uint8Array.from(pool, (x) => Number(model.has(x))));
    }
    expect(await noscript()).toBeGreaterThan(before);
    await flusher.close();
    await rf.drop();
  });

  it('an unauthenticated client gets RedisBloomAuthError', async () => {
    const anonymous = createClient({ url: `redis://127.0.0.1:${redis.server.port}`, socket: { reconnectStrategy: false } });
    anonymous.on('error', () => {});
    await anonymous.connect();
    const refused = RedisSlidingBloomFilter.reserve(anonymous, 'auth', { window: 70, falsePositiveRate: 0.01 });
    await expect(refused).rejects.toThrow(RedisBloomAuthError);
    await expect(refused).rejects.toThrow(/^Redis refused filter "auth": .*pass username and password/);
    await anonymous.close().catch(() => {});
  });
});
