// The sliding-window filter's file, magic "BLMS", version 1 (docs/FORMAT.md,
// "Sliding filter format, version 1"): a little-endian header with the
// window, the shape, the generations' counts and times and the clock, then
// the m words exactly as they lie in wasm memory (u8, or little-endian u16).
// The header is checked field by field in file order before anything it asks
// for is allocated; the checksum (XXH64, seed 0, over the header before the
// checksum field and then the words) is supplied by the wasm filter or the
// reference twin.

import { BloomFormatError } from '../errors.js';
import { headerReader } from './header-reader.js';
import { MAX_ADDED_COUNT, MAX_BITS, MAX_HASHES } from '../filter/options.js';
import { checkMagic, knownKind, type FileKind } from './filter.js';
import { COUNT_GENERATIONS, GENERATIONS_PER_WINDOW, TIME_GENERATIONS, type SlidingShape } from '../sliding/shape.js';
import type { GenerationState } from '../sliding/generations.js';

/** The sliding filter format version this release writes; it reads every version up to this one. */
export const SLIDING_FORMAT_VERSION = 1;

/** The sliding filter's file kind: magic "BLMS". */
export const SLIDING_KIND: FileKind = {
  ...knownKind('BLMS'),
  version: SLIDING_FORMAT_VERSION,
  width: 8,
  ones: 'words',
};

/** Byte offset of each fixed header field. */
export const SLIDING_FIELD_OFFSETS = {
  magic: 0,
  version: 4,
  mode: 6,
  generations: 7,
  hashes: 8,
  current: 9,
  reserved: 10,
  seed: 16,
  bits: 24,
  window: 32,
  windowMs: 40,
  capacity: 48,
  falsePositiveRate: 56,
  totalAdds: 64,
  lastNow: 72,
  payloadLength: 80,
  generationTable: 88,
} as const;

/** Bytes of one generation's entry in the table: u64 count, f64 start, f64 end. */
export const GENERATION_ENTRY_BYTES = 24;

/** Byte offset of the checksum in a header for G generations (the table ends there). */
export function checksumOffset(generations: number): number {
  return SLIDING_FIELD_OFFSETS.generationTable + GENERATION_ENTRY_BYTES * generations;
}

/** Bytes of the header for G generations: the checksum's offset plus its 8 bytes. */
export function slidingHeaderBytes(generations: number): number {
  return checksumOffset(generations) + 8;
}

/** What a file holds besides the words. */
export interface SlidingFile {
  shape: SlidingShape;
  seed: bigint;
  state: GenerationState;
  /** Bytes of the words: m * G / 8. */
  payloadLength: number;
  checksum: bigint;
  /** Bytes of the header (where the words start). */
  headerBytes: number;
}

/** The header of a filter of `shape`, `seed` and `state`, with the checksum field zeroed (the writer sets it). */
export function encodeSlidingHeader(shape: SlidingShape, seed: bigint, state: GenerationState): Uint8Array {
  const g = shape.generations;
  const out = new Uint8Array(slidingHeaderBytes(g));
  const view = new DataView(out.buffer);
  const at = SLIDING_FIELD_OFFSETS;
  out.set(SLIDING_KIND.magic, at.magic);
  view.setUint16(at.version, SLIDING_FORMAT_VERSION, true);
  view.setUint8(at.mode, shape.mode === 'count' ? 0 : 1);
  view.setUint8(at.generations, g);
  view.setUint8(at.hashes, shape.hashes);
  view.setUint8(at.current, state.current);
  view.setBigUint64(at.seed, seed, true);
  view.setBigUint64(at.bits, BigInt(shape.bits), true);
  view.setBigUint64(at.window, BigInt(shape.window), true);
  view.setFloat64(at.windowMs, shape.windowMs, true);
  view.setBigUint64(at.capacity, BigInt(shape.capacity), true);
  view.setFloat64(at.falsePositiveRate, shape.falsePositiveRate, true);
  view.setBigUint64(at.totalAdds, BigInt(Math.min(state.totalAdds, MAX_ADDED_COUNT)), true);
  view.setFloat64(at.lastNow, state.lastNow, true);
  view.setBigUint64(at.payloadLength, BigInt((shape.bits * g) / 8), true);
  for (let p = 0; p < g; p++) {
    const entry = at.generationTable + GENERATION_ENTRY_BYTES * p;
    view.setBigUint64(entry, BigInt(state.counts[p]), true);
    view.setFloat64(entry + 8, state.starts[p], true);
    view.setFloat64(entry + 16, state.ends[p], true);
  }
  return out;
}

/** Writes the checksum into an encoded header. */
export function setSlidingChecksum(header: Uint8Array, generations: number, checksum: bigint): void {
  new DataView(header.buffer, header.byteOffset, header.length).setBigUint64(checksumOffset(generations), checksum, true);
}

/**
 * Decodes and checks the header, field by field in file order, and checks
 * that the input's total length is exactly header + words. `prefix` holds
 * at least the header's bytes of the input (or all of it when shorter).
 * Throws BloomFormatError naming the first bad field and its byte offset;
 * allocates nothing sized by the header.
 */
export function parseSlidingHeader(prefix: Uint8Array, totalLength: number): SlidingFile {
  const reader = headerReader(prefix, totalLength);
  const { view, fail, need, u64, f64 } = reader;
  const at = SLIDING_FIELD_OFFSETS;
  need('magic', at.magic, 4);
  checkMagic(prefix.subarray(0, 4), SLIDING_KIND);
  reader.version(at.version, SLIDING_FORMAT_VERSION);
  const modeId = view.getUint8(need('mode', at.mode, 1));
  if (modeId > 1) fail('mode', at.mode, `must be 0 (a count window) or 1 (a time window); got ${modeId}`);
  const mode = modeId === 0 ? 'count' : 'time';
  const generations = view.getUint8(need('generations', at.generations, 1));
  const expectedGenerations = mode === 'count' ? COUNT_GENERATIONS : TIME_GENERATIONS;
  if (generations !== expectedGenerations) {
    fail('generations', at.generations, `must be ${expectedGenerations} for a ${mode} window; got ${generations}`);
  }
  const g = generations as 8 | 16;
  const hashes = view.getUint8(need('hashes', at.hashes, 1));
  if (hashes < 1 || hashes > MAX_HASHES) fail('hashes', at.hashes, `must be an integer in [1, ${MAX_HASHES}]; got ${hashes}`);
  const current = view.getUint8(need('current', at.current, 1));
  if (current >= g) fail('current', at.current, `must be a plane in [0, ${g - 1}]; got ${current}`);
  need('reserved', at.reserved, 6);
  for (let i = 0; i < 6; i++) {
    if (view.getUint8(at.reserved + i) !== 0) fail('reserved', at.reserved + i, `must be 0; got ${view.getUint8(at.reserved + i)}`);
  }
  const seed = view.getBigUint64(need('seed', at.seed, 8), true);
  const maxBits = MAX_BITS / g;
  const bits = u64('bits', at.bits, 1, maxBits, `an integer in [1, ${maxBits}] (m positions of ${g} bits)`);
  if (hashes > bits) fail('hashes', at.hashes, `must be at most bits (${bits}), whose positions are distinct; got ${hashes}`);
  const window = mode === 'count'
    ? u64('window', at.window, 1, Number.MAX_SAFE_INTEGER, 'a positive integer for a count window')
    : u64('window', at.window, 0, 0, '0 for a time window');
  const windowMs = mode === 'count'
    ? f64('windowMs', at.windowMs, (v) => v === 0 && !Object.is(v, -0), '0 for a count window')
    : f64('windowMs', at.windowMs, (v) => v > 0 && Number.isFinite(v), 'a positive finite number of milliseconds');
  const capacity = mode === 'count'
    ? u64('capacity', at.capacity, window, window, `the window (${window}) for a count window`)
    : u64('capacity', at.capacity, 1, Number.MAX_SAFE_INTEGER, 'a positive integer');
  const falsePositiveRate = f64('falsePositiveRate', at.falsePositiveRate, (v) => v > 0 && v < 1, 'a number in (0, 1)');
  const totalAdds = u64('totalAdds', at.totalAdds, 0, MAX_ADDED_COUNT, 'an integer in [0, 2^53 - 1]');
  const lastNow = mode === 'count'
    ? f64('lastNow', at.lastNow, (v) => v === 0 && !Object.is(v, -0), '0 for a count window')
    : f64('lastNow', at.lastNow, Number.isFinite, 'a finite number of milliseconds');
  const expectedPayload = (bits * g) / 8;
  const payloadLength = u64('payloadLength', at.payloadLength, expectedPayload, expectedPayload, `bits * ${g} / 8 = ${expectedPayload}`);

  const generationCapacity = Math.ceil(capacity / GENERATIONS_PER_WINDOW);
  const counts = new Float64Array(g);
  const starts = new Float64Array(g);
  const ends = new Float64Array(g);
  let sum = 0;
  for (let p = 0; p < g; p++) {
    const entry = at.generationTable + GENERATION_ENTRY_BYTES * p;
    const name = `generations[${p}]`;
    // A count window's generations never take more than c adds; a time window's may, in overload.
    const most = mode === 'count' ? generationCapacity : totalAdds;
    counts[p] = u64(`${name}.count`, entry, 0, most, `an integer in [0, ${most}]`);
    sum += counts[p];
    // A time window's empty plane keeps whatever times it had; a used one's lie at or before the clock.
    const used = counts[p] > 0;
    const time = (v: number): boolean => (mode === 'count' ? v === 0 && !Object.is(v, -0) : Number.isFinite(v) && (!used || v <= lastNow));
    const allowed = mode === 'count' ? '0 for a count window' : used ? `a finite time at most lastNow (${lastNow})` : 'a finite time';
    starts[p] = f64(`${name}.start`, entry + 8, time, allowed);
    ends[p] = used
      ? f64(`${name}.end`, entry + 16, (v) => time(v) && v >= starts[p], `${allowed}, and at least its start (${starts[p]})`)
      : f64(`${name}.end`, entry + 16, time, allowed);
  }
  if (sum > totalAdds) {
    fail('totalAdds', at.totalAdds, `must be at least the generations' counts, which sum to ${sum}; got ${totalAdds}`);
  }
  const checksumAt = checksumOffset(g);
  const checksum = view.getBigUint64(need('checksum', checksumAt, 8), true);
  const headerBytes = checksumAt + 8;
  const end = headerBytes + payloadLength;
  if (totalLength < end) {
    fail('payload', totalLength, `truncated: ${payloadLength} payload bytes must end at byte ${end}, but the input ends at byte ${totalLength}`);
  }
  if (totalLength > end) fail('payload', end, `${totalLength - end} unexpected bytes after the payload, which ends at byte ${end}`);

  const shape: SlidingShape = {
    mode, window, windowMs, capacity, falsePositiveRate, generations: g, generationCapacity,
    periodMs: windowMs / GENERATIONS_PER_WINDOW, bits, hashes,
  };
  return {
    shape, seed, state: { current, totalAdds, lastNow, counts, starts, ends }, payloadLength, checksum, headerBytes,
  };
}

/** The OR of every word of `words` (bytes; little-endian u16 words when G = 16): bit p set when plane p has a 1 anywhere. */
export function planesInUse(words: Uint8Array, generations: number): number {
  let low = 0;
  let high = 0;
  for (let i = 0; i < words.length; i += 2) {
    low |= words[i];
    high |= words[i + 1] ?? 0;
  }
  return generations === 8 ? low | high : low | (high << 8);
}

/**
 * The checks that need the words, in order: the checksum, then that every
 * plane whose generation has no adds is all 0 (a plane is cleared when it
 * is taken). `used` is planesInUse of the words.
 */
export function checkSlidingPayload(file: SlidingFile, checksum: bigint, used: number): void {
  if (checksum !== file.checksum) {
    throw new BloomFormatError(
      'checksum', checksumOffset(file.shape.generations),
      `XXH64 of the header and payload is 0x${checksum.toString(16).padStart(16, '0')}, but the file says 0x${file.checksum.toString(16).padStart(16, '0')}: the data is corrupt`,
    );
  }
  for (let p = 0; p < file.shape.generations; p++) {
    if (file.state.counts[p] === 0 && (used >> p) & 1) {
      throw new BloomFormatError('payload', file.headerBytes, `plane ${p} has bits set, but its generation has no adds (generations[${p}].count is 0)`);
    }
  }
}
