// The arithmetic of a binary fuse filter that its construction
// (assembly/binary-fuse-construction.ts) and its queries
// (assembly/binary-fuse.ts) share, as FastFilter/xor_singleheader at commit
// c482686 computes it (include/binaryfusefilter.h): the MurmurHash3
// finalizer that mixes a key with the seed, the three slots of a hash and
// its fingerprint. One copy, so that a construction and a query cannot
// disagree on a slot. The pure-TypeScript twin is
// src/reference/binary-fuse-hash.ts.

/** binary_fuse_murmur64: the finalizer of MurmurHash3. */
// @ts-ignore: decorator
@inline export function fuseMurmur64(h: u64): u64 {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccd;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53;
  h ^= h >> 33;
  return h;
}

/** The high 64 bits of hash * n for n < 2^32 (binary_fuse_mulhi with a 32-bit factor). */
// @ts-ignore: decorator
@inline export function mulhi32(hash: u64, n: u32): u64 {
  const lo = (hash & 0xffffffff) * <u64>n;
  const hi = (hash >> 32) * <u64>n;
  return (hi + (lo >> 32)) >> 32;
}

/**
 * binary_fuse*_hash: slot `index` (0, 1 or 2) of `hash`, in the segment
 * the hash's high product picks plus `index` segments, xored with 18 bits
 * of the hash under the segment mask.
 */
// @ts-ignore: decorator
@inline export function fuseSlot(index: u32, hash: u64, segmentLength: u32, segmentCountLength: u32): u32 {
  let h = mulhi32(hash, segmentCountLength);
  h += <u64>index * <u64>segmentLength;
  const hh = hash & 0xfffffffff;
  h ^= (hh >> (36 - 18 * <u64>index)) & <u64>(segmentLength - 1);
  return <u32>h;
}

/** binary_fuse*_fingerprint: the low bits of hash ^ (hash >> 32), 8 or 16 of them by the caller's store. */
// @ts-ignore: decorator
@inline export function fuseFingerprint(hash: u64): u32 {
  return <u32>(hash ^ (hash >> 32));
}
