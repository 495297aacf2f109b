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

import { BATCH_FLAGS_PTR, BATCH_OFFSETS_PTR, BATCH_PROBES_PTR, PROBES_PTR, SCRATCH_PTR, TOUCH_SINK_PTR } from "./layout";
import { countAdd } from "./filter";
import { getBit } from "./bit-array";
import { named, payloadOf, REFUSED, schemeRecord } from "./record";
import { splitmix64 } from "./hash";
import { testEnhancedDoubleFrom } from "./probe";
import { SCHEME_XXH64, hashForTest, insertProbed, probeItem, probeStride, testHashed, touchGroup, touchProbed, xxh64In } from "./scheme";

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
@inline function probeGroup(r: usize, first: u32, n: u32, wide: bool, stride: usize, schemes: u32): void {
  for (let j: u32 = 0; j < n; j++) {
    probeItem(r, itemPtr(first + j), itemLength(first + j, wide), wide, BATCH_PROBES_PTR + <usize>j * stride, schemes);
  }
  let touched: u32 = 0;
  for (let j: u32 = 0; j < n; j++) touched += touchProbed(r, BATCH_PROBES_PTR + <usize>j * stride);
  store<u32>(TOUCH_SINK_PTR, touched);
}

/**
 * Adds `count` staged items in order, exactly as `count` single adds would:
 * flag i is 1 when item i set a bit (a repeat later in the batch gets 0).
 * Returns how many items were new.
 */
function addChunk(r: usize, count: u32, wide: bool, schemes: u32): u32 {
  const stride = probeStride(r);
  const group = touchGroup(stride);
  let fresh: u32 = 0;
  for (let first: u32 = 0; first < count; first += group) {
    const n = min<u32>(group, count - first);
    probeGroup(r, first, n, wide, stride, schemes);
    for (let j: u32 = 0; j < n; j++) {
      const isNew = countAdd(r, insertProbed(r, BATCH_PROBES_PTR + <usize>j * stride));
      store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>isNew);
      fresh += <u32>isNew;
    }
  }
  return fresh;
}

/** Items per group of a batch's has: their hashes (two u64s each) fill the batch probes region. */
const TEST_GROUP: u32 = 64;

/** A group's survivors after position 0 and after position 1 (xxh64), as u8 indexes after the group's hashes. */
const SURVIVORS_PTR: usize = BATCH_PROBES_PTR + (<usize>TEST_GROUP << 4);
const SURVIVORS_2_PTR: usize = SURVIVORS_PTR + <usize>TEST_GROUP;

/**
 * The xxh64 test of a group of `n` hashed items (h and a = h mod m in
 * their probe slots), a position at a time rather than an item at a time:
 * position 0 of every item, then position 1 of those whose position 0 was
 * set, then the rest of the walk for those whose position 1 was set too.
 * The survivors are listed without a branch (the index is written, and the
 * list grows by the bit), so an answer that is a coin toss in a filter at
 * its design load costs no misprediction, and each step's loads, which do
 * not depend on each other, are in flight at once; an item walked item by
 * item waits on each of its loads in turn. Position 1 is made as
 * assembly/probe.ts's enhancedDoubleFrom makes it (b = splitmix64(h) mod m,
 * a + b mod m, moved by one where it repeats position 0), and the last step
 * walks from the start state again, position 1 then read from the cache.
 * The same answers as testHashed, item by item.
 */
// @ts-ignore: decorator
@inline function testXxh64Group(r: usize, first: u32, n: u32): u32 {
  const m = schemeRecord(r).bits;
  const k = schemeRecord(r).hashes;
  const base = payloadOf(r);
  let going: u32 = 0;
  for (let j: u32 = 0; j < n; j++) {
    store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), 0);
    store<u8>(SURVIVORS_PTR + <usize>going, <u8>j);
    going += <u32>getBit(base, load<u64>(BATCH_PROBES_PTR + (<usize>j << 4), 8));
  }
  if (k == 1) {
    for (let t: u32 = 0; t < going; t++) store<u8>(BATCH_FLAGS_PTR + <usize>(first + <u32>load<u8>(SURVIVORS_PTR + <usize>t)), 1);
    return going;
  }
  let still: u32 = 0;
  for (let t: u32 = 0; t < going; t++) {
    const j = <u32>load<u8>(SURVIVORS_PTR + <usize>t);
    const slot = BATCH_PROBES_PTR + (<usize>j << 4);
    const a = load<u64>(slot, 8);
    const b = splitmix64(load<u64>(slot)) % m;
    // The hash is done with: its slot keeps b for the last step.
    store<u64>(slot, b);
    let p = a + b;
    p = select<u64>(p - m, p, p >= m);
    p = select<u64>(select<u64>(0, a + 1, a + 1 == m), p, p == a);
    store<u8>(SURVIVORS_2_PTR + <usize>still, <u8>j);
    still += <u32>getBit(base, p);
  }
  let found: u32 = 0;
  for (let t: u32 = 0; t < still; t++) {
    const j = <u32>load<u8>(SURVIVORS_2_PTR + <usize>t);
    const slot = BATCH_PROBES_PTR + (<usize>j << 4);
    const present = testEnhancedDoubleFrom(base, load<u64>(slot, 8), load<u64>(slot), m, k, PROBES_PTR);
    store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>present);
    found += <u32>present;
  }
  return found;
}

/** Tests `count` staged items; flag i is 1 when item i may have been added. Returns how many were. */
function hasChunk(r: usize, count: u32, wide: bool, schemes: u32): u32 {
  let found: u32 = 0;
  for (let first: u32 = 0; first < count; first += TEST_GROUP) {
    const n = min<u32>(TEST_GROUP, count - first);
    let touched: u32 = 0;
    for (let j: u32 = 0; j < n; j++) {
      touched += <u32>load<u8>(hashForTest(r, itemPtr(first + j), itemLength(first + j, wide), wide, BATCH_PROBES_PTR + (<usize>j << 4), schemes));
    }
    store<u32>(TOUCH_SINK_PTR, touched);
    if (xxh64In(schemes) && schemeRecord(r).scheme == SCHEME_XXH64) {
      found += testXxh64Group(r, first, n);
      continue;
    }
    for (let j: u32 = 0; j < n; j++) {
      const present = testHashed(r, BATCH_PROBES_PTR + (<usize>j << 4), schemes);
      store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>present);
      found += <u32>present;
    }
  }
  return found;
}

/** addChunk on record r: how many of the `count` staged items were new, or REFUSED (`schemes`: assembly/scheme.ts). */
// @ts-ignore: decorator
@inline export function addBatchCall(r: usize, generation: u32, count: u32, wide: bool, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  const fresh = addChunk(r, count, wide, schemes);
  return <i32>fresh;
}

/** hasChunk on record r: how many of the `count` staged items may have been added, or REFUSED. */
// @ts-ignore: decorator
@inline export function hasBatchCall(r: usize, generation: u32, count: u32, wide: bool, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>hasChunk(r, count, wide, schemes);
}
