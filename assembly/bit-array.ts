// The packed bit array. Positions are u64 because a filter may hold more
// than 2^32 bits (the billion-URL crawl needs 10^10); the byte offset
// p >> 3 still fits in a wasm32 address.
//
// In the shared build (ASC_FEATURE_THREADS; assembly/shared.ts) other
// threads set bits in the same memory at the same time, so a bit is set
// with an atomic OR on its little-endian 32-bit word (bit p is bit p & 31 of
// word p >> 5: the same bit as bit p & 7 of byte p >> 3), and read with an
// atomic load. The OR returns the word as it was, so exactly one thread
// sees any given bit go from 0 to 1. The bits start 64-byte aligned, so every
// word is aligned, as wasm atomics require. docs/SHARED.md has the model.

/** Sets bit p of the bits at `base`; returns true when it went from 0 to 1. */
// @ts-ignore: decorator
@inline export function setBit(base: usize, p: u64): bool {
  if (ASC_FEATURE_THREADS) {
    const word = base + (<usize>(p >> 5) << 2);
    const bit = <u32>1 << <u32>(p & 31);
    // A load first: in a filter that is filling up most bits are set
    // already, and a load keeps the cache line shared where the OR would
    // take it exclusive, away from the other threads.
    if (atomic.load<u32>(word) & bit) return false;
    return (atomic.or<u32>(word, bit) & bit) == 0;
  }
  const ptr = base + <usize>(p >> 3);
  const mask = <u32>1 << <u32>(p & 7);
  const byte = <u32>load<u8>(ptr);
  // Stored whether or not the bit was set: a branch on it would be a coin
  // toss in a filter near its design load, mispredicted half the time.
  store<u8>(ptr, byte | mask);
  return (byte & mask) == 0;
}

/** Reads bit p of the bits at `base`. */
// @ts-ignore: decorator
@inline export function getBit(base: usize, p: u64): bool {
  if (ASC_FEATURE_THREADS) {
    return (atomic.load<u32>(base + (<usize>(p >> 5) << 2)) >> <u32>(p & 31)) & 1 ? true : false;
  }
  return (<u32>load<u8>(base + <usize>(p >> 3)) >> <u32>(p & 7)) & 1 ? true : false;
}

/** Zeroes the first `bytes` bytes of the bits at `base`. */
export function clearBits(base: usize, bytes: u64): void {
  memory.fill(base, 0, <usize>bytes);
}
