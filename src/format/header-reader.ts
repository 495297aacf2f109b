// Reading a file header field by field from a prefix of the input, for the
// formats whose headers are checked in file order (src/format/sliding.ts,
// src/format/cuckoo.ts): each read names its field and byte offset, and a
// field the input does not reach is reported as truncated there.

import { BloomFormatError } from '../errors.js';

/** The reads of one header; every failure throws BloomFormatError naming the field and its offset. */
export interface HeaderReader {
  /** The bytes of the input that are there to read: at most the prefix, at most the input. */
  readonly view: DataView;
  /** Throws BloomFormatError for `field` at `offset`. */
  fail(field: string, offset: number, problem: string): never;
  /** `offset`, once the input is known to reach offset + size. */
  need(field: string, offset: number, size: number): number;
  /** A little-endian u64 in [min, max] (described as `allowed`), as a number. */
  u64(field: string, offset: number, min: number, max: number, allowed: string): number;
  /** A little-endian f64 for which `ok` holds (described as `allowed`). */
  f64(field: string, offset: number, ok: (v: number) => boolean, allowed: string): number;
  /** The u16 version at `offset`, which must be `current`. */
  version(offset: number, current: number): number;
}

/** A reader over `prefix`, the first bytes of an input of `totalLength` bytes. */
export function headerReader(prefix: Uint8Array, totalLength: number): HeaderReader {
  const available = Math.min(prefix.length, totalLength);
  const view = new DataView(prefix.buffer, prefix.byteOffset, available);
  const fail = (field: string, offset: number, problem: string): never => {
    throw new BloomFormatError(field, offset, problem);
  };
  const need = (field: string, offset: number, size: number): number => {
    if (offset + size > available) {
      fail(field, offset, `truncated: the ${size}-byte field needs the input to reach byte ${offset + size}, but it ends at byte ${totalLength}`);
    }
    return offset;
  };
  return {
    view,
    fail,
    need,
    u64(field, offset, min, max, allowed) {
      const value = view.getBigUint64(need(field, offset, 8), true);
      if (value < BigInt(min) || value > BigInt(max)) fail(field, offset, `must be ${allowed}; got ${value}`);
      return Number(value);
    },
    f64(field, offset, ok, allowed) {
      const value = view.getFloat64(need(field, offset, 8), true);
      if (!ok(value)) fail(field, offset, `must be ${allowed}; got ${value}`);
      return value;
    },
    version(offset, current) {
      const version = view.getUint16(need('version', offset, 2), true);
      if (version !== current) {
        const why = version > current ? 'written by a newer bloomwasm; this release reads' : 'supported versions are';
        fail('version', offset, `unsupported version ${version}: ${why} 1 to ${current}`);
      }
      return version;
    },
  };
}
