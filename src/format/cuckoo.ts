// The cuckoo filter's file, magic "BLMK", version 1 (docs/FORMAT.md, "Cuckoo
// filter format, version 1"): a little-endian header with the shape, a table
// with one entry per member (its size, tally, kick generator and payload
// checksum) and the header's own checksum, then each member's packed
// fingerprints exactly as they lie in wasm memory. The header is checked
// field by field in file order, each member's size against the one the shape
// gives it, before anything it asks for is allocated. Checksums are XXH64
// with seed 0, supplied by the wasm filter or the reference twin.

import { BloomFormatError } from '../errors.js';
import { headerReader } from './header-reader.js';
import { checkMagic, knownKind, type FileKind } from './filter.js';
import { MAX_ADDED_COUNT } from '../filter/options.js';
import {
  BUCKET_SIZES, checkShape, earlierMemberShape, MAX_CUCKOO_GROWTH, MAX_CUCKOO_MEMBERS, memberShape, type BucketSize, type CuckooShape, type MemberShape,
} from '../cuckoo/shape.js';

/** The cuckoo filter format version this release writes; it reads every version up to this one. */
export const CUCKOO_FORMAT_VERSION = 1;

/** The cuckoo filter's file kind: magic "BLMK". */
export const CUCKOO_KIND: FileKind = {
  ...knownKind('BLMK'),
  version: CUCKOO_FORMAT_VERSION,
  width: 0,
  ones: 'fingerprints',
};

/** Byte offset of each fixed header field. */
export const CUCKOO_FIELD_OFFSETS = {
  magic: 0,
  version: 4,
  bucketSize: 6,
  members: 7,
  seed: 8,
  capacity: 16,
  falsePositiveRate: 24,
  growth: 32,
  memberTable: 40,
} as const;

/** Offsets within one member's entry of the table. */
export const MEMBER_FIELD_OFFSETS = {
  buckets: 0,
  fingerprintBits: 8,
  reserved: 9,
  held: 16,
  randomState: 24,
  payloadChecksum: 32,
} as const;

/** Bytes of one member's entry. */
export const MEMBER_ENTRY_BYTES = 40;

/** Byte offset of the header checksum for M members (the table ends there). */
export function cuckooChecksumOffset(members: number): number {
  return CUCKOO_FIELD_OFFSETS.memberTable + MEMBER_ENTRY_BYTES * members;
}

/** Bytes of the header for M members. */
export function cuckooHeaderBytes(members: number): number {
  return cuckooChecksumOffset(members) + 8;
}

/** Bytes of a member's packed fingerprints: ceil(B * b * f / 8). */
export function memberPayloadLength(member: MemberShape, bucketSize: number): number {
  return Math.ceil((member.buckets * bucketSize * member.fingerprintBits) / 8);
}

/** What one member's entry says. */
export interface MemberState {
  readonly held: number;
  readonly randomState: bigint;
  readonly payloadChecksum: bigint;
}

/** What a file's header holds. */
export interface CuckooFile {
  shape: CuckooShape;
  members: MemberShape[];
  states: MemberState[];
  /** Bytes of the header: where the first payload starts. */
  headerBytes: number;
  /** Where each member's payload starts, and its length. */
  payloads: { start: number; length: number }[];
}

/** The header for `shape`, its members and their states, header checksum included (`xxh64` of the bytes before it). */
export function encodeCuckooHeader(
  shape: CuckooShape, members: readonly MemberShape[], states: readonly MemberState[], xxh64: (bytes: Uint8Array) => bigint,
): Uint8Array {
  const out = new Uint8Array(cuckooHeaderBytes(members.length));
  const view = new DataView(out.buffer);
  const at = CUCKOO_FIELD_OFFSETS;
  out.set(CUCKOO_KIND.magic, at.magic);
  view.setUint16(at.version, CUCKOO_FORMAT_VERSION, true);
  view.setUint8(at.bucketSize, shape.bucketSize);
  view.setUint8(at.members, members.length);
  view.setBigUint64(at.seed, shape.seed, true);
  view.setBigUint64(at.capacity, BigInt(shape.capacity), true);
  view.setFloat64(at.falsePositiveRate, shape.falsePositiveRate, true);
  view.setFloat64(at.growth, shape.growth, true);
  for (let j = 0; j < members.length; j++) {
    const entry = at.memberTable + MEMBER_ENTRY_BYTES * j;
    view.setBigUint64(entry + MEMBER_FIELD_OFFSETS.buckets, BigInt(members[j].buckets), true);
    view.setUint8(entry + MEMBER_FIELD_OFFSETS.fingerprintBits, members[j].fingerprintBits);
    view.setBigUint64(entry + MEMBER_FIELD_OFFSETS.held, BigInt(states[j].held), true);
    view.setBigUint64(entry + MEMBER_FIELD_OFFSETS.randomState, states[j].randomState, true);
    view.setBigUint64(entry + MEMBER_FIELD_OFFSETS.payloadChecksum, states[j].payloadChecksum, true);
  }
  const checksumAt = cuckooChecksumOffset(members.length);
  view.setBigUint64(checksumAt, xxh64(out.subarray(0, checksumAt)), true);
  return out;
}

/** The number of members a header's prefix says it has (its byte 7), for a reader to know how much header to read. */
export function membersOf(prefix: Uint8Array): number {
  return prefix.length > CUCKOO_FIELD_OFFSETS.members ? prefix[CUCKOO_FIELD_OFFSETS.members] : 0;
}

/**
 * Decodes and checks the header, field by field in file order, and the
 * input's total length against it. `prefix` holds at least the header's
 * bytes of the input (or all of it when shorter). Throws BloomFormatError
 * naming the first bad field and its byte offset; allocates nothing sized
 * by the header.
 */
export function parseCuckooHeader(prefix: Uint8Array, totalLength: number, xxh64: (bytes: Uint8Array) => bigint): CuckooFile {
  const reader = headerReader(prefix, totalLength);
  const { view, fail, need, u64 } = reader;
  const at = CUCKOO_FIELD_OFFSETS;
  need('magic', at.magic, 4);
  checkMagic(prefix.subarray(0, 4), CUCKOO_KIND);
  reader.version(at.version, CUCKOO_FORMAT_VERSION);
  const bucketSize = view.getUint8(need('bucketSize', at.bucketSize, 1));
  if (!(BUCKET_SIZES as readonly number[]).includes(bucketSize)) fail('bucketSize', at.bucketSize, `must be 2, 4 or 8; got ${bucketSize}`);
  const count = view.getUint8(need('members', at.members, 1));
  if (count < 1 || count > MAX_CUCKOO_MEMBERS) fail('members', at.members, `must be an integer in [1, ${MAX_CUCKOO_MEMBERS}]; got ${count}`);
  const seed = view.getBigUint64(need('seed', at.seed, 8), true);
  const capacity = u64('capacity', at.capacity, 1, Number.MAX_SAFE_INTEGER, 'a positive integer');
  const falsePositiveRate = view.getFloat64(need('falsePositiveRate', at.falsePositiveRate, 8), true);
  if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) fail('falsePositiveRate', at.falsePositiveRate, `must be a number in (0, 1); got ${falsePositiveRate}`);
  const growth = view.getFloat64(need('growth', at.growth, 8), true);
  if (!(Object.is(growth, 0) || (growth >= 1 && growth <= MAX_CUCKOO_GROWTH))) {
    fail('growth', at.growth, `must be 0 (a fixed filter) or a number in [1, ${MAX_CUCKOO_GROWTH}]; got ${growth}`);
  }
  if (growth === 0 && count !== 1) fail('members', at.members, `must be 1 for a fixed filter (growth 0); got ${count}`);
  let shape: CuckooShape;
  try {
    shape = checkShape(capacity, falsePositiveRate, { bucketSize: bucketSize as BucketSize, growth: growth === 0 ? undefined : growth, seed });
  } catch (error) {
    const field = (error as { parameter?: string }).parameter === 'capacity' ? 'capacity' : 'falsePositiveRate';
    return fail(field, at[field], `does not make a cuckoo filter: ${(error as Error).message}`);
  }

  const members: MemberShape[] = [];
  const states: MemberState[] = [];
  for (let j = 0; j < count; j++) {
    const entry = at.memberTable + MEMBER_ENTRY_BYTES * j;
    const name = `members[${j}]`;
    // A member has this release's size, or the earlier sizing's (earlierMemberShape): files of either load.
    const current = memberShape(shape, j);
    if (current === undefined) return fail('members', at.members, `this shape cannot have a member ${j} (its fingerprints would pass 32 bits or its table the memory); got ${count} members`);
    // Which size the entry claims: the one whose buckets (then width too) it holds; this release's when neither.
    const sizes = [current, earlierMemberShape(shape, j)].filter((m): m is MemberShape => m !== undefined);
    const whole = prefix.length >= entry + MEMBER_FIELD_OFFSETS.reserved;
    const buckets = whole ? view.getBigUint64(entry + MEMBER_FIELD_OFFSETS.buckets, true) : -1n;
    const width = whole ? view.getUint8(entry + MEMBER_FIELD_OFFSETS.fingerprintBits) : -1;
    const expected = sizes.find((m) => BigInt(m.buckets) === buckets && m.fingerprintBits === width) ?? sizes.find((m) => BigInt(m.buckets) === buckets) ?? current;
    u64(`${name}.buckets`, entry + MEMBER_FIELD_OFFSETS.buckets, expected.buckets, expected.buckets, `${expected.buckets}, member ${j}'s buckets for this shape`);
    const f = view.getUint8(need(`${name}.fingerprintBits`, entry + MEMBER_FIELD_OFFSETS.fingerprintBits, 1));
    if (f !== expected.fingerprintBits) fail(`${name}.fingerprintBits`, entry + MEMBER_FIELD_OFFSETS.fingerprintBits, `must be ${expected.fingerprintBits}, member ${j}'s width for this shape; got ${f}`);
    need(`${name}.reserved`, entry + MEMBER_FIELD_OFFSETS.reserved, 7);
    for (let i = 0; i < 7; i++) {
      const byte = view.getUint8(entry + MEMBER_FIELD_OFFSETS.reserved + i);
      if (byte !== 0) fail(`${name}.reserved`, entry + MEMBER_FIELD_OFFSETS.reserved + i, `must be 0; got ${byte}`);
    }
    const slots = Math.min(expected.buckets * bucketSize, MAX_ADDED_COUNT);
    const held = u64(`${name}.held`, entry + MEMBER_FIELD_OFFSETS.held, 0, slots, `an integer in [0, ${slots}] (its slots)`);
    const randomState = view.getBigUint64(need(`${name}.randomState`, entry + MEMBER_FIELD_OFFSETS.randomState, 8), true);
    if (randomState === 0n) fail(`${name}.randomState`, entry + MEMBER_FIELD_OFFSETS.randomState, 'must not be 0 (the kick generator would stay at 0)');
    const payloadChecksum = view.getBigUint64(need(`${name}.payloadChecksum`, entry + MEMBER_FIELD_OFFSETS.payloadChecksum, 8), true);
    members.push(expected);
    states.push({ held, randomState, payloadChecksum });
  }
  const checksumAt = cuckooChecksumOffset(count);
  const stored = view.getBigUint64(need('checksum', checksumAt, 8), true);
  const actual = xxh64(prefix.subarray(0, checksumAt));
  if (actual !== stored) {
    fail('checksum', checksumAt, `XXH64 of the header is 0x${actual.toString(16).padStart(16, '0')}, but the file says 0x${stored.toString(16).padStart(16, '0')}: the header is corrupt`);
  }
  const headerBytes = checksumAt + 8;
  const payloads: { start: number; length: number }[] = [];
  let end = headerBytes;
  for (const member of members) {
    const length = memberPayloadLength(member, bucketSize);
    payloads.push({ start: end, length });
    end += length;
  }
  if (totalLength < end) fail('payload', totalLength, `truncated: the payloads must end at byte ${end}, but the input ends at byte ${totalLength}`);
  if (totalLength > end) fail('payload', end, `${totalLength - end} unexpected bytes after the payloads, which end at byte ${end}`);
  return { shape, members, states, headerBytes, payloads };
}

/**
 * The checks of member j's payload before it is loaded: its checksum
 * (`checksum`, XXH64 of the payload) and the padding bits past its last
 * slot in its last byte, which are 0.
 */
export function checkMemberPayload(file: CuckooFile, j: number, checksum: bigint, lastByte: number): void {
  const entry = CUCKOO_FIELD_OFFSETS.memberTable + MEMBER_ENTRY_BYTES * j;
  const expected = file.states[j].payloadChecksum;
  if (checksum !== expected) {
    throw new BloomFormatError(
      `members[${j}].payloadChecksum`, entry + MEMBER_FIELD_OFFSETS.payloadChecksum,
      `XXH64 of member ${j}'s payload is 0x${checksum.toString(16).padStart(16, '0')}, but the file says 0x${expected.toString(16).padStart(16, '0')}: the data is corrupt`,
    );
  }
  const member = file.members[j];
  const used = (member.buckets * file.shape.bucketSize * member.fingerprintBits) % 8;
  if (used !== 0 && lastByte >> used !== 0) {
    const { start, length } = file.payloads[j];
    throw new BloomFormatError('payload', start + length - 1, `the ${8 - used} padding bits past member ${j}'s last slot must be 0; got byte 0x${lastByte.toString(16).padStart(2, '0')}`);
  }
}

/** The check of member j's tally against its loaded payload's non-empty slots. */
export function checkMemberHeld(file: CuckooFile, j: number, nonEmpty: number): void {
  if (nonEmpty !== file.states[j].held) {
    const entry = CUCKOO_FIELD_OFFSETS.memberTable + MEMBER_ENTRY_BYTES * j;
    throw new BloomFormatError(`members[${j}].held`, entry + MEMBER_FIELD_OFFSETS.held, `says ${file.states[j].held}, but member ${j}'s payload has ${nonEmpty} fingerprints`);
  }
}
