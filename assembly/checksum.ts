// The file format's checksum: XXH64 with seed 0 over the header's first 48
// bytes and then the payload (README, "File format"). It reuses the streamed
// XXH64 of assembly/hash.ts, so a checksum must run begin..digest within one
// call sequence from JS (no item may be streamed in between).
// The pure-TypeScript twin is src/reference/checksum.ts.

import { xxh64Begin, xxh64Digest, xxh64Update } from "./hash";

/** XXH64 seed of the file checksum. */
export const CHECKSUM_SEED: u64 = 0;

/** Starts a checksum. */
// @ts-ignore: decorator
@inline export function checksumBegin(): void {
  xxh64Begin(CHECKSUM_SEED);
}

/** Feeds the `len` bytes at `ptr`. */
// @ts-ignore: decorator
@inline export function checksumUpdate(ptr: usize, len: usize): void {
  xxh64Update(ptr, len);
}

/** Finishes the checksum. */
// @ts-ignore: decorator
@inline export function checksumDigest(): u64 {
  return xxh64Digest();
}
