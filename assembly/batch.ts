// Batch add and has: JS packs a chunk of items into the scratch region with
// their byte offsets at BATCH_OFFSETS_PTR, and crosses into wasm once for the
// whole chunk. One 0/1 result per item goes to BATCH_FLAGS_PTR.
// The pure-TypeScript twin is src/reference/batch.ts.
//
// Items are hashed a group at a time (up to 64, assembly/scheme.ts's
// touchGroup), and then the memory of the whole group is read once (the
// touch pass) before any item is tested or set: the loads of a group are
// independent of one another, so their cache misses overlap
// (memory-level parallelism); single-op calls, one item per crossing, wait
// on each miss in turn. In a 1.25 GB filter nearly every load misses, so
// this is where a batch gains the most. An add touches all k positions (it
// writes them all); a has touches only its first, and then stops at its
// first clear bit as a single has does: an absent item reads about two of
// its k positions, and reading all of them made a batch slower than single
// calls under xxh64 whenever the filter fitted in cache.

import { BATCH_FLAGS_PTR, BATCH_OFFSETS_PTR, BATCH_PROBES_PTR, SCRATCH_PTR } from "./layout";
import { countAdd } from "./filter";
import { TOUCH_SINK_PTR, hashForTest, insertProbed, probeItem, probeStride, testHashed, touchGroup, touchProbed } from "./scheme";

/** Start of batch item i, as an address. */
// @ts-ignore: decorator
@inline function itemPtr(i: u32): usize {
  return SCRATCH_PTR + <usize>load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2));
}

/** Length of batch item i in units (bytes, or u16 code units when wide). */
// @ts-ignore: decorator
@inline function itemLength(i: u32, wide: bool): usize {
  const bytes = load<u32>(BATCH_OFFSETS_PTR + (<usize>(i + 1) << 2)) - load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2));
  return <usize>(wide ? bytes >> 1 : bytes);
}

/**
 * Hashes items [first, first + n) into consecutive probe records, `stride`
 * bytes apart, of BATCH_PROBES_PTR, and then touches their memory together
 * (assembly/scheme.ts's touchProbed).
 */
// @ts-ignore: decorator
@inline function probeGroup(first: u32, n: u32, wide: bool, stride: usize): void {
  for (let j: u32 = 0; j < n; j++) {
    probeItem(itemPtr(first + j), itemLength(first + j, wide), wide, BATCH_PROBES_PTR + <usize>j * stride);
  }
  let touched: u32 = 0;
  for (let j: u32 = 0; j < n; j++) touched += touchProbed(BATCH_PROBES_PTR + <usize>j * stride);
  store<u32>(TOUCH_SINK_PTR, touched);
}

/**
 * Adds `count` staged items in order, exactly as `count` single adds would:
 * flag i is 1 when item i set a bit (a repeat later in the batch gets 0).
 * Returns how many items were new.
 */
export function addBatch(count: u32, wide: bool): u32 {
  const stride = probeStride();
  const group = touchGroup(stride);
  let fresh: u32 = 0;
  for (let first: u32 = 0; first < count; first += group) {
    const n = min<u32>(group, count - first);
    probeGroup(first, n, wide, stride);
    for (let j: u32 = 0; j < n; j++) {
      const isNew = countAdd(insertProbed(BATCH_PROBES_PTR + <usize>j * stride));
      store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>isNew);
      fresh += <u32>isNew;
    }
  }
  return fresh;
}

/** Items per group of a batch's has: their hashes (two u64s each) fill the batch probes region. */
const TEST_GROUP: u32 = 64;

/** Tests `count` staged items; flag i is 1 when item i may have been added. Returns how many were. */
export function hasBatch(count: u32, wide: bool): u32 {
  let found: u32 = 0;
  for (let first: u32 = 0; first < count; first += TEST_GROUP) {
    const n = min<u32>(TEST_GROUP, count - first);
    let touched: u32 = 0;
    for (let j: u32 = 0; j < n; j++) {
      touched += <u32>load<u8>(hashForTest(itemPtr(first + j), itemLength(first + j, wide), wide, BATCH_PROBES_PTR + (<usize>j << 4)));
    }
    store<u32>(TOUCH_SINK_PTR, touched);
    for (let j: u32 = 0; j < n; j++) {
      const present = testHashed(BATCH_PROBES_PTR + (<usize>j << 4));
      store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>present);
      found += <u32>present;
    }
  }
  return found;
}
