// Which kind of filter a file (or its bytes) holds, by its magic: the
// first four bytes, which every format of docs/FORMAT.md begins with.
// `bloom dedupe --state` writes no format of its own: its state is one of
// the filter, chain or sliding files.

import { BloomFormatError, BloomTypeError } from '../errors.js';
import { CHAIN_MAGIC } from './chain.js';
import { COUNTING_KIND } from './counting.js';
import { CUCKOO_KIND } from './cuckoo.js';
import { FUSE_KIND } from './binary-fuse.js';
import { BITS_KIND, hex } from './filter.js';
import { SLIDING_KIND } from './sliding.js';

/** The class names of the kinds a file can hold, each with its magic. */
export const FILE_KINDS = [
  { kind: 'BloomFilter', magic: BITS_KIND.magic },
  { kind: 'ScalableBloomFilter', magic: CHAIN_MAGIC },
  { kind: 'CountingBloomFilter', magic: COUNTING_KIND.magic },
  { kind: 'SlidingBloomFilter', magic: SLIDING_KIND.magic },
  { kind: 'CuckooFilter', magic: CUCKOO_KIND.magic },
  { kind: 'BinaryFuseFilter', magic: FUSE_KIND.magic },
] as const;

/** A class name of FILE_KINDS. */
export type FileKindName = (typeof FILE_KINDS)[number]['kind'];

/** Bytes of a magic. */
export const MAGIC_BYTES = 4;

const ascii = (magic: Uint8Array): string => String.fromCharCode(...magic);

/**
 * The kind whose magic `head` (a file's first bytes, `size` in all) starts
 * with; BloomFormatError naming `magic` for a file that starts with none of
 * them, or is too short for one.
 */
export function kindOfMagic(head: Uint8Array, size: number): FileKindName {
  for (const { kind, magic } of FILE_KINDS) if (size >= MAGIC_BYTES && magic.every((b, i) => head[i] === b)) return kind;
  const known = FILE_KINDS.map((k) => `"${ascii(k.magic)}"`).join(', ');
  throw new BloomFormatError('magic', 0, `not a bloomwasm file: it must start with one of ${known}; got ${size < MAGIC_BYTES ? `${size} bytes` : hex(head.subarray(0, MAGIC_BYTES))}`);
}

/** `found`, checked to be the kind `wanted` names (when given); BloomFormatError naming both otherwise. */
export function checkKind(found: FileKindName, wanted: FileKindName | undefined): FileKindName {
  if (wanted !== undefined && wanted !== found) {
    const magic = ascii(FILE_KINDS.find((k) => k.kind === found)!.magic);
    throw new BloomFormatError('magic', 0, `this holds a ${found} ("${magic}"), not the ${wanted} asked for`);
  }
  return found;
}

/**
 * The kind named by `kind`, one of `classes` (a record of class name to
 * class); BloomTypeError naming `kind` for anything else.
 */
export function kindOfClass(kind: unknown, classes: Readonly<Record<FileKindName, unknown>>, where: string): FileKindName {
  for (const { kind: name } of FILE_KINDS) if (classes[name] === kind) return name;
  throw new BloomTypeError('kind', kind, `one of ${where}'s classes ${FILE_KINDS.map((k) => k.kind).join(', ')}`);
}
