// A Bloom filter whose bits live in Redis and whose hashing stays in our
// wasm, on the client. Each item belongs to one shard (a Redis bitmap of at
// most 2^32 bits), chosen from hash bits its positions do not use
// (assembly/shard.ts); inside its shard the item has exactly the positions
// that a local BloomFilter(shardBits, hashes, { scheme, seed }) gives it.
// Test-and-set runs as one Lua script per shard batch (scripts.ts), so N
// workers adding one item at once see exactly one `true`.

import { Engine } from '../wasm/engine.js';
import { BloomRangeError, BloomTypeError } from '../errors.js';
import { checkInteger, checkItem, checkParams, MAX_HASHES, MAX_SHARDS, type Scheme } from '../filter/options.js';
import { optimalBits, optimalHashes } from '../filter/sizing.js';
import {
  isErrorReply, refusedBeforeRunning, runScript, scriptArgs, senderOf, typedError,
  type RedisConnection,
} from './connection.js';
import { RedisBloomBatchError, RedisBloomConfigError } from './errors.js';
import {
  bitmapKey, checkName, configKey, fingerprint, FORMAT_VERSION, MAX_SHARD_BITS, metaKey, redisOffset,
} from './layout.js';
import { ADD_SCRIPT, CREATE_SHARD_SCRIPT, HAS_SCRIPT, RESERVE_SCRIPT } from './scripts.js';

/** An item: a string (hashed as UTF-8, or UTF-16 code units under `poly`) or bytes. */
export type Item = string | Uint8Array;

/** Items: any iterable, or packed bytes where item i is bytes[offsets[i], offsets[i+1]). */
export type Items = Iterable<Item> | { bytes: Uint8Array; offsets: ArrayLike<number> };

/** How to size a filter: by expected items and false-positive rate, or by m and k directly (m over all shards). */
export type Sizing = { capacity: number; errorRate: number } | { bits: number; hashes: number };

/** Options of RedisBloomFilter.reserve. */
export interface ReserveOptions extends OpenOptions {
  /** Hash scheme; default `xxh64`. */
  scheme?: Scheme;
  /** XXH64 seed; default 0. */
  seed?: number | bigint;
  /** Shard count; default the fewest that keep every shard at or under 2^32 bits. */
  shards?: number;
}

/** Options of RedisBloomFilter.open (and reserve). */
export interface OpenOptions {
  /** Most items per script call; a shard's larger share of a batch goes out as several calls, pipelined in one write. Default 256. */
  batchSize?: number;
}

/** What info() reports. */
export interface RedisBloomInfo {
  name: string;
  /** The capacity the filter was reserved for, or null when reserved by bits and hashes. */
  capacity: number | null;
  /** The false-positive rate it was reserved for, or null. */
  errorRate: number | null;
  /** m over all shards: shardBits * shards. */
  bits: number;
  shardBits: number;
  hashes: number;
  shards: number;
  scheme: Scheme;
  seed: bigint;
  /** Adds that reported new, counted in Redis by the add script. */
  added: number;
  /** Bits that are 1 (BITCOUNT over all shards). */
  bitsSet: number;
  /** Items estimated from the set bits: sum over shards of -(m/k) ln(1 - X/m) (Swamidass and Baldi, 2007). */
  estimatedCount: number;
  /** The current false-positive rate: the mean over shards of (X/m)^k. */
  falsePositiveRate: number;
}

/** The stored configuration. */
interface Config {
  shardBits: number;
  hashes: number;
  scheme: Scheme;
  seed: bigint;
  shards: number;
  capacity: number | null;
  errorRate: number | null;
}

/** The fields reserve compares: two filters agree on these or they are not the same filter. */
const IDENTITY_FIELDS = ['format', 'shardBits', 'hashes', 'scheme', 'seed', 'shards'] as const;

/** One script call: one shard, up to batchSize items. */
interface Batch {
  /** Indices of its items in the caller's list. */
  indices: number[];
  /** The script call's arguments (see runScript). */
  args: string[];
}

/**
 * Items per script call. Measured on Redis 7.0 (see README): a call costs
 * the server about 4.9 us per item (k = 7) from 50 up to 250 items, but
 * 12 us at 1,000 and 17 us at 2,000, so larger batches go out as several
 * calls of this size, pipelined in one write.
 */
const DEFAULT_BATCH_SIZE = 256;

/** A Bloom filter stored in Redis (plain Redis 7 or Redis Cluster), hashed locally in WebAssembly. */
export class RedisBloomFilter {
  /** The filter's name; its keys are {name}:config, {name:s} and {name:s}:meta. */
  readonly name: string;
  /** m over all shards (shardBits * shards). */
  readonly bits: number;
  /** m of each shard: the m of the local BloomFilter whose positions each shard uses. */
  readonly shardBits: number;
  /** k: positions per item. */
  readonly hashes: number;
  /** The hash scheme. */
  readonly scheme: Scheme;
  /** The XXH64 seed (0 for the other schemes). */
  readonly seed: bigint;
  /** How many bitmaps the bits are split over. */
  readonly shards: number;
  /** The capacity it was reserved for, or null when reserved by bits and hashes. */
  readonly capacity: number | null;
  /** The false-positive rate it was reserved for, or null. */
  readonly errorRate: number | null;
  /** Most items per shard per script call. */
  readonly batchSize: number;
  private readonly send: ReturnType<typeof senderOf>;
  /** A hash-only wasm instance: positions and shards, no bits. */
  private readonly engine: Engine;
  private readonly fingerprint: string;
  private readonly shardBytes: number;

  private constructor(client: RedisConnection, name: string, config: Config, batchSize: number) {
    this.send = senderOf(client);
    const params = checkParams(config.shardBits, config.hashes, { scheme: config.scheme, seed: config.seed });
    this.name = name;
    this.shardBits = config.shardBits;
    this.shards = config.shards;
    this.bits = config.shardBits * config.shards;
    this.hashes = config.hashes;
    this.scheme = config.scheme;
    this.seed = config.seed;
    this.capacity = config.capacity;
    this.errorRate = config.errorRate;
    this.batchSize = batchSize;
    this.engine = new Engine(params, true);
    this.fingerprint = fingerprint(this.shardBits, this.hashes, this.scheme, this.seed, this.shards);
    this.shardBytes = Math.ceil(this.shardBits / 8);
  }

  /**
   * Creates the filter in Redis, or opens it when the same configuration is
   * already there; refuses (RedisBloomConfigError) a different one. Every
   * shard's bitmap is allocated in full here, not on first use.
   */
  static async reserve(client: RedisConnection, name: string, sizing: Sizing, options: ReserveOptions = {}): Promise<RedisBloomFilter> {
    checkName(name);
    if (options === null || typeof options !== 'object') throw new BloomTypeError('options', options, 'an object');
    const filter = new RedisBloomFilter(client, name, configFor(sizing, options), checkBatchSize(options.batchSize));
    const fields = filter.configFields();
    const key = configKey(name);
    const argv = Object.entries(fields).flat();
    const reply = await filter.call(runScript(filter.send, RESERVE_SCRIPT, false, scriptArgs([key], argv)));
    const existing = hashOf(reply);
    for (const field of IDENTITY_FIELDS) {
      if (existing.size > 0 && existing.get(field) !== fields[field]) {
        throw new RedisBloomConfigError(
          name, field,
          `filter "${name}" already exists with ${field} = ${existing.get(field) ?? 'missing'}; ` +
            `reserve asked for ${field} = ${fields[field]} (open it with RedisBloomFilter.open, or pick another name)`,
        );
      }
    }
    await Promise.all(
      Array.from({ length: filter.shards }, (_, s) =>
        filter.call(runScript(filter.send, CREATE_SHARD_SCRIPT, false,
          scriptArgs([bitmapKey(name, s), metaKey(name, s)], [filter.fingerprint, String(filter.shardBytes)]))),
      ),
    );
    return filter;
  }

  /** Opens a filter that reserve created; RedisBloomConfigError when there is none under this name. */
  static async open(client: RedisConnection, name: string, options: OpenOptions = {}): Promise<RedisBloomFilter> {
    checkName(name);
    const batchSize = checkBatchSize(options?.batchSize);
    const send = senderOf(client);
    const key = configKey(name);
    let reply: unknown;
    try {
      reply = await send(key, true, ['HGETALL', key]);
    } catch (err) {
      throw typedError(err, name);
    }
    const stored = hashOf(reply);
    if (stored.size === 0) {
      throw new RedisBloomConfigError(
        name, 'missing',
        `no Bloom filter named "${name}": ${key} does not exist (create it with RedisBloomFilter.reserve)`,
      );
    }
    return new RedisBloomFilter(client, name, parseConfig(name, stored), batchSize);
  }

  /** The item's k positions inside its shard, equal to BloomFilter(shardBits, hashes, { scheme, seed }).positions(item). */
  positions(item: Item): number[] {
    checkItem(item);
    return this.engine.positions(item);
  }

  /** The shard in [0, shards) that holds the item's bits. */
  shardOf(item: Item): number {
    checkItem(item);
    return this.engine.shardPositions(item, this.shards);
  }

  /** Sets the item's bits atomically; true when any was 0 (the item is new). */
  async add(item: Item): Promise<boolean> {
    checkItem(item);
    return (await this.addMany([item]))[0];
  }

  /**
   * Adds every item: a shard's share of the batch goes out as script calls
   * of at most batchSize items, each written as soon as it is full, and
   * shards run in parallel. Per item, true when it was new, exactly as
   * sequential add() calls would answer. On failure rejects with
   * RedisBloomBatchError, which lists the uncertain items; nothing is retried.
   */
  async addMany(items: Items): Promise<boolean[]> {
    const list = itemList(items);
    if (list.length === 0) return [];
    const results = new Array<boolean | undefined>(list.length);
    const sent: Batch[] = [];
    const answered = new Set<Batch>();
    const refused = new Map<Batch, unknown>();
    let lost: { err: unknown } | undefined;
    let pending = 0;
    let wake: (() => void) | undefined;
    const dispatch = (batch: Batch): void => {
      sent.push(batch);
      pending++;
      runScript(this.send, ADD_SCRIPT, false, batch.args).then(
        (reply) => {
          try {
            const flags = replyText(reply, batch.indices.length);
            for (let j = 0; j < batch.indices.length; j++) results[batch.indices[j]] = flags.charCodeAt(j) === 49;
            answered.add(batch);
          } catch (err) {
            refused.set(batch, err);
          }
          pending--;
          wake?.();
        },
        (err: unknown) => {
          // An error reply leaves the connection usable: the other calls still
          // answer. Anything else (a lost connection) settles at once.
          if (isErrorReply(err)) refused.set(batch, err);
          else lost ??= { err };
          pending--;
          wake?.();
        },
      );
    };
    await this.dispatchAll(list, dispatch, () => lost !== undefined);
    while (pending > 0 && lost === undefined) await new Promise<void>((resolve) => (wake = resolve));
    if (lost === undefined && refused.size === 0) return results as boolean[];
    // Unanswered calls are uncertain: they may have run. Calls already handed
    // to node-redis stay in its queue unless the client has
    // disableOfflineQueue, so they are never reported "not added"; only calls
    // Redis refused before running, and items never handed over, are.
    const uncertain: Item[] = [];
    const notAdded: Item[] = [];
    const handed = new Uint8Array(list.length);
    for (const batch of sent) {
      for (const i of batch.indices) handed[i] = 1;
      if (answered.has(batch)) continue;
      const into = refused.has(batch) && refusedBeforeRunning(refused.get(batch)) ? notAdded : uncertain;
      for (const i of batch.indices) into.push(list[i]);
    }
    for (let i = 0; i < list.length; i++) if (!handed[i]) notAdded.push(list[i]);
    const cause = typedError(lost !== undefined ? lost.err : refused.values().next().value, this.name);
    throw new RedisBloomBatchError({ results: results.slice(), uncertain, notAdded }, cause);
  }

  /** False when the item was certainly never added; true when it may have been. Read-only. */
  async has(item: Item): Promise<boolean> {
    checkItem(item);
    return (await this.hasMany([item]))[0];
  }

  /** has() for every item, with BITFIELD_RO in a read-only script: one call per shard per batchSize items. */
  async hasMany(items: Items): Promise<boolean[]> {
    const list = itemList(items);
    const results = new Array<boolean>(list.length);
    if (list.length === 0) return [];
    const calls: Promise<void>[] = [];
    let failed = false;
    await this.dispatchAll(list, (batch) => {
      const call = runScript(this.send, HAS_SCRIPT, true, batch.args).then((reply) => {
        const flags = replyText(reply, batch.indices.length);
        for (let j = 0; j < batch.indices.length; j++) results[batch.indices[j]] = flags.charCodeAt(j) === 49;
      }, (err: unknown) => {
        failed = true;
        throw typedError(err, this.name);
      });
      // Handled below by Promise.all; marked now, since a call may fail while later ones are still being hashed.
      call.catch(() => {});
      calls.push(call);
    }, () => failed);
    await Promise.all(calls);
    return results;
  }

  /** The configuration with counts read from Redis: added (HGET per shard) and bitsSet (BITCOUNT per shard, O(m)). */
  async info(): Promise<RedisBloomInfo> {
    const shards = Array.from({ length: this.shards }, (_, s) => s);
    const [counts, adds] = await Promise.all([
      Promise.all(shards.map((s) => this.call(this.send(bitmapKey(this.name, s), true, ['BITCOUNT', bitmapKey(this.name, s)])))),
      Promise.all(shards.map((s) => this.call(this.send(metaKey(this.name, s), true, ['HGET', metaKey(this.name, s), 'added'])))),
    ]);
    const m = this.shardBits;
    const k = this.hashes;
    let bitsSet = 0;
    let estimatedCount = 0;
    let rate = 0;
    for (const c of counts) {
      const x = Number(c);
      bitsSet += x;
      estimatedCount += x >= m ? Infinity : (-m / k) * Math.log1p(-x / m);
      rate += Math.pow(x / m, k) / this.shards;
    }
    return {
      name: this.name, capacity: this.capacity, errorRate: this.errorRate, bits: this.bits, shardBits: m,
      hashes: k, shards: this.shards, scheme: this.scheme, seed: this.seed,
      added: adds.reduce((sum: number, a) => sum + Number(a ?? 0), 0),
      bitsSet, estimatedCount, falsePositiveRate: rate,
    };
  }

  /** A copy of shard s's bits in the local layout: equal to a local BloomFilter's bitArray() after the same adds. GET of up to 512 MiB. */
  async bitArray(shard = 0): Promise<Uint8Array> {
    checkInteger('shard', shard, 0, this.shards - 1);
    const key = bitmapKey(this.name, shard);
    // 36 is RESP's '$' (blob string): ask node-redis for a Buffer, not a UTF-8 string.
    const reply = await this.call(this.send(key, true, ['GET', key], { typeMapping: { 36: Buffer } }));
    if (!(reply instanceof Uint8Array)) {
      throw new RedisBloomConfigError(this.name, 'bits', `shard ${key} is missing (deleted or evicted)`);
    }
    return new Uint8Array(reply);
  }

  /** Deletes the filter's configuration and every shard. */
  async drop(): Promise<void> {
    await Promise.all(
      Array.from({ length: this.shards }, (_, s) =>
        this.call(this.send(bitmapKey(this.name, s), false, ['DEL', bitmapKey(this.name, s), metaKey(this.name, s)]))),
    );
    await this.call(this.send(configKey(this.name), false, ['DEL', configKey(this.name)]));
  }

  /**
   * Groups items by shard into script calls of at most batchSize items, with
   * their Redis bit offsets, and hands each call to `send` as soon as it is
   * full. After each, it yields one macrotask so node-redis writes the call
   * and Redis runs it while the next one is hashed. Stops early when `stop`
   * says so; the leftover calls go out at the end, in shard order.
   */
  private async dispatchAll(list: Item[], send: (batch: Batch) => void, stop: () => boolean): Promise<void> {
    const k = this.hashes;
    const probed = this.engine.probed;
    const open = new Array<Batch | undefined>(this.shards);
    const head = [this.fingerprint, String(this.shardBytes), String(k)];
    for (let i = 0; i < list.length; i++) {
      const s = this.engine.shardPositions(list[i], this.shards);
      let batch = open[s];
      if (batch === undefined) {
        batch = { indices: [], args: scriptArgs([bitmapKey(this.name, s), metaKey(this.name, s)], head) };
        open[s] = batch;
      }
      batch.indices.push(i);
      for (let j = 0; j < k; j++) batch.args.push(String(redisOffset(probed[j])));
      if (batch.indices.length === this.batchSize) {
        open[s] = undefined;
        send(batch);
        if (i + 1 < list.length) {
          await new Promise((resolve) => setImmediate(resolve));
          if (stop()) return;
        }
      }
    }
    for (const batch of open) if (batch !== undefined) send(batch);
  }

  /** The configuration hash's fields. */
  private configFields(): Record<string, string> {
    return {
      format: String(FORMAT_VERSION),
      bits: String(this.bits),
      shardBits: String(this.shardBits),
      hashes: String(this.hashes),
      scheme: this.scheme,
      seed: String(this.seed),
      shards: String(this.shards),
      capacity: this.capacity === null ? '' : String(this.capacity),
      errorRate: this.errorRate === null ? '' : String(this.errorRate),
    };
  }

  /** Awaits a call, turning auth and configuration refusals into typed errors. */
  private async call<T>(pending: Promise<T>): Promise<T> {
    try {
      return await pending;
    } catch (err) {
      throw typedError(err, this.name);
    }
  }
}

function checkBatchSize(value: unknown): number {
  return value === undefined ? DEFAULT_BATCH_SIZE : checkInteger('batchSize', value, 1, 1_000_000);
}

/** m, k and the shard count from the requested sizing. */
function configFor(sizing: Sizing, options: ReserveOptions): Config {
  const allowed = '{ capacity, errorRate } or { bits, hashes }';
  if (sizing === null || typeof sizing !== 'object') throw new BloomTypeError('sizing', sizing, allowed);
  let total: number;
  let hashes: number;
  let capacity: number | null = null;
  let errorRate: number | null = null;
  if ('capacity' in sizing) {
    capacity = checkInteger('capacity', sizing.capacity, 1, Number.MAX_SAFE_INTEGER);
    errorRate = sizing.errorRate;
    if (typeof errorRate !== 'number') throw new BloomTypeError('errorRate', errorRate, 'a number in (0, 1)');
    if (!(errorRate > 0 && errorRate < 1)) throw new BloomRangeError('errorRate', errorRate, 'a number in (0, 1)');
    total = optimalBits(capacity, errorRate);
    hashes = optimalHashes(total, capacity);
  } else if ('bits' in sizing) {
    total = checkInteger('bits', sizing.bits, 1, MAX_SHARDS * MAX_SHARD_BITS);
    hashes = checkInteger('hashes', sizing.hashes, 1, MAX_HASHES);
  } else {
    throw new BloomTypeError('sizing', sizing, allowed);
  }
  const needed = Math.ceil(total / MAX_SHARD_BITS);
  if (needed > MAX_SHARDS) {
    throw new BloomRangeError('capacity', capacity, `small enough for ${MAX_SHARDS} shards of 2^32 bits (it needs m = ${total})`);
  }
  let shards = needed;
  if (options.shards !== undefined) {
    const range = `an integer in [${needed}, ${MAX_SHARDS}] (a shard holds at most 2^32 bits, and m = ${total})`;
    if (typeof options.shards !== 'number') throw new BloomTypeError('shards', options.shards, range);
    if (!Number.isInteger(options.shards) || options.shards < needed || options.shards > MAX_SHARDS) {
      throw new BloomRangeError('shards', options.shards, range);
    }
    shards = options.shards;
  }
  const shardBits = Math.ceil(total / shards);
  const params = checkParams(shardBits, hashes, { scheme: options.scheme, seed: options.seed });
  return { shardBits, hashes, scheme: params.scheme, seed: params.seed, shards, capacity, errorRate };
}

/** Reads back a stored configuration, refusing a format or value this version does not know. */
function parseConfig(name: string, stored: Map<string, string>): Config {
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
  const optional = (field: string): number | null => {
    const text = stored.get(field) ?? '';
    return text === '' ? null : Number(text);
  };
  const config: Config = {
    shardBits: int('shardBits', MAX_SHARD_BITS),
    hashes: int('hashes', MAX_HASHES),
    scheme: (stored.get('scheme') ?? '') as Scheme,
    seed: /^[0-9]+$/.test(seedText) ? BigInt(seedText) : bad('seed', 'an unsigned 64-bit integer'),
    shards: int('shards', MAX_SHARDS),
    capacity: optional('capacity'),
    errorRate: optional('errorRate'),
  };
  try {
    checkParams(config.shardBits, config.hashes, { scheme: config.scheme, seed: config.seed });
  } catch (err) {
    bad((err as { parameter?: string }).parameter ?? 'scheme', (err as Error).message);
  }
  return config;
}

/** A hash reply (RESP2 flat array, RESP3 map or object) as a Map. */
function hashOf(reply: unknown): Map<string, string> {
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

/** A script's '0'/'1' reply, checked against the number of items sent. */
function replyText(reply: unknown, count: number): string {
  const text = typeof reply === 'string' ? reply : reply instanceof Uint8Array ? Buffer.from(reply).toString('latin1') : '';
  if (text.length !== count) {
    throw new Error(`script replied ${JSON.stringify(String(reply)).slice(0, 60)} for ${count} items; expected ${count} characters 0/1`);
  }
  return text;
}

/** The items as an array, each checked. */
function itemList(items: Items): Item[] {
  if (items !== null && typeof items === 'object' && 'bytes' in items && 'offsets' in items) {
    const { bytes, offsets } = items;
    if (!(bytes instanceof Uint8Array)) throw new BloomTypeError('items.bytes', bytes, 'a Uint8Array');
    const list: Item[] = [];
    for (let i = 0; i + 1 < offsets.length; i++) {
      const start = offsets[i];
      const end = offsets[i + 1];
      if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > bytes.length) {
        throw new BloomRangeError(`items.offsets[${i + 1}]`, end, `an integer in [${start}, ${bytes.length}]`);
      }
      list.push(bytes.subarray(start, end));
    }
    return list;
  }
  if (items === null || typeof items !== 'object' || typeof (items as Iterable<Item>)[Symbol.iterator] !== 'function') {
    throw new BloomTypeError('items', items, 'an iterable of strings or Uint8Arrays, or { bytes, offsets }');
  }
  const list = Array.from(items as Iterable<Item>);
  for (const item of list) checkItem(item);
  return list;
}
