// reserve(): create a filter's keys, or check that the ones there are this
// filter's. A refused reserve changes nothing.
//
// The configuration hash and the shards sit in different cluster slots, so
// no one script can check and create them all at once. Instead the shards
// come first and the configuration last, and a refusal undoes exactly what
// this reserve created:
//   1. A configuration exists: it must match (else refuse), and every shard
//      must be there with its fingerprint and size (else refuse: a missing
//      shard is never silently recreated empty). Nothing is written.
//   2. None exists: create each shard unless it is already there with this
//      fingerprint (CREATE_SHARD_SCRIPT refuses before writing otherwise).
//   3. Store the configuration unless someone stored one meanwhile; if that
//      one differs, refuse.
// On a refusal in 2 or 3, the shards this reserve created are deleted
// again (DROP_NEW_SHARD_SCRIPT). Until the configuration exists, open()
// finds no filter, so no one adds into a half-made one. A process that dies
// between 2 and 3 leaves shards without a configuration: the same reserve
// adopts them, another one is refused with the keys named.

import { configFields, hashOf, IDENTITY_FIELDS, parseConfig, type Config } from './config.js';
import { isErrorReply, runScript, scriptArgs, typedError, type Send } from './connection.js';
import { RedisBloomConfigError } from './errors.js';
import { bitmapKey, configKey, fingerprint, metaKey } from './layout.js';
import { CREATE_SHARD_SCRIPT, DROP_NEW_SHARD_SCRIPT, HAS_SCRIPT, RESERVE_SCRIPT } from './scripts.js';

/**
 * Creates the filter's keys, or checks the existing ones; throws
 * RedisBloomConfigError and changes nothing when they differ. Returns the
 * configuration in force: the one asked for, or, for a filter reserved
 * with the same capacity and rate by an earlier release whose sizing gave
 * small filters other bits (sizing rule 1, docs/SCHEMES.md), the stored one.
 */
export async function reserveKeys(send: Send, name: string, asked: Config): Promise<Config> {
  let config = asked;
  let fields = configFields(config);
  const existing = hashOf(await call(name, send(configKey(name), true, ['HGETALL', configKey(name)])));
  if (existing.size > 0 && sameSizing(existing, fields)) {
    config = parseConfig(name, existing);
    fields = configFields(config);
  }
  const print = fingerprint(config.shardBits, config.hashes, config.scheme, config.seed, config.shards);
  const bytes = String(Math.ceil(config.shardBits / 8));
  const key = configKey(name);
  const shardArgs = (s: number, argv: string[]) => scriptArgs([bitmapKey(name, s), metaKey(name, s)], argv);
  const shards = Array.from({ length: config.shards }, (_, s) => s);

  if (existing.size > 0) {
    compare(name, existing, fields);
    // HAS_SCRIPT with no items runs only its checks: fingerprint and size, read-only.
    await Promise.all(shards.map((s) => call(name, runScript(send, HAS_SCRIPT, true, shardArgs(s, [print, bytes, '1'])), true)));
    return config;
  }

  const created: number[] = [];
  const outcomes = await Promise.allSettled(shards.map(async (s) => {
    if (Number(await runScript(send, CREATE_SHARD_SCRIPT, false, shardArgs(s, [print, bytes]))) === 1) created.push(s);
  }));
  const failure = outcomes.find((o) => o.status === 'rejected');
  if (failure !== undefined) {
    await undo(send, name, created, (s) => shardArgs(s, [print]));
    throw shardError(name, (failure as PromiseRejectedResult).reason);
  }
  try {
    const stored = hashOf(await call(name, runScript(send, RESERVE_SCRIPT, false, scriptArgs([key], Object.entries(fields).flat()))));
    if (stored.size > 0) compare(name, stored, fields);
  } catch (err) {
    await undo(send, name, created, (s) => shardArgs(s, [print]));
    throw err;
  }
  return config;
}

/**
 * Whether a stored configuration was reserved for the capacity and rate
 * asked for, by scheme and seed: the same filter, whatever bits its
 * release's sizing rule gave it.
 */
function sameSizing(stored: Map<string, string>, fields: Record<string, string>): boolean {
  if (fields.capacity === '' || fields.falsePositiveRate === '') return false;
  return (['capacity', 'falsePositiveRate', 'scheme', 'seed', 'format'] as const).every((f) => stored.get(f) === fields[f]);
}

/** Refuses a stored configuration that differs from the one asked for in any identity field. */
function compare(name: string, stored: Map<string, string>, fields: Record<string, string>): void {
  for (const field of IDENTITY_FIELDS) {
    if (stored.get(field) !== fields[field]) {
      throw new RedisBloomConfigError(
        name, field,
        `filter "${name}" already exists with ${field} = ${stored.get(field) ?? 'missing'}; ` +
          `reserve asked for ${field} = ${fields[field]} (open it with RedisBloomFilter.open, or pick another name)`,
      );
    }
  }
}

/** Deletes the shards this reserve created; a failure here is left to the error being thrown. */
async function undo(send: Send, name: string, created: number[], args: (s: number) => string[]): Promise<void> {
  await Promise.allSettled(created.map((s) => runScript(send, DROP_NEW_SHARD_SCRIPT, false, args(s))));
}

/** A shard that reserve could not create: keys left by another filter of this name. */
function shardError(name: string, err: unknown): unknown {
  if (!isErrorReply(err)) return err;
  const refusal = shardRefusal(err);
  if (refusal === undefined) return typedError(err, name);
  const bitmap = refusal.key.replace(/:meta$/, '');
  return new RedisBloomConfigError(
    name, 'shard',
    `cannot reserve filter "${name}": ${refusal.key} ${refusal.detail}. These keys were left by another ` +
      `filter of this name (a reserve that stopped before storing its configuration, or a partial delete): ` +
      `reserve with the parameters they were made with, ` +
      `or delete ${bitmap} and ${bitmap}:meta`,
  );
}

/** Awaits a call, turning auth and configuration refusals into typed errors (as the filter would report them with `existing`). */
async function call<T>(name: string, pending: Promise<T>, existing = false): Promise<T> {
  try {
    return await pending;
  } catch (err) {
    const refusal = existing ? shardRefusal(err) : undefined;
    if (refusal !== undefined) {
      throw new RedisBloomConfigError(
        name, 'shard',
        `filter "${name}" exists, but ${refusal.key} ${refusal.detail} (a shard was deleted or evicted, so ` +
          'what was added to it is lost; reserve does not recreate it empty: drop the filter and reserve it again)',
      );
    }
    throw typedError(err, name);
  }
}

/** The key and the finding of a shard check the scripts refused (BLOOMCONFIG or BLOOMSHARD), else undefined. */
function shardRefusal(err: unknown): { key: string; detail: string } | undefined {
  if (!isErrorReply(err)) return undefined;
  const match = /^BLOOM(?:CONFIG|SHARD) (\S+) (.*)$/s.exec(err.message);
  return match === null ? undefined : { key: match[1], detail: match[2] };
}
