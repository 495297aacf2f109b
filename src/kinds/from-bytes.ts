// bloomwasm's fromBytes(bytes, kind?): any kind of filter from the bytes of
// its file, by their magic. A module of its own, with every class behind
// it: `import { BloomFilter } from 'bloomwasm'` does not carry it.

import { CountingBloomFilter } from '../counting/counting.js';
import { CuckooFilter } from '../cuckoo/cuckoo.js';
import { BloomFilter } from '../filter/filter.js';
import { BinaryFuseFilter } from '../fuse/binary-fuse.js';
import { ScalableBloomFilter } from '../scalable/scalable.js';
import { SlidingBloomFilter } from '../sliding/sliding.js';
import { readAny, type FromBytesOptions } from './read-any.js';

/** The classes of the kinds a file holds, by name (src/node/load.ts reads them too). */
export const CLASSES = { BloomFilter, ScalableBloomFilter, CountingBloomFilter, SlidingBloomFilter, CuckooFilter, BinaryFuseFilter } as const;

/** A class of filter that bytes or a file can hold: what fromBytes' and loadFile's `kind` take. */
export type FileFilterClass = (typeof CLASSES)[keyof typeof CLASSES];

/** What bytes or a file load as: an instance of any FileFilterClass. */
export type FileFilter = FileFilterClass['prototype'];

/**
 * The filter that `bytes` (written by any class's toBytes or by saveFile)
 * hold, of the class their magic names: BloomFilter, ScalableBloomFilter,
 * CountingBloomFilter, SlidingBloomFilter, CuckooFilter or
 * BinaryFuseFilter. Given `kind`, the bytes must hold that kind, and the
 * result is typed as it; another kind throws BloomFormatError on `magic`
 * naming both. The bytes are checked as that class's fromBytes checks them.
 */
export function fromBytes(bytes: Uint8Array, options?: FromBytesOptions): FileFilter;
export function fromBytes<C extends FileFilterClass>(bytes: Uint8Array, kind: C, options?: FromBytesOptions): C['prototype'];
export function fromBytes(bytes: Uint8Array, kindOrOptions?: FileFilterClass | FromBytesOptions, options?: FromBytesOptions): FileFilter {
  return readAny(CLASSES, 'bloomwasm', bytes, kindOrOptions, options) as FileFilter;
}
