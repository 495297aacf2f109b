// describe() for suites that need a real redis-server.
import { describe, it } from 'vitest';
import { HAVE_REDIS, IN_CI } from './redis-server.js';

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
