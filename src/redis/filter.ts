// A Bloom filter whose bits live in Redis and whose hashing stays in our
// wasm, on the client. Each item belongs to one shard (a Redis bitmap of at
// most 2^32 bits), chosen from hash bits its positions do not use
// (assembly/shard.ts); inside its shard the item has exactly the positions
// that a local BloomFilter(shardBits, hashes, { scheme, seed }) gives it.
// Test-and-set runs as one Lua script per shard batch (scripts.ts, streamed
// by batches.ts), so N workers adding one item at once see exactly one new.
// Where the keys live: layout.ts; how reserve creates them: reserve.ts.

import { Engine } from '../wasm/engine.js';
import { checkInteger, checkItem, checkParams, type Scheme } from '../filter/options.js';
import type { BatchItems, Item } from '../filter/items.js';
import { currentFalsePositiveRateOf, estimatedCountOf } from '../filter/sizing.js';
import { addStream, hasStream, type StreamContext } from './batches.js';
import {
  checkBatchSize, checkEviction, checkRecreate, configFor, parseConfig, readOpenOptions, readReserveOptions, readSizing, readStoredConfig, RESERVING_FIELD,
  type Config, type OpenOptions, type ReserveOptions, type Sizing,
} from './config.js';
import { isCluster, senderOf, typedError, waitingForRoom, type RedisConnection, type Send } from './connection.js';
import { RedisBloomConfigError } from './errors.js';
import { bitmapKey, checkName, configKey, fingerprint, metaKey } from './layout.js';
import { reserveKeys, type ReserveRequest } from './reserve.js';
import { ADD_SCRIPT, HAS_SCRIPT } from './scripts.js';

/** What info() reports. */
export interface RedisBloomInfo {
  name: string;
  /** n the filter was reserved for, or null when reserved by bits and hashes. */
  capacity: number | null;
  /** The target false-positive rate it was reserved for, or null. */
  falsePositiveRate: number | null;
  /** m over all shards: shardBits * shards. */
  bits: number;
  /** m of each shard. */
  shardBits: number;
  /** k. */
  hashes: number;
  /** How many bitmaps the bits are split over. */
  shards: number;
  /** The hash scheme. */
  scheme: Scheme;
  /** The XXH64 seed. */
  seed: bigint;
  /** Adds that reported new, counted in Redis by the add script. */
  addedCount: number;
  /** Bits that are 1 (BITCOUNT over all shards). */
  bitsSet: number;
  /** Items estimated from the set bits: sum over shards of -(m/k) ln(1 - X/m) (Swamidass and Baldi, 2007). */
  estimatedCount: number;
  /** The false-positive rate now: the mean over shards of (X/m)^k, each shard's share of the items being equal. */
  currentFalsePositiveRate: number;
}

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
  /** The target false-positive rate it was reserved for, or null. */
  readonly falsePositiveRate: number | null;
  /** Most items per shard per script call. */
  readonly batchSize: number;
  private readonly send: Send;
  /** A hashing record in the shared arena (no bits): positions and shards. */
  readonly #engine: Engine;
  /** What the batch streams need: this filter's keys, parameters and engine. */
  readonly #stream: StreamContext;

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
    this.falsePositiveRate = config.falsePositiveRate;
    this.batchSize = batchSize;
    this.#engine = new Engine(params, true, false, 'RedisBloomFilter');
    const head = [
      fingerprint(this.shardBits, this.hashes, this.scheme, this.seed, this.shards, config.epoch),
      String(Math.ceil(this.shardBits / 8)),
      String(this.hashes),
    ];
    this.#stream = {
      name, shards: this.shards, hashes: this.hashes, batchSize, head, engine: this.#engine, send: this.send,
      scripts: { add: ADD_SCRIPT, has: HAS_SCRIPT },
      keys: (s) => [bitmapKey(name, s), metaKey(name, s)],
      typed: (err) => typedError(err, name),
    };
  }

  /**
   * Creates the filter in Redis, or opens it when the same configuration is
   * already there with all its shards; refuses (RedisBloomConfigError
   * naming the field and both values) a different one, a missing or
   * foreign shard, and shards left without their configuration (evicted,
   * expired or deleted) unless `recreate` starts over. Reads the server's
   * maxmemory-policy and the keys' TTLs first (option `eviction`). Every
   * shard's bitmap is allocated in full here, not on first use. A refused
   * reserve changes nothing in Redis (see reserve.ts).
   */
  static async reserve(client: RedisConnection, name: string, sizing: Sizing, options?: ReserveOptions): Promise<RedisBloomFilter> {
    checkName(name);
    // Read once each (src/filter/read-options.ts): configFor and the checks below take the records.
    const o = readReserveOptions(options);
    const s = readSizing(sizing);
    const asked = configFor(s, o);
    const batchSize = checkBatchSize(o.batchSize);
    const request: ReserveRequest = {
      asked,
      bits: s.bits === undefined ? null : (s.bits as number),
      shardsGiven: o.shards !== undefined,
      recreate: checkRecreate(o.recreate),
      eviction: checkEviction(o.eviction),
      cluster: isCluster(client),
    };
    const config = await reserveKeys(waitingForRoom(senderOf(client)), name, request);
    return new RedisBloomFilter(client, name, config, batchSize);
  }

  /** Opens a filter that reserve created; RedisBloomConfigError when there is none under this name. */
  static async open(client: RedisConnection, name: string, options?: OpenOptions): Promise<RedisBloomFilter> {
    checkName(name);
    const batchSize = checkBatchSize(readOpenOptions(options).batchSize);
    const key = configKey(name);
    const stored = await readStoredConfig(
      senderOf(client), name, key, typedError,
      `no Bloom filter named "${name}": ${key} does not exist (create it with RedisBloomFilter.reserve)`,
    );
    if (stored.has(RESERVING_FIELD)) {
      throw new RedisBloomConfigError(
        name, 'reserving',
        `filter "${name}" is not ready: ${key} is marked reserving (a reserve is creating its shards, or stopped ` +
          'before it finished); reserve it again with the same parameters to finish it, or with { recreate: true } to start over',
      );
    }
    return new RedisBloomFilter(client, name, parseConfig(name, stored), batchSize);
  }

  /** The item's k positions inside its shard, equal to BloomFilter(shardBits, hashes, { scheme, seed }).positions(item). */
  positions(item: Item): number[] {
    checkItem(item);
    return this.#engine.positions(item);
  }

  /** The shard in [0, shards) that holds the item's bits. */
  shardOf(item: Item): number {
    checkItem(item);
    return this.#engine.shardPositions(item, this.shards);
  }

  /** Sets the item's bits atomically; true when any was 0 (the item is new). */
  async add(item: Item): Promise<boolean> {
    checkItem(item);
    return (await addStream(this.#stream, [item], 'add'))[0] === 1;
  }

  /**
   * Adds every item: a shard's share of the batch goes out as script calls
   * of at most batchSize items, each written as soon as it is full, and
   * shards run in parallel. Flag i is 1 when item i was new, exactly as
   * sequential add() calls would answer, even when the server lost its
   * scripts midway. On failure rejects with RedisBloomBatchError, which
   * lists the uncertain items; nothing that may have run is sent again.
   */
  async addMany(items: BatchItems): Promise<Uint8Array> {
    return addStream(this.#stream, items, 'addMany');
  }

  /** False when the item was certainly never added; true when it may have been. Read-only. */
  async has(item: Item): Promise<boolean> {
    checkItem(item);
    return (await this.hasMany([item]))[0] === 1;
  }

  /** has() for every item, with BITFIELD_RO in a read-only script: one call per shard per batchSize items; flag i is 1 when item i may have been added. */
  async hasMany(items: BatchItems): Promise<Uint8Array> {
    return hasStream(this.#stream, items);
  }

  /** The configuration with counts read from Redis: addedCount (HGET per shard) and bitsSet (BITCOUNT per shard, O(m)). */
  async info(): Promise<RedisBloomInfo> {
    const shards = Array.from({ length: this.shards }, (_, s) => s);
    const send = waitingForRoom(this.send);
    const [counts, adds] = await Promise.all([
      Promise.all(shards.map((s) => this.call(send(bitmapKey(this.name, s), true, ['BITCOUNT', bitmapKey(this.name, s)])))),
      Promise.all(shards.map((s) => this.call(send(metaKey(this.name, s), true, ['HGET', metaKey(this.name, s), 'added'])))),
    ]);
    const m = this.shardBits;
    const k = this.hashes;
    let bitsSet = 0;
    let estimatedCount = 0;
    let rate = 0;
    for (const c of counts) {
      const x = Number(c);
      bitsSet += x;
      estimatedCount += estimatedCountOf(m, k, x);
      rate += currentFalsePositiveRateOf(m, k, x, this.scheme) / this.shards;
    }
    return {
      name: this.name, capacity: this.capacity, falsePositiveRate: this.falsePositiveRate, bits: this.bits,
      shardBits: m, hashes: k, shards: this.shards, scheme: this.scheme, seed: this.seed,
      addedCount: adds.reduce((sum: number, a) => sum + Number(a ?? 0), 0),
      bitsSet, estimatedCount, currentFalsePositiveRate: rate,
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
    const send = waitingForRoom(this.send);
    await Promise.all(
      Array.from({ length: this.shards }, (_, s) =>
        this.call(send(bitmapKey(this.name, s), false, ['DEL', bitmapKey(this.name, s), metaKey(this.name, s)]))),
    );
    await this.call(this.send(configKey(this.name), false, ['DEL', configKey(this.name)]));
  }

  /** Awaits a call, turning auth and configuration refusals, and a lost server, into typed errors. */
  private async call<T>(pending: Promise<T>): Promise<T> {
    try {
      return await pending;
    } catch (err) {
      throw typedError(err, this.name);
    }
  }
}
