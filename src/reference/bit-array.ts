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

/**
 * The twin of assembly/bit-array.ts in the shared build: the same packed
 * bits in a SharedArrayBuffer, set with Atomics.or on the little-endian
 * 32-bit word p >> 5 (bit p & 31 of it is bit p & 7 of byte p >> 3) and read
 * with Atomics.load. Atomics.or returns the old word, so exactly one thread
 * sees a bit go from 0 to 1.
 */
export class SharedBitArray {
  /** The packed bytes (a view of the shared buffer). */
  readonly bytes: Uint8Array;
  /** The same bits as 32-bit words, for Atomics. */
  private readonly words: Int32Array;

  /** Views `bits` bits at byte `offset` of `buffer` (whole words: sharedWordBytes(bits) bytes). */
  constructor(bits: number, buffer: SharedArrayBuffer, offset: number) {
    this.words = new Int32Array(buffer, offset, Math.ceil(bits / 32));
    this.bytes = new Uint8Array(buffer, offset, Math.ceil(bits / 8));
  }

  /** Sets bit p; true when it went from 0 to 1 (in this thread, and in no other). */
  set(p: number): boolean {
    const mask = 1 << p % 32;
    return (Atomics.or(this.words, Math.floor(p / 32), mask) & mask) === 0;
  }

  /** Reads bit p. */
  get(p: number): boolean {
    return (Atomics.load(this.words, Math.floor(p / 32)) & (1 << p % 32)) !== 0;
  }

  /** Zeroes every bit (not atomic as a whole: adds running meanwhile may keep some of their bits). */
  clear(): void {
    this.bytes.fill(0);
  }

  /** ORs `source` (packed bytes of the same length) in, byte by byte with Atomics.or. */
  orFrom(source: Uint8Array): void {
    for (let i = 0; i < source.length; i++) if (source[i] !== 0) Atomics.or(this.bytes, i, source[i]);
  }

  /** ANDs `source` (packed bytes of the same length) in, byte by byte with Atomics.and. */
  andFrom(source: Uint8Array): void {
    for (let i = 0; i < source.length; i++) if (source[i] !== 0xff) Atomics.and(this.bytes, i, source[i]);
  }
}
