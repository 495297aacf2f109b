// Many filters in one instance: each filter is a record followed by its
// payload, one region of the heap (assembly/heap.ts).
//
// Every export that acts on a filter takes the filter's record and its
// generation as its first two arguments and checks them first (named()):
// the call refuses a pair that is not a live record's, and otherwise passes
// the record down to every helper it calls, which reads the parameters
// (m, k, scheme, seed) and the counters from the record's fields and its
// bits from the payload after it (payloadOf()). Nothing in the instance
// says which filter is current: no call can act on another filter than the
// one it names, whatever ran before it or runs in between.
//
// A record is named by its address and its generation, a number create()
// gives it and release() takes away, as slab allocators name their
// objects (assembly/record-life.ts, in the core module alone): a released
// handle's generation matches nothing again (a region reused at the same
// address gets a new one).
//
// A record is RECORD_BYTES, 64-byte aligned, and its payload (bits,
// counters, words, slots or fingerprints) starts right after it. It opens
// with RecordHeader, the fields every family shares at the same offsets
// (what isLive and release read); the rest is the family's own
// record, declared once as an @unmanaged class that extends it and read
// through changetype: SchemeRecord below for the families whose positions
// come from a scheme, FilterRecord (assembly/filter.ts), CountingRecord
// (assembly/counting.ts), SlidingRecord (assembly/sliding.ts),
// BitmapRecord (assembly/bitmap.ts), CuckooRecord
// (assembly/cuckoo-record.ts) and FuseRecord (assembly/binary-fuse.ts).
// A field read compiles to one load at a constant offset, as a load<T>(r,
// offset) would: the classes cost nothing on the hot paths (callgrind
// counts the same instructions per has). The reference twin
// (src/reference/) holds the same fields under the same names.

import { HEAP_START, MAX_HASHES, SHARED_BITS_PTR, SHARED_RECORD_PTR } from "./layout";

/** Bytes of a record; the payload follows it. Every family's record class fits in it. */
export const RECORD_BYTES: u32 = 64;

/** The fields every record opens with, at the same offsets in every family. */
@unmanaged export class RecordHeader {
  /** What the record holds (KIND_*). */
  kind: u32;
  /** What names it with its address (0: not a live record). */
  generation: u32;
  /** Bytes of the payload after the record. */
  payloadBytes: u64;
}

/**
 * The record of a family whose positions come from a scheme
 * (assembly/scheme.ts): a Bloom filter's (and the hashing kind's), a
 * counting filter's, a sliding filter's. The hashing and probing code
 * reads these fields from the record it is given (assembly/scheme.ts).
 */
@unmanaged export class SchemeRecord extends RecordHeader {
  /** m: bits, counters or words. */
  bits: u64;
  /** The XXH64 seed. */
  seed: u64;
  /** k. */
  hashes: i32;
  /** The scheme id (assembly/scheme.ts's SCHEME_*). */
  scheme: i32;
}

/**
 * Writes the scheme fields of the new record `r` (m, k at most MAX_HASHES,
 * the scheme's id and the seed hi:lo, validated by the caller): what the
 * core's create and a family module's create (assembly/counting.ts's
 * countingCreate) write after createRecord.
 */
// @ts-ignore: decorator
@inline export function writeSchemeFields(r: usize, m: f64, k: i32, schemeId: i32, seedLo: u32, seedHi: u32): void {
  const s = schemeRecord(r);
  s.bits = <u64>m;
  s.seed = (<u64>seedHi << 32) | <u64>seedLo;
  s.hashes = min(k, MAX_HASHES);
  s.scheme = schemeId;
}

/** What a record holds: a Bloom filter's bits, only parameters (hashing for bits kept elsewhere), 4-bit counters, a Bitmap, or a sliding filter's words. */
export const KIND_FILTER = 0;
export const KIND_HASHING = 1;
export const KIND_COUNTING = 2;
export const KIND_BITMAP = 3;
export const KIND_SLIDING = 4;
/** A cuckoo filter's table: buckets of fingerprints (assembly/cuckoo-record.ts). */
export const KIND_CUCKOO = 5;
/** A binary fuse filter's fingerprints (assembly/binary-fuse.ts). */
export const KIND_FUSE = 6;

/** Record `r`'s header. */
// @ts-ignore: decorator
@inline export function headerOf(r: usize): RecordHeader {
  return changetype<RecordHeader>(r);
}

/** Record `r` as a scheme family's (a Bloom, counting or sliding filter's). */
// @ts-ignore: decorator
@inline export function schemeRecord(r: usize): SchemeRecord {
  return changetype<SchemeRecord>(r);
}

/** Whether a record of `kind` is a scheme family's (a SchemeRecord): a Bloom filter's, the hashing kind's, a counting or sliding filter's. */
// @ts-ignore: decorator
@inline export function schemeKind(kind: u32): bool {
  return kind <= <u32>KIND_COUNTING || kind == KIND_SLIDING;
}

/** What an export returns when its record and generation do not name a live record. */
export const REFUSED: i32 = -2;

/**
 * Whether `r` and `generation` name a live record: `r` is a 64-byte
 * aligned address in the heap whose record holds that generation. A
 * released record's generation is 0, and a reused region is zeroed before
 * a new record (with a new generation) is written there.
 */
export function isLive(r: usize, generation: u32): bool {
  if (generation == 0 || r < HEAP_START || (r & 63) != 0) return false;
  if (<u64>r + <u64>RECORD_BYTES > (<u64>memory.size() << 16)) return false;
  return headerOf(r).generation == generation;
}

/**
 * The record an export acts on: `r` when `r` and `generation` name a live
 * record, else 0, and the export returns REFUSED. The shared build holds
 * one filter and no records: its record is this instance's own
 * (SHARED_RECORD_PTR, which assembly/filter.ts's configure writes),
 * whatever JS passes.
 */
// @ts-ignore: decorator
@inline export function named(r: usize, generation: u32): usize {
  if (ASC_FEATURE_THREADS) return SHARED_RECORD_PTR;
  return isLive(r, generation) ? r : 0;
}

/**
 * Where record `r`'s payload (bits, counters, words, slots or
 * fingerprints) starts: right after it, or in the shared build the one
 * filter's bits after the shared header.
 */
// @ts-ignore: decorator
@inline export function payloadOf(r: usize): usize {
  return ASC_FEATURE_THREADS ? SHARED_BITS_PTR : r + <usize>RECORD_BYTES;
}
