// RedisSlidingBloomFilter against the in-memory SlidingBloomFilter: the same
// sequence of adds gives the same answers. A count window reads no clock, so
// the two are compared add for add, and slot for slot their generations hold
// the same bits. A time window reads the server's clock in
// Redis; the in-memory filter is given that clock: each add call's time is
// the one its script stored (the `clock` field), and a read is compared
// whenever the in-memory answers at server times read just before and just
// after it agree (liveness only changes with time, so the Redis answer,
// taken between them, must be that one). The count window is compared
// again through a client whose command queue holds one call.
import { createClient, type RedisClientType } from 'redis';
import { expect, it } from 'vitest';
import { SlidingBloomFilter } from '../src/index.js';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { RedisSlidingBloomFilter, type RedisConnection } from '../src/redis/index.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeRedis('RedisSlidingBloomFilter answers as the in-memory SlidingBloomFilter', () => {
  const redis = redisForSuite();

  /** A count window's adds and reads, compared with the in-memory filter's, through `client`, in script calls of `batchSize` items. */
  async function countWindowParity(client: RedisConnection, name: string, batchSize: number): Promise<void> {
    const window = { window: 70, falsePositiveRate: 0.01 };
    const rf = await RedisSlidingBloomFilter.reserve(client, name, window, { batchSize });
    const local = new SlidingBloomFilter(window);
    expect(rf.shape).toEqual(local.shape);
    const random = mulberry32(7);
    const pool = Array.from({ length: 250 }, (_, i) => `https://parity.example/${i}`);
    for (let round = 0; round < 200; round++) {
      const size = Math.floor(random() * 45);
      const batch = Array.from({ length: size }, () => pool[Math.floor(random() * pool.length)]);
      if (size === 1) expect(await rf.add(batch[0])).toBe(local.add(batch[0]));
      else expect(await rf.addMany(batch)).toEqual(local.addMany(batch));
      if (round % 8 === 0) {
        expect(await rf.hasMany(pool)).toEqual(local.hasMany(pool));
        // The same live counts, multiplied in another order.
        expect(await rf.currentFalsePositiveRate()).toBeCloseTo(local.currentFalsePositiveRate(), 15);
      }
    }
    expect((await rf.info()).addCount).toBe(local.addCount);
    // Slot for slot, the generations hold the same bits: in memory, bit j of
    // word p (one byte a word for 8 generations) is position p of plane j;
    // in Redis, position p of slot j is bit p & 7 of byte p >> 3 of {name}:gen:j.
    const words = local.words();
    const m = rf.shape.bits;
    for (let slot = 0; slot < 8; slot++) {
      const raw = await redis.client.sendCommand(['GET', `{${name}}:gen:${slot}`], { typeMapping: { 36: Buffer } });
      const bytes = new Uint8Array(raw as unknown as Buffer);
      expect(bytes.length).toBe(Math.ceil(m / 8));
      const plane = new Uint8Array(Math.ceil(m / 8));
      for (let p = 0; p < m; p++) if ((words[p] >> slot) & 1) plane[p >> 3] |= 1 << (p & 7);
      expect(bytes).toEqual(plane);
    }
    await rf.drop();
  }

  it('a count window: the same adds give the same answers, batch for batch, through many rotations', async () => {
    await countWindowParity(redis.client, 'parity-count', 16);
  });

  it('a count window through a client whose command queue holds one call: an addMany\'s calls wait for room in order', async () => {
    // Every call of a window goes to one key; the client refuses all but one at a time.
    const client: RedisClientType = createClient({ url: redis.server.url, commandsQueueMaxLength: 1, disableClientInfo: true });
    client.on('error', () => {});
    await client.connect();
    try {
      await countWindowParity(client, 'parity-count-queue', 4);
    } finally {
      await client.close();
    }
  });

  it('a time window on the server\'s clock: the same answers through rotations by time and by count, expiry and reuse', async () => {
    // P = 50 ms, c = 10; pauses of up to 120 ms make rotations by time, bursts rotations by count, long pauses expiry.
    const options = { windowMs: 350, capacity: 70, falsePositiveRate: 0.01 };
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'parity-time', options);
    const stored = async () => Number(await redis.client.hGet('{parity-time}:sliding', 'clock'));
    let t = await stored();
    const local = new SlidingBloomFilter({ ...options, clock: () => t });
    const serverNow = async () => {
      const [seconds, micros] = (await redis.client.sendCommand(['TIME'])) as [string, string];
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    };
    const random = mulberry32(11);
    const pool = Array.from({ length: 120 }, (_, i) => `https://time-parity.example/${i}`);
    let compared = 0;
    for (let round = 0; round < 60; round++) {
      const size = 1 + Math.floor(random() * (round % 10 === 0 ? 40 : 8));
      const batch = Array.from({ length: size }, () => pool[Math.floor(random() * pool.length)]);
      const answers = await rf.addMany(batch);
      t = await stored(); // the time the add script ran at
      expect(answers).toEqual(local.addMany(batch));
      const before = await serverNow();
      const read = await rf.hasMany(pool);
      const after = await serverNow();
      t = before;
      const early = local.hasMany(pool);
      t = after;
      const late = local.hasMany(pool);
      if (early.every((f, i) => f === late[i])) {
        expect(read).toEqual(early);
        compared++;
      }
      await sleep(random() < 0.1 ? 400 : Math.floor(random() * 120));
    }
    // Most reads fall between two liveness changes (fewer on a loaded machine, whose reads take longer).
    expect(compared).toBeGreaterThan(20);
    await rf.drop();
  });
});
