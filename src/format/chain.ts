// The chain format: a ScalableBloomFilter as bytes, an extension of the
// version-1 filter format (README, "File format" and "Chain format"). A
// 64-byte chain header, then every member as a complete version-1 filter
// file, oldest first. Shared by the wasm chain and its reference twin, which
// supply their own BloomFilter.fromBytes and their own XXH64 (the engine's,
// or the reference's), so both write identical bytes and refuse the same
// inputs, and neither depends on the other.
//
// Decoding checks the whole header and every member's header against the
// chain's plan, and the total length, before any member is allocated; then
// each member is loaded by fromBytes (checksum, padding, bitsSet). What gets
// allocated is never more than the input's own length.

import { BloomFormatError, BloomRangeError, BloomTypeError } from '../errors.js';
import { HEADER_BYTES, parseHeader, payloadLength } from './filter.js';
import { MAX_BITS, SCHEMES } from '../filter/options.js';
import { checkScalableOptions, memberPlan, type ScalablePlan } from '../scalable/plan.js';

/** The four magic bytes of a chain: ASCII "BLMC" (a single filter's are "BLMW"). */
export const CHAIN_MAGIC = Uint8Array.of(0x42, 0x4c, 0x4d, 0x43);

/** The chain format version this release writes and reads. */
export const CHAIN_VERSION = 1;

/** Bytes of the chain header, before the first member. */
export const CHAIN_HEADER_BYTES = 64;

/** Byte offset of each chain header field. */
export const CHAIN_FIELD_OFFSETS = {
  magic: 0,
  version: 4,
  scheme: 6,
  reserved: 7,
  seed: 8,
  initialCapacity: 16,
  falsePositiveRate: 24,
  growth: 32,
  tightening: 40,
  filterCount: 48,
  reserved2: 52,
  checksum: 56,
} as const;

/** The smallest member file: a header and one payload byte. */
const MIN_MEMBER_BYTES = HEADER_BYTES + 1;

/** XXH64 with seed 0 of `bytes`: the header checksum. */
export type Checksum = (bytes: Uint8Array) => bigint;

/** What the codec needs of a member filter. */
export interface ChainMember {
  toBytes(): Uint8Array;
  addedCount(): number;
}

/** The 64-byte chain header for `plan` and `filterCount` members, its checksum computed by `xxh64`. */
export function encodeChainHeader(plan: ScalablePlan, filterCount: number, xxh64: Checksum): Uint8Array {
  const out = new Uint8Array(CHAIN_HEADER_BYTES);
  const view = new DataView(out.buffer);
  const at = CHAIN_FIELD_OFFSETS;
  out.set(CHAIN_MAGIC, at.magic);
  view.setUint16(at.version, CHAIN_VERSION, true);
  view.setUint8(at.scheme, SCHEMES.indexOf(plan.scheme));
  view.setBigUint64(at.seed, plan.seed, true);
  view.setBigUint64(at.initialCapacity, BigInt(plan.initialCapacity), true);
  view.setFloat64(at.falsePositiveRate, plan.falsePositiveRate, true);
  view.setFloat64(at.growth, plan.growth, true);
  view.setFloat64(at.tightening, plan.tightening, true);
  view.setUint32(at.filterCount, filterCount, true);
  view.setBigUint64(at.checksum, xxh64(out.subarray(0, at.checksum)), true);
  return out;
}

/** The chain as bytes: the header, then each member's version-1 bytes. */
export function encodeChain(plan: ScalablePlan, members: readonly ChainMember[], xxh64: Checksum): Uint8Array {
  const parts = members.map((m) => m.toBytes());
  const out = new Uint8Array(CHAIN_HEADER_BYTES + parts.reduce((n, p) => n + p.length, 0));
  out.set(encodeChainHeader(plan, members.length, xxh64));
  let at = CHAIN_HEADER_BYTES;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A decoded chain: its plan, its members oldest first, and their new-add counts. */
export interface DecodedChain<F> {
  plan: ScalablePlan;
  members: F[];
  counts: number[];
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** Re-raises a member's format error with the member's field path and the chain's byte offset. */
function inMember(error: unknown, i: number, start: number): unknown {
  if (!(error instanceof BloomFormatError)) return error;
  const problem = error.message.replace(/^invalid bloomwasm filter data: .*? at byte \d+: /, '');
  return new BloomFormatError(`filters[${i}].${error.field}`, start + error.offset, problem);
}

/**
 * Reads a chain written by encodeChain. Every fault throws BloomFormatError
 * naming the field (`filterCount`, or `filters[2].checksum` inside a member)
 * and its byte offset in `bytes`.
 */
export function decodeChain<F extends ChainMember>(
  bytes: Uint8Array,
  load: (member: Uint8Array) => F,
  xxh64: Checksum,
): DecodedChain<F> {
  if (!(bytes instanceof Uint8Array)) throw new BloomTypeError('bytes', bytes, 'a Uint8Array');
  const at = CHAIN_FIELD_OFFSETS;
  const total = bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, Math.min(total, CHAIN_HEADER_BYTES));
  const need = (field: keyof typeof at, size: number): number => {
    if (at[field] + size > total) {
      throw new BloomFormatError(field, at[field], `truncated: the ${size}-byte field needs the input to reach byte ${at[field] + size}, but it ends at byte ${total}`);
    }
    return at[field];
  };

  need('magic', 4);
  const magic = bytes.subarray(0, 4);
  if (!CHAIN_MAGIC.every((b, i) => magic[i] === b)) {
    const single = hex(magic) === '42 4c 4d 57' ? ' (this is a single filter, "BLMW": load it with BloomFilter.fromBytes)' : '';
    throw new BloomFormatError('magic', 0, `not a bloomwasm chain: it must start with ${hex(CHAIN_MAGIC)} ("BLMC"); got ${hex(magic)}${single}`);
  }
  const version = view.getUint16(need('version', 2), true);
  if (version !== CHAIN_VERSION) {
    const why = version > CHAIN_VERSION ? 'written by a newer bloomwasm; this release reads' : 'supported versions are';
    throw new BloomFormatError('version', at.version, `unsupported chain version ${version}: ${why} 1 to ${CHAIN_VERSION}`);
  }
  const schemeId = view.getUint8(need('scheme', 1));
  if (schemeId >= SCHEMES.length) {
    throw new BloomFormatError('scheme', at.scheme, `must be a scheme id in [0, ${SCHEMES.length - 1}]; got ${schemeId}`);
  }
  if (view.getUint8(need('reserved', 1)) !== 0) throw new BloomFormatError('reserved', at.reserved, `must be 0; got ${view.getUint8(at.reserved)}`);
  const seed = view.getBigUint64(need('seed', 8), true);
  const initialCapacity = view.getBigUint64(need('initialCapacity', 8), true);
  const falsePositiveRate = view.getFloat64(need('falsePositiveRate', 8), true);
  const growth = view.getFloat64(need('growth', 8), true);
  const tightening = view.getFloat64(need('tightening', 8), true);
  const filterCount = view.getUint32(need('filterCount', 4), true);
  if (view.getUint32(need('reserved2', 4), true) !== 0) {
    throw new BloomFormatError('reserved2', at.reserved2, `must be 0; got ${view.getUint32(at.reserved2, true)}`);
  }
  const stored = view.getBigUint64(need('checksum', 8), true);
  const actual = xxh64(bytes.subarray(0, at.checksum));
  if (stored !== actual) {
    throw new BloomFormatError('checksum', at.checksum, `XXH64 of the chain header is 0x${actual.toString(16).padStart(16, '0')}, but the input says 0x${stored.toString(16).padStart(16, '0')}: the data is corrupt`);
  }

  // The options, checked as the constructor checks them.
  let plan: ScalablePlan;
  try {
    if (initialCapacity > BigInt(Number.MAX_SAFE_INTEGER)) throw new BloomRangeError('initialCapacity', initialCapacity, 'a positive integer');
    plan = checkScalableOptions({
      initialCapacity: Number(initialCapacity), falsePositiveRate, growth, tightening, scheme: SCHEMES[schemeId], seed,
    });
  } catch (error) {
    if (!(error instanceof BloomRangeError || error instanceof BloomTypeError)) throw error;
    const field = error.parameter in at ? (error.parameter as keyof typeof at) : 'initialCapacity';
    throw new BloomFormatError(field, at[field], error.message);
  }

  // Every member's place and size from the plan, before anything is read
  // from it; a count the input cannot hold stops at once.
  const maxCount = Math.floor((total - CHAIN_HEADER_BYTES) / MIN_MEMBER_BYTES);
  if (filterCount < 1 || filterCount > maxCount) {
    throw new BloomFormatError('filterCount', at.filterCount, `must be in [1, ${Math.max(1, maxCount)}] for a ${total}-byte input (each member takes at least ${MIN_MEMBER_BYTES} bytes); got ${filterCount}`);
  }
  const starts: number[] = [];
  const capacities: number[] = [];
  let start = CHAIN_HEADER_BYTES;
  for (let i = 0; i < filterCount; i++) {
    let member;
    try {
      member = memberPlan(plan, i);
    } catch (error) {
      if (!(error instanceof BloomRangeError)) throw error;
      throw new BloomFormatError('filterCount', at.filterCount, `${filterCount} members: member ${i} cannot exist (${error.message})`);
    }
    // The member's own header, checked field by field against its own
    // claimed length, then against the plan; only then its place in the input.
    if (start + HEADER_BYTES > total) {
      throw new BloomFormatError(`filters[${i}]`, start, `truncated: member ${i}'s ${HEADER_BYTES}-byte header needs the input to reach byte ${start + HEADER_BYTES}, but it ends at byte ${total}`);
    }
    const prefix = bytes.subarray(start, start + HEADER_BYTES);
    const claimed = new DataView(prefix.buffer, prefix.byteOffset, HEADER_BYTES).getBigUint64(16, true);
    const ownLength = claimed >= 1n && claimed <= BigInt(MAX_BITS) ? HEADER_BYTES + payloadLength(Number(claimed)) : HEADER_BYTES;
    let header;
    try {
      header = parseHeader(prefix, ownLength);
    } catch (error) {
      throw inMember(error, i, start);
    }
    const expect = (field: string, offset: number, got: unknown, want: unknown): void => {
      if (got !== want) throw new BloomFormatError(`filters[${i}].${field}`, start + offset, `must be ${String(want)} for member ${i} of this chain; got ${String(got)}`);
    };
    expect('bits', 16, header.bits, member.bits);
    expect('hashes', 7, header.hashes, member.hashes);
    expect('scheme', 6, header.schemeId, schemeId);
    expect('seed', 8, header.seed, seed);
    const length = HEADER_BYTES + header.payloadLength;
    if (start + length > total) {
      throw new BloomFormatError(`filters[${i}]`, start, `truncated: member ${i} (${member.bits} bits) needs ${length} bytes, to byte ${start + length}, but the input ends at byte ${total}`);
    }
    // Only the newest member is still filling: the older ones were full when the next began.
    const last = i === filterCount - 1;
    if (last ? header.addedCount > member.capacity : header.addedCount !== member.capacity) {
      throw new BloomFormatError(`filters[${i}].addedCount`, start + 32, `must be ${last ? `at most ${member.capacity}` : member.capacity} (member ${i}'s capacity${last ? '' : ': only the newest member is not full'}); got ${header.addedCount}`);
    }
    starts.push(start);
    capacities.push(member.capacity);
    start += length;
  }
  if (start !== total) {
    throw new BloomFormatError('filters', start, `${total - start} unexpected bytes after the last member, which ends at byte ${start}`);
  }

  const members: F[] = [];
  const counts: number[] = [];
  for (let i = 0; i < filterCount; i++) {
    const end = i + 1 < filterCount ? starts[i + 1] : total;
    try {
      members.push(load(bytes.subarray(starts[i], end)));
    } catch (error) {
      throw inMember(error, i, starts[i]);
    }
    counts.push(members[i].addedCount());
  }
  return { plan, members, counts };
}
