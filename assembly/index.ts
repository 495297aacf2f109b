// The exported ABI of one filter instance. JS copies an item into the
// scratch region (assembly/layout.ts) and calls one of these; the work is
// in the helpers they name.

import { BITS_PTR, POSITIONS_OUT_PTR, SCRATCH_PTR, SCRATCH_SIZE } from "./layout";
import { exportProbed, newAddCount, probeScratch, setCount, setProbed, streamProbe, testProbed } from "./filter";

export { clear, configure, streamBegin, streamUpdate } from "./filter";

/** Adds the item in scratch (len units; u16 code units when wide). Returns 1 if it was new. */
export function add(len: u32, wide: bool): bool {
  probeScratch(len, wide);
  return setProbed();
}

/** Tests the item in scratch. */
export function has(len: u32, wide: bool): bool {
  probeScratch(len, wide);
  return testProbed();
}

/** Writes the item's positions to the positions region. */
export function positions(len: u32, wide: bool): void {
  probeScratch(len, wide);
  exportProbed();
}

/** Ends a streamed item and adds it. */
export function streamAdd(): bool {
  streamProbe();
  return setProbed();
}

/** Ends a streamed item and tests it. */
export function streamHas(): bool {
  streamProbe();
  return testProbed();
}

/** Ends a streamed item and writes its positions. */
export function streamPositions(): void {
  streamProbe();
  exportProbed();
}

/** Bits that are 1, kept as a counter raised on each 0-to-1 transition. */
export function bitsSet(): f64 {
  return <f64>setCount;
}

/** Adds that set at least one bit. */
export function newAdds(): f64 {
  return <f64>newAddCount;
}

/** Offset of the scratch region. */
export function scratchPtr(): usize {
  return SCRATCH_PTR;
}

/** Size of the scratch region in bytes. */
export function scratchSize(): u32 {
  return SCRATCH_SIZE;
}

/** Offset of the f64 positions region. */
export function positionsPtr(): usize {
  return POSITIONS_OUT_PTR;
}

/** Offset of the packed bits. */
export function bitsPtr(): usize {
  return BITS_PTR;
}

// A Bitmap (seed 004) is an instance of this same module configured by
// bitmapConfigure instead of configure; see assembly/bitmap.ts.
export {
  bitmapClearAll, bitmapConfigure, bitmapFirstInvalid, bitmapHasMany, bitmapNextValues, bitmapSetMany,
} from "./bitmap";
