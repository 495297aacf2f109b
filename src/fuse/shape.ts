// The shape of a binary fuse filter for a set of `size` keys, exactly as
// binary_fuse8_allocate / binary_fuse16_allocate of FastFilter/xor_singleheader
// (commit c482686, include/binaryfusefilter.h) computes it: the segment
// length 2^floor(ln(size) / ln(3.33) + 2.25), at most 2^18; the size factor
// max(1.125, 0.875 + 0.25 ln(10^6) / ln(size)); then the segment count and
// the array length in u32 arithmetic, wrap-arounds included (docs/SCHEMES.md,
// "Binary fuse filters"). Computed once, here, for the wasm path and the
// reference twin alike, so the two can never round differently; the tests
// hold it against the reference's own shapes.

import { BloomRangeError } from '../errors.js';
export { fuseTemporaryBytes, type FuseShape } from '../wasm/fuse-shape.js';
import type { FuseShape } from '../wasm/fuse-shape.js';


/** The reference's arity: three slots per key. */
const ARITY = 3;

/**
 * The most keys one filter takes: the construction's 33 bytes a key must
 * fit in one 4 GiB wasm memory, with room for the heap's growth steps
 * (3.6 GB at this size; docs/SCHEMES.md says how to shard beyond).
 */
export const MAX_FUSE_KEYS = 110_000_000;

/** The shape of a filter for `size` keys (any u32, as the reference's Size; a construction takes at most MAX_FUSE_KEYS). */
export function fuseShape(size: number): FuseShape {
  if (!Number.isInteger(size) || size < 0 || size > 0xffffffff) {
    throw new BloomRangeError('size', size, 'an integer in [0, 2^32 - 1]');
  }
  let segmentLength = size === 0 ? 4 : 2 ** Math.floor(Math.log(size) / Math.log(3.33) + 2.25);
  if (segmentLength > 262144) segmentLength = 262144;
  const sizeFactor = size <= 1 ? 0 : Math.max(1.125, 0.875 + (0.25 * Math.log(1000000)) / Math.log(size));
  const capacity = size <= 1 ? 0 : Math.round(size * sizeFactor) >>> 0;
  const initSegmentCount = (Math.floor(((capacity + segmentLength - 1) >>> 0) / segmentLength) - (ARITY - 1)) >>> 0;
  let arrayLength = Math.imul((initSegmentCount + ARITY - 1) >>> 0, segmentLength) >>> 0;
  let segmentCount = Math.floor(((arrayLength + segmentLength - 1) >>> 0) / segmentLength);
  segmentCount = segmentCount <= ARITY - 1 ? 1 : segmentCount - (ARITY - 1);
  arrayLength = (segmentCount + ARITY - 1) * segmentLength;
  return { size, segmentLength, segmentCount, segmentCountLength: segmentCount * segmentLength, arrayLength };
}

