// The packed bit array. Positions are u64 because a filter may hold more
// than 2^32 bits (the billion-URL crawl needs 10^10); the byte offset
// p >> 3 still fits in a wasm32 address.

import { BITS_PTR } from "./layout";

/** Sets bit p; returns true when it went from 0 to 1. */
// @ts-ignore: decorator
@inline export function setBit(p: u64): bool {
  const ptr = BITS_PTR + <usize>(p >> 3);
  const mask = <u32>1 << <u32>(p & 7);
  const byte = <u32>load<u8>(ptr);
  if (byte & mask) return false;
  store<u8>(ptr, byte | mask);
  return true;
}

/** Reads bit p. */
// @ts-ignore: decorator
@inline export function getBit(p: u64): bool {
  return (<u32>load<u8>(BITS_PTR + <usize>(p >> 3)) >> <u32>(p & 7)) & 1 ? true : false;
}

/** Zeroes the first `bytes` bytes of the bit array. */
export function clearBits(bytes: u64): void {
  memory.fill(BITS_PTR, 0, <usize>bytes);
}
