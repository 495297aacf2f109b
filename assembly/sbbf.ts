// The split-block Bloom filter (SBBF) of Apache Parquet, exactly as
// BloomFilter.md in apache/parquet-format defines it: the bits are blocks of
// 256 bits (eight 32-bit words, one cache line's half), an item's hash
// picks one block, and each of the block's eight words gets one bit. So an
// item touches one block, one memory miss, instead of k random cache lines.
// Blocked filters are from Putze, Sanders and Singler, "Cache-, Hash- and
// Space-Efficient Bloom Filters", 2007; one bit per word is the split
// ("partitioned") filter of Broder and Mitzenmacher's survey, section 2.1.
// The pure-TypeScript twin is src/reference/sbbf.ts.
//
// With h = XXH64(item):
//   block j = ((h >>> 32) * z) >>> 32, z = bits / 256 blocks
//   bit in word i = ((h mod 2^32) * SALT[i] mod 2^32) >>> 27
//   position p = 256 j + 32 i + bit
// The words are little-endian u32s and bit b of a word is (1 << b), so the
// packed bit array (bit p = bit p & 7 of byte p >> 3) is byte for byte the
// Parquet bitset.
//
// In batches the eight words are handled as two v128s (wasm SIMD): the
// eight products are two i32x4.mul, and 1 << bit, which wasm SIMD has no
// per-lane shift for, is built as the float 2^bit (exponent bits
// (bit + 127) << 23) truncated back to an integer. Single calls, and a
// build without SIMD (the `scalar` target in bench/asconfig.json,
// ASC_FEATURE_SIMD false), take the plain loop over the eight words
// instead (sbbfCheckScalar says why); bench/where-time-goes.ts measures the
// batches both ways (docs/SCHEMES.md has the figures).

/** The eight SALT constants of the Parquet specification (BloomFilter.md, "Algorithm"). */
export const SALT0: u32 = 0x47b6137b;
export const SALT1: u32 = 0x44974d91;
export const SALT2: u32 = 0x8824ad5b;
export const SALT3: u32 = 0xa2b7289d;
export const SALT4: u32 = 0x705495c7;
export const SALT5: u32 = 0x2df1424b;
export const SALT6: u32 = 0x9efc4947;
export const SALT7: u32 = 0x5c6bfb31;

/** Bits per block: eight 32-bit words. */
export const BLOCK_BITS: u64 = 256;

/** Address of the block that hash `h` selects among the `blocks` blocks of the bits at `base`. */
// @ts-ignore: decorator
@inline export function blockPtr(base: usize, h: u64, blocks: u64): usize {
  return base + (<usize>(((h >> 32) * blocks) >> 32) << 5);
}

/** Which bit of word i (0..31) the key picks under `salt`. */
// @ts-ignore: decorator
@inline function laneBit(key: u32, salt: u32): u32 {
  return (key * salt) >> 27;
}

/** 1 << bit in each lane of words 0..3 for the key, from i32x4 products. */
// @ts-ignore: decorator
@inline function maskOf(key: v128, salts: v128): v128 {
  const bit = i32x4.shr_u(i32x4.mul(key, salts), 27);
  // The f32 with exponent field bit + 127 and a zero mantissa is 2^bit,
  // exact for bit <= 31; truncating it (unsigned) gives 1 << bit.
  return i32x4.trunc_sat_f32x4_u(i32x4.shl(i32x4.add(bit, i32x4.splat(127)), 23));
}

// @ts-ignore: decorator
@inline function saltsLow(): v128 {
  return i32x4(SALT0, SALT1, SALT2, SALT3);
}

// @ts-ignore: decorator
@inline function saltsHigh(): v128 {
  return i32x4(SALT4, SALT5, SALT6, SALT7);
}

/** Writes the item's eight positions, word 0 first, as u64s at `out`. */
export function sbbfPositions(h: u64, blocks: u64, out: usize): void {
  const base = ((h >> 32) * blocks) >> 32 << 8;
  const key = <u32>h;
  store<u64>(out, base + <u64>laneBit(key, SALT0));
  store<u64>(out, base + 32 + <u64>laneBit(key, SALT1), 8);
  store<u64>(out, base + 64 + <u64>laneBit(key, SALT2), 16);
  store<u64>(out, base + 96 + <u64>laneBit(key, SALT3), 24);
  store<u64>(out, base + 128 + <u64>laneBit(key, SALT4), 32);
  store<u64>(out, base + 160 + <u64>laneBit(key, SALT5), 40);
  store<u64>(out, base + 192 + <u64>laneBit(key, SALT6), 48);
  store<u64>(out, base + 224 + <u64>laneBit(key, SALT7), 56);
}

/** The bit that `salt` picks for the key, if word `offset` / 4 of the block at `ptr` lacks it; else 0. */
// @ts-ignore: decorator
@inline function missingBit(ptr: usize, offset: usize, key: u32, salt: u32): u32 {
  return (<u32>1 << laneBit(key, salt)) & ~load<u32>(ptr + offset);
}

/** Sets the bit that `salt` picks for the key in word `offset` / 4 of the block at `ptr`; 1 if it was 0. */
// @ts-ignore: decorator
@inline function setWordBit(ptr: usize, offset: usize, key: u32, salt: u32): u32 {
  const mask = <u32>1 << laneBit(key, salt);
  const word = load<u32>(ptr + offset);
  store<u32>(ptr + offset, word | mask);
  return <u32>((word & mask) == 0);
}

/** Sets the item's eight bits; returns how many went from 0 to 1 (0..8). */
// @ts-ignore: decorator
@inline export function sbbfInsert(base: usize, h: u64, blocks: u64): u32 {
  if (!ASC_FEATURE_SIMD) return sbbfInsertScalar(base, h, blocks);
  const ptr = blockPtr(base, h, blocks);
  const key = i32x4.splat(<u32>h);
  const maskLo = maskOf(key, saltsLow());
  const maskHi = maskOf(key, saltsHigh());
  const lo = v128.load(ptr);
  const hi = v128.load(ptr, 16);
  // Lanes whose bit was 0: each lane holds at most one bit, so a lane
  // bitmask counts them.
  const freshLo = v128.andnot(maskLo, lo);
  const freshHi = v128.andnot(maskHi, hi);
  if (!v128.any_true(v128.or(freshLo, freshHi))) return 0;
  if (ASC_FEATURE_THREADS) return orBlockAtomic(ptr, maskLo, maskHi);
  v128.store(ptr, v128.or(lo, maskLo));
  v128.store(ptr, v128.or(hi, maskHi), 16);
  const zero = i32x4.splat(0);
  const lanes = i32x4.bitmask(i32x4.ne(freshLo, zero)) | (i32x4.bitmask(i32x4.ne(freshHi, zero)) << 4);
  return popcnt<u32>(lanes);
}

/**
 * The shared build's insert (assembly/shared.ts): other threads write the
 * same block meanwhile, so each word gets its bit by an atomic OR, whose
 * old value says whether this thread set it (the load above only skipped
 * the items whose bits were all set already).
 */
// @ts-ignore: decorator
@inline function orBlockAtomic(ptr: usize, maskLo: v128, maskHi: v128): u32 {
  return orWord(ptr, i32x4.extract_lane(maskLo, 0)) + orWord(ptr + 4, i32x4.extract_lane(maskLo, 1))
    + orWord(ptr + 8, i32x4.extract_lane(maskLo, 2)) + orWord(ptr + 12, i32x4.extract_lane(maskLo, 3))
    + orWord(ptr + 16, i32x4.extract_lane(maskHi, 0)) + orWord(ptr + 20, i32x4.extract_lane(maskHi, 1))
    + orWord(ptr + 24, i32x4.extract_lane(maskHi, 2)) + orWord(ptr + 28, i32x4.extract_lane(maskHi, 3));
}

/** ORs `mask` into the word at `ptr` atomically; 1 when its bit was 0. */
// @ts-ignore: decorator
@inline function orWord(ptr: usize, mask: u32): u32 {
  if (ASC_FEATURE_THREADS) return (atomic.or<u32>(ptr, mask) & mask) == 0 ? 1 : 0;
  return 0;
}

/** True when all eight of the item's bits are set. */
// @ts-ignore: decorator
@inline export function sbbfCheck(base: usize, h: u64, blocks: u64): bool {
  if (!ASC_FEATURE_SIMD) return sbbfCheckScalar(base, h, blocks);
  const ptr = blockPtr(base, h, blocks);
  const key = i32x4.splat(<u32>h);
  const missing = v128.or(
    v128.andnot(maskOf(key, saltsLow()), v128.load(ptr)),
    v128.andnot(maskOf(key, saltsHigh()), v128.load(ptr, 16)),
  );
  return !v128.any_true(missing);
}

/**
 * sbbfInsert word by word: for builds without SIMD, and for single adds in
 * every build, where the answer waits on this step (see sbbfCheckScalar).
 */
// @ts-ignore: decorator
@inline export function sbbfInsertScalar(base: usize, h: u64, blocks: u64): u32 {
  const ptr = blockPtr(base, h, blocks);
  const key = <u32>h;
  // Written out word by word: a loop would pick SALT[i] from memory at every step.
  return setWordBit(ptr, 0, key, SALT0) + setWordBit(ptr, 4, key, SALT1) + setWordBit(ptr, 8, key, SALT2)
    + setWordBit(ptr, 12, key, SALT3) + setWordBit(ptr, 16, key, SALT4) + setWordBit(ptr, 20, key, SALT5)
    + setWordBit(ptr, 24, key, SALT6) + setWordBit(ptr, 28, key, SALT7);
}

/**
 * sbbfCheck word by word, all eight words read, no early exit: for builds
 * without SIMD, and for single has calls in every build. A single call
 * waits for its block's one load from memory, and then for the chain from
 * the hash to the answer: the v128 masks (i32x4.mul, the unsigned float
 * truncation) make the longer chain of the two, and word by word was the
 * faster with the block out of cache, the same with it in L1
 * (docs/BENCHMARKS.md, "Choices in the code"). Batches, which
 * overlap many items and are bound by instruction count, keep v128.
 */
// @ts-ignore: decorator
@inline export function sbbfCheckScalar(base: usize, h: u64, blocks: u64): bool {
  const ptr = blockPtr(base, h, blocks);
  const key = <u32>h;
  const missing = missingBit(ptr, 0, key, SALT0) | missingBit(ptr, 4, key, SALT1) | missingBit(ptr, 8, key, SALT2)
    | missingBit(ptr, 12, key, SALT3) | missingBit(ptr, 16, key, SALT4) | missingBit(ptr, 20, key, SALT5)
    | missingBit(ptr, 24, key, SALT6) | missingBit(ptr, 28, key, SALT7);
  return missing == 0;
}
