// Apache Parquet's split-block Bloom filter bitset, shared by the wasm filter
// and its reference twin so that both accept and refuse the same inputs.
// apache/parquet-format BloomFilter.md: a column chunk's filter is a
// BloomFilterHeader (Thrift) followed by numBytes of bitset, z = numBytes / 32
// blocks of eight little-endian 32-bit words, hashed with XXH64 seed 0.
// That bitset is byte for byte the `sbbf` scheme's bitArray().

import { BloomRangeError, BloomTypeError } from '../errors.js';
import { MAX_BITS, SBBF_BLOCK_BITS, SBBF_HASHES } from '../filter/options.js';

/** Bytes in one SBBF block: eight 32-bit words, 256 bits. */
const PARQUET_BLOCK_BYTES = SBBF_BLOCK_BITS / 8;

/** The longest bitset a filter can hold: MAX_BITS / 8 rounded down to whole blocks. */
const MAX_BITSET_BYTES = Math.floor(MAX_BITS / 8 / PARQUET_BLOCK_BYTES) * PARQUET_BLOCK_BYTES;

/**
 * Checks the argument of fromParquet and returns the filter's bits (8 per
 * byte): a Uint8Array whose length is a positive multiple of 32, since a
 * bitset is whole 256-bit blocks.
 */
export function checkParquetBitset(bitset: unknown): number {
  if (!(bitset instanceof Uint8Array)) {
    throw new BloomTypeError('bitset', bitset, 'a Uint8Array (the bytes after a column chunk\'s BloomFilterHeader)');
  }
  const length = bitset.length;
  if (length === 0 || length % PARQUET_BLOCK_BYTES !== 0 || length > MAX_BITSET_BYTES) {
    throw new BloomRangeError(
      'bitset.length',
      length,
      `a positive multiple of ${PARQUET_BLOCK_BYTES} bytes (whole 256-bit blocks), at most ${MAX_BITSET_BYTES}`,
    );
  }
  return length * 8;
}

/**
 * Throws unless a filter's bits are a Parquet bitset: scheme `sbbf`, and seed
 * 0, because Parquet readers hash with XXH64 seed 0 and would miss every
 * item hashed with another seed.
 */
export function checkParquetFilter(filter: { scheme: string; seed: bigint }): void {
  if (filter.scheme !== 'sbbf') {
    throw new BloomRangeError('scheme', filter.scheme, `"sbbf" for toParquet (the Parquet split-block layout)`);
  }
  if (filter.seed !== 0n) {
    throw new BloomRangeError('seed', filter.seed, '0 for toParquet (Parquet readers hash with XXH64 seed 0)');
  }
}

/**
 * The addedCount a filter read from a Parquet bitset reports. A bitset does
 * not record how many items went in, so this is the estimate from its set
 * bits, rounded; once every bit is set, where the estimate is infinite, it
 * is bits / 8, the fewest adds that could have set them all.
 */
export function parquetAddedCount(estimatedCount: number, bits: number): number {
  return Number.isFinite(estimatedCount) ? Math.round(estimatedCount) : bits / SBBF_HASHES;
}
