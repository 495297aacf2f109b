// Hash once, probe many: an item's 64-bit XXH64 digest is computed once
// (digestItem, digestStream) and then handed to any number of filters of the
// xxh64 family (xxh64, sbbf), each of which turns it into its own probe
// record (assembly/scheme.ts's probeHash) without seeing the item again. Under poly and bytesum the hash itself
// depends on m, so they have no digest; the wrappers refuse them before
// calling in.
// The pure-TypeScript twin is src/reference/digest.ts.

import {
  BATCH_FLAGS_PTR, BATCH_GROUP, BATCH_MAX, BATCH_OFFSETS_PTR, BATCH_PROBES_PTR, MAX_HASHES,
  POSITIONS_OUT_PTR, PROBES_PTR, SCRATCH_PTR,
} from "./layout";
import { countAdd, seed } from "./filter";
import { xxh64, xxh64Digest } from "./hash";
import { TOUCH_SINK_PTR, insertProbed, probeHash, probeStride, testProbed, touchGroup, touchProbed } from "./scheme";

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
 * The probe records of digests [first, first + n) of scratch, into the
 * batch probes region `stride` bytes apart, and then their bits touched
 * together, so that the group's cache misses overlap before the records
 * are tested or set one by one (assembly/scheme.ts's touchProbed).
 */
// @ts-ignore: decorator
@inline function probeDigestGroup(first: u32, n: u32, stride: usize): void {
  for (let j: u32 = 0; j < n; j++) {
    probeHash(load<u64>(SCRATCH_PTR + (<usize>(first + j) << 3)), BATCH_PROBES_PTR + <usize>j * stride);
  }
  let touched: u32 = 0;
  for (let j: u32 = 0; j < n; j++) touched += touchProbed(BATCH_PROBES_PTR + <usize>j * stride);
  store<u32>(TOUCH_SINK_PTR, touched);
}


/**
 * Tests `count` items given by their digests, staged in scratch as u64s
 * (at most BATCH_MAX); flag i goes to the batch flags region. Returns how
 * many may be present.
 */
export function hasDigestBatch(count: u32): u32 {
  count = min<u32>(count, BATCH_MAX);
  const stride = probeStride();
  const group = touchGroup(stride);
  let found: u32 = 0;
  for (let first: u32 = 0; first < count; first += group) {
    const n = min<u32>(group, count - first);
    probeDigestGroup(first, n, stride);
    for (let j: u32 = 0; j < n; j++) {
      const present = testProbed(BATCH_PROBES_PTR + <usize>j * stride);
      store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>present);
      found += <u32>present;
    }
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
 * The groups' touch passes only read, so a repeat within a group still
 * finds the bits its first occurrence set.
 */
export function addDigestBatch(count: u32): u32 {
  count = min<u32>(count, BATCH_MAX);
  const stride = probeStride();
  const group = touchGroup(stride);
  let fresh: u32 = 0;
  for (let first: u32 = 0; first < count; first += group) {
    const n = min<u32>(group, count - first);
    probeDigestGroup(first, n, stride);
    for (let j: u32 = 0; j < n; j++) {
      const isNew = countAdd(insertProbed(BATCH_PROBES_PTR + <usize>j * stride));
      store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>isNew);
      fresh += <u32>isNew;
    }
  }
  return fresh;
}
