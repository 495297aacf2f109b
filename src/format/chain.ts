// The chain format: a ScalableBloomFilter as bytes, an extension of the
// version-1 filter format (docs/FORMAT.md, "Filter format, version 1" and
// "Chain format, versions 1 and 2"). A 64-byte chain header, then every
// member as a complete version-1 filter file, oldest first. Shared by the
// wasm chain and its reference twin, which supply their own
// BloomFilter.fromBytes and their own XXH64 (the engine's, or the
// reference's), so both write identical bytes and refuse the same inputs,
// and neither depends on the other.
//
// Decoding checks the whole header and every member's header against the
// chain's plan, and the total length, before any member is allocated; then
// each member is loaded by fromBytes (checksum, padding, bitsSet). What gets
// allocated is the members' payloads, which the input's own length holds,
// plus one record per member in the shared arena (an instance of its own
// for a member of 16 MiB or more); MAX_FILTER_COUNT bounds those.
// The checks are split into the chain header and one member header at a
// time, so that src/node can run them on a file it streams.

import { checkBytes } from '../wasm/typed-arrays.js';
import { BloomFormatError, BloomRangeError, BloomTypeError } from '../errors.js';
import { HEADER_BYTES, parseHeader, payloadLength, type FileHeader } from './filter.js';
import { MAX_BITS, SCHEMES } from '../filter/options.js';
import type { SizingRule } from '../filter/sizing.js';
import { checkScalableOptions, MAX_FILTER_COUNT, memberPlan, type ScalablePlan } from '../scalable/plan.js';

/** The four magic bytes of a chain: ASCII "BLMC" (a single filter's are "BLMW"). */
export const CHAIN_MAGIC = Uint8Array.of(0x42, 0x4c, 0x4d, 0x43);

/**
 * The newest chain format version, which this release writes for new
 * chains; it reads every version from 1. The version is the sizing rule
 * (SizingRule) the members' m and k derive from: 1 for the asymptotic
 * formulas, 2 for the small-n sizing (docs/FORMAT.md). A chain loaded from
 * a version-1 file is saved as version 1 again, its members sized as before.
 */
export const CHAIN_VERSION = 2;

/** Bytes of the chain header, before the first member. */
export const CHAIN_HEADER_BYTES = 64;

/** Byte offset of each chain header field. */
export const CHAIN_FIELD_OFFSETS = {
  magic: 0,
  version: 4,
  scheme: 6,
  reserved: 7,
  seed: 8,
  capacity: 16,
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
  /** Adds that reported new (the member header's addedCount). */
  readonly size: number;
  /** Gives back its memory: the members loaded before one that is refused. */
  dispose(): void;
}

/** The 64-byte chain header for `plan` and `filterCount` members, its checksum computed by `xxh64`. */
export function encodeChainHeader(plan: ScalablePlan, filterCount: number, xxh64: Checksum): Uint8Array {
  const out = new Uint8Array(CHAIN_HEADER_BYTES);
  const view = new DataView(out.buffer);
  const at = CHAIN_FIELD_OFFSETS;
  out.set(CHAIN_MAGIC, at.magic);
  view.setUint16(at.version, plan.sizing, true);
  view.setUint8(at.scheme, SCHEMES.indexOf(plan.scheme));
  view.setBigUint64(at.seed, plan.seed, true);
  view.setBigUint64(at.capacity, BigInt(plan.capacity), true);
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

/** A checked chain header. */
export interface ChainHeader {
  plan: ScalablePlan;
  schemeId: number;
  filterCount: number;
}

/** Member i of a chain whose header has been checked: where it lies, its header, and its capacity. */
export interface MemberSpan {
  /** Byte offset of the member's first byte. */
  start: number;
  /** The member's bytes: its header and payload. */
  length: number;
  header: FileHeader;
  capacity: number;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** Re-raises a member's format error with the member's field path and the chain's byte offset. */
export function inMember(error: unknown, i: number, start: number): unknown {
  if (!(error instanceof BloomFormatError)) return error;
  const problem = error.message.replace(/^invalid bloomwasm filter data: .*? at byte \d+: /, '');
  return new BloomFormatError(`members[${i}].${error.field}`, start + error.offset, problem);
}

/**
 * Decodes and checks the 64-byte chain header: the fields in file order, the
 * header checksum (computed by `xxh64`), the plan (as the constructor checks it), and filterCount
 * against MAX_FILTER_COUNT and against what `totalLength` bytes can hold.
 * `prefix` holds the input's first bytes (at least min(64, totalLength)).
 * Allocates nothing sized by the header.
 */
export function parseChainHeader(prefix: Uint8Array, totalLength: number, xxh64: Checksum): ChainHeader {
  const at = CHAIN_FIELD_OFFSETS;
  const available = Math.min(prefix.length, totalLength, CHAIN_HEADER_BYTES);
  const view = new DataView(prefix.buffer, prefix.byteOffset, available);
  const need = (field: keyof typeof at, size: number): number => {
    if (at[field] + size > available) {
      throw new BloomFormatError(field, at[field], `truncated: the ${size}-byte field needs the input to reach byte ${at[field] + size}, but it ends at byte ${totalLength}`);
    }
    return at[field];
  };

  need('magic', 4);
  const magic = prefix.subarray(0, 4);
  if (!CHAIN_MAGIC.every((b, i) => magic[i] === b)) {
    const single = hex(magic) === '42 4c 4d 57' ? ' (this is a single filter, "BLMW": load it with BloomFilter.fromBytes)' : '';
    throw new BloomFormatError('magic', 0, `not a bloomwasm chain: it must start with ${hex(CHAIN_MAGIC)} ("BLMC"); got ${hex(magic)}${single}`);
  }
  const version = view.getUint16(need('version', 2), true);
  if (version < 1 || version > CHAIN_VERSION) {
    const why = version > CHAIN_VERSION ? 'written by a newer bloomwasm; this release reads' : 'supported versions are';
    throw new BloomFormatError('version', at.version, `unsupported chain version ${version}: ${why} 1 to ${CHAIN_VERSION}`);
  }
  const schemeId = view.getUint8(need('scheme', 1));
  if (schemeId >= SCHEMES.length) {
    throw new BloomFormatError('scheme', at.scheme, `must be a scheme id in [0, ${SCHEMES.length - 1}]; got ${schemeId}`);
  }
  if (view.getUint8(need('reserved', 1)) !== 0) throw new BloomFormatError('reserved', at.reserved, `must be 0; got ${view.getUint8(at.reserved)}`);
  const seed = view.getBigUint64(need('seed', 8), true);
  const capacity = view.getBigUint64(need('capacity', 8), true);
  const falsePositiveRate = view.getFloat64(need('falsePositiveRate', 8), true);
  const growth = view.getFloat64(need('growth', 8), true);
  const tightening = view.getFloat64(need('tightening', 8), true);
  const filterCount = view.getUint32(need('filterCount', 4), true);
  if (view.getUint32(need('reserved2', 4), true) !== 0) {
    throw new BloomFormatError('reserved2', at.reserved2, `must be 0; got ${view.getUint32(at.reserved2, true)}`);
  }
  const stored = view.getBigUint64(need('checksum', 8), true);
  const actual = xxh64(prefix.subarray(0, at.checksum));
  if (stored !== actual) {
    throw new BloomFormatError('checksum', at.checksum, `XXH64 of the chain header is 0x${actual.toString(16).padStart(16, '0')}, but the input says 0x${stored.toString(16).padStart(16, '0')}: the data is corrupt`);
  }

  // The options, checked as the constructor checks them.
  let plan: ScalablePlan;
  try {
    if (capacity > BigInt(Number.MAX_SAFE_INTEGER)) throw new BloomRangeError('capacity', capacity, 'a positive integer');
    plan = checkScalableOptions({
      capacity: Number(capacity), falsePositiveRate, growth, tightening, scheme: SCHEMES[schemeId], seed,
    }, version as SizingRule);
  } catch (error) {
    if (!(error instanceof BloomRangeError || error instanceof BloomTypeError)) throw error;
    const field = error.parameter in at ? (error.parameter as keyof typeof at) : 'capacity';
    throw new BloomFormatError(field, at[field], error.message);
  }

  // A count above the bound, or above what the input can hold, stops here,
  // before a single member header is read.
  if (filterCount < 1 || filterCount > MAX_FILTER_COUNT) {
    throw new BloomFormatError('filterCount', at.filterCount, `must be in [1, ${MAX_FILTER_COUNT}] (a chain has at most ${MAX_FILTER_COUNT} members); got ${filterCount}`);
  }
  const maxCount = Math.floor((totalLength - CHAIN_HEADER_BYTES) / MIN_MEMBER_BYTES);
  if (maxCount < 1) {
    // Not even one member fits: the input is cut short (a count of 1 is not what is wrong).
    throw new BloomFormatError(
      'members[0]',
      CHAIN_HEADER_BYTES,
      `truncated: the first member needs at least ${MIN_MEMBER_BYTES} bytes, to byte ${CHAIN_HEADER_BYTES + MIN_MEMBER_BYTES}, but the input ends at byte ${totalLength}`,
    );
  }
  if (filterCount > maxCount) {
    throw new BloomFormatError('filterCount', at.filterCount, `must be in [1, ${maxCount}] for a ${totalLength}-byte input (each member takes at least ${MIN_MEMBER_BYTES} bytes); got ${filterCount}`);
  }
  return { plan, schemeId, filterCount };
}

/**
 * Checks member i's header, which starts at byte `start` of a `totalLength`
 * input (`prefix` holds its first min(56, what is left) bytes): field by
 * field as for a single filter, then its m, k, scheme and seed against the
 * plan, its length against the input, and its addedCount against its
 * capacity. Errors name the member's field (`members[2].bits`) and the
 * absolute offset. Allocates nothing sized by the header.
 */
export function checkMemberHeader(chain: ChainHeader, i: number, prefix: Uint8Array, start: number, totalLength: number): MemberSpan {
  let member;
  try {
    member = memberPlan(chain.plan, i);
  } catch (error) {
    if (!(error instanceof BloomRangeError)) throw error;
    throw new BloomFormatError('filterCount', CHAIN_FIELD_OFFSETS.filterCount, `${chain.filterCount} members: member ${i} cannot exist (${error.message})`);
  }
  if (start + HEADER_BYTES > totalLength) {
    throw new BloomFormatError(`members[${i}]`, start, `truncated: member ${i}'s ${HEADER_BYTES}-byte header needs the input to reach byte ${start + HEADER_BYTES}, but it ends at byte ${totalLength}`);
  }
  // Checked against its own claimed length first, so each field is judged on its own.
  const claimed = new DataView(prefix.buffer, prefix.byteOffset, HEADER_BYTES).getBigUint64(16, true);
  const ownLength = claimed >= 1n && claimed <= BigInt(MAX_BITS) ? HEADER_BYTES + payloadLength(Number(claimed)) : HEADER_BYTES;
  let header: FileHeader;
  try {
    header = parseHeader(prefix.subarray(0, HEADER_BYTES), ownLength);
  } catch (error) {
    throw inMember(error, i, start);
  }
  const expect = (field: string, offset: number, got: unknown, want: unknown): void => {
    if (got !== want) throw new BloomFormatError(`members[${i}].${field}`, start + offset, `must be ${String(want)} for member ${i} of this chain; got ${String(got)}`);
  };
  expect('bits', 16, header.bits, member.bits);
  expect('hashes', 7, header.hashes, member.hashes);
  expect('scheme', 6, header.schemeId, chain.schemeId);
  expect('seed', 8, header.seed, chain.plan.seed);
  const length = HEADER_BYTES + header.payloadLength;
  if (start + length > totalLength) {
    throw new BloomFormatError(`members[${i}]`, start, `truncated: member ${i} (${member.bits} bits) needs ${length} bytes, to byte ${start + length}, but the input ends at byte ${totalLength}`);
  }
  // Only the newest member is still filling: the older ones were full when the next began.
  const last = i === chain.filterCount - 1;
  if (last ? header.addedCount > member.capacity : header.addedCount !== member.capacity) {
    throw new BloomFormatError(`members[${i}].addedCount`, start + 32, `must be ${last ? `at most ${member.capacity}` : member.capacity} (member ${i}'s capacity${last ? '' : ': only the newest member is not full'}); got ${header.addedCount}`);
  }
  return { start, length, header, capacity: member.capacity };
}

/** Refuses bytes after the last member, which ends at `end`. */
export function checkChainEnd(end: number, totalLength: number): void {
  if (end !== totalLength) {
    throw new BloomFormatError('members', end, `${totalLength - end} unexpected bytes after the last member, which ends at byte ${end}`);
  }
}

/**
 * Reads a chain written by encodeChain. Every fault throws BloomFormatError
 * naming the field (`filterCount`, or `members[2].checksum` inside a member)
 * and its byte offset in `bytes`. All the headers and the length are checked
 * before `load` is called on any member.
 */
export function decodeChain<F extends ChainMember>(
  bytes: Uint8Array,
  load: (member: Uint8Array) => F,
  xxh64: Checksum,
): DecodedChain<F> {
  bytes = checkBytes(bytes);
  const total = bytes.length;
  const chain = parseChainHeader(bytes, total, xxh64);
  const spans: MemberSpan[] = [];
  let start = CHAIN_HEADER_BYTES;
  for (let i = 0; i < chain.filterCount; i++) {
    const span = checkMemberHeader(chain, i, bytes.subarray(start, start + HEADER_BYTES), start, total);
    spans.push(span);
    start += span.length;
  }
  checkChainEnd(start, total);

  const members: F[] = [];
  const counts: number[] = [];
  spans.forEach((span, i) => {
    try {
      members.push(load(bytes.subarray(span.start, span.start + span.length)));
    } catch (error) {
      // The refused member gave itself back (fromBytes); the ones before it go back here, not at the next collection.
      for (const member of members) member.dispose();
      throw inMember(error, i, span.start);
    }
    counts.push(members[i].size);
  });
  return { plan: chain.plan, members, counts };
}
