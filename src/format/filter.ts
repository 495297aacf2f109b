// The binary file format, version 1 (docs/FORMAT.md, "Filter format,
// version 1"): a 56-byte little-endian header and then the packed bits
// exactly as they lie in wasm memory. This module encodes and validates the header; the wasm filter and
// the reference twin supply the checksum (XXH64, seed 0) and the popcount,
// so the same checks guard both, in the same order, before anything the
// header asks for is allocated.

import { BloomFormatError } from '../errors.js';
import { MAX_ADDED_COUNT, MAX_BITS, MAX_HASHES, SBBF_BLOCK_BITS, SBBF_HASHES, SCHEMES, type Scheme } from '../filter/options.js';

/** The four magic bytes that open every file: ASCII "BLMW". */
export const MAGIC = Uint8Array.of(0x42, 0x4c, 0x4d, 0x57);

/** The format version this release writes; it reads every version up to this one. */
export const FORMAT_VERSION = 1;

/** A file kind's magic, and what to name when a reader is handed it by mistake. */
interface KnownMagic {
  /** The four magic bytes. */
  magic: Uint8Array;
  /** The magic as ASCII, for messages. */
  name: string;
  /** What the file holds, for messages: "filter", "counting filter", "chain". */
  label: string;
  /** What a reader of another kind says when handed this kind's file. */
  hint: string;
}

/**
 * What a file holds: the plain filter's bits (magic "BLMW", 1 bit per
 * position) or a counting filter's counters (magic "BLM4", 4 bits per
 * position, src/format/counting.ts). Both kinds share the header layout and
 * the checks below; each has its own version sequence.
 */
export interface FileKind extends KnownMagic {
  /** The version this release writes and the newest it reads. */
  version: number;
  /** Payload bits per position: 1 for bits, 4 for counters. */
  width: number;
  /** What bitsSet counts, for messages. */
  ones: string;
}

/** A kind's magic (`name`, four ASCII letters), the label of what it holds, and what a reader of another kind says of it: the class that reads it. */
function known(name: string, label: string, what: string, reader: string): KnownMagic {
  const magic = Uint8Array.from(name, (c) => c.charCodeAt(0));
  return { magic, name, label, hint: `this is ${what}, "${name}": load it with ${reader}.fromBytes or loadFile` };
}

/**
 * Every kind's magic, so that a reader handed another kind's file names
 * the reader it needs: a table of its own, not each kind's format module,
 * which a reader of one kind does not import.
 */
const KNOWN: readonly KnownMagic[] = [
  known('BLMW', 'filter', 'a single filter', 'BloomFilter'),
  known('BLMC', 'chain', 'a ScalableBloomFilter chain', 'ScalableBloomFilter'),
  known('BLM4', 'counting filter', 'a counting filter', 'CountingBloomFilter'),
  known('BLMS', 'sliding filter', 'a sliding-window filter', 'SlidingBloomFilter'),
  known('BLMK', 'cuckoo filter', 'a cuckoo filter', 'CuckooFilter'),
  known('BLMF', 'binary fuse filter', 'a binary fuse filter', 'BinaryFuseFilter'),
];

/** The magic, label and hint of the kind whose magic is `name` (one of KNOWN's). */
export function knownKind(name: string): KnownMagic {
  return KNOWN.find((k) => k.name === name)!;
}

/** The plain filter's kind. */
export const BITS_KIND: FileKind = { ...knownKind('BLMW'), version: FORMAT_VERSION, width: 1, ones: 'bits set' };

/** Bytes before the payload. */
export const HEADER_BYTES = 56;

/** Byte offset of each header field. */
export const FIELD_OFFSETS = {
  magic: 0,
  version: 4,
  scheme: 6,
  hashes: 7,
  seed: 8,
  bits: 16,
  bitsSet: 24,
  addedCount: 32,
  payloadLength: 40,
  checksum: 48,
} as const;

/** Bytes of header that the checksum covers (everything before the checksum itself). */
export const CHECKSUMMED_HEADER_BYTES = FIELD_OFFSETS.checksum;

/** A header's fields, decoded and range-checked. */
export interface FileHeader {
  version: number;
  scheme: Scheme;
  schemeId: number;
  hashes: number;
  seed: bigint;
  bits: number;
  bitsSet: number;
  addedCount: number;
  payloadLength: number;
  checksum: bigint;
}

/** The fields a writer supplies. */
export type HeaderFields = Omit<FileHeader, 'version' | 'payloadLength' | 'checksum'>;

/** a + b, saturated at MAX_ADDED_COUNT: the addedCount of a union. */
export function saturatedSum(a: number, b: number): number {
  return Math.min(a + b, MAX_ADDED_COUNT);
}

/** Payload bytes for m positions of `width` bits each: ceil(m * width / 8). */
export function payloadLength(bits: number, width = 1): number {
  return Math.ceil((bits * width) / 8);
}

/**
 * The 56 header bytes with the checksum field zeroed; the writer computes
 * the checksum over bytes [0, 48) and the payload, then calls setChecksum.
 */
export function encodeHeader(fields: HeaderFields, kind: FileKind = BITS_KIND): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES);
  const view = new DataView(out.buffer);
  out.set(kind.magic, FIELD_OFFSETS.magic);
  view.setUint16(FIELD_OFFSETS.version, kind.version, true);
  view.setUint8(FIELD_OFFSETS.scheme, fields.schemeId);
  view.setUint8(FIELD_OFFSETS.hashes, fields.hashes);
  view.setBigUint64(FIELD_OFFSETS.seed, fields.seed, true);
  view.setBigUint64(FIELD_OFFSETS.bits, BigInt(fields.bits), true);
  view.setBigUint64(FIELD_OFFSETS.bitsSet, BigInt(fields.bitsSet), true);
  view.setBigUint64(FIELD_OFFSETS.addedCount, BigInt(Math.min(fields.addedCount, MAX_ADDED_COUNT)), true);
  view.setBigUint64(FIELD_OFFSETS.payloadLength, BigInt(payloadLength(fields.bits, kind.width)), true);
  return out;
}

/** Writes the checksum into an encoded header. */
export function setChecksum(header: Uint8Array, checksum: bigint): void {
  new DataView(header.buffer, header.byteOffset, HEADER_BYTES).setBigUint64(FIELD_OFFSETS.checksum, checksum, true);
}

/** Bytes as hex pairs, for messages: `42 4c 4d 57`. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/**
 * Throws BloomFormatError on `magic` unless `magic` (a file's first 4
 * bytes) is `kind`'s; another known kind's magic names its reader.
 */
export function checkMagic(magic: Uint8Array, kind: FileKind): void {
  if (kind.magic.every((b, i) => magic[i] === b)) return;
  const other = KNOWN.find((k) => k.magic.every((b, i) => magic[i] === b));
  const hint = other ? ` (${other.hint})` : '';
  throw new BloomFormatError('magic', 0, `not a bloomwasm ${kind.label}: the file must start with ${hex(kind.magic)} ("${kind.name}"); got ${hex(magic)}${hint}`);
}

/**
 * Decodes and checks the header, field by field in file order, and checks
 * that the input's total length is exactly header + payload. `prefix` holds
 * the input's first bytes (at least min(56, totalLength) of them). Throws
 * BloomFormatError naming the first bad field; allocates nothing sized by
 * the header.
 */
export function parseHeader(prefix: Uint8Array, totalLength: number, kind: FileKind = BITS_KIND): FileHeader {
  const available = Math.min(prefix.length, totalLength);
  const view = new DataView(prefix.buffer, prefix.byteOffset, available);
  const need = (field: keyof typeof FIELD_OFFSETS, size: number): number => {
    const at = FIELD_OFFSETS[field];
    if (at + size > available) {
      throw new BloomFormatError(field, at, `truncated: the ${size}-byte field needs the input to reach byte ${at + size}, but it ends at byte ${totalLength}`);
    }
    return at;
  };
  // A u64 field as a number, refusing anything above `max` (which keeps it exact).
  const u64 = (field: keyof typeof FIELD_OFFSETS, min: number, max: number, allowed: string): number => {
    const at = need(field, 8);
    const value = view.getBigUint64(at, true);
    if (value < BigInt(min) || value > BigInt(max)) throw new BloomFormatError(field, at, `must be ${allowed}; got ${value}`);
    return Number(value);
  };

  need('magic', 4);
  checkMagic(prefix.subarray(0, 4), kind);
  const version = view.getUint16(need('version', 2), true);
  if (version !== kind.version) {
    const why = version > kind.version ? 'written by a newer bloomwasm; this release reads' : 'supported versions are';
    throw new BloomFormatError('version', FIELD_OFFSETS.version, `unsupported version ${version}: ${why} 1 to ${kind.version}`);
  }
  const schemeId = view.getUint8(need('scheme', 1));
  if (schemeId >= SCHEMES.length) {
    throw new BloomFormatError('scheme', FIELD_OFFSETS.scheme, `must be a scheme id in [0, ${SCHEMES.length - 1}] (${SCHEMES.map((s, i) => `${i} ${s}`).join(', ')}); got ${schemeId}`);
  }
  const scheme = SCHEMES[schemeId];
  const hashes = view.getUint8(need('hashes', 1));
  if (hashes < 1 || hashes > MAX_HASHES) {
    throw new BloomFormatError('hashes', FIELD_OFFSETS.hashes, `must be an integer in [1, ${MAX_HASHES}]; got ${hashes}`);
  }
  const seed = view.getBigUint64(need('seed', 8), true);
  if (scheme !== 'xxh64' && scheme !== 'sbbf' && seed !== 0n) {
    throw new BloomFormatError('seed', FIELD_OFFSETS.seed, `must be 0 under ${scheme}, which has no seed; got ${seed}`);
  }
  if (scheme === 'sbbf' && hashes !== SBBF_HASHES) {
    throw new BloomFormatError('hashes', FIELD_OFFSETS.hashes, `must be ${SBBF_HASHES} under sbbf; got ${hashes}`);
  }
  // The payload of a wider kind must fit where a plain filter's bits do: MAX_BITS / width positions at most.
  const maxBits = MAX_BITS / kind.width;
  const bits = u64('bits', 1, maxBits, `an integer in [1, ${maxBits}]${kind.width === 1 ? '' : ` for a ${kind.label}`}`);
  if (scheme === 'xxh64' && hashes > bits) {
    throw new BloomFormatError('hashes', FIELD_OFFSETS.hashes, `must be at most bits (${bits}) under xxh64, whose positions are distinct; got ${hashes}`);
  }
  if (scheme === 'sbbf' && bits % SBBF_BLOCK_BITS !== 0) {
    throw new BloomFormatError('bits', FIELD_OFFSETS.bits, `must be a multiple of ${SBBF_BLOCK_BITS} under sbbf (whole blocks); got ${bits}`);
  }
  const bitsSet = u64('bitsSet', 0, bits, `an integer in [0, bits = ${bits}]`);
  const addedCount = u64('addedCount', 0, MAX_ADDED_COUNT, `an integer in [0, 2^53 - 1]`);
  const expected = payloadLength(bits, kind.width);
  const payload = u64('payloadLength', expected, expected, `ceil(bits${kind.width === 1 ? '' : ' * ' + kind.width} / 8) = ${expected}`);
  const checksum = view.getBigUint64(need('checksum', 8), true);

  const end = HEADER_BYTES + payload;
  if (totalLength < end) {
    throw new BloomFormatError('payload', totalLength, `truncated: ${payload} payload bytes must end at byte ${end}, but the input ends at byte ${totalLength}`);
  }
  if (totalLength > end) {
    throw new BloomFormatError('payload', end, `${totalLength - end} unexpected bytes after the payload, which ends at byte ${end}`);
  }
  return { version, scheme, schemeId, hashes, seed, bits, bitsSet, addedCount, payloadLength: payload, checksum };
}

/**
 * The checks that need the payload, in order: the checksum, the padding bits
 * past m in the last byte (always 0), and bitsSet against the true count of
 * 1 bits. The callers compute `checksum` and `ones` over the payload.
 */
export function checkPayload(header: FileHeader, checksum: bigint, lastByte: number, ones: number, kind: FileKind = BITS_KIND): void {
  if (checksum !== header.checksum) {
    throw new BloomFormatError('checksum', FIELD_OFFSETS.checksum, `XXH64 of the header and payload is 0x${checksum.toString(16).padStart(16, '0')}, but the file says 0x${header.checksum.toString(16).padStart(16, '0')}: the data is corrupt`);
  }
  const used = (header.bits * kind.width) % 8;
  if (used !== 0 && lastByte >> used !== 0) {
    const past = kind.width === 1 ? `bit ${header.bits - 1}` : `counter ${header.bits - 1}`;
    throw new BloomFormatError('payload', HEADER_BYTES + header.payloadLength - 1, `the ${8 - used} padding bits past ${past} must be 0; got byte 0x${lastByte.toString(16).padStart(2, '0')}`);
  }
  if (ones !== header.bitsSet) {
    throw new BloomFormatError('bitsSet', FIELD_OFFSETS.bitsSet, `says ${header.bitsSet}, but the payload has ${ones} ${kind.ones}`);
  }
}
