// A binary fuse filter's shape (the reference's Size, SegmentLength,
// SegmentCount, SegmentCountLength and ArrayLength), and the wasm memory its
// construction takes besides the fingerprints. Declared at the boundary,
// where the filter is built (src/wasm/binary-fuse.ts); src/fuse/shape.ts
// computes shapes and re-exports these.

/** A filter's shape: the reference's struct fields other than the seed and the fingerprints. */
export interface FuseShape {
  /** Keys the filter was built for (Size), repeats included. */
  readonly size: number;
  /** SegmentLength: a power of two from 4 to 2^18. */
  readonly segmentLength: number;
  /** SegmentCount: segments a key's first slot can fall in. */
  readonly segmentCount: number;
  /** SegmentCountLength: SegmentCount * SegmentLength. */
  readonly segmentCountLength: number;
  /** ArrayLength: fingerprints, (SegmentCount + 2) * SegmentLength. */
  readonly arrayLength: number;
}

/**
 * Bytes of the construction's temporaries for `shape` (the reference's
 * reverseOrder, alone, t2count, reverseH, t2hash and startPos), besides
 * the keys (8 bytes each) and the fingerprints.
 */
export function fuseTemporaryBytes(shape: FuseShape): number {
  let blockBits = 1;
  while (2 ** blockBits < shape.segmentCount) blockBits++;
  return 8 * (shape.size + 1) + 13 * shape.arrayLength + shape.size + 4 * 2 ** blockBits;
}
