// The wasm BinaryFuseFilter: the surface of src/fuse/binary-fuse-over.ts
// over a record of the fuse kind (src/wasm/binary-fuse.ts,
// assembly/binary-fuse.ts). Its twin is src/reference/binary-fuse.ts; the
// parity tests hold them together. Nothing else in the package imports
// this file, so a user of BloomFilter alone does not carry it.

import type { BatchItems } from '../filter/items.js';
import { FuseEngine } from '../wasm/binary-fuse.js';
import { BinaryFuseFilterOver, type FuseKind } from './binary-fuse-over.js';
import type { FuseOptions } from './options.js';
import type { FuseFile } from '../format/binary-fuse.js';
import { bytesFromJSON, type FilterJSON } from '../format/json.js';

/** The fingerprints in a wasm record; construction and queries in wasm. */
const WASM_FUSE: FuseKind = {
  name: 'BinaryFuseFilter',
  build(source, shape, width) {
    const engine = FuseEngine.build(source, shape, width);
    return { seed: engine.seed, store: engine };
  },
  restore(shape, width, seed, fingerprints) {
    return FuseEngine.restore(shape, width, seed, fingerprints);
  },
  allocate(shape, width, seed) {
    // restore copies what it is given: given nothing, the record's fingerprints wait for the reader.
    return FuseEngine.restore(shape, width, seed, NO_FINGERPRINTS);
  },
};

const NO_FINGERPRINTS = new Uint8Array(0);

/** Set once, by BinaryFuseFilter's static block. */
let filterForFile: (file: FuseFile) => BinaryFuseFilter;

/**
 * A static binary fuse filter (Graf and Lemire, 2022), 3-wise, with 8- or
 * 16-bit fingerprints: built once from a set, about 9 bits a key for a
 * rate of 1/256 (18 bits for 1/65536), three reads a query. Built exactly
 * as the reference C implementation (FastFilter/xor_singleheader) builds
 * it, so its bytes are the reference's (docs/SCHEMES.md).
 */
export class BinaryFuseFilter extends BinaryFuseFilterOver {
  // Gives emptyFuseFilterFor the protected constructor, which stays closed to everyone else.
  static {
    filterForFile = (file) => new BinaryFuseFilter(BinaryFuseFilterOver.allocateFile(WASM_FUSE, file));
  }

  /**
   * Builds from 64-bit keys, taken as they are, producing the fingerprints
   * that binary_fuse8_populate (or binary_fuse16_populate, with
   * `{ fingerprintBits: 16 }`) produces for the same keys in the same
   * order. Repeated keys are allowed. Throws BloomTypeError or
   * BloomRangeError naming a bad key, BloomBuildError when 100 seeds
   * failed, BloomAllocationError when memory cannot be had.
   */
  static fromKeys(keys: BigUint64Array | readonly bigint[], options?: FuseOptions): BinaryFuseFilter {
    return new BinaryFuseFilter(BinaryFuseFilterOver.buildKeys(WASM_FUSE, keys, options));
  }

  /** Builds from strings (hashed as UTF-8) and Uint8Arrays, each hashed to its key by XXH64 with seed 0; repeats allowed. */
  static from(items: BatchItems, options?: FuseOptions): BinaryFuseFilter {
    return new BinaryFuseFilter(BinaryFuseFilterOver.buildItems(WASM_FUSE, items, options));
  }

  /**
   * Reads the reference's serialization (binary_fuse*_serialize: a 28-byte
   * header and the fingerprints; `fingerprintBits` says which). A header
   * that does not match the length throws BloomFormatError.
   */
  static fromReferenceBytes(bytes: Uint8Array, options: FuseOptions): BinaryFuseFilter {
    return new BinaryFuseFilter(BinaryFuseFilterOver.readReference(WASM_FUSE, bytes, options));
  }

  /** Reads a filter written by toBytes (here or by the reference twin); a corrupt or truncated file throws BloomFormatError naming the byte offset. */
  static fromBytes(bytes: Uint8Array): BinaryFuseFilter {
    return new BinaryFuseFilter(BinaryFuseFilterOver.readFile(WASM_FUSE, bytes));
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

/**
 * A filter for a checked "BLMF" header whose fingerprints a file reader
 * writes straight into its wasm memory (fuseFingerprintView()) and then checks
 * with checkFile(): src/node never holds the file beside the filter. @internal
 */
export function emptyFuseFilterFor(file: FuseFile): BinaryFuseFilter {
  return filterForFile(file);
}
