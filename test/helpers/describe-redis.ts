// describe() for suites that need a real redis-server, and the server and
// client such a suite shares.
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HAVE_REDIS, IN_CI, RedisServer, type ServerOptions } from './redis-server.js';

/**
 * describe() for suites that need redis-server: in CI a missing server is a
 * failing test; on a laptop the suite is skipped with a loud warning.
 */
export function describeRedis(name: string, body: () => void): void {
  if (HAVE_REDIS) {
    describe(name, body);
  } else if (IN_CI) {
    describe(name, () => {
      it('needs redis-server and redis-cli', () => {
        throw new Error('redis-server/redis-cli not found on PATH; CI must have them (.ci/run installs Debian\'s redis-server)');
      });
    });
  } else {
    console.warn(`\n*** SKIPPING "${name}": redis-server/redis-cli not found on PATH (apt-get install redis-server) ***\n`);
    describe.skip(name, body);
  }
}

/** The suite's server and its connected client; read them inside tests and hooks, once beforeAll has run. */
export interface RedisSuite {
  readonly server: RedisServer;
  readonly client: RedisClientType;
}

/**
 * Starts one redis-server (with `options`, such as extra settings) and
 * connects one client before the suite's tests, and closes both after them.
 * Call it at the top of a describeRedis body.
 */
export function redisForSuite(options?: ServerOptions): RedisSuite {
  let server: RedisServer | undefined;
  let client: RedisClientType | undefined;
  beforeAll(async () => {
    server = await RedisServer.start(options);
    client = createClient({ url: server.url });
    // A dropped connection surfaces as the failing command's rejection; without
    // a listener, the client's 'error' event would end the worker instead.
    client.on('error', () => {});
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('redisForSuite: the server is read before its beforeAll has run');
    return value;
  };
  return {
    get server() { return started(server); },
    get client() { return started(client); },
  };
}
