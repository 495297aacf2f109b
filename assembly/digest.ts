// Hash once, probe many: an item's 64-bit XXH64 digest is computed once
// (digestItem, digestStream) and then handed to any number of filters of the
// xxh64 family (xxh64, sbbf), each of which turns it into its own probe
// record (assembly/scheme.ts's probeHash) without seeing the item again. Under poly and bytesum the hash itself
// depends on m, so they have no digest; the wrappers refuse them before
// calling in.
// The pure-TypeScript twin is src/reference/digest.ts.

import {
  BATCH_FLAGS_PTR, BATCH_GROUP, BATCH_MAX, BATCH_OFFSETS_PTR, BATCH_PROBES_PTR, MAX_HASHES, POSITIONS_OUT_PTR, PROBES_PTR, SCRATCH_PTR,
} from "./layout";
import { countAdd, seed } from "./filter";
import { xxh64, xxh64Digest } from "./hash";
import { probeEnhancedDouble } from "./probe";
import { sbbfPositions } from "./sbbf";
import { insertProbed, probeHash, testProbed } from "./scheme";

/** XXH64 of the `len` bytes in scratch under the instance's seed, stored as a little-endian u64 at positionsPtr. */
export function digestItem(len: u32): void {
  store<u64>(POSITIONS_OUT_PTR, xxh64(SCRATCH_PTR, len, seed));
}

/** digestItem for a streamed item (after streamBegin and streamUpdate). */
export function digestStream(): void {
  store<u64>(POSITIONS_OUT_PTR, xxh64Digest());
}

/** Tests the item whose digest is hi:lo (two u32 halves: no BigInt at the boundary). */
export function hasDigest(lo: u32, hi: u32): bool {
  probeHash((<u64>hi << 32) | <u64>lo, PROBES_PTR);
  return testProbed(PROBES_PTR);
}

/** Adds the item whose digest is hi:lo; true when a bit went from 0 to 1. */
export function addDigest(lo: u32, hi: u32): bool {
  probeHash((<u64>hi << 32) | <u64>lo, PROBES_PTR);
  return countAdd(insertProbed(PROBES_PTR));
}

/** placeAll's layout flag for a filter of the sbbf scheme (positions from one block). */
const PLACE_SBBF: u32 = 0x100;

/**
 * Places one digest in `count` filters at once, for probeAll: filters live
 * in other instances, so this instance computes their positions and JS
 * reads their bits in place. The table at scratch holds, per filter, f64 m,
 * u32 k and u32 layout: the width (1: packed bits, 4: 4-bit counters), plus
 * PLACE_SBBF under the sbbf scheme (else xxh64's probes). Filter j's k
 * positions p go, in probe order after filter j-1's, to the batch offsets
 * region as u32 byte offsets (p * width / 8) and to the batch flags region
 * as u8 masks of the bits that hold p. The caller keeps the sum of k within
 * BATCH_MAX. Returns that sum.
 */
export function placeAll(lo: u32, hi: u32, count: u32): u32 {
  const h = (<u64>hi << 32) | <u64>lo;
  let at: usize = 0;
  for (let j: u32 = 0; j < count; j++) {
    const entry = SCRATCH_PTR + (<usize>j << 4);
    const m = <u64>load<f64>(entry);
    const k = <i32>load<u32>(entry, 8);
    const layout = load<u32>(entry, 12);
    const width = layout & 0xff;
    if (layout & PLACE_SBBF) sbbfPositions(h, m >> 8, PROBES_PTR);
    else probeEnhancedDouble(h, m, k, PROBES_PTR);
    for (let i = 0; i < k; i++) {
      const p = load<u64>(PROBES_PTR + (<usize>i << 3));
      if (width == 1) {
        store<u32>(BATCH_OFFSETS_PTR + (at << 2), <u32>(p >> 3));
        store<u8>(BATCH_FLAGS_PTR + at, <u8>(<u32>1 << <u32>(p & 7)));
      } else {
        store<u32>(BATCH_OFFSETS_PTR + (at << 2), <u32>(p >> 1));
        store<u8>(BATCH_FLAGS_PTR + at, <u8>(<u32>15 << (<u32>(p & 1) << 2)));
      }
      at++;
    }
  }
  return <u32>at;
}

/** The most items per digestBatch call: their digests fill the batch probes region. */
export const DIGEST_BATCH_MAX: u32 = <u32>((<usize>BATCH_GROUP * <usize>MAX_HASHES));

/**
 * Digests `count` (at most DIGEST_BATCH_MAX) items staged as a batch (item
 * i is scratch bytes [offsets[i], offsets[i+1]) of the batch offsets
 * region), as u64s at the batch probes region, in order.
 */
export function digestBatch(count: u32): void {
  count = min<u32>(count, DIGEST_BATCH_MAX);
  for (let i: u32 = 0; i < count; i++) {
    const start = load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2));
    const end = load<u32>(BATCH_OFFSETS_PTR + (<usize>(i + 1) << 2));
    store<u64>(BATCH_PROBES_PTR + (<usize>i << 3), xxh64(SCRATCH_PTR + <usize>start, <usize>(end - start), seed));
  }
}

/**
 * Tests `count` items given by their digests, staged in scratch as u64s
 * (at most BATCH_MAX); flag i goes to the batch flags region. Returns how
 * many may be present.
 */
export function hasDigestBatch(count: u32): u32 {
  count = min<u32>(count, BATCH_MAX);
  let found: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    probeHash(load<u64>(SCRATCH_PTR + (<usize>i << 3)), PROBES_PTR);
    const present = testProbed(PROBES_PTR);
    store<u8>(BATCH_FLAGS_PTR + <usize>i, <u8>present);
    found += <u32>present;
  }
  return found;
}

/** DIGEST_BATCH_MAX, for JS. */
export function digestBatchMax(): u32 {
  return DIGEST_BATCH_MAX;
}

/** Offset of digestBatch's output: u64[DIGEST_BATCH_MAX] (the batch probes region). */
export function digestBatchPtr(): usize {
  return BATCH_PROBES_PTR;
}

/**
 * Adds `count` items given by their digests, staged in scratch as u64s (at
 * most BATCH_MAX), in order, exactly as `count` addDigest calls would: flag
 * i (batch flags region) is 1 when item i set a bit. Returns how many did.
 */
export function addDigestBatch(count: u32): u32 {
  count = min<u32>(count, BATCH_MAX);
  let fresh: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    probeHash(load<u64>(SCRATCH_PTR + (<usize>i << 3)), PROBES_PTR);
    const isNew = countAdd(insertProbed(PROBES_PTR));
    store<u8>(BATCH_FLAGS_PTR + <usize>i, <u8>isNew);
    fresh += <u32>isNew;
  }
  return fresh;
}
