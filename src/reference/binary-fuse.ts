// The reference twin of assembly/binary-fuse.ts and src/fuse/binary-fuse.ts:
// the binary fuse filter's query and its class (docs/SCHEMES.md, "Binary
// fuse filters"), written plainly over BigInt. Its construction is
// src/reference/binary-fuse-construction.ts and the arithmetic both use
// src/reference/binary-fuse-hash.ts, as in assembly/. Same function names as
// the wasm files; the parity tests hold the two together on every vector.

import { BloomBuildError } from '../errors.js';
import { batchItem, type BatchItems, type CheckedBatch, type Item } from '../filter/items.js';
import { BinaryFuseFilterOver, type FuseKind, type FuseStore } from '../fuse/binary-fuse-over.js';
import type { FuseShape } from '../fuse/shape.js';
import type { FuseOptions } from '../fuse/options.js';
import { checksum } from './checksum.js';
import { xxh64 } from './hash.js';
import { itemBytes } from './js-string.js';
import { fuseFingerprint, fuseMurmur64, fuseSlot, getSlot, MASK64 } from './binary-fuse-hash.js';
import { fusePopulate, MAX_ITERATIONS, POPULATE_OK } from './binary-fuse-construction.js';
import { bytesFromJSON, type FilterJSON } from '../format/json.js';

/**
 * A binary fuse filter's record (assembly/binary-fuse.ts's FuseRecord):
 * the fields of xor_singleheader's binary_fuse8_t and binary_fuse16_t
 * (include/binaryfusefilter.h), under the same names, with the width of a
 * fingerprint and the fingerprints' bytes.
 */
export interface FuseRecord {
  /** Seed: mixed into each key's hash (the construction's last try). */
  readonly seed: bigint;
  /** Size: keys, duplicates removed (0: the empty set). */
  readonly size: number;
  /** SegmentLength, a power of two. */
  readonly segmentLength: number;
  /** SegmentCount. */
  readonly segmentCount: number;
  /** SegmentCountLength: SegmentCount * SegmentLength. */
  readonly segmentCountLength: number;
  /** ArrayLength: fingerprints. */
  readonly arrayLength: number;
  /** Bytes per fingerprint (1: binary_fuse8, 2: binary_fuse16). */
  readonly fingerprintBytes: 1 | 2;
  /** Fingerprints: ArrayLength of them, u8 or little-endian u16. */
  readonly fingerprints: Uint8Array;
}

/** The record of a filter of `shape` and `seed` holding `fingerprints`. */
export function fuseRecord(shape: FuseShape, fingerprintBytes: 1 | 2, seed: bigint, fingerprints: Uint8Array): FuseRecord {
  const { size, segmentLength, segmentCount, segmentCountLength, arrayLength } = shape;
  return { seed, size, segmentLength, segmentCount, segmentCountLength, arrayLength, fingerprintBytes, fingerprints };
}

/** binary_fuse*_contain; an empty set answers false (the reference's answers true for 1 key in 2^w). */
export function fuseContain(r: FuseRecord, key: bigint): boolean {
  if (r.size === 0) return false;
  const hash = fuseMurmur64((key + r.seed) & MASK64);
  let f = fuseFingerprint(hash);
  for (let index = 0; index < 3; index++) f ^= getSlot(r.fingerprints, r.fingerprintBytes, fuseSlot(index, hash, r.segmentLength, r.segmentCountLength));
  return (f & (r.fingerprintBytes === 1 ? 0xff : 0xffff)) === 0;
}

/** A reference filter's store: plain bytes, queries and checksums in TypeScript. */
class ReferenceFuseStore implements FuseStore {
  readonly fingerprints: Uint8Array;
  private readonly record: FuseRecord;
  constructor(shape: FuseShape, width: 1 | 2, seed: bigint, fingerprints: Uint8Array) {
    this.fingerprints = fingerprints;
    this.record = fuseRecord(shape, width, seed, fingerprints);
  }
  hasKey(key: bigint): boolean {
    return fuseContain(this.record, key);
  }
  has(item: Item): boolean {
    return fuseContain(this.record, itemKey(item));
  }
  hasMany(batch: CheckedBatch): Uint8Array {
    const flags = new Uint8Array(batch.count);
    for (let i = 0; i < batch.count; i++) flags[i] = this.has(batchItem(batch, i)) ? 1 : 0;
    return flags;
  }
  checksum(header: Uint8Array): bigint {
    return checksum(header, this.fingerprints);
  }
  release(): void {}
}

/** An item's 64-bit key: XXH64 with seed 0 of its bytes (a string's UTF-8). */
export function itemKey(item: Item): bigint {
  return xxh64(itemBytes(item), 0n);
}

/** The reference kind: everything in TypeScript. */
const REFERENCE_FUSE: FuseKind = {
  name: 'BinaryFuseFilter',
  build(source, shape, width) {
    const keys = 'keys' in source ? source.keys.slice() : BigUint64Array.from({ length: source.items.count }, (_, i) => itemKey(batchItem(source.items, i)));
    const out = new Uint8Array(shape.arrayLength * width);
    const { status, seed } = fusePopulate(keys, out, width, shape);
    if (status !== POPULATE_OK) throw new BloomBuildError(keys.length, MAX_ITERATIONS);
    return { seed, store: new ReferenceFuseStore(shape, width, seed, out) };
  },
  restore(shape, width, seed, fingerprints) {
    return new ReferenceFuseStore(shape, width, seed, fingerprints.slice());
  },
  allocate(shape, width, seed) {
    return new ReferenceFuseStore(shape, width, seed, new Uint8Array(shape.arrayLength * width));
  },
};

/** The static binary fuse filter in plain TypeScript: the same surface, bytes and answers as bloomwasm's. */
export class BinaryFuseFilter extends BinaryFuseFilterOver {
  /** Builds from 64-bit keys exactly as the reference C implementation does (see bloomwasm's BinaryFuseFilter.fromKeys). */
  static fromKeys(keys: BigUint64Array | readonly bigint[], options?: FuseOptions): BinaryFuseFilter {
    return new BinaryFuseFilter(BinaryFuseFilterOver.buildKeys(REFERENCE_FUSE, keys, options));
  }
  /** Builds from strings and Uint8Arrays, each hashed to its key by XXH64 (seed 0). */
  static from(items: BatchItems, options?: FuseOptions): BinaryFuseFilter {
    return new BinaryFuseFilter(BinaryFuseFilterOver.buildItems(REFERENCE_FUSE, items, options));
  }
  /** Reads the reference C implementation's serialization. */
  static fromReferenceBytes(bytes: Uint8Array, options: FuseOptions): BinaryFuseFilter {
    return new BinaryFuseFilter(BinaryFuseFilterOver.readReference(REFERENCE_FUSE, bytes, options));
  }
  /** Reads a filter written by toBytes (here or in bloomwasm). */
  static fromBytes(bytes: Uint8Array): BinaryFuseFilter {
    return new BinaryFuseFilter(BinaryFuseFilterOver.readFile(REFERENCE_FUSE, bytes));
  }

  /**
   * Reads the JSON form that toJSON gives (the parsed object, or its JSON
   * text): the same filter, byte for byte, as fromBytes of its bytes. Throws
   * BloomTypeError naming `value`, `type` or `bytes`, BloomRangeError naming
   * `version`, and BloomFormatError for bad base64 or bad bytes.
   */
  static fromJSON(value: FilterJSON | string): BinaryFuseFilter {
    return BinaryFuseFilter.fromBytes(bytesFromJSON(value, 'BinaryFuseFilter'));
  }
}
