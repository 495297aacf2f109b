// The reference twin of assembly/sbbf.ts: Apache Parquet's split-block
// Bloom filter (BloomFilter.md in apache/parquet-format), written straight
// from the specification. Blocked filters: Putze, Sanders and Singler,
// "Cache-, Hash- and Space-Efficient Bloom Filters", 2007.

/** The eight SALT constants of the Parquet specification (BloomFilter.md, "Algorithm"). */
export const SALT = [
  0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
] as const;

/** Bits per block: eight 32-bit words. */
export const BLOCK_BITS = 256;

/**
 * The eight positions of an item with 64-bit hash `h` in a filter of `bits`
 * bits (a multiple of 256): block j = ((h >>> 32) * z) >>> 32 with
 * z = bits / 256, and in word i the bit ((h mod 2^32) * SALT[i] mod 2^32) >>> 27;
 * position 256 j + 32 i + bit.
 */
export function sbbfPositions(h: bigint, bits: number): number[] {
  const z = BigInt(bits / BLOCK_BITS);
  const block = Number(((h >> 32n) * z) >> 32n);
  const key = Number(h & 0xffffffffn);
  // Math.imul keeps the low 32 bits of the product; >>> 27 reads its top 5 as unsigned.
  return SALT.map((salt, i) => BLOCK_BITS * block + 32 * i + (Math.imul(key, salt) >>> 27));
}
