// Where a sliding filter lives in Redis, and how its shape is stored.
//
//   {name}:sliding    hash: the shape (mode, window, ..., bits, hashes, seed),
//                     its fingerprint, and the state: current (the slot adds
//                     go to), and per slot i: n:i (adds counted into it),
//                     start:i (server ms when it became current), last:i
//                     (server ms of its last add); added, adds (totals)
//   {name}:gen:i      string: generation slot i's bitmap, ceil(bits / 8)
//                     bytes, for i in [0, generations)
//
// Every key carries the hash tag {name}, so one script call reaches the
// metadata and every generation, atomically, in one cluster slot
// (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#hash-tags).
// The names differ from RedisBloomFilter's ({name}:config, {name:s}), so
// the two kinds of filter cannot take each other's keys.

import { BloomRangeError } from '../errors.js';
import type { SlidingShape } from '../sliding/shape.js';
import { RedisBloomConfigError } from './errors.js';
import { isEpoch, MAX_SHARD_BITS } from './layout.js';

/** The sliding layout's version, stored in the metadata hash. */
export const SLIDING_FORMAT_VERSION = 1;

/** The metadata hash's key. */
export function slidingMetaKey(name: string): string {
  return `{${name}}:sliding`;
}

/** Generation slot i's bitmap key. */
export function generationKey(name: string, slot: number | string): string {
  return `{${name}}:gen:${slot}`;
}

/** Every key of the filter, the metadata hash first: the key list of each script call. */
export function slidingKeys(name: string, generations: number): string[] {
  return [slidingMetaKey(name), ...Array.from({ length: generations }, (_, i) => generationKey(name, i))];
}

/** A sliding filter's stored configuration: the shape and the seed of its positions. */
export interface SlidingConfig {
  readonly shape: SlidingShape;
  readonly seed: bigint;
  /**
   * The incarnation's epoch (64 random bits in hex, drawn by the reserve
   * that created the metadata), part of the fingerprint: a handle of a
   * filter dropped or recreated with the same shape is refused by the new
   * one. Null for a filter reserved before epochs.
   */
  readonly epoch: string | null;
}

/**
 * The fields reserve compares, in the order a mismatch is reported: what
 * the caller asked for first, then what was derived from it (a different
 * derivation means another version sized the filter).
 */
export const SLIDING_FIELDS = [
  'format', 'mode', 'window', 'windowMs', 'capacity', 'falsePositiveRate', 'seed',
  'generations', 'generationCapacity', 'periodMs', 'bits', 'hashes', 'scheme',
] as const;

/** The configuration as the metadata hash stores it (every value a string). */
export function slidingFields(config: SlidingConfig): Record<(typeof SLIDING_FIELDS)[number], string> {
  const s = config.shape;
  return {
    format: String(SLIDING_FORMAT_VERSION),
    mode: s.mode,
    window: String(s.window),
    windowMs: String(s.windowMs),
    capacity: String(s.capacity),
    falsePositiveRate: String(s.falsePositiveRate),
    seed: String(config.seed),
    generations: String(s.generations),
    generationCapacity: String(s.generationCapacity),
    periodMs: String(s.periodMs),
    bits: String(s.bits),
    hashes: String(s.hashes),
    scheme: 'xxh64',
  };
}

/** The string every script compares with the stored one before touching a bit. */
export function slidingFingerprint(config: SlidingConfig): string {
  const f = slidingFields(config);
  const base = `bloomwasm-sliding/${f.format} mode=${f.mode} generations=${f.generations} c=${f.generationCapacity} ` +
    `periodMs=${f.periodMs} windowMs=${f.windowMs} bits=${f.bits} hashes=${f.hashes} seed=${f.seed}`;
  return config.epoch === null ? base : `${base} epoch=${config.epoch}`;
}

/**
 * Checks that one generation fits one Redis bitmap (2^32 bits, 512 MiB);
 * the error names the option that sized it. slidingShape's own limit (m
 * times G within the in-memory maximum) is stricter today; this guard keeps
 * the Redis limit if that one is ever raised.
 */
export function checkGenerationBits(shape: SlidingShape): void {
  if (shape.bits > MAX_SHARD_BITS) {
    const option = shape.mode === 'count' ? 'window' : 'capacity';
    const value = shape.mode === 'count' ? shape.window : shape.capacity;
    throw new BloomRangeError(
      option, value,
      `small enough that one generation fits one Redis bitmap (2^32 bits); at falsePositiveRate = ${shape.falsePositiveRate} ` +
        `it needs ${shape.bits} bits per generation`,
    );
  }
}

/** Reads a stored configuration back, refusing a format or value this version does not know. */
export function parseSlidingConfig(name: string, stored: Map<string, string>): SlidingConfig {
  const bad = (field: string, allowed: string): never => {
    throw new RedisBloomConfigError(
      name, field,
      `sliding filter "${name}" has ${field} = ${stored.get(field) ?? 'missing'} in ${slidingMetaKey(name)}; expected ${allowed}`,
    );
  };
  if (stored.get('format') !== String(SLIDING_FORMAT_VERSION)) bad('format', `format ${SLIDING_FORMAT_VERSION}`);
  const mode = stored.get('mode');
  if (mode !== 'count' && mode !== 'time') return bad('mode', 'count or time');
  if (stored.get('scheme') !== 'xxh64') bad('scheme', 'xxh64');
  const number = (field: string, ok: (x: number) => boolean, allowed: string): number => {
    const value = Number(stored.get(field) ?? 'NaN');
    return ok(value) ? value : bad(field, allowed);
  };
  const int = (field: string, min: number, max: number): number =>
    number(field, (x) => Number.isSafeInteger(x) && x >= min && x <= max, `an integer in [${min}, ${max}]`);
  const generations = int('generations', 8, 16);
  if (generations !== 8 && generations !== 16) bad('generations', '8 or 16');
  const seedText = stored.get('seed') ?? '';
  const shape: SlidingShape = {
    mode,
    window: number('window', (x) => x >= 0, 'a number >= 0'),
    windowMs: number('windowMs', (x) => x >= 0, 'a number >= 0'),
    capacity: int('capacity', 1, Number.MAX_SAFE_INTEGER),
    falsePositiveRate: number('falsePositiveRate', (x) => x > 0 && x < 1, 'a number in (0, 1)'),
    generations: generations as 8 | 16,
    generationCapacity: int('generationCapacity', 1, Number.MAX_SAFE_INTEGER),
    periodMs: number('periodMs', (x) => x >= 0, 'a number >= 0'),
    bits: int('bits', 1, MAX_SHARD_BITS),
    hashes: int('hashes', 1, 64),
  };
  const seed = /^[0-9]+$/.test(seedText) ? BigInt(seedText) : bad('seed', 'an unsigned 64-bit integer');
  const epochText = stored.get('epoch');
  const epoch = epochText === undefined ? null : isEpoch(epochText) ? epochText : bad('epoch', '16 hex digits');
  const config = { shape, seed, epoch };
  if (stored.get('fingerprint') !== slidingFingerprint(config)) bad('fingerprint', slidingFingerprint(config));
  return config;
}
