// Base64 (RFC 4648, section 4: the standard alphabet, with padding) for the
// JSON form of the file formats (json.ts), over the btoa and atob that
// every runtime the package runs on has. Small, since every class that has
// toJSON carries it. Decoding is strict where atob is lenient: no
// whitespace, no URL-safe letters, padding only at the end, and the unused
// bits of the last character zero, so that one byte string has exactly one
// text.

import { BloomFormatError, BloomRangeError } from '../errors.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The most bytes whose text fits in V8's longest string (2^29 - 24 characters): a longer one fails here, by name. */
export const MAX_BASE64_BYTES = 3 * Math.floor((2 ** 29 - 24) / 4);

/** Bytes per String.fromCharCode call: well under any engine's limit on arguments. */
const SPREAD = 0x8000;

/** `bytes` as base64 text with padding. */
export function toBase64(bytes: Uint8Array): string {
  if (bytes.length > MAX_BASE64_BYTES) throw new BloomRangeError('bytes', bytes.length, `at most ${MAX_BASE64_BYTES} bytes as base64; save larger filters with toBytes`);
  let binary = '';
  for (let i = 0; i < bytes.length; i += SPREAD) binary += String.fromCharCode(...bytes.subarray(i, i + SPREAD));
  return btoa(binary);
}

/** The bytes of base64 `text` (the field `field` of a JSON value); BloomFormatError naming `field` and the character at fault. */
export function fromBase64(text: string, field: string): Uint8Array {
  const length = text.length;
  if (length % 4 !== 0) throw new BloomFormatError(field, length, `base64 text must be a multiple of 4 characters long; got ${length}`);
  const pads = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const at = text.slice(0, length - pads).search(/[^A-Za-z0-9+/]/);
  if (at >= 0) throw new BloomFormatError(field, at, `${JSON.stringify(text[at])} is not a base64 character here (A-Z, a-z, 0-9, +, /, and = only as the last one or two)`);
  if (pads > 0 && (ALPHABET.indexOf(text[length - pads - 1]) & (pads === 1 ? 3 : 15)) !== 0) {
    throw new BloomFormatError(field, length - pads - 1, 'the last base64 character has bits set beyond the bytes it ends (not the canonical text)');
  }
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < out.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
