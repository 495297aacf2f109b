// Whether the server may delete a filter's keys behind its back, checked at
// reserve. A key is deleted whole: an evicted or expired shard takes the bits
// of every item that hashed to it, and a lost configuration hash leaves
// shards nobody can tell from a new filter's. Eviction policies:
// https://redis.io/docs/latest/develop/reference/eviction/
//   noeviction       writes fail with OOM instead: safe
//   volatile-*       evicts only keys with a TTL: safe while the filter's keys have none
//   allkeys-*        may evict any key: unsafe
// A TTL (EXPIRE) on one of the filter's keys deletes it under every policy.

import { BloomTypeError } from '../errors.js';
import { hashOf, type EvictionMode } from './config.js';
import { isErrorReply, typedError, type Send } from './connection.js';
import { RedisBloomAuthError, RedisBloomConfigError } from './errors.js';

/** The process warning's type, and its codes: keys at risk, and a server whose policy cannot be read. */
export const WARNING_TYPE = 'RedisBloomWarning';
export const EVICTION_WARNING = 'BLOOMWASM_REDIS_EVICTION';
export const UNCHECKED_WARNING = 'BLOOMWASM_REDIS_UNCHECKED';

/** What a check is about: the filter's name and kind, for the messages. */
export interface EvictionTarget {
  /** `filter "crawl"` or `sliding filter "recent"`. */
  readonly label: string;
  readonly name: string;
  /** A key on each node that holds part of the filter: CONFIG GET is routed by it. */
  readonly routes: readonly string[];
  /** Every key of the filter that may exist now: each is checked for a TTL. */
  readonly keys: readonly string[];
}

/**
 * Reads maxmemory-policy (CONFIG GET, on every node that holds part of the
 * filter) and the keys' TTLs (PTTL). Keys at risk: `refuse` throws
 * RedisBloomConfigError (field `maxmemory-policy` or `ttl`), `warn` emits a
 * process warning. A server that does not let CONFIG GET run (renamed,
 * disabled, or not allowed by the ACL) is said so in a warning, and the
 * reserve carries on.
 */
export async function checkEvictionRisk(send: Send, target: EvictionTarget, mode: EvictionMode): Promise<void> {
  if (mode !== 'warn' && mode !== 'refuse') throw new BloomTypeError('eviction', mode, "'warn' or 'refuse'");
  const { label, name } = target;
  const policies = await Promise.all(target.routes.map(async (key) => {
    try {
      return { key, policy: hashOf(await send(key, true, ['CONFIG', 'GET', 'maxmemory-policy'])).get('maxmemory-policy') };
    } catch (err) {
      const typed = typedError(err, name);
      // An unauthenticated client: reserve's next call says so; NOPERM is the ACL refusing CONFIG alone.
      if (typed instanceof RedisBloomAuthError && !/^NOPERM/.test((err as Error).message)) throw typed;
      if (!isErrorReply(err)) throw typed;
      return { key, error: (err as Error).message };
    }
  }));
  for (const p of policies) {
    if (p.error !== undefined || p.policy === undefined) {
      process.emitWarning(
        `${label}: cannot read maxmemory-policy on the server holding ${p.key} (CONFIG GET answered: ` +
          `${p.error ?? 'no such parameter'}); reserve carries on unchecked. The filter needs maxmemory-policy noeviction, ` +
          'or a volatile-* policy with no TTL on its keys (docs/REDIS.md)',
        { type: WARNING_TYPE, code: UNCHECKED_WARNING },
      );
    }
  }
  const ttls = await Promise.all(target.keys.map(async (key) => {
    try {
      return { key, ms: Number(await send(key, true, ['PTTL', key])) };
    } catch (err) {
      throw typedError(err, name);
    }
  }));
  const findings: string[] = [];
  let field = 'ttl';
  const evicting = policies.filter((p) => p.policy !== undefined && p.policy.startsWith('allkeys-'));
  if (evicting.length > 0) {
    field = 'maxmemory-policy';
    findings.push(
      `maxmemory-policy is ${evicting[0].policy} on the server holding ${evicting.map((p) => p.key).join(', ')}, ` +
        'so under memory pressure Redis may evict any of its keys',
    );
  }
  const expiring = ttls.filter((t) => t.ms >= 0);
  if (expiring.length > 0) {
    findings.push(`${expiring.map((t) => `${t.key} expires in ${t.ms} ms`).join(', ')} (a TTL deletes the key under every policy)`);
  }
  if (findings.length === 0) return;
  const message =
    `${label} may lose keys behind its back: ${findings.join('; ')}. A lost key is refused (by reserve, add and has), ` +
    'never read as empty, but what was added to it is gone. Use maxmemory-policy noeviction (or a volatile-* policy) ' +
    'and no TTL on the filter\'s keys (PERSIST them)';
  if (mode === 'refuse') throw new RedisBloomConfigError(name, field, `${message}; reserve refused (eviction: 'refuse')`);
  process.emitWarning(message, { type: WARNING_TYPE, code: EVICTION_WARNING });
}
