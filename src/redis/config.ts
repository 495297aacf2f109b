// A Redis filter's configuration: what reserve() asks for, what the
// configuration hash {name}:config stores, and how it is read back. The
// sizing formulas are the local filter's (../filter/sizing.ts), so a
// Redis filter reserved for n items at rate p has the m and k that
// BloomFilter.forCapacity(n, p) would have.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { checkInteger, checkParams, MAX_HASHES, MAX_SHARDS, type Scheme } from '../filter/options.js';
import { capacityParams } from '../filter/sizing.js';
import { readOptions, type OptionRecord } from '../filter/read-options.js';
import { RedisBloomConfigError } from './errors.js';
import { configKey, FORMAT_VERSION, isEpoch, MAX_SHARD_BITS } from './layout.js';
import type { Send } from './connection.js';

/** How to size a filter: by capacity (n) and target false-positive rate, or by m and k directly (m over all shards). */
export type Sizing = { capacity: number; falsePositiveRate: number } | { bits: number; hashes: number };

/** Options of RedisBloomFilter.open (and reserve). */
export interface OpenOptions {
  /** Most items per script call; a shard's larger share of a batch goes out as several calls, pipelined. Default 256. */
  batchSize?: number;
}

/** Options of RedisBloomFilter.reserve. */
export interface ReserveOptions extends OpenOptions {
  /** Hash scheme; default `xxh64`. */
  scheme?: Scheme;
  /** XXH64 seed; default 0. */
  seed?: number | bigint;
  /** Shard count; default the fewest that keep every shard at or under 2^32 bits. */
  shards?: number;
  /**
   * Start over: delete whatever is left under this name (the configuration
   * hash and the shards of both the stored and the asked shard count, in one
   * DEL on a single server) and create the filter empty. Without it, reserve
   * refuses leftovers of a filter whose configuration is gone. Default false.
   */
  recreate?: boolean;
  /**
   * What reserve does when the server may delete the filter's keys behind
   * its back: a `maxmemory-policy` of `allkeys-*`, or a TTL on one of its
   * keys. `warn` (default) emits a process warning (code
   * BLOOMWASM_REDIS_EVICTION) and carries on; `refuse` throws
   * RedisBloomConfigError before anything is written.
   */
  eviction?: EvictionMode;
}

/** What reserve does about a server that may evict or expire the filter's keys. */
export type EvictionMode = 'warn' | 'refuse';

/** The fields of ReserveOptions, of OpenOptions, and of a Sizing. */
const RESERVE_OPTION_NAMES = ['batchSize', 'scheme', 'seed', 'shards', 'recreate', 'eviction'] as const;
const OPEN_OPTION_NAMES = ['batchSize'] as const;
const SIZING_NAMES = ['capacity', 'falsePositiveRate', 'bits', 'hashes'] as const;
const SIZING_ALLOWED = '{ capacity, falsePositiveRate } or { bits, hashes }';

/** reserve's options, each read once (src/filter/read-options.ts): undefined where absent. */
export function readReserveOptions(options: unknown): OptionRecord<(typeof RESERVE_OPTION_NAMES)[number]> {
  return readOptions(options, RESERVE_OPTION_NAMES, 'an object with scheme, seed, shards, batchSize, recreate or eviction');
}

/** open's options, read once. */
export function readOpenOptions(options: unknown): OptionRecord<(typeof OPEN_OPTION_NAMES)[number]> {
  return readOptions(options, OPEN_OPTION_NAMES, 'an object with batchSize');
}

/** A Sizing, each field read once; BloomTypeError naming `sizing` for anything but an object with capacity or bits. */
export function readSizing(sizing: unknown): OptionRecord<(typeof SIZING_NAMES)[number]> {
  return readOptions(sizing, SIZING_NAMES, SIZING_ALLOWED, true, 'sizing');
}

/** Checks the eviction option (default `warn`). */
export function checkEviction(value: unknown): EvictionMode {
  if (value === undefined || value === 'warn' || value === 'refuse') return value ?? 'warn';
  throw new BloomTypeError('eviction', value, "'warn' or 'refuse'");
}

/** Checks the recreate option (default false). */
export function checkRecreate(value: unknown): boolean {
  if (value === undefined || typeof value === 'boolean') return value ?? false;
  throw new BloomTypeError('recreate', value, 'a boolean');
}

/** A filter's stored configuration. */
export interface Config {
  shardBits: number;
  hashes: number;
  scheme: Scheme;
  seed: bigint;
  shards: number;
  /** n it was reserved for, or null when reserved by bits and hashes. */
  capacity: number | null;
  /** The target rate it was reserved for, or null. */
  falsePositiveRate: number | null;
  /** The incarnation's epoch (layout.ts, fingerprint), or null for a filter reserved before epochs, or not yet stored. */
  epoch: string | null;
}

/** The fields reserve compares: two filters agree on these or they are not the same filter. */
export const IDENTITY_FIELDS = ['format', 'shardBits', 'hashes', 'scheme', 'seed', 'shards'] as const;

/**
 * The configuration-hash field that marks a reserve in progress: stored with
 * the configuration, before the shards are created, and removed once they
 * all exist. open() refuses such a filter; reserve with the same parameters
 * finishes it.
 */
export const RESERVING_FIELD = 'reserving';

/**
 * Items per script call. Measured on Redis 7.0: a call costs the server
 * about 4.9 us per item (k = 7) from 50 up to 250 items, but 12 us at 1,000
 * and 17 us at 2,000, so larger batches go out as several calls of this size.
 */
export const DEFAULT_BATCH_SIZE = 256;

/** Checks the batchSize option (default DEFAULT_BATCH_SIZE). */
export function checkBatchSize(value: unknown): number {
  return value === undefined ? DEFAULT_BATCH_SIZE : checkInteger('batchSize', value, 1, 1_000_000);
}

/** m, k and the shard count from the requested sizing and reserve's options, as readSizing and readReserveOptions read them. */
export function configFor(sizing: ReturnType<typeof readSizing>, options: ReturnType<typeof readReserveOptions>): Config {
  let total: number;
  let hashes: number;
  let capacity: number | null = null;
  let falsePositiveRate: number | null = null;
  // sbbf shards hold whole 256-bit blocks, and are sized by the blocked formula.
  const blocked = options.scheme === 'sbbf';
  const byCapacity = sizing.capacity !== undefined || sizing.falsePositiveRate !== undefined;
  const byBits = sizing.bits !== undefined || sizing.hashes !== undefined;
  // Both would leave one of them unused: which did the caller mean?
  if (byCapacity === byBits) throw new BloomTypeError('sizing', sizing, SIZING_ALLOWED);
  if (byCapacity) {
    capacity = checkInteger('capacity', sizing.capacity, 1, Number.MAX_SAFE_INTEGER);
    const rate = sizing.falsePositiveRate;
    if (typeof rate !== 'number') throw new BloomTypeError('falsePositiveRate', rate, 'a number in (0, 1)');
    falsePositiveRate = rate;
    ({ bits: total, hashes } = capacityParams(capacity, rate, MAX_SHARDS * MAX_SHARD_BITS, blocked ? 'sbbf' : 'xxh64'));
  } else {
    total = checkInteger('bits', sizing.bits, 1, MAX_SHARDS * MAX_SHARD_BITS);
    hashes = checkInteger('hashes', sizing.hashes, 1, MAX_HASHES);
  }
  const needed = Math.ceil(total / MAX_SHARD_BITS);
  let shards = needed;
  const asked = options.shards;
  if (asked !== undefined) {
    const range = `an integer in [${needed}, ${MAX_SHARDS}] (a shard holds at most 2^32 bits, and m = ${total})`;
    if (typeof asked !== 'number') throw new BloomTypeError('shards', asked, range);
    if (!Number.isInteger(asked) || asked < needed || asked > MAX_SHARDS) throw new BloomRangeError('shards', asked, range);
    shards = asked;
  }
  const unit = blocked ? 256 : 1;
  const shardBits = Math.ceil(total / shards / unit) * unit;
  const params = checkParams(shardBits, hashes, { scheme: options.scheme, seed: options.seed });
  return { shardBits, hashes, scheme: params.scheme, seed: params.seed, shards, capacity, falsePositiveRate, epoch: null };
}

/** The configuration hash's fields, as reserve stores them. */
export function configFields(config: Config): Record<string, string> {
  return {
    format: String(FORMAT_VERSION),
    bits: String(config.shardBits * config.shards),
    shardBits: String(config.shardBits),
    hashes: String(config.hashes),
    scheme: config.scheme,
    seed: String(config.seed),
    shards: String(config.shards),
    capacity: config.capacity === null ? '' : String(config.capacity),
    falsePositiveRate: config.falsePositiveRate === null ? '' : String(config.falsePositiveRate),
    ...(config.epoch === null ? {} : { epoch: config.epoch }),
  };
}

/**
 * Reads back a stored configuration, refusing a format or value this
 * version does not know. Filters reserved before the rename store their
 * target rate as `errorRate`; it is read as falsePositiveRate.
 */
export function parseConfig(name: string, stored: Map<string, string>): Config {
  const bad = (field: string, allowed: string): never => {
    throw new RedisBloomConfigError(
      name, field,
      `filter "${name}" has ${field} = ${stored.get(field) ?? 'missing'} in ${configKey(name)}; expected ${allowed}`,
    );
  };
  if (stored.get('format') !== String(FORMAT_VERSION)) bad('format', `format ${FORMAT_VERSION}`);
  const int = (field: string, max: number): number => {
    const text = stored.get(field) ?? '';
    const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
    return Number.isSafeInteger(value) && value >= 1 && value <= max ? value : bad(field, `an integer in [1, ${max}]`);
  };
  const seedText = stored.get('seed') ?? '';
  const optional = (...fields: string[]): number | null => {
    const text = fields.map((f) => stored.get(f) ?? '').find((t) => t !== '') ?? '';
    return text === '' ? null : Number(text);
  };
  const config: Config = {
    shardBits: int('shardBits', MAX_SHARD_BITS),
    hashes: int('hashes', MAX_HASHES),
    scheme: (stored.get('scheme') ?? '') as Scheme,
    seed: /^[0-9]+$/.test(seedText) ? BigInt(seedText) : bad('seed', 'an unsigned 64-bit integer'),
    shards: int('shards', MAX_SHARDS),
    capacity: optional('capacity'),
    falsePositiveRate: optional('falsePositiveRate', 'errorRate'),
    epoch: stored.has('epoch') ? (isEpoch(stored.get('epoch')!) ? stored.get('epoch')! : bad('epoch', '16 hex digits')) : null,
  };
  try {
    checkParams(config.shardBits, config.hashes, { scheme: config.scheme, seed: config.seed });
  } catch (err) {
    bad((err as { parameter?: string }).parameter ?? 'scheme', (err as Error).message);
  }
  return config;
}

/** A hash reply (RESP2 flat array, RESP3 map or object) as a Map. */
export function hashOf(reply: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2) out.set(String(reply[i]), String(reply[i + 1]));
  } else if (reply instanceof Map) {
    for (const [k, v] of reply) out.set(String(k), String(v));
  } else if (reply !== null && typeof reply === 'object') {
    for (const [k, v] of Object.entries(reply)) out.set(k, String(v));
  }
  return out;
}

/**
 * The stored configuration hash at `key`, read for open(): a Redis error
 * becomes `typed(err, name)`, and a missing hash a RedisBloomConfigError
 * whose message is `missing`.
 */
export async function readStoredConfig(
  send: Send,
  name: string,
  key: string,
  typed: (err: unknown, name: string) => unknown,
  missing: string,
): Promise<Map<string, string>> {
  let reply: unknown;
  try {
    reply = await send(key, true, ['HGETALL', key]);
  } catch (err) {
    throw typed(err, name);
  }
  const stored = hashOf(reply);
  if (stored.size === 0) throw new RedisBloomConfigError(name, 'missing', missing);
  return stored;
}
