// A server that goes away, seen through node-redis as crawlers configure
// it. A lost server is the package's typed error, RedisBloomConnectionError,
// with node-redis's own error as its cause; a rejected addMany's outcome is
// final: calls already sent may be answered after it, but their answers
// never change the error the caller holds; and an addMany whose calls wait
// in node-redis's offline queue answers once the server is back.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { createClient, SocketClosedUnexpectedlyError, type RedisClientType } from 'redis';
import { expect, it } from 'vitest';
import {
  NO_ANSWER, RedisBloomBatchError, RedisBloomConnectionError, RedisBloomFilter, RedisSlidingBloomFilter,
} from '../src/redis/index.js';
import { BloomFilter } from '../src/index.js';
import { describeRedis } from './helpers/describe-redis.js';
import { RedisServer } from './helpers/redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `ok` holds, polling every 10 ms for up to 10 s. */
async function until(what: string, ok: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await ok()) return;
    await sleep(10);
  }
  throw new Error(`${what}: not within 10 s`);
}

/**
 * A TCP gate on a port of its own in front of the server's. Open, it pipes
 * each connection through to the server; shut, it does not listen, so a
 * client's attempt is refused before it connects (a connection accepted
 * and then dropped would take the calls the client wrote into it).
 */
async function openGate(serverPort: number): Promise<{ port: number; open(): Promise<void>; shut(): void; close(): void }> {
  const sockets = new Set<Socket>();
  const gate = createServer((socket) => {
    const upstream = connect(serverPort, '127.0.0.1');
    for (const [a, b] of [[socket, upstream], [upstream, socket]]) {
      sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  });
  const listen = (port: number) => new Promise<void>((resolve) => gate.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const port = (gate.address() as AddressInfo).port;
  return {
    port,
    open: () => listen(port),
    shut: () => void gate.close(),
    close: () => {
      gate.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** The rejection of `pending` (fails the test when it resolves). */
async function rejection(pending: Promise<unknown>): Promise<unknown> {
  return pending.then((value) => { throw new Error(`expected a rejection, got ${String(value)}`); }, (err: unknown) => err);
}

/** Checks a lost-server error: typed, naming the filter and the cause, with node-redis's error as `cause`. */
function expectLostServer(err: unknown, filter: string, causeClass: string | RegExp): RedisBloomConnectionError {
  expect(err).toBeInstanceOf(RedisBloomConnectionError);
  const e = err as RedisBloomConnectionError;
  expect(e.name).toBe('RedisBloomConnectionError');
  expect(e.filter).toBe(filter);
  expect(e.cause).toBeInstanceOf(Error);
  const cause = e.cause as Error & { code?: string };
  const reason = cause.code ?? cause.constructor.name;
  expect(reason).toMatch(causeClass);
  expect(e.message).toContain(`filter "${filter}"`);
  expect(e.message).toContain(cause.message);
  expect(e.message).toContain(`(${reason})`);
  return e;
}

describeRedis('Redis filters when the server goes away', () => {
  it('an addMany beyond a full offline queue waits while the server is down, and answers as sequential adds once it is back', async () => {
    // The offline queue is on (node-redis's default), and holds 4 calls: the
    // batch's first 4 calls wait in it while the server is down, and the
    // others wait for room, as every call waits with the offline queue on.
    // The server has no password and the client sends no CLIENT SETINFO, so
    // on reconnecting the client needs no room in the full queue for a
    // handshake, and sends the 4 calls.
    let server = await RedisServer.start({ aof: true, args: ['--requirepass', ''] });
    // The client reaches the server through a gate that is shut while the
    // server restarts: Redis listens before it has replayed its AOF and
    // answers LOADING meanwhile (Redis refused the call: it did not run), so
    // a client let in then would have its first call refused.
    const gate = await openGate(server.port);
    const client: RedisClientType = createClient({
      url: `redis://127.0.0.1:${gate.port}`, commandsQueueMaxLength: 4, disableClientInfo: true, socket: { reconnectStrategy: () => 50 },
    });
    client.on('error', () => {});
    try {
      await client.connect();
      const rf = await RedisBloomFilter.reserve(client, 'final', { bits: 1 << 20, hashes: 7 }, { batchSize: 256 });
      const items = Array.from({ length: 5000 }, (_, i) => `https://final.example/${i % 4000}`);
      const local = new BloomFilter(1 << 20, 7);
      const expected = items.map((x) => Number(local.add(x)));
      gate.shut();
      await server.kill9();
      await until('client offline', () => !client.isReady);
      let settled = false;
      const pending = rf.addMany(items).finally(() => (settled = true));
      await sleep(500);
      expect(settled).toBe(false);
      server = await server.restart();
      await gate.open();
      expect(Array.from(await pending, Number)).toEqual(expected);
      expect(await rf.bitArray(0)).toEqual(local.bitArray());
      expect((await rf.info()).addedCount).toBe(4000);
    } finally {
      // destroy, not close: close waits for queued calls, which a dead server never answers.
      if (client.isOpen) client.destroy();
      gate.close();
      await server.stop();
    }
  });

  it('a rejected addMany keeps its results, uncertain and notAdded as they were, though its calls already sent are answered after it rejected', async () => {
    const server = await RedisServer.start();
    const client: RedisClientType = createClient({ url: server.url });
    const blocker: RedisClientType = createClient({ url: server.url });
    for (const c of [client, blocker]) c.on('error', () => {});
    try {
      await client.connect();
      await blocker.connect();
      // The sixth script call of the stream gets no answer (the client's own
      // error for a dropped connection); the five before it wait in the
      // server, which a script of the blocker's keeps busy for 300 ms.
      let scripts = 0;
      const dropping = {
        sendCommand(args: string[], options?: unknown): Promise<unknown> {
          if (/^EVAL/i.test(args[0]) && ++scripts === 6) return Promise.reject(new SocketClosedUnexpectedlyError());
          return client.sendCommand(args, options as never);
        },
      };
      await RedisBloomFilter.reserve(client, 'late', { bits: 1 << 16, hashes: 7 });
      const rf = await RedisBloomFilter.open(dropping, 'late', { batchSize: 50 });
      const busy = blocker.eval(
        "local t = redis.call('TIME') while true do local n = redis.call('TIME') if (n[1] - t[1]) * 1000000 + (n[2] - t[2]) > 300000 then return 1 end end",
      );
      await sleep(50);
      const items = Array.from({ length: 500 }, (_, i) => `https://late.example/${i}`);
      const failure = (await rejection(rf.addMany(items))) as RedisBloomBatchError<string>;
      expect(failure).toBeInstanceOf(RedisBloomBatchError);
      expect(failure.cause).toBeInstanceOf(RedisBloomConnectionError);
      const results = failure.results.slice();
      expect(results.every((flag) => flag === NO_ANSWER)).toBe(true);
      expect([failure.uncertain.length, failure.notAdded.length]).toEqual([300, 200]);
      const [uncertain, notAdded] = [[...failure.uncertain], [...failure.notAdded]];
      // The five calls run once the script ends; a PING on the same connection is answered after them.
      await busy;
      await client.ping();
      expect(Array.from(await rf.hasMany(items.slice(0, 250)))).toEqual(Array(250).fill(1));
      expect(failure.results).toEqual(results);
      expect([[...failure.uncertain], [...failure.notAdded]]).toEqual([uncertain, notAdded]);
      expect(Object.isFrozen(failure.uncertain) && Object.isFrozen(failure.notAdded)).toBe(true);
    } finally {
      await client.close().catch(() => {});
      await blocker.close().catch(() => {});
      await server.stop();
    }
  });

  it('has, hasMany, add, info and open while the server is down (disableOfflineQueue): RedisBloomConnectionError, caused by ClientOfflineError', async () => {
    const server = await RedisServer.start();
    const client: RedisClientType = createClient({ url: server.url, disableOfflineQueue: true, socket: { reconnectStrategy: () => 100 } });
    client.on('error', () => {});
    try {
      await client.connect();
      const plain = await RedisBloomFilter.reserve(client, 'down', { capacity: 1000, falsePositiveRate: 0.01 });
      const sliding = await RedisSlidingBloomFilter.reserve(client, 'down-sliding', { window: 1000, falsePositiveRate: 0.01 });
      await plain.add('a');
      await sliding.add('a');
      await server.kill9();
      await until('client offline', () => !client.isReady);
      for (const [name, filter] of [['down', plain], ['down-sliding', sliding]] as const) {
        expectLostServer(await rejection(filter.has('a')), name, 'ClientOfflineError');
        expectLostServer(await rejection(filter.hasMany(['a', 'b'])), name, 'ClientOfflineError');
        expectLostServer(await rejection(filter.info()), name, 'ClientOfflineError');
        // An add the client refused to send certainly did not run: not added, not uncertain.
        const refused = await rejection(filter.add('b'));
        expect(refused).toBeInstanceOf(RedisBloomBatchError);
        const batch = refused as RedisBloomBatchError<string>;
        expect([batch.notAdded, batch.uncertain]).toEqual([['b'], []]);
        expect(batch.results).toEqual(new Uint8Array([NO_ANSWER]));
        expectLostServer(batch.cause, name, 'ClientOfflineError');
      }
      expectLostServer(await rejection(RedisBloomFilter.open(client, 'down')), 'down', 'ClientOfflineError');
      expectLostServer(await rejection(RedisSlidingBloomFilter.open(client, 'down-sliding')), 'down-sliding', 'ClientOfflineError');
      expectLostServer(
        await rejection(RedisBloomFilter.reserve(client, 'down-new', { capacity: 1000, falsePositiveRate: 0.01 })), 'down-new', 'ClientOfflineError',
      );
    } finally {
      await client.close().catch(() => {});
      await server.stop();
    }
  });

  it('a client that gave up reconnecting (reconnectStrategy false): RedisBloomConnectionError, caused by ClientClosedError', async () => {
    const server = await RedisServer.start();
    const client: RedisClientType = createClient({ url: server.url, socket: { reconnectStrategy: false } });
    client.on('error', () => {});
    try {
      await client.connect();
      const rf = await RedisBloomFilter.reserve(client, 'closed', { capacity: 1000, falsePositiveRate: 0.01 });
      await server.kill9();
      await until('client closed', () => !client.isOpen);
      expectLostServer(await rejection(rf.has('a')), 'closed', 'ClientClosedError');
    } finally {
      if (client.isOpen) client.destroy();
      await server.stop();
    }
  });

  it('a hasMany in flight when the server is killed: RedisBloomConnectionError, caused by the lost socket', async () => {
    const server = await RedisServer.start();
    const client: RedisClientType = createClient({ url: server.url, disableOfflineQueue: true, socket: { reconnectStrategy: () => 100 } });
    client.on('error', () => {});
    try {
      await client.connect();
      const rf = await RedisSlidingBloomFilter.reserve(client, 'in-flight', { window: 100_000, falsePositiveRate: 0.01 });
      const items = Array.from({ length: 200_000 }, (_, i) => `https://in-flight.example/${i}`);
      const pending = rejection(rf.hasMany(items));
      await sleep(20);
      await server.kill9();
      expectLostServer(await pending, 'in-flight', /^(SocketClosedUnexpectedlyError|ClientOfflineError|ECONNRESET|EPIPE)$/);
    } finally {
      await client.close().catch(() => {});
      await server.stop();
    }
  });

  it('calls beyond a full command queue (commandsQueueMaxLength): RedisBloomConnectionError, not sent, so a refused add is not added', async () => {
    const server = await RedisServer.start();
    const reserver: RedisClientType = createClient({ url: server.url });
    // One call at a time: the client refuses a call while another waits for its answer.
    const client: RedisClientType = createClient({ url: server.url, commandsQueueMaxLength: 1, disableClientInfo: true });
    client.on('error', () => {});
    try {
      await reserver.connect();
      await client.connect();
      await RedisBloomFilter.reserve(reserver, 'full', { capacity: 1000, falsePositiveRate: 0.01 });
      await RedisSlidingBloomFilter.reserve(reserver, 'full-sliding', { window: 1000, falsePositiveRate: 0.01 });
      await reserver.close();
      const plain = await RedisBloomFilter.open(client, 'full');
      const sliding = await RedisSlidingBloomFilter.open(client, 'full-sliding');
      for (const [name, filter] of [['full', plain], ['full-sliding', sliding]] as const) {
        await filter.has('warm');
        // The first call holds the queue's one place until Redis answers it; node-redis refuses the second at once.
        const [first, second] = await Promise.allSettled([filter.has('a'), filter.has('b')]);
        expect(first.status).toBe('fulfilled');
        const err = (second as PromiseRejectedResult).reason as RedisBloomConnectionError;
        expect(err).toBeInstanceOf(RedisBloomConnectionError);
        expect(err.filter).toBe(name);
        expect((err.cause as Error).message).toBe('The queue is full');
        expect(err.message).toBe(
          `Redis did not answer for filter "${name}": The queue is full (commandsQueueMaxLength); ` +
            'the client did not send the call (its command queue holds commandsQueueMaxLength commands already), so it did not run. Retry once the queue has room',
        );
        const [, refused] = await Promise.allSettled([filter.has('a'), filter.add('b')]);
        const batch = (refused as PromiseRejectedResult).reason as RedisBloomBatchError<string>;
        expect(batch).toBeInstanceOf(RedisBloomBatchError);
        expect([batch.notAdded, batch.uncertain]).toEqual([['b'], []]);
        expect(batch.cause).toBeInstanceOf(RedisBloomConnectionError);
        expect(await filter.has('b')).toBe(false);
      }
    } finally {
      await reserver.close().catch(() => {});
      await client.close().catch(() => {});
      await server.stop();
    }
  });
});
