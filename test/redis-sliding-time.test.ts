// Time windows of RedisSlidingBloomFilter over real time, on the server's
// clock. Redis's TIME cannot be mocked, so the windows are short (hundreds
// of ms) and every assertion is a promise checked against server times read
// around the call: an item is present while the server's clock is within
// windowMs of its add, and absent once it is (1 + 1/7) windows past it,
// whatever the scheduling.
import { expect, it } from 'vitest';
import { RedisSlidingBloomFilter } from '../src/redis/index.js';
import { slidingFalsePositiveRate } from '../src/sliding/shape.js';
import { describeRedis, redisForSuite } from './helpers/describe-redis.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeRedis('RedisSlidingBloomFilter time windows on the server\'s clock', () => {
  const redis = redisForSuite();

  /** The server's clock in ms (TIME), as the scripts read it. */
  async function serverNow(): Promise<number> {
    const [seconds, micros] = (await redis.client.sendCommand(['TIME'])) as [string, string];
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  it('keeps every item for windowMs after its add, forgets it by (1 + 1/7) windows, and rotates every P ms', async () => {
    const windowMs = 700;
    // p = 1e-6: "absent" below would otherwise fail on a false positive about once in a hundred runs.
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'time-window', { windowMs, capacity: 7000, falsePositiveRate: 1e-6 });
    const P = rf.shape.periodMs;
    expect([rf.shape.mode, rf.shape.generations, rf.shape.generationCapacity, P]).toEqual(['time', 16, 1000, 100]);
    const before = await serverNow();
    expect(await rf.add('https://first.example/')).toBe(true);
    const addedAt = (await rf.info()).live[0].lastAddAt!;
    expect(addedAt).toBeGreaterThanOrEqual(before);
    // A stream of other adds every ~10 ms for 1.2 windows, each with a lower bound of its server time.
    const stream: { item: string; after: number }[] = [];
    let sawPresent = 0;
    let sawAbsent = 0;
    for (let i = 0; ; i++) {
      const after = await serverNow();
      const item = `https://stream.example/${i}`;
      await rf.add(item);
      stream.push({ item, after });
      const t0 = await serverNow();
      const present = await rf.has('https://first.example/');
      const t1 = await serverNow();
      // Within the window: certainly present. Past (1 + 1/7) windows: certainly gone.
      if (t1 < addedAt + windowMs) {
        expect(present).toBe(true);
        sawPresent++;
      }
      if (t0 >= addedAt + windowMs + P) {
        expect(present).toBe(false);
        sawAbsent++;
      }
      // Every stream item added within the window before the read is there:
      // the read ran before t2, so an item added after t2 - windowMs is in it.
      const flags = await rf.hasMany(stream.map((s) => s.item));
      const t2 = await serverNow();
      expect(stream.filter((s, j) => s.after > t2 - windowMs && flags[j] !== 1)).toEqual([]);
      if (t0 > addedAt + windowMs + 3 * P) break;
      await sleep(10);
    }
    // The loop measured something on both sides (a loaded machine runs few rounds).
    expect(sawPresent).toBeGreaterThan(2);
    expect(sawAbsent).toBeGreaterThan(0);
    // Every rotation here is by time: each generation took adds for less than
    // P ms after it started, and the next one started P ms or more after it.
    const live = (await rf.info()).live.sort((a, b) => a.startedAt! - b.startedAt!);
    expect(live.length).toBeGreaterThanOrEqual(3);
    for (let g = 0; g < live.length; g++) {
      expect(live[g].lastAddAt! - live[g].startedAt!).toBeLessThan(P);
      if (g > 0) expect(live[g].startedAt! - live[g - 1].startedAt!).toBeGreaterThanOrEqual(P);
    }
    await rf.drop();
  });

  it('an idle filter forgets: a current generation whose last add is older than the window is ignored, then replaced', async () => {
    const windowMs = 300;
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'time-idle', { windowMs, capacity: 700, falsePositiveRate: 0.001 });
    await rf.addMany(['a', 'b']);
    const addedAt = (await rf.info()).live[0].lastAddAt!;
    while ((await serverNow()) < addedAt + windowMs) await sleep(20);
    // No add since: the current generation itself has expired for reads.
    expect(await rf.hasMany(['a', 'b'])).toEqual(Uint8Array.of(0, 0));
    expect((await rf.info()).live).toEqual([]);
    expect(await rf.currentFalsePositiveRate()).toBe(0);
    // The next add starts a new generation in the same slot (UNLINK of the
    // old bitmap, a fresh one allocated), and answers new.
    const slot = Number(await redis.client.hGet('{time-idle}:sliding', 'current'));
    expect(await rf.add('a')).toBe(true);
    expect(Number(await redis.client.hGet('{time-idle}:sliding', 'current'))).toBe(slot);
    expect(await redis.client.keys('{time-idle}:gen:*')).toEqual([`{time-idle}:gen:${slot}`]);
    expect((await rf.info()).live.map((g) => g.adds)).toEqual([1]);
    expect(await rf.hasMany(['a', 'b'])).toEqual(Uint8Array.of(1, 0));
    await rf.drop();
  });

  it('rotates by count inside a batch, overloads without losing an item when no slot is free, and frees expired slots', async () => {
    const windowMs = 1400;
    // c = 2 adds per generation, 16 slots, P = 200 ms.
    const rf = await RedisSlidingBloomFilter.reserve(redis.client, 'time-overload', { windowMs, capacity: 14, falsePositiveRate: 0.01 });
    expect(rf.shape.generationCapacity).toBe(2);
    const burst = Array.from({ length: 100 }, (_, i) => `https://burst.example/${i}`);
    const start = await serverNow();
    await rf.addMany(burst.slice(0, 7));
    const early = await rf.info();
    // 7 adds within one call: generations of 2, 2, 2 and the current one with 1.
    expect(early.live.map((g) => g.adds)).toEqual([1, 2, 2, 2]);
    expect(early.overloaded).toBe(false);
    await rf.addMany(burst.slice(7));
    const info = await rf.info();
    expect(info.now - start).toBeLessThan(windowMs); // else this test measures nothing
    expect(info.live).toHaveLength(16);
    expect(info.live.reduce((sum, g) => sum + g.adds, 0)).toBe(100);
    // Unless the machine stalled for P between the two calls (a rotation by
    // time), 15 full slots of 2, and the current one took the other 70.
    if (info.now - start < rf.shape.periodMs) expect(info.live.map((g) => g.adds)).toEqual([70, ...new Array(15).fill(2)]);
    expect(info.overloaded).toBe(true);
    expect(info.currentFalsePositiveRate).toBeCloseTo(slidingFalsePositiveRate(rf.shape.bits, rf.hashes, info.live.map((g) => g.adds)), 15);
    expect(info.currentFalsePositiveRate).toBeGreaterThan(0.01);
    // The promise that holds under overload: no item of the window is lost.
    expect((await rf.hasMany(burst)).every((f) => f === 1)).toBe(true);
    // Once the window has passed, the next add frees (UNLINKs) every expired slot.
    const last = Math.max(...info.live.map((g) => g.lastAddAt!));
    while ((await serverNow()) < last + windowMs) await sleep(20);
    expect(await rf.add('https://after.example/')).toBe(true);
    const after = await rf.info();
    expect(after.live.map((g) => g.adds)).toEqual([1]);
    expect(after.overloaded).toBe(false);
    expect(await redis.client.keys('{time-overload}:gen:*')).toHaveLength(1);
    expect((await rf.hasMany(burst)).some((f) => f === 1)).toBe(false);
    await rf.drop();
  });
});
