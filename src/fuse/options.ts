// The options of a binary fuse filter, checked in one place for the wasm
// class and its reference twin.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { readOption } from '../filter/read-options.js';

/** What fromKeys, from and fromReferenceBytes take. */
export interface FuseOptions {
  /** Bits per fingerprint: 8 (a rate of 1/256, about 9 bits a key) or 16 (1/65536, about 18 bits a key). Default 8. */
  readonly fingerprintBits?: 8 | 16;
}

/** Bytes per fingerprint for `options` (1 or 2); BloomTypeError or BloomRangeError naming the option. */
export function fingerprintWidth(options: FuseOptions | undefined): 1 | 2 {
  const bits = readOption(options, 'fingerprintBits', 'an object such as { fingerprintBits: 16 }');
  if (bits === undefined || bits === 8) return 1;
  if (bits === 16) return 2;
  if (typeof bits !== 'number') throw new BloomTypeError('options.fingerprintBits', bits, '8 or 16');
  throw new BloomRangeError('options.fingerprintBits', bits, '8 or 16');
}
