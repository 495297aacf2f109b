// Set algebra on packed bit arrays, a 64-bit word at a time: the union of two
// Bloom filters with the same m, k and hash functions is the bitwise OR of
// their bits, and the bitwise AND is (a superset of) the filter of the
// intersection (Broder and Mitzenmacher, "Network Applications of Bloom
// Filters: A Survey", Internet Mathematics 1(4), 2004, section 2.2).
// The pure-TypeScript twin is src/reference/algebra.ts.
//
// In the shared build (ASC_FEATURE_THREADS) other threads may be setting
// bits in the destination meanwhile, so the words are combined with atomic
// OR and AND: a plain load-OR-store could write back a word read before
// another thread's bit went in, and lose that bit.

/** ORs the `len` bytes at `srcPtr` into the `len` bytes at `dstPtr`. */
// @ts-ignore: decorator
@inline export function orInto(dstPtr: usize, srcPtr: usize, len: usize): void {
  let i: usize = 0;
  if (ASC_FEATURE_THREADS) {
    for (; i + 8 <= len; i += 8) atomic.or<u64>(dstPtr + i, load<u64>(srcPtr + i));
    for (; i < len; i++) atomic.or<u8>(dstPtr + i, load<u8>(srcPtr + i));
    return;
  }
  for (; i + 8 <= len; i += 8) store<u64>(dstPtr + i, load<u64>(dstPtr + i) | load<u64>(srcPtr + i));
  for (; i < len; i++) store<u8>(dstPtr + i, load<u8>(dstPtr + i) | load<u8>(srcPtr + i));
}

/** ANDs the `len` bytes at `srcPtr` into the `len` bytes at `dstPtr`. */
// @ts-ignore: decorator
@inline export function andInto(dstPtr: usize, srcPtr: usize, len: usize): void {
  let i: usize = 0;
  if (ASC_FEATURE_THREADS) {
    for (; i + 8 <= len; i += 8) atomic.and<u64>(dstPtr + i, load<u64>(srcPtr + i));
    for (; i < len; i++) atomic.and<u8>(dstPtr + i, load<u8>(srcPtr + i));
    return;
  }
  for (; i + 8 <= len; i += 8) store<u64>(dstPtr + i, load<u64>(dstPtr + i) & load<u64>(srcPtr + i));
  for (; i < len; i++) store<u8>(dstPtr + i, load<u8>(dstPtr + i) & load<u8>(srcPtr + i));
}

/** The number of 1 bits in the `len` bytes at `ptr` (wasm's i64.popcnt per word). */
// @ts-ignore: decorator
@inline export function popcount(ptr: usize, len: usize): u64 {
  let count: u64 = 0;
  let i: usize = 0;
  for (; i + 8 <= len; i += 8) count += popcnt<u64>(load<u64>(ptr + i));
  for (; i < len; i++) count += <u64>popcnt<u32>(<u32>load<u8>(ptr + i));
  return count;
}
