// The binary fuse filter's two serializations (docs/FORMAT.md, "Binary fuse
// filter format, version 1"):
// - bloomwasm's own file, magic "BLMF", version 1: a 56-byte little-endian
//   header (the shape, the seed, the payload's length and an XXH64
//   checksum, seed 0, over the header's first 48 bytes and then the
//   fingerprints), then the fingerprints as they lie in wasm memory;
// - the reference C implementation's unpacked serialization
//   (binary_fuse8_serialize / binary_fuse16_serialize of
//   FastFilter/xor_singleheader): a 28-byte header, u64 Seed and u32 Size,
//   SegmentLength, SegmentCount, SegmentCountLength, ArrayLength, then the
//   fingerprints, no checksum. binary_fuse16_serialization_bytes counts 4
//   bytes more than binary_fuse16_serialize writes (it adds the unwritten
//   SegmentLengthMask); what is read and written here is what serialize writes.
// Both are checked field by field in file order before anything they ask
// for is allocated, and a fault throws BloomFormatError naming the field
// and its byte offset.

import { BloomFormatError } from '../errors.js';
import { checkMagic, knownKind, type FileKind } from './filter.js';
import type { FuseShape } from '../fuse/shape.js';

/** The binary fuse format version this release writes; it reads every version up to this one. */
export const FUSE_FORMAT_VERSION = 1;

/** The binary fuse filter's file kind: magic "BLMF". */
export const FUSE_KIND: FileKind = {
  ...knownKind('BLMF'),
  version: FUSE_FORMAT_VERSION,
  width: 8,
  ones: 'fingerprints',
};

/** Byte offset of each header field of the "BLMF" file. */
export const FUSE_FIELD_OFFSETS = {
  magic: 0,
  version: 4,
  fingerprintBits: 6,
  reserved: 7,
  seed: 8,
  size: 16,
  segmentLength: 20,
  segmentCount: 24,
  segmentCountLength: 28,
  arrayLength: 32,
  reserved2: 36,
  payloadLength: 40,
  checksum: 48,
} as const;

/** Bytes of the "BLMF" header; the fingerprints follow. */
export const FUSE_HEADER_BYTES = 56;

/** Bytes of the reference's header (binary_fuse*_serialize). */
export const REFERENCE_HEADER_BYTES = 28;

/** Byte offset of each field of the reference's header. */
export const REFERENCE_FIELD_OFFSETS = {
  seed: 0,
  size: 8,
  segmentLength: 12,
  segmentCount: 16,
  segmentCountLength: 20,
  arrayLength: 24,
} as const;

/** The most bytes of fingerprints a filter read from bytes may have (2 GiB: a filter of MAX_FUSE_KEYS keys has 124 MB at 8 bits). */
export const MAX_FINGERPRINT_BYTES = 2 ** 31;

/** What a serialization holds besides the fingerprints. */
export interface FuseHeader {
  readonly shape: FuseShape;
  readonly seed: bigint;
  readonly width: 1 | 2;
}

/** The Seed and shape fields, at their offsets in either header. */
function writeSeedAndShape(view: DataView, at: Record<'seed' | 'size' | 'segmentLength' | 'segmentCount' | 'segmentCountLength' | 'arrayLength', number>, h: FuseHeader): void {
  view.setBigUint64(at.seed, h.seed, true);
  view.setUint32(at.size, h.shape.size, true);
  view.setUint32(at.segmentLength, h.shape.segmentLength, true);
  view.setUint32(at.segmentCount, h.shape.segmentCount, true);
  view.setUint32(at.segmentCountLength, h.shape.segmentCountLength, true);
  view.setUint32(at.arrayLength, h.shape.arrayLength, true);
}

/** The "BLMF" header, checksum field zeroed (the writer sets it). */
export function encodeFuseHeader(h: FuseHeader): Uint8Array {
  const out = new Uint8Array(FUSE_HEADER_BYTES);
  const view = new DataView(out.buffer);
  const at = FUSE_FIELD_OFFSETS;
  out.set(FUSE_KIND.magic, at.magic);
  view.setUint16(at.version, FUSE_FORMAT_VERSION, true);
  view.setUint8(at.fingerprintBits, 8 * h.width);
  writeSeedAndShape(view, at, h);
  view.setBigUint64(at.payloadLength, BigInt(h.shape.arrayLength * h.width), true);
  return out;
}

/** Writes the checksum into an encoded "BLMF" header. */
export function setFuseChecksum(header: Uint8Array, checksum: bigint): void {
  new DataView(header.buffer, header.byteOffset, header.length).setBigUint64(FUSE_FIELD_OFFSETS.checksum, checksum, true);
}

/** The reference's 28-byte header. */
export function encodeReferenceHeader(h: FuseHeader): Uint8Array {
  const out = new Uint8Array(REFERENCE_HEADER_BYTES);
  const view = new DataView(out.buffer);
  const at = REFERENCE_FIELD_OFFSETS;
  writeSeedAndShape(view, at, h);
  return out;
}

type Fail = (field: string, offset: number, problem: string) => never;
const fail: Fail = (field, offset, problem) => {
  throw new BloomFormatError(field, offset, problem);
};

/**
 * Checks that a shape's fields agree, so that every slot a query computes
 * lies inside the fingerprints: SegmentLength a power of two up to 2^18,
 * SegmentCount at least 1, SegmentCountLength = SegmentCount *
 * SegmentLength and ArrayLength = (SegmentCount + 2) * SegmentLength.
 */
function checkShape(shape: FuseShape, width: 1 | 2, at: Record<'segmentLength' | 'segmentCount' | 'segmentCountLength' | 'arrayLength', number>): void {
  const { segmentLength: l, segmentCount: c, segmentCountLength: cl, arrayLength: n } = shape;
  if (l < 1 || l > 262144 || (l & (l - 1)) !== 0) fail('segmentLength', at.segmentLength, `must be a power of two from 1 to 262144; got ${l}`);
  if (c < 1) fail('segmentCount', at.segmentCount, `must be at least 1; got ${c}`);
  if (cl !== c * l) fail('segmentCountLength', at.segmentCountLength, `must be segmentCount * segmentLength = ${c * l}; got ${cl}`);
  if (n !== (c + 2) * l) fail('arrayLength', at.arrayLength, `must be (segmentCount + 2) * segmentLength = ${(c + 2) * l}; got ${n}`);
  if (n * width > MAX_FINGERPRINT_BYTES) fail('arrayLength', at.arrayLength, `must be at most ${MAX_FINGERPRINT_BYTES / width} (2 GiB of fingerprints); got ${n}`);
}

/** A u32 field that the input must reach. */
function u32(view: DataView, field: string, offset: number, total: number): number {
  if (offset + 4 > view.byteLength) fail(field, offset, `truncated: the 4-byte field needs the input to reach byte ${offset + 4}, but it ends at byte ${total}`);
  return view.getUint32(offset, true);
}

/** A u64 field that the input must reach. */
function u64(view: DataView, field: string, offset: number, total: number): bigint {
  if (offset + 8 > view.byteLength) fail(field, offset, `truncated: the 8-byte field needs the input to reach byte ${offset + 8}, but it ends at byte ${total}`);
  return view.getBigUint64(offset, true);
}

/** The shape fields at `at` of `view`. */
function readShape(view: DataView, width: 1 | 2, at: Record<'size' | 'segmentLength' | 'segmentCount' | 'segmentCountLength' | 'arrayLength', number>, total: number): FuseShape {
  const shape = {
    size: u32(view, 'size', at.size, total),
    segmentLength: u32(view, 'segmentLength', at.segmentLength, total),
    segmentCount: u32(view, 'segmentCount', at.segmentCount, total),
    segmentCountLength: u32(view, 'segmentCountLength', at.segmentCountLength, total),
    arrayLength: u32(view, 'arrayLength', at.arrayLength, total),
  };
  checkShape(shape, width, at);
  return shape;
}

/** A parsed "BLMF" header, with the checksum it records. */
export interface FuseFile extends FuseHeader {
  readonly checksum: bigint;
}

/**
 * Decodes and checks a "BLMF" header field by field in file order, and that
 * the input's length `totalLength` is exactly header + fingerprints. `prefix`
 * holds at least min(56, totalLength) of its first bytes.
 */
export function parseFuseHeader(prefix: Uint8Array, totalLength: number): FuseFile {
  const available = Math.min(prefix.length, totalLength);
  const view = new DataView(prefix.buffer, prefix.byteOffset, available);
  const at = FUSE_FIELD_OFFSETS;
  if (available < 4) fail('magic', 0, `truncated: the 4-byte field needs the input to reach byte 4, but it ends at byte ${totalLength}`);
  checkMagic(prefix.subarray(0, 4), FUSE_KIND);
  if (available < at.version + 2) fail('version', at.version, `truncated: the 2-byte field needs the input to reach byte 6, but it ends at byte ${totalLength}`);
  const version = view.getUint16(at.version, true);
  if (version < 1 || version > FUSE_FORMAT_VERSION) {
    const why = version > FUSE_FORMAT_VERSION ? 'written by a newer bloomwasm; this release reads' : 'supported versions are';
    fail('version', at.version, `unsupported version ${version}: ${why} 1 to ${FUSE_FORMAT_VERSION}`);
  }
  if (available < at.reserved + 1) fail('fingerprintBits', at.fingerprintBits, `truncated: the 1-byte field needs the input to reach byte 7, but it ends at byte ${totalLength}`);
  const bits = view.getUint8(at.fingerprintBits);
  if (bits !== 8 && bits !== 16) fail('fingerprintBits', at.fingerprintBits, `must be 8 or 16; got ${bits}`);
  if (available < at.seed) fail('reserved', at.reserved, `truncated: the 1-byte field needs the input to reach byte 8, but it ends at byte ${totalLength}`);
  if (view.getUint8(at.reserved) !== 0) fail('reserved', at.reserved, `must be 0; got ${view.getUint8(at.reserved)}`);
  const width = (bits / 8) as 1 | 2;
  const seed = u64(view, 'seed', at.seed, totalLength);
  const shape = readShape(view, width, at, totalLength);
  const reserved2 = u32(view, 'reserved2', at.reserved2, totalLength);
  if (reserved2 !== 0) fail('reserved2', at.reserved2, `must be 0; got ${reserved2}`);
  const payloadLength = u64(view, 'payloadLength', at.payloadLength, totalLength);
  const expected = shape.arrayLength * width;
  if (payloadLength !== BigInt(expected)) fail('payloadLength', at.payloadLength, `must be arrayLength * ${width} = ${expected}; got ${payloadLength}`);
  const checksum = u64(view, 'checksum', at.checksum, totalLength);
  const end = FUSE_HEADER_BYTES + expected;
  if (totalLength < end) fail('payload', FUSE_HEADER_BYTES, `truncated: ${expected} bytes of fingerprints need the input to reach byte ${end}, but it ends at byte ${totalLength}`);
  if (totalLength > end) fail('payload', end, `${totalLength - end} bytes after the fingerprints, which end at byte ${end}`);
  return { shape, seed, width, checksum };
}

/**
 * Decodes and checks the reference's 28-byte header for fingerprints of
 * `width` bytes, and that `bytes` is exactly header + fingerprints.
 */
export function parseReferenceHeader(bytes: Uint8Array, width: 1 | 2): FuseHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, REFERENCE_HEADER_BYTES));
  const at = REFERENCE_FIELD_OFFSETS;
  const seed = u64(view, 'seed', at.seed, bytes.length);
  const shape = readShape(view, width, at, bytes.length);
  const end = REFERENCE_HEADER_BYTES + shape.arrayLength * width;
  const what = `${shape.arrayLength} fingerprints of ${8 * width} bits`;
  if (bytes.length < end) fail('fingerprints', REFERENCE_HEADER_BYTES, `truncated: ${what} need the input to reach byte ${end}, but it ends at byte ${bytes.length}`);
  if (bytes.length > end) {
    const hint = width === 2 && bytes.length === end + 4 ? ' (binary_fuse16_serialization_bytes counts 4 bytes that binary_fuse16_serialize never writes: pass the bytes serialize wrote)' : width === 1 && bytes.length === REFERENCE_HEADER_BYTES + 2 * shape.arrayLength ? ' (these look like 16-bit fingerprints: pass { fingerprintBits: 16 })' : '';
    fail('fingerprints', end, `${bytes.length - end} bytes after ${what}, which end at byte ${end}${hint}`);
  }
  return { shape, seed, width };
}
