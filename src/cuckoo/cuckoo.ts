// The wasm CuckooFilter: the filter of src/cuckoo/cuckoo-over.ts over
// tables that are records of the cuckoo kind (src/wasm/cuckoo.ts,
// assembly/cuckoo.ts). Its twin is src/reference/cuckoo.ts; the parity
// tests hold them together. Nothing in the BloomFilter's import graph
// imports this file, so a user of BloomFilter alone does not carry it.

import { bytesChecksum } from '../wasm/checksum.js';
import { CuckooEngine } from '../wasm/cuckoo.js';
import { CuckooFilterOver, restoreCuckoo, type CuckooKind, type CuckooParts } from './cuckoo-over.js';
import type { CuckooOptions } from './shape.js';
import { bytesFromJSON, type FilterJSON } from '../format/json.js';

/** Tables in wasm records; header checksums computed in wasm. */
export const WASM_TABLES: CuckooKind = {
  name: 'CuckooFilter',
  table: (member, bucketSize, seed) => new CuckooEngine({ buckets: member.buckets, bucketSize, fingerprintBits: member.fingerprintBits, seed }),
  xxh64: (bytes) => bytesChecksum(bytes),
};

/**
 * A cuckoo filter (Fan, Andersen, Kaminsky and Mitzenmacher, CoNEXT 2014)
 * in WebAssembly: items can be removed and counted, and an item added and
 * not removed is never reported absent (docs/CUCKOO.md).
 */
export class CuckooFilter extends CuckooFilterOver {
  /** As forCapacity(capacity, falsePositiveRate, options). */
  constructor(capacity: number, falsePositiveRate: number, options?: CuckooOptions);
  /** fromBytes' and clone()'s: a filter over restored parts. @internal */
  constructor(capacity: number, falsePositiveRate: number, options: unknown, parts: CuckooParts);
  constructor(capacity: number, falsePositiveRate: number, options?: CuckooOptions, parts?: CuckooParts) {
    super(capacity, falsePositiveRate, options, WASM_TABLES, parts);
  }

  /**
   * A filter that holds `capacity` items at a false-positive rate of at
   * most `falsePositiveRate`: buckets of `bucketSize` (2, 4 or 8; default
   * 4) fingerprints as wide as the rate needs. With `{ growth: s }` a full
   * filter starts a member s times larger, and the rate over all members
   * stays at most falsePositiveRate. Throws BloomRangeError or
   * BloomTypeError naming the parameter, before anything is allocated.
   */
  static forCapacity(capacity: number, falsePositiveRate: number, options?: CuckooOptions): CuckooFilter {
    return new CuckooFilter(capacity, falsePositiveRate, options);
  }

  /**
   * Reads a filter written by toBytes (here or by the reference twin). The
   * header and every member's checksum are checked before anything is
   * allocated; any fault throws BloomFormatError naming the field and its
   * byte offset.
   */
  static fromBytes(bytes: Uint8Array): CuckooFilter {
    return restoreCuckoo(bytes, WASM_TABLES, CuckooFilter);
  }

  /**
   * Reads the JSON form that toJSON gives (the parsed object, or its JSON
   * text): the same filter, byte for byte, as fromBytes of its bytes. Throws
   * BloomTypeError naming `value`, `type` or `bytes`, BloomRangeError naming
   * `version`, and BloomFormatError for bad base64 or bad bytes.
   */
  static fromJSON(value: FilterJSON | string): CuckooFilter {
    return CuckooFilter.fromBytes(bytesFromJSON(value, 'CuckooFilter'));
  }
}
