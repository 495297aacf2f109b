// The reference twin of assembly/bit-array.ts: bit p is bit (p & 7) of
// byte p >> 3. Positions may exceed 2^32, so no 32-bit shifts on p.

/** A packed array of m bits. */
export class BitArray {
  /** The packed bytes. */
  readonly bytes: Uint8Array;

  constructor(bits: number) {
    this.bytes = new Uint8Array(Math.ceil(bits / 8));
  }

  /** Sets bit p; true when it went from 0 to 1. */
  set(p: number): boolean {
    const byte = Math.floor(p / 8);
    const mask = 1 << p % 8;
    if (this.bytes[byte] & mask) return false;
    this.bytes[byte] |= mask;
    return true;
  }

  /** Reads bit p. */
  get(p: number): boolean {
    return (this.bytes[Math.floor(p / 8)] & (1 << p % 8)) !== 0;
  }

  /** Zeroes every bit. */
  clear(): void {
    this.bytes.fill(0);
  }
}
