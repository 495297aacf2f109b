// The packed bit array. Positions are u64 because a filter may hold more
// than 2^32 bits (the billion-URL crawl needs 10^10); the byte offset
// p >> 3 still fits in a wasm32 address.
//
// In the shared build (ASC_FEATURE_THREADS; assembly/shared.ts) other
// threads set bits in the same memory at the same time, so a bit is set
// with an atomic OR on its little-endian 32-bit word (bit p is bit p & 31 of
// word p >> 5: the same bit as bit p & 7 of byte p >> 3), and read with an
// atomic load. The OR returns the word as it was, so exactly one thread
// sees any given bit go from 0 to 1. bitsBase is 64-byte aligned, so every
// word is aligned, as wasm atomics require. docs/SHARED.md has the model.

import { bitsBase } from "./layout";

/** Sets bit p; returns true when it went from 0 to 1. */
// @ts-ignore: decorator
@inline export function setBit(p: u64): bool {
  if (ASC_FEATURE_THREADS) {
    const word = bitsBase + (<usize>(p >> 5) << 2);
    const bit = <u32>1 << <u32>(p & 31);
    // A load first: in a filter that is filling up most bits are set
    // already, and a load keeps the cache line shared where the OR would
    // take it exclusive, away from the other threads.
    if (atomic.load<u32>(word) & bit) return false;
    return (atomic.or<u32>(word, bit) & bit) == 0;
  }
  const ptr = bitsBase + <usize>(p >> 3);
  const mask = <u32>1 << <u32>(p & 7);
  const byte = <u32>load<u8>(ptr);
  // Stored whether or not the bit was set: a branch on it would be a coin
  // toss in a filter near its design load, mispredicted half the time.
  store<u8>(ptr, byte | mask);
  return (byte & mask) == 0;
}

/** Reads bit p. */
// @ts-ignore: decorator
@inline export function getBit(p: u64): bool {
  if (ASC_FEATURE_THREADS) {
    return (atomic.load<u32>(bitsBase + (<usize>(p >> 5) << 2)) >> <u32>(p & 31)) & 1 ? true : false;
  }
  return (<u32>load<u8>(bitsBase + <usize>(p >> 3)) >> <u32>(p & 7)) & 1 ? true : false;
}

/** Zeroes the first `bytes` bytes of the bit array. */
export function clearBits(bytes: u64): void {
  memory.fill(bitsBase, 0, <usize>bytes);
}
