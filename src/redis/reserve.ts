// reserve(): create a filter's keys, or check that the ones there are this
// filter's. A refused reserve changes nothing.
//
// The configuration hash and the shards sit in different cluster slots, so
// no one script can check and create them all at once. The configuration
// comes first, marked `reserving`, and a refusal undoes exactly what this
// reserve created:
//   1. A configuration exists: it must be the one asked for (else refuse,
//      naming the field the caller set). Unmarked, every shard must be
//      there with its fingerprint and size (else refuse: a missing shard is
//      never recreated empty). Nothing is written. Marked, the reserve that
//      stored it is under way or stopped: go on at 3.
//   2. None exists: any key of a shard under the name is what is left of a
//      filter whose configuration was evicted, expired or deleted. Refuse,
//      naming what is missing (rebuilding around it would answer "absent"
//      for every item of the lost shards), unless `recreate` deleted it all
//      first. Else store the configuration with a fresh epoch and the mark
//      (RESERVE_SCRIPT: unless someone stored one meanwhile: then 1).
//   3. Create each shard unless it is already there with this fingerprint
//      (CREATE_SHARD_SCRIPT refuses before writing otherwise), then remove
//      the mark (FINISH_RESERVE_SCRIPT).
// open() refuses a marked configuration, so no one adds into a half-made
// filter, and the epoch in the fingerprint keeps a handle of an earlier
// filter of the name from adopting a new one's shards. A process that dies
// in 3 leaves a marked configuration: a reserve with the same parameters
// finishes it, another is refused naming the field.
//
// One window is left open: a shard evicted in the milliseconds between a
// first reserve's finish and a concurrent second reserve's create (which
// read the mark before the first finished) is created again by the second.

import {
  configFields, hashOf, IDENTITY_FIELDS, parseConfig, RESERVING_FIELD, type Config, type EvictionMode,
} from './config.js';
import { foreignTypeError, isErrorReply, runScript, scriptArgs, typedError, type Send } from './connection.js';
import { RedisBloomConfigError } from './errors.js';
import { checkEvictionRisk } from './eviction.js';
import { bitmapKey, configKey, fingerprint, FORMAT_VERSION, metaKey, newEpoch } from './layout.js';
import { MAX_SHARDS } from '../filter/options.js';
import {
  CREATE_SHARD_SCRIPT, DROP_NEW_CONFIG_SCRIPT, DROP_NEW_SHARD_SCRIPT, FINISH_RESERVE_SCRIPT, HAS_SCRIPT, RESERVE_SCRIPT,
} from './scripts.js';

/** What reserve was asked for, as the caller said it. */
export interface ReserveRequest {
  /** The configuration the caller's sizing and options give (epoch null). */
  readonly asked: Config;
  /** m over all shards as the caller gave it, when sizing by bits and hashes; null when by capacity. */
  readonly bits: number | null;
  /** Whether the caller gave `shards` (else the default for the size). */
  readonly shardsGiven: boolean;
  readonly recreate: boolean;
  readonly eviction: EvictionMode;
  /** Whether the connection is a cluster: the policy is read on every node holding a key. */
  readonly cluster: boolean;
}

/**
 * Creates the filter's keys, or checks the existing ones; throws
 * RedisBloomConfigError and changes nothing when they differ, or when the
 * configuration is gone and shards are left. Returns the configuration in
 * force: the one asked for with its epoch, or, for a filter reserved with
 * the same capacity and rate by an earlier release whose sizing gave small
 * filters other bits (sizing rule 1, docs/SCHEMES.md), the stored one.
 */
export async function reserveKeys(send: Send, name: string, request: ReserveRequest): Promise<Config> {
  const { asked } = request;
  const key = configKey(name);
  let existing = await readConfig(send, name);
  const reach = Math.max(asked.shards, storedShards(existing));
  const shardKeys = Array.from({ length: reach }, (_, s) => [bitmapKey(name, s), metaKey(name, s)]).flat();
  await checkEvictionRisk(send, {
    label: `filter "${name}"`, name,
    routes: request.cluster ? [key, ...shardKeys.filter((_, i) => i % 2 === 0)] : [key],
    // Keys that recreate deletes next cannot expire under the new filter.
    keys: request.recreate ? [] : [key, ...shardKeys],
  }, request.eviction);

  if (request.recreate) {
    await wipe(send, name, reach, request.cluster);
    existing = new Map();
  }
  if (existing.size === 0) {
    const left = await survivors(send, name, asked.shards);
    if (left.present.length > 0) {
      // A concurrent reserve stores its configuration before its first shard: read again.
      existing = await readConfig(send, name);
      if (existing.size === 0) throw survivorsError(name, left);
    }
  }
  if (existing.size > 0) return reserveExisting(send, name, existing, request);

  const config: Config = { ...asked, epoch: newEpoch() };
  const fields = { ...configFields(config), [RESERVING_FIELD]: '1' };
  const stored = hashOf(await call(name, runScript(send, RESERVE_SCRIPT, false, scriptArgs([key], Object.entries(fields).flat()))));
  if (stored.size > 0) return reserveExisting(send, name, stored, request);
  await createShards(send, name, config, true);
  return config;
}

/** Step 1: a stored configuration must be the one asked for; a marked one is finished, an unmarked one checked. */
async function reserveExisting(send: Send, name: string, stored: Map<string, string>, request: ReserveRequest): Promise<Config> {
  compare(name, stored, request);
  const config = parseConfig(name, stored);
  if (stored.has(RESERVING_FIELD)) {
    await createShards(send, name, config, false);
    return config;
  }
  const print = fingerprint(config.shardBits, config.hashes, config.scheme, config.seed, config.shards, config.epoch);
  const bytes = String(Math.ceil(config.shardBits / 8));
  // HAS_SCRIPT with no items runs only its checks: fingerprint and size, read-only.
  await Promise.all(Array.from({ length: config.shards }, (_, s) =>
    call(name, runScript(send, HAS_SCRIPT, true, scriptArgs([bitmapKey(name, s), metaKey(name, s)], [print, bytes, '1'])), true)));
  return config;
}

/** Step 3: creates (or adopts) every shard, then removes the mark; a refusal undoes what this reserve wrote. */
async function createShards(send: Send, name: string, config: Config, owned: boolean): Promise<void> {
  const print = fingerprint(config.shardBits, config.hashes, config.scheme, config.seed, config.shards, config.epoch);
  const bytes = String(Math.ceil(config.shardBits / 8));
  const shardArgs = (s: number, argv: string[]) => scriptArgs([bitmapKey(name, s), metaKey(name, s)], argv);
  const created: number[] = [];
  const undo = async (): Promise<void> => {
    await Promise.allSettled(created.map((s) => runScript(send, DROP_NEW_SHARD_SCRIPT, false, shardArgs(s, [print]))));
    if (owned) await runScript(send, DROP_NEW_CONFIG_SCRIPT, false, scriptArgs([configKey(name)], [config.epoch!])).catch(() => {});
  };
  const outcomes = await Promise.allSettled(Array.from({ length: config.shards }, async (_, s) => {
    if (Number(await runScript(send, CREATE_SHARD_SCRIPT, false, shardArgs(s, [print, bytes]))) === 1) created.push(s);
  }));
  const failure = outcomes.find((o) => o.status === 'rejected');
  if (failure !== undefined) {
    await undo();
    throw shardError(name, (failure as PromiseRejectedResult).reason);
  }
  try {
    await runScript(send, FINISH_RESERVE_SCRIPT, false, scriptArgs([configKey(name)], [config.epoch ?? '']));
  } catch (err) {
    await undo();
    if (!isErrorReply(err) || !err.message.startsWith('BLOOMGONE')) throw typedError(err, name);
    throw new RedisBloomConfigError(
      name, 'missing',
      `cannot reserve filter "${name}": ${err.message.slice('BLOOMGONE '.length)} since this reserve read it ` +
        '(deleted, evicted, or replaced by a reserve with { recreate: true }); reserve again',
    );
  }
}

/**
 * Refuses a stored configuration that is not the one asked for, naming the
 * field as the caller set it (capacity, falsePositiveRate, bits, hashes,
 * scheme, seed, shards) with both values.
 */
function compare(name: string, stored: Map<string, string>, request: ReserveRequest): void {
  const { asked } = request;
  const refuse = (field: string, have: string, want: string): never => {
    throw new RedisBloomConfigError(
      name, field,
      `filter "${name}" already exists with ${field} = ${have}; reserve asked for ${field} = ${want} ` +
        '(open it with RedisBloomFilter.open, reserve with { recreate: true } to start over, or pick another name)',
    );
  };
  const have = (field: string): string => stored.get(field) ?? 'missing';
  if (stored.get('format') !== String(FORMAT_VERSION)) refuse('format', have('format'), String(FORMAT_VERSION));
  if (stored.get('scheme') !== asked.scheme) refuse('scheme', have('scheme'), asked.scheme);
  if (stored.get('seed') !== String(asked.seed)) refuse('seed', have('seed'), String(asked.seed));
  if (stored.get('shards') !== String(asked.shards)) {
    refuse('shards', have('shards'), `${asked.shards}${request.shardsGiven ? '' : ' (the default for this size; pass shards to match)'}`);
  }
  const sameBits = stored.get('shardBits') === String(asked.shardBits) && stored.get('hashes') === String(asked.hashes);
  const storedBits = `${have('bits')}`;
  if (asked.capacity !== null) {
    const capacity = stored.get('capacity') ?? '';
    const rate = [stored.get('falsePositiveRate'), stored.get('errorRate')].find((t) => t !== undefined && t !== '') ?? '';
    if (capacity === '' || rate === '') {
      // Reserved by bits and hashes: the same filter only when the capacity and rate give those.
      if (sameBits) return;
      refuse('capacity', `none (reserved by bits = ${storedBits} and hashes = ${have('hashes')})`, String(asked.capacity));
    }
    if (capacity !== String(asked.capacity)) refuse('capacity', capacity, String(asked.capacity));
    if (rate !== String(asked.falsePositiveRate)) refuse('falsePositiveRate', rate, String(asked.falsePositiveRate));
    // The same capacity and rate: the same filter, whatever bits an earlier release's sizing gave it.
    return;
  }
  if (stored.get('shardBits') !== String(asked.shardBits)) {
    const total = asked.shardBits * asked.shards;
    const rounded = request.bits !== null && request.bits !== total ? ` (${total} over ${asked.shards} shards)` : '';
    refuse('bits', storedBits, `${request.bits ?? total}${rounded}`);
  }
  if (stored.get('hashes') !== String(asked.hashes)) refuse('hashes', have('hashes'), String(asked.hashes));
  for (const field of IDENTITY_FIELDS) {
    if (stored.get(field) === undefined) refuse(field, 'missing', configFields(asked)[field]);
  }
}

/** The configuration hash, empty when there is none. */
async function readConfig(send: Send, name: string): Promise<Map<string, string>> {
  return hashOf(await call(name, send(configKey(name), true, ['HGETALL', configKey(name)])));
}

/** The shard count a stored configuration names, when it names a sane one; else 0. */
function storedShards(stored: Map<string, string>): number {
  const n = Number(stored.get('shards'));
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_SHARDS ? n : 0;
}

/** Which of the first `shards` shards' keys exist, and which do not; a key of another Redis type is refused as foreign. */
async function survivors(send: Send, name: string, shards: number): Promise<{ present: string[]; absent: string[] }> {
  const keys = Array.from({ length: shards }, (_, s) => [bitmapKey(name, s), metaKey(name, s)]).flat();
  const types = (await Promise.all(keys.map((k) => call(name, send(k, true, ['TYPE', k]))))).map(String);
  types.forEach((type, i) => {
    const want = i % 2 === 0 ? 'string' : 'hash';
    if (type !== 'none' && type !== want) throw foreignTypeError(name, `WRONGTYPE ${keys[i]} holds a ${type} where a ${want} belongs`);
  });
  return { present: keys.filter((_, i) => types[i] !== 'none'), absent: keys.filter((_, i) => types[i] === 'none') };
}

/** The refusal of step 2: the configuration is gone and shards are left. */
function survivorsError(name: string, left: { present: string[]; absent: string[] }): RedisBloomConfigError {
  const list = (keys: string[]): string =>
    keys.length <= 6 ? keys.join(', ') : `${keys.slice(0, 6).join(', ')} and ${keys.length - 6} more`;
  const missing = [configKey(name), ...left.absent];
  return new RedisBloomConfigError(
    name, 'missing',
    `cannot reserve filter "${name}": ${list(missing)} ${missing.length === 1 ? 'is' : 'are'} missing (evicted, expired or deleted), ` +
      `but ${list(left.present)} ${left.present.length === 1 ? 'survives' : 'survive'}. What was added to the lost keys would read as absent, so reserve does not ` +
      'rebuild the filter around what is left: reserve with { recreate: true } to delete it and start over empty ' +
      '(and set maxmemory-policy noeviction, docs/REDIS.md)',
  );
}

/**
 * Deletes every key of the name: the configuration and `shards` shards. One
 * DEL on a single server (atomic); on a cluster the configuration first (so
 * open() finds no filter at once), then each shard's two keys.
 */
async function wipe(send: Send, name: string, shards: number, cluster: boolean): Promise<void> {
  const shardKeys = (s: number) => [bitmapKey(name, s), metaKey(name, s)];
  const all = Array.from({ length: shards }, (_, s) => s);
  if (!cluster) {
    await call(name, send(configKey(name), false, ['DEL', configKey(name), ...all.flatMap(shardKeys)]));
    return;
  }
  await call(name, send(configKey(name), false, ['DEL', configKey(name)]));
  await Promise.all(all.map((s) => call(name, send(bitmapKey(name, s), false, ['DEL', ...shardKeys(s)]))));
}

/** A shard that reserve could not create: keys left by another filter of this name. */
function shardError(name: string, err: unknown): unknown {
  const refusal = shardRefusal(err);
  if (refusal === undefined) return typedError(err, name);
  const bitmap = refusal.key.replace(/:meta$/, '');
  return new RedisBloomConfigError(
    name, 'shard',
    `cannot reserve filter "${name}": ${refusal.key} ${refusal.detail}. These keys were left by another ` +
      `filter of this name (an earlier one whose configuration is gone, or a foreign key): ` +
      `reserve with { recreate: true } to start over, or delete ${bitmap} and ${bitmap}:meta`,
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
        `filter "${name}" exists, but ${refusal.key} ${refusal.detail} (a shard was deleted, evicted or expired, so ` +
          'what was added to it is lost; reserve does not recreate it empty: reserve with { recreate: true } to start over)',
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
