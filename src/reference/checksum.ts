// The reference twin of assembly/checksum.ts: the file checksum is XXH64
// with seed 0 over the header's first 48 bytes followed by the payload.

import { xxh64 } from './hash.js';

/** XXH64 seed of the file checksum. */
export const CHECKSUM_SEED = 0n;

/** The checksum of `header` followed by `payload` (joined into one copy: plain, not fast). */
export function checksum(header: Uint8Array, payload: Uint8Array): bigint {
  const joined = new Uint8Array(header.length + payload.length);
  joined.set(header);
  joined.set(payload, header.length);
  return xxh64(joined, CHECKSUM_SEED);
}
