// A static binary fuse filter, 3-wise, with 8- or 16-bit fingerprints:
// Graf and Lemire, "Binary Fuse Filters: Fast and Smaller Than Xor
// Filters", ACM JEA 27 (2022), DOI 10.1145/3510449. This file holds the
// record and the queries; the construction is
// assembly/binary-fuse-construction.ts, and the arithmetic both use (a
// key's hash, its three slots, its fingerprint) assembly/binary-fuse-hash.ts.
// The shape (segment length, segment count, array length) is computed
// once, in TypeScript (src/fuse/shape.ts), and passed in, so the wasm path
// and the twin cannot disagree on a floating-point rounding.
// docs/SCHEMES.md, "Binary fuse filters", is the specification. The
// pure-TypeScript twin is src/reference/binary-fuse.ts.
//
// A filter is a record of KIND_FUSE, FuseRecord below, whose payload is
// the ArrayLength fingerprints (u8, or little-endian u16).
// An item (string as UTF-8, or bytes) is the key XXH64(bytes, seed 0).

import { KIND_FUSE, named, payloadOf, RecordHeader, REFUSED } from "./record";
import { createRecord } from "./core-calls";
import { BATCH_FLAGS_PTR, BATCH_MAX, BATCH_OFFSETS_PTR, BATCH_PROBES_PTR, SCRATCH_PTR } from "./layout";
import { xxh64, xxh64Digest, xxh64Inline } from "./hash";
import { checksumUpdate } from "./checksum";
import { encodeUtf8 } from "./js-string";
import { fuseFingerprint, fuseMurmur64, mulhi32 } from "./binary-fuse-hash";

/**
 * A binary fuse filter's record: the fields of xor_singleheader's
 * binary_fuse8_t and binary_fuse16_t (include/binaryfusefilter.h), under
 * the same names, and the width of a fingerprint; the Fingerprints pointer
 * is the payload after the record. The reference twin
 * (src/reference/binary-fuse.ts) holds the same fields.
 */
@unmanaged export class FuseRecord extends RecordHeader {
  /** Seed: mixed into each key's hash (the construction's last try). */
  seed: u64;
  /** Size: keys, duplicates removed (0: the empty set). */
  size: u32;
  /** SegmentLength, a power of two. */
  segmentLength: u32;
  /** SegmentCount. */
  segmentCount: u32;
  /** SegmentCountLength: SegmentCount * SegmentLength. */
  segmentCountLength: u32;
  /** ArrayLength: fingerprints. */
  arrayLength: u32;
  /** Bytes per fingerprint (1: binary_fuse8, 2: binary_fuse16). */
  fingerprintBytes: u32;
}

/** Record `r` as a binary fuse filter's. */
// @ts-ignore: decorator
@inline function fuseRecord(r: usize): FuseRecord {
  return changetype<FuseRecord>(r);
}

/**
 * A new filter of `arrayLength` fingerprints of `fingerprintBytes` bytes,
 * all zero, holding the empty set until fuseSetShape: its address, or 0
 * when this instance's memory cannot hold it (assembly/record.ts's
 * createRecord).
 */
export function fuseCreate(arrayLength: u32, fingerprintBytes: u32): usize {
  const r = createRecord(KIND_FUSE, <u64>arrayLength * <u64>fingerprintBytes);
  if (r == 0) return 0;
  const filter = changetype<FuseRecord>(r);
  filter.arrayLength = arrayLength;
  filter.fingerprintBytes = fingerprintBytes;
  return r;
}

/**
 * binary_fuse*_contain: the fingerprint of key's hash xored with the three
 * slots' is zero. Reads record r.
 */
// @ts-ignore: decorator
@inline function fuseContain(r: usize, key: u64): bool {
  const filter = fuseRecord(r);
  // An empty set answers false (the reference's would answer true for 1 key in 256: docs/SCHEMES.md).
  if (filter.size == 0) return false;
  return containHash(r, fuseMurmur64(key + filter.seed), filter.segmentLength, filter.segmentCountLength, filter.fingerprintBytes);
}

/** Writes the shape and the seed into record r (made by fuseCreate with its ArrayLength and width). */
function fuseSetShapeAt(r: usize, seedLo: u32, seedHi: u32, size: u32, segmentLength: u32, segmentCount: u32, segmentCountLength: u32): void {
  const filter = fuseRecord(r);
  filter.seed = (<u64>seedHi << 32) | <u64>seedLo;
  filter.size = size;
  filter.segmentLength = segmentLength;
  filter.segmentCount = segmentCount;
  filter.segmentCountLength = segmentCountLength;
}

/** binary_fuse*_contain of the u64 key (a bigint from JS), on record r. */
function fuseHasKeyAt(r: usize, key: u64): bool {
  return fuseContain(r, key);
}

/** The key of the item at `ptr` (`len` bytes): XXH64 with seed 0. */
// @ts-ignore: decorator
@inline function itemKey(ptr: usize, len: usize): u64 {
  return xxh64(ptr, len, 0);
}

/** Tests the item in scratch (len bytes, UTF-8 or raw): the hot has of an item staged by JS, inlined into its export with its hash. */
// @ts-ignore: decorator
@inline function fuseHasItemAt(r: usize, len: u32): bool {
  return fuseContain(r, xxh64Inline(SCRATCH_PTR, <usize>len, 0));
}

/** Tests the string `s`, read in place as UTF-8 (assembly/js-string.ts). */
function fuseHasStringAt(r: usize, s: externref): bool {
  const len = encodeUtf8(s, SCRATCH_PTR);
  return fuseContain(r, itemKey(SCRATCH_PTR, len));
}

/** Tests a streamed item (after streamBegin and streamUpdate on this record: XXH64 with seed 0, as a key is made). */
function fuseHasStreamAt(r: usize): bool {
  return fuseContain(r, xxh64Digest());
}

/** Items hashed before any is probed, in fuseHasBatch: their hashes fill the batch probes region. */
const HAS_GROUP: u32 = 64;

/**
 * The fingerprint check of binary_fuse*_contain for a hash (already mixed
 * with the seed), on record r.
 */
// @ts-ignore: decorator
@inline function containHash(r: usize, hash: u64, segmentLength: u32, segmentCountLength: u32, width: u32): bool {
  const mask = <u64>(segmentLength - 1);
  const h0 = <u32>mulhi32(hash, segmentCountLength);
  const h1 = (h0 + segmentLength) ^ <u32>((hash >> 18) & mask);
  const h2 = (h0 + 2 * segmentLength) ^ <u32>(hash & mask);
  const f = fuseFingerprint(hash);
  if (width == 1) {
    return <u8>(f ^ <u32>load<u8>(payloadOf(r) + <usize>h0) ^ <u32>load<u8>(payloadOf(r) + <usize>h1) ^ <u32>load<u8>(payloadOf(r) + <usize>h2)) == 0;
  }
  return <u16>(f ^ <u32>load<u16>(payloadOf(r) + (<usize>h0 << 1)) ^ <u32>load<u16>(payloadOf(r) + (<usize>h1 << 1)) ^
    <u32>load<u16>(payloadOf(r) + (<usize>h2 << 1))) == 0;
}

/**
 * Tests `count` items staged as a batch (offsets in the batch offsets
 * region, bytes in scratch); answers in the batch flags region. The items
 * of a group of HAS_GROUP are all hashed before any is probed, so that the
 * probes' loads, which do not depend on each other, are in flight at once.
 * Returns how many answered true.
 */
function fuseHasBatchAt(r: usize, count: u32): u32 {
  count = min<u32>(count, BATCH_MAX);
  const filter = fuseRecord(r);
  if (filter.size == 0) {
    memory.fill(BATCH_FLAGS_PTR, 0, <usize>count);
    return 0;
  }
  const seed = filter.seed;
  const segmentLength = filter.segmentLength;
  const segmentCountLength = filter.segmentCountLength;
  const width = filter.fingerprintBytes;
  let ones: u32 = 0;
  for (let first: u32 = 0; first < count; first += HAS_GROUP) {
    const n = min<u32>(HAS_GROUP, count - first);
    for (let j: u32 = 0; j < n; j++) {
      const i = first + j;
      const start = load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2));
      const end = load<u32>(BATCH_OFFSETS_PTR + (<usize>(i + 1) << 2));
      store<u64>(BATCH_PROBES_PTR + (<usize>j << 3), fuseMurmur64(itemKey(SCRATCH_PTR + <usize>start, <usize>(end - start)) + seed));
    }
    for (let j: u32 = 0; j < n; j++) {
      const answer = containHash(r, load<u64>(BATCH_PROBES_PTR + (<usize>j << 3)), segmentLength, segmentCountLength, width);
      store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>answer);
      ones += <u32>answer;
    }
  }
  return ones;
}

/** Writes the keys of `count` staged batch items (as fuseHasBatch stages them) as u64s at `out`. */
export function fuseKeyBatch(count: u32, out: usize): void {
  count = min<u32>(count, BATCH_MAX);
  for (let i: u32 = 0; i < count; i++) {
    const start = load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2));
    const end = load<u32>(BATCH_OFFSETS_PTR + (<usize>(i + 1) << 2));
    store<u64>(out + (<usize>i << 3), itemKey(SCRATCH_PTR + <usize>start, <usize>(end - start)));
  }
}

/** Writes the key of the item in scratch (`len` bytes) at `out`. */
export function fuseKeyItem(len: u32, out: usize): void {
  store<u64>(out, itemKey(SCRATCH_PTR, <usize>len));
}

/** Writes the key of a streamed item (streamBegin with seed 0) at `out`. */
export function fuseKeyStream(out: usize): void {
  store<u64>(out, xxh64Digest());
}

/** Feeds record r's fingerprints to the file checksum, straight from memory. */
function fuseChecksumFingerprintsAt(r: usize): void {
  const filter = fuseRecord(r);
  checksumUpdate(payloadOf(r), <usize>filter.arrayLength * <usize>filter.fingerprintBytes);
}

// The exports: each names its record (assembly/record.ts) and refuses a
// pair that names no live record with REFUSED.

/** fuseSetShapeAt on record r: REFUSED when r and generation name no live record. */
export function fuseSetShape(r: usize, generation: u32, seedLo: u32, seedHi: u32, size: u32, segmentLength: u32, segmentCount: u32, segmentCountLength: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  fuseSetShapeAt(r, seedLo, seedHi, size, segmentLength, segmentCount, segmentCountLength);
  return 0;
}

/** fuseHasKeyAt on record r: REFUSED when r and generation name no live record. */
export function fuseHasKey(r: usize, generation: u32, key: u64): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>fuseHasKeyAt(r, key);
}

/** fuseHasItemAt on record r: REFUSED when r and generation name no live record. */
export function fuseHasItem(r: usize, generation: u32, len: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>fuseHasItemAt(r, len);
}

/** fuseHasStringAt on record r: REFUSED when r and generation name no live record. */
export function fuseHasString(s: externref, r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>fuseHasStringAt(r, s);
}

/** fuseHasStreamAt on record r: REFUSED when r and generation name no live record. */
export function fuseHasStream(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>fuseHasStreamAt(r);
}

/** fuseHasBatchAt on record r: REFUSED when r and generation name no live record. */
export function fuseHasBatch(r: usize, generation: u32, count: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>fuseHasBatchAt(r, count);
}

/** fuseChecksumFingerprintsAt on record r: REFUSED when r and generation name no live record. */
export function fuseChecksumFingerprints(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  fuseChecksumFingerprintsAt(r);
  return 0;
}
