// The reference twin of assembly/binary-fuse-hash.ts: the arithmetic that a
// binary fuse filter's construction (src/reference/binary-fuse-construction.ts)
// and its query (src/reference/binary-fuse.ts) share, written plainly over
// BigInt as FastFilter/xor_singleheader at commit c482686 computes it
// (include/binaryfusefilter.h): the MurmurHash3 finalizer, the three slots
// of a hash, its fingerprint, and the read of one fingerprint slot.

/** 2^64 - 1: BigInt products cut to 64 bits, as the C's uint64_t wraps. */
export const MASK64 = (1n << 64n) - 1n;
const MASK36 = (1n << 36n) - 1n;

/** binary_fuse_murmur64: the finalizer of MurmurHash3. */
export function fuseMurmur64(h: bigint): bigint {
  h ^= h >> 33n;
  h = (h * 0xff51afd7ed558ccdn) & MASK64;
  h ^= h >> 33n;
  h = (h * 0xc4ceb9fe1a85ec53n) & MASK64;
  h ^= h >> 33n;
  return h;
}

/** binary_fuse*_hash: slot `index` (0, 1 or 2) of `hash`. */
export function fuseSlot(index: number, hash: bigint, segmentLength: number, segmentCountLength: number): number {
  let h = (hash * BigInt(segmentCountLength)) >> 64n;
  h += BigInt(index * segmentLength);
  const hh = hash & MASK36;
  h ^= (hh >> BigInt(36 - 18 * index)) & BigInt(segmentLength - 1);
  return Number(h & 0xffffffffn);
}

/** binary_fuse*_fingerprint: hash ^ (hash >> 32), cut to 8 or 16 bits by the caller. */
export function fuseFingerprint(hash: bigint): number {
  return Number((hash ^ (hash >> 32n)) & 0xffffffffn);
}

/** Fingerprint slot i (a little-endian u16 under 16 bits). */
export function getSlot(fingerprints: Uint8Array, width: 1 | 2, i: number): number {
  return width === 1 ? fingerprints[i] : fingerprints[2 * i] | (fingerprints[2 * i + 1] << 8);
}
