// loadFile and loadFileSync: any file the package writes, told apart by its
// magic (src/format/kinds.ts), read by that kind's decoder (decoders.ts,
// fuse-file.ts): every header is checked with the file's size before
// anything is allocated, and each payload read in chunks straight into
// wasm memory. Given a class, the file must hold that kind.

import { closeSync } from 'node:fs';
import { checkKind, kindOfMagic, MAGIC_BYTES, type FileKindName } from '../format/kinds.js';
import { CLASSES, type FileFilter, type FileFilterClass } from '../kinds/from-bytes.js';
import { readKindArguments, type FromBytesOptions } from '../kinds/read-any.js';
import { chainDecoder, countingDecoder, cuckooDecoder, filterDecoder, slidingDecoder } from './decoders.js';
import { fuseDecoder } from './fuse-file.js';
import { decode, decodeSync, openRegular, openRegularSync, type Decoder } from './io.js';
import { BloomTypeError } from '../errors.js';

export type { FileFilter, FileFilterClass };

/** Options of loadFile: the clock that a time-window SlidingBloomFilter reads from then on (default Date.now); other kinds read none. */
export type LoadOptions = FromBytesOptions;

type Clock = (() => number) | undefined;

/** The decoder of each kind, for a file of `size` bytes. */
const DECODERS: Record<FileKindName, (size: number, clock: Clock) => Decoder<FileFilter>> = {
  BloomFilter: filterDecoder,
  ScalableBloomFilter: chainDecoder,
  CountingBloomFilter: countingDecoder,
  SlidingBloomFilter: slidingDecoder,
  CuckooFilter: cuckooDecoder,
  BinaryFuseFilter: fuseDecoder,
};

/**
 * Reads the magic, then decodes the kind it names (which must be `wanted`,
 * when given). Every byte is read once: the inner decoder's first read,
 * of its header from byte 0, takes the magic already read and reads on
 * from byte 4.
 */
function* anyDecoder(size: number, wanted: FileKindName | undefined, clock: Clock): Decoder<FileFilter> {
  const head = new Uint8Array(Math.min(MAGIC_BYTES, size));
  if (head.length > 0) yield { into: head, position: 0 };
  const inner = DECODERS[checkKind(kindOfMagic(head, size), wanted)](size, clock);
  try {
    let step = inner.next();
    for (let first = true; !step.done; first = false, step = inner.next()) {
      const { into, position } = step.value;
      if (first && position === 0 && into instanceof Uint8Array) {
        const known = Math.min(head.length, into.length);
        into.set(head.subarray(0, known));
        if (into.length > known) yield { into: into.subarray(known), position: known };
      } else {
        yield step.value;
      }
    }
    return step.value;
  } finally {
    // A read that failed ends this decoder at a yield: the inner one gives back what it allocated.
    inner.return(undefined as never);
  }
}

/** The path, the kind asked for (or undefined) and the clock, from loadFile's arguments. */
function readArguments(path: unknown, kindOrOptions: unknown, options: unknown): { path: string; wanted: FileKindName | undefined; clock: Clock } {
  if (typeof path !== 'string' || path.length === 0) throw new BloomTypeError('path', path, 'a non-empty string');
  return { path, ...readKindArguments(kindOrOptions, options, CLASSES, 'bloomwasm') };
}

/**
 * Reads any filter file saved by saveFile (or toBytes): a BloomFilter, a
 * ScalableBloomFilter chain, a CountingBloomFilter, a SlidingBloomFilter, a
 * CuckooFilter or a BinaryFuseFilter, told apart by its magic, and returns
 * that kind's class; `bloom dedupe --state` files are the first, second or
 * fourth. Given `kind` (one of those classes), the file must hold that
 * kind, and the result is typed as it: another kind throws
 * BloomFormatError on `magic` naming both. Every header is checked with
 * the file's size before anything is allocated; the payload is read in
 * chunks straight into wasm memory and then checked. Faults throw
 * BloomFormatError naming the field and offset.
 */
export function loadFileSync(path: string, options?: LoadOptions): FileFilter;
export function loadFileSync<C extends FileFilterClass>(path: string, kind: C, options?: LoadOptions): C['prototype'];
export function loadFileSync(path: string, kindOrOptions?: FileFilterClass | LoadOptions, options?: LoadOptions): FileFilter {
  const args = readArguments(path, kindOrOptions, options);
  const { fd, size } = openRegularSync(args.path);
  try {
    return decodeSync(fd, anyDecoder(size, args.wanted, args.clock));
  } finally {
    closeSync(fd);
  }
}

/** Reads any filter file like loadFileSync, without blocking the event loop. */
export async function loadFile(path: string, options?: LoadOptions): Promise<FileFilter>;
export async function loadFile<C extends FileFilterClass>(path: string, kind: C, options?: LoadOptions): Promise<C['prototype']>;
export async function loadFile(path: string, kindOrOptions?: FileFilterClass | LoadOptions, options?: LoadOptions): Promise<FileFilter> {
  const args = readArguments(path, kindOrOptions, options);
  const { handle, size } = await openRegular(args.path);
  try {
    return await decode(handle, anyDecoder(size, args.wanted, args.clock));
  } finally {
    await handle.close();
  }
}
