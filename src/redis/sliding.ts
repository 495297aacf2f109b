// A sliding-window seen-set ("seen in the last 30 days") shared through
// Redis: the design of SlidingBloomFilter (src/sliding/shape.ts), with one
// Redis bitmap per generation slot and a metadata hash, all under the hash
// tag {name} (sliding-layout.ts). Positions are computed here, in wasm, as
// those of BloomFilter(bits, hashes, { scheme: 'xxh64', seed }); rotation,
// expiry and test-and-set run on the server, in one Lua script per batch,
// on the server's TIME (sliding-scripts.ts), streamed as RedisBloomFilter's
// batches are (batches.ts).

import { BloomTypeError } from '../errors.js';
import type { BatchItems, Item } from '../filter/items.js';
import { checkItem, checkParams, checkSeed } from '../filter/options.js';
import { readSlidingOptions, slidingFalsePositiveRate, slidingShape, type SlidingOptions, type SlidingShape } from '../sliding/shape.js';
import { readOptions } from '../filter/read-options.js';
import { Engine } from '../wasm/engine.js';
import { addStream, hasStream, type StreamContext } from './batches.js';
import { checkBatchSize, checkEviction, checkRecreate, hashOf, readOpenOptions, readStoredConfig, type EvictionMode, type OpenOptions } from './config.js';
import { checkEvictionRisk } from './eviction.js';
import { isErrorReply, runScript, scriptArgs, senderOf, typedError, waitingForRoom, type RedisConnection, type Send } from './connection.js';
import { RedisBloomConfigError } from './errors.js';
import { checkName, newEpoch } from './layout.js';
import {
  checkGenerationBits, generationKey, parseSlidingConfig, SLIDING_FIELDS, slidingFields, slidingFingerprint,
  slidingKeys, slidingMetaKey, type SlidingConfig,
} from './sliding-layout.js';
import {
  SLIDING_ADD_SCRIPT, SLIDING_CLEAR_SCRIPT, SLIDING_HAS_SCRIPT, SLIDING_RESERVE_SCRIPT, SLIDING_STATE_SCRIPT,
} from './sliding-scripts.js';

/** Options of RedisSlidingBloomFilter.reserve besides the window. */
export interface SlidingReserveOptions extends OpenOptions {
  /** XXH64 seed of the positions; default 0. */
  seed?: number | bigint;
  /**
   * Start over: delete the metadata hash and every generation (in the one
   * script that creates the filter again, atomically) and create it empty.
   * Without it, reserve refuses generations left without their metadata.
   * Default false.
   */
  recreate?: boolean;
  /** What reserve does when the server may evict or expire the filter's keys: `warn` (default) or `refuse`, as RedisBloomFilter's. */
  eviction?: EvictionMode;
}

/** The fields of SlidingReserveOptions. */
const SLIDING_RESERVE_OPTION_NAMES = ['seed', 'batchSize', 'recreate', 'eviction'] as const;

/** One generation slot as info() reports it. */
export interface RedisSlidingGeneration {
  /** The slot, in [0, generations). */
  slot: number;
  /** Adds counted into it (every add, new or not, sets its bits in the current generation). */
  adds: number;
  /** Server time (ms since the epoch) when it became current; null for a count window. */
  startedAt: number | null;
  /** Server time (ms) of its last add; null for a count window. */
  lastAddAt: number | null;
  /** Whether adds go to it now. */
  current: boolean;
}

/** What info() reports: the shape's fields (`bits` is m, one generation's, as in SlidingShape) and the state. */
export interface RedisSlidingInfo extends SlidingShape {
  name: string;
  /** The XXH64 seed. */
  seed: bigint;
  /** The server's time (ms) when the state was read. */
  now: number;
  /** The live generations (holding adds, and within the window for a time window), the current one first. */
  live: RedisSlidingGeneration[];
  /** Adds that answered new, over the filter's life (since reserve or clear). */
  addedCount: number;
  /** Every add, over the filter's life. */
  addCount: number;
  /** True when a time window has run out of free slots and adds pile into the current generation (more than capacity in one window). */
  overloaded: boolean;
  /** The rate of a query now, from the live generations' add counts (slidingFalsePositiveRate). */
  currentFalsePositiveRate: number;
}

/** A sliding-window Bloom filter stored in Redis and shared by many workers; hashed locally in WebAssembly. */
export class RedisSlidingBloomFilter {
  /** The filter's name; its keys are {name}:sliding and {name}:gen:0 ... {name}:gen:(generations - 1). */
  readonly name: string;
  /** The window's shape: mode, window or windowMs, capacity, generations, c, P, m and k. */
  readonly shape: SlidingShape;
  /** The most bits the generations hold together: m (shape.bits, one generation's bitmap) times G, as SlidingBloomFilter.bits. */
  readonly bits: number;
  /** k, the positions of an item, shared by every generation. */
  readonly hashes: number;
  /** n, the adds a count window remembers; 0 for a time window. */
  readonly window: number;
  /** The milliseconds a time window remembers, on the server's clock; 0 for a count window. */
  readonly windowMs: number;
  /** The adds within one window the rate is promised for (n for a count window). */
  readonly capacity: number;
  /** The XXH64 seed of the positions. */
  readonly seed: bigint;
  /** The promised false-positive rate. */
  readonly falsePositiveRate: number;
  /** Most items per script call. */
  readonly batchSize: number;
  private readonly send: Send;
  /** A hashing record in the shared arena (no bits): its positions. */
  readonly #engine: Engine;
  readonly #stream: StreamContext;
  private readonly keys: string[];
  private readonly fingerprint: string;

  private constructor(client: RedisConnection, name: string, config: SlidingConfig, batchSize: number) {
    this.send = senderOf(client);
    this.name = name;
    this.shape = Object.freeze({ ...config.shape });
    this.bits = config.shape.bits * config.shape.generations;
    this.hashes = config.shape.hashes;
    this.window = config.shape.window;
    this.windowMs = config.shape.windowMs;
    this.capacity = config.shape.capacity;
    this.seed = config.seed;
    this.falsePositiveRate = config.shape.falsePositiveRate;
    this.batchSize = batchSize;
    this.#engine = new Engine(checkParams(config.shape.bits, this.hashes, { scheme: 'xxh64', seed: this.seed }), true, false, 'RedisSlidingBloomFilter');
    this.keys = slidingKeys(name, config.shape.generations);
    this.fingerprint = slidingFingerprint(config);
    const s = config.shape;
    const head = [
      this.fingerprint, String(Math.ceil(s.bits / 8)), String(s.hashes), String(s.generationCapacity),
      s.mode, String(s.windowMs), String(s.periodMs),
    ];
    this.#stream = {
      name, shards: 1, hashes: this.hashes, batchSize, head, engine: this.#engine, send: this.send,
      scripts: { add: SLIDING_ADD_SCRIPT, has: SLIDING_HAS_SCRIPT },
      keys: () => this.keys,
      typed: (err) => slidingTypedError(err, name),
    };
  }

  /**
   * Creates the filter in Redis, or opens it when the same configuration is
   * there; refuses (RedisBloomConfigError naming the field) a different one.
   * `{ window, falsePositiveRate }` remembers the last `window` adds;
   * `{ windowMs, capacity, falsePositiveRate }` the adds of the last
   * windowMs milliseconds of the server's clock, at most capacity of them at
   * the promised rate. The metadata and the first generation are created in
   * one script: no worker sees half a filter, and a refused reserve writes
   * nothing. Generations left without their metadata, or a live generation
   * missing under it, are refused unless `recreate` starts over; the
   * server's maxmemory-policy and the keys' TTLs are read first (option
   * `eviction`).
   */
  static async reserve(
    client: RedisConnection, name: string, window: SlidingOptions, options?: SlidingReserveOptions,
  ): Promise<RedisSlidingBloomFilter> {
    checkName(name);
    // Read once each (src/filter/read-options.ts); slidingShape takes the record as it is.
    const o = readOptions(options, SLIDING_RESERVE_OPTION_NAMES, 'an object with seed, batchSize, recreate or eviction');
    const w = readSlidingOptions(window);
    if (w.clock !== undefined) {
      throw new BloomTypeError('clock', w.clock, 'absent: a Redis sliding filter reads the server\'s clock (TIME), never a worker\'s');
    }
    const shape = slidingShape(w as SlidingOptions);
    checkGenerationBits(shape);
    const seed = checkSeed(o.seed);
    const batchSize = checkBatchSize(o.batchSize);
    const recreate = checkRecreate(o.recreate);
    const eviction = checkEviction(o.eviction);
    const config: SlidingConfig = { shape, seed, epoch: newEpoch() };
    const fields: Record<string, string> = { ...slidingFields(config), epoch: config.epoch!, fingerprint: slidingFingerprint(config) };
    const send = waitingForRoom(senderOf(client));
    const keys = slidingKeys(name, shape.generations);
    await checkEvictionRisk(send, { label: `sliding filter "${name}"`, name, routes: [keys[0]], keys: recreate ? [] : keys }, eviction);
    let reply: unknown;
    try {
      reply = await runScript(
        send, SLIDING_RESERVE_SCRIPT, false,
        scriptArgs(keys, [String(Math.ceil(shape.bits / 8)), recreate ? '1' : '0', ...Object.entries(fields).flat()]),
      );
    } catch (err) {
      throw slidingTypedError(err, name);
    }
    if (!Array.isArray(reply) || reply.length === 0) return new RedisSlidingBloomFilter(client, name, config, batchSize);
    const stored = hashOf(reply[0]);
    const damaged = (Array.isArray(reply[1]) ? reply[1] : []).map(String);
    for (const field of SLIDING_FIELDS) {
      if (stored.get(field) !== fields[field]) {
        throw new RedisBloomConfigError(
          name, field,
          `sliding filter "${name}" already exists with ${field} = ${stored.get(field) ?? 'missing'}; ` +
            `reserve asked for ${field} = ${fields[field]}`,
        );
      }
    }
    const existing = parseSlidingConfig(name, stored);
    if (damaged.length > 0) {
      throw new RedisBloomConfigError(
        name, 'bits',
        `sliding filter "${name}" exists, but ${damaged.join(', ')} ${damaged.length === 1 ? 'is' : 'are'} missing or of another size ` +
          'while its metadata says it holds adds (a generation was deleted, evicted or expired, so what was added to it is lost; ' +
          'reserve does not recreate it empty: reserve with { recreate: true } to start over, and use maxmemory-policy noeviction)',
      );
    }
    return new RedisSlidingBloomFilter(client, name, existing, batchSize);
  }

  /** Opens a filter that reserve created; RedisBloomConfigError when there is none under this name. */
  static async open(client: RedisConnection, name: string, options?: OpenOptions): Promise<RedisSlidingBloomFilter> {
    checkName(name);
    const batchSize = checkBatchSize(readOpenOptions(options).batchSize);
    const key = slidingMetaKey(name);
    const stored = await readStoredConfig(
      senderOf(client), name, key, slidingTypedError,
      `no sliding filter named "${name}": ${key} does not exist (create it with RedisSlidingBloomFilter.reserve)`,
    );
    return new RedisSlidingBloomFilter(client, name, parseSlidingConfig(name, stored), batchSize);
  }

  /** The item's k positions in every generation, equal to new BloomFilter(shape.bits, hashes, { scheme: 'xxh64', seed }).positions(item). */
  positions(item: Item): number[] {
    checkItem(item);
    return this.#engine.positions(item);
  }

  /**
   * Adds the item to the current generation, rotating first when it is
   * full (or, in a time window, old); true when no live generation held it
   * (the item is new within the window). On a lost reply rejects with
   * RedisBloomBatchError (the item is uncertain: treat it as new).
   */
  async add(item: Item): Promise<boolean> {
    checkItem(item);
    return (await addStream(this.#stream, [item], 'add'))[0] === 1;
  }

  /**
   * add() for every item, in script calls of at most batchSize items sent
   * in order: flag i is 1 when item i was new, exactly as sequential add()
   * calls would answer, rotations in the middle of the batch included. On
   * failure rejects with RedisBloomBatchError listing the uncertain items.
   */
  async addMany(items: BatchItems): Promise<Uint8Array> {
    return addStream(this.#stream, items, 'addMany');
  }

  /** False when no live generation holds the item; true when one may. Read-only. */
  async has(item: Item): Promise<boolean> {
    checkItem(item);
    return (await this.hasMany([item]))[0] === 1;
  }

  /** has() for every item, in read-only script calls; flag i is 1 when item i may have been added within the window. */
  async hasMany(items: BatchItems): Promise<Uint8Array> {
    return hasStream(this.#stream, items);
  }

  /** The shape, and the state read atomically on the server's clock: live generations, counts, the rate now. */
  async info(): Promise<RedisSlidingInfo> {
    const s = this.shape;
    const reply = await this.call(runScript(this.send, SLIDING_STATE_SCRIPT, true, scriptArgs([this.keys[0]], [])));
    const [nowText, hash] = Array.isArray(reply) ? reply : [];
    const stored = hashOf(hash);
    if (stored.get('fingerprint') !== this.fingerprint) {
      throw new RedisBloomConfigError(
        this.name, 'fingerprint',
        `sliding filter "${this.name}" no longer matches ${this.keys[0]}: fingerprint is ${stored.get('fingerprint') ?? 'missing'}; ` +
          `expected ${this.fingerprint} (it was dropped, or reserved again with other options)`,
      );
    }
    const now = Number(nowText);
    const timed = s.mode === 'time';
    const current = Number(stored.get('current'));
    const live: RedisSlidingGeneration[] = [];
    let free = 0;
    for (let d = 0; d < s.generations; d++) {
      const slot = (current - d + s.generations) % s.generations;
      const adds = Number(stored.get(`n:${slot}`));
      const last = Number(stored.get(`last:${slot}`));
      const isLive = adds > 0 && (!timed || last > now - s.windowMs);
      if (!isLive && slot !== current) free++;
      if (!isLive) continue;
      live.push({
        slot, adds, current: slot === current,
        startedAt: timed ? Number(stored.get(`start:${slot}`)) : null,
        lastAddAt: timed ? last : null,
      });
    }
    const currentAdds = Number(stored.get(`n:${current}`));
    return {
      ...s, name: this.name, seed: this.seed, now, live,
      addedCount: Number(stored.get('added') ?? 0),
      addCount: Number(stored.get('adds') ?? 0),
      overloaded: timed && free === 0 && currentAdds >= s.generationCapacity,
      currentFalsePositiveRate: slidingFalsePositiveRate(s.bits, s.hashes, live.map((g) => g.adds)),
    };
  }

  /** The rate of a query now: slidingFalsePositiveRate over the live generations' add counts (it rises under overload). */
  async currentFalsePositiveRate(): Promise<number> {
    return (await this.info()).currentFalsePositiveRate;
  }

  /** Forgets every item (UNLINK of every generation) and starts over; the configuration stays. */
  async clear(): Promise<void> {
    const args = scriptArgs(this.keys, [this.fingerprint, String(Math.ceil(this.shape.bits / 8))]);
    await this.call(runScript(this.send, SLIDING_CLEAR_SCRIPT, false, args));
  }

  /** Deletes the metadata hash and every generation (one UNLINK). */
  async drop(): Promise<void> {
    await this.call(this.send(this.keys[0], false, ['UNLINK', ...this.keys]));
  }

  /** Awaits a call, turning auth, configuration and key-type refusals, and a lost server, into typed errors. */
  private async call<T>(pending: Promise<T>): Promise<T> {
    try {
      return await pending;
    } catch (err) {
      throw slidingTypedError(err, this.name);
    }
  }
}

/**
 * typedError for a sliding filter: WRONGTYPE, BLOOMCONFIG, BLOOMSHARD and
 * BLOOMLEFT become RedisBloomConfigError with the sliding layout's keys;
 * auth refusals become RedisBloomAuthError and calls that got no answer
 * RedisBloomConnectionError (typedError); others pass through.
 */
export function slidingTypedError(err: unknown, name: string): unknown {
  if (!isErrorReply(err)) return typedError(err, name);
  const code = err.message.split(' ', 1)[0];
  const layout = `its keys are ${slidingMetaKey(name)} (a hash) and ${generationKey(name, 'i')} (a string) for each generation slot i`;
  if (code === 'WRONGTYPE') {
    return new RedisBloomConfigError(
      name, 'type',
      `sliding filter "${name}" cannot use its keys: one holds another Redis type (${err.message.split('.')[0]}); ` +
        `${layout}: rename or delete the foreign key, or pick another name`,
    );
  }
  if (code === 'BLOOMLEFT') {
    const [meta, ...left] = err.message.split(' ').slice(1);
    return new RedisBloomConfigError(
      name, 'missing',
      `sliding filter "${name}" cannot be reserved: ${left.join(', ')} ${left.length === 1 ? 'exists' : 'exist'}, but ${meta} does not ` +
        '(its metadata was evicted, expired or deleted, or the keys are someone else\'s); what was added to the generations ' +
        `cannot be read without it, so reserve does not rebuild the filter around them; ${layout}: ` +
        'reserve with { recreate: true } to delete them and start over empty, or pick another name',
    );
  }
  if (code === 'BLOOMCONFIG' || code === 'BLOOMSHARD') {
    return new RedisBloomConfigError(
      name, code === 'BLOOMCONFIG' ? 'config' : 'bits',
      `sliding filter "${name}" no longer matches its keys: ${err.message.slice(code.length + 1)} ` +
        '(it was dropped or reserved again with other options, or a generation was deleted or evicted; use maxmemory-policy noeviction)',
    );
  }
  return typedError(err, name);
}
