// The JSON form of every file format (docs/FORMAT.md, "JSON form, version 1"): the
// binary format's bytes in base64, inside an object that names the kind
// and the version of this wrapper, so that JSON.stringify works on a
// filter and Kind.fromJSON gives back the same bytes.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { fromBase64, toBase64 } from './base64.js';

/** The version of the JSON wrapper (the binary format inside keeps its own). */
export const JSON_FORMAT_VERSION = 1;

/** What toJSON() returns, and fromJSON() takes: `{ type: "bloomwasm/BloomFilter", version: 1, bytes: "<base64 of toBytes()>" }`. */
export interface FilterJSON {
  /** `bloomwasm/` and the class name: `bloomwasm/BloomFilter`, `bloomwasm/CuckooFilter`, ... */
  type: string;
  /** JSON_FORMAT_VERSION. */
  version: number;
  /** toBytes() in base64 (RFC 4648, standard alphabet, padded). */
  bytes: string;
}

/** The JSON form of `bytes`, the binary format of class `kind`. */
export function toJSONOf(kind: string, bytes: Uint8Array): FilterJSON {
  return { type: `bloomwasm/${kind}`, version: JSON_FORMAT_VERSION, bytes: toBase64(bytes) };
}

/**
 * The binary format's bytes inside `value`, the JSON form of class `kind`:
 * the parsed object, or its JSON text. Each field is read once. Throws
 * BloomTypeError naming `value`, `type` or `bytes`, BloomRangeError naming
 * `version`, or BloomFormatError naming `bytes` for bad base64.
 */
export function bytesFromJSON(value: unknown, kind: string): Uint8Array {
  const expected = `bloomwasm/${kind}`;
  const allowed = `an object { type: "${expected}", version: ${JSON_FORMAT_VERSION}, bytes: "<base64>" } or its JSON text`;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw new BloomTypeError('value', value, `${allowed} (this text is not JSON)`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BloomTypeError('value', value, allowed);
  const { type, version, bytes } = value as Record<string, unknown>;
  if (type !== expected) {
    const other = typeof type === 'string' && type.startsWith('bloomwasm/') ? ` (this holds a ${type.slice(10)})` : '';
    throw new BloomTypeError('type', type, `"${expected}"${other}`);
  }
  if (version !== JSON_FORMAT_VERSION) throw new BloomRangeError('version', version, `${JSON_FORMAT_VERSION} (the JSON wrapper versions this release reads)`);
  if (typeof bytes !== 'string') throw new BloomTypeError('bytes', bytes, 'a base64 string');
  return fromBase64(bytes, 'bytes');
}
