// The reference twin of assembly/algebra.ts: union is the bitwise OR of two
// filters' bits, intersection the AND, written a byte at a time.

/** ORs `src` into `dst` (same length). */
export function orInto(dst: Uint8Array, src: Uint8Array): void {
  for (let i = 0; i < dst.length; i++) dst[i] |= src[i];
}

/** ANDs `src` into `dst` (same length). */
export function andInto(dst: Uint8Array, src: Uint8Array): void {
  for (let i = 0; i < dst.length; i++) dst[i] &= src[i];
}

/** The number of 1 bits in `bytes`. */
export function popcount(bytes: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) {
    for (let b = bytes[i]; b !== 0; b >>= 1) count += b & 1;
  }
  return count;
}
