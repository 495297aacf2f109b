// The twin of src/kinds/from-bytes.ts: any kind of filter from its bytes,
// by their magic, as a reference class.

import { CountingBloomFilter } from './counting.js';
import { CuckooFilter } from './cuckoo.js';
import { BloomFilter } from './filter.js';
import { BinaryFuseFilter } from './binary-fuse.js';
import { ScalableBloomFilter } from './scalable.js';
import { SlidingBloomFilter } from './sliding.js';
import { readAny, type FromBytesOptions } from '../kinds/read-any.js';

const CLASSES = { BloomFilter, ScalableBloomFilter, CountingBloomFilter, SlidingBloomFilter, CuckooFilter, BinaryFuseFilter } as const;

/** A class of filter that bytes can hold: what fromBytes' `kind` takes. */
export type FileFilterClass = (typeof CLASSES)[keyof typeof CLASSES];

/** What bytes load as: an instance of any FileFilterClass. */
export type FileFilter = FileFilterClass['prototype'];

/** bloomwasm's fromBytes(bytes, kind?), giving the reference classes. */
export function fromBytes(bytes: Uint8Array, options?: FromBytesOptions): FileFilter;
export function fromBytes<C extends FileFilterClass>(bytes: Uint8Array, kind: C, options?: FromBytesOptions): C['prototype'];
export function fromBytes(bytes: Uint8Array, kindOrOptions?: FileFilterClass | FromBytesOptions, options?: FromBytesOptions): FileFilter {
  return readAny(CLASSES, 'bloomwasm/reference', bytes, kindOrOptions, options) as FileFilter;
}
