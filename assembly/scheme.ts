// The one place where the four schemes differ: the scheme ids, and per
// scheme how an item is hashed (one-shot or streamed), how its bits are set
// and tested, and which u64 its shard is chosen from. Everything else
// (assembly/index.ts, batch.ts, lines.ts, lines-filter.ts) calls these and
// never looks at the scheme. The pure-TypeScript twin is
// src/reference/scheme.ts.
//
// An item's "probe record" at `out` is what add and has need of it between
// hashing and probing: its k positions (u64 each) under xxh64, poly and
// bytesum, or its 64-bit hash under sbbf, whose eight positions all follow
// from the hash and one block (assembly/sbbf.ts).

import { BATCH_PROBES_BYTES, POSITIONS_OUT_PTR, PROBES_PTR } from "./layout";
import { setBit } from "./bit-array";
import { payloadOf, schemeRecord } from "./record";
import {
  byteSum, bytesumBegin, bytesumUpdate, polyBegin, polyH1, polyH2, polyUpdate, setStreamWide, streamWide,
  weightedSum, xxh64, xxh64Begin, xxh64Digest, xxh64Update,
} from "./hash";
import { probeDouble, probeEnhancedDouble, testDoubleAt, testEnhancedDouble, testEnhancedDoubleAt } from "./probe";
import { blockPtr, sbbfCheck, sbbfCheckScalar, sbbfInsert, sbbfInsertScalar, sbbfPositions } from "./sbbf";
import { lockStripe, stripeOf, unlockStripe } from "./stripe";
import { pairKey } from "./shard";

/** Scheme ids, part of the file format (src/filter/options.ts lists the names in this order). */
export const SCHEME_XXH64 = 0;
export const SCHEME_POLY = 1;
export const SCHEME_BYTESUM = 2;
export const SCHEME_SBBF = 3;

/*
 * `schemes`, the last parameter of every function below that hashes an
 * item, says which schemes the caller's module hashes: the xxh64 family
 * (xxh64, sbbf: XXH64_FAMILY), the exercise schemes (poly and bytesum, the
 * sums of assembly/hash.ts: EXERCISE_FAMILY), or both (EVERY_SCHEME). Each
 * module passes a constant: the core module (assembly/index.ts), whose
 * streams the cuckoo, binary fuse and sliding-window filters finish, and
 * the sliding-window filter's module XXH64_FAMILY, so that no poly or
 * bytesum code is compiled into them; the families that take every scheme
 * (the Bloom filter's, the counting filter's, line dedupe) and the shared
 * build EVERY_SCHEME. A constant argument is folded where the function is
 * inlined, and binaryen's dead argument elimination folds it into a
 * function every caller passes the same constant to: the branches the
 * module never takes are left out of its bytes, with no build of its own.
 */

/** The xxh64 family: xxh64 and sbbf, whose positions follow from one XXH64 hash. */
export const XXH64_FAMILY: u32 = 1;
/** The exercise schemes: poly and bytesum, whose positions follow from two sums. */
export const EXERCISE_FAMILY: u32 = 2;
/** Both. */
export const EVERY_SCHEME: u32 = 3;

/** Whether `schemes` holds the exercise schemes. */
// @ts-ignore: decorator
@inline export function sumsIn(schemes: u32): bool {
  return (schemes & EXERCISE_FAMILY) != 0;
}

/** Whether `schemes` holds the xxh64 family. */
// @ts-ignore: decorator
@inline export function xxh64In(schemes: u32): bool {
  return (schemes & XXH64_FAMILY) != 0;
}

/** Whether record `r` is of the poly scheme, for a module that hashes `schemes`. */
// @ts-ignore: decorator
@inline export function polySelected(r: usize, schemes: u32): bool {
  return sumsIn(schemes) && schemeRecord(r).scheme == SCHEME_POLY;
}

/** Whether record `r` is of the bytesum scheme, for a module that hashes `schemes`. */
// @ts-ignore: decorator
@inline export function bytesumSelected(r: usize, schemes: u32): bool {
  return sumsIn(schemes) && schemeRecord(r).scheme == SCHEME_BYTESUM;
}

/** The number of 256-bit blocks of record `r` under sbbf (assembly/sbbf.ts): m / 256. */
// @ts-ignore: decorator
@inline export function blocksOf(r: usize): u64 {
  return schemeRecord(r).bits >> 8;
}

/*
 * insertItem and testItem, the single add and has of an item, are each
 * inlined into all of their callers (the calls on bytes and on strings read
 * in place) with the xxh64 family's hashing and probing: speed, paid in
 * bytes of each caller. The exercises' schemes, poly and bytesum, are
 * called (sumsForTest, sumsTestItem, sumsStreamTest, probeItem): their
 * loops over the item dwarf a call, and inlined they repeated in each.
 */

/** The 64-bit key of the last probed item that its shard is chosen from (see assembly/shard.ts). */
export let itemKey: u64 = 0;

/** Probe positions from the poly or bytesum pair, and the pair's shard key. */
// @ts-ignore: decorator
@inline function probePair(r: usize, h1: u64, h2: u64, key1: u64, out: usize): void {
  itemKey = pairKey(key1, h2);
  probeDouble(h1, h2, schemeRecord(r).bits, schemeRecord(r).hashes, out);
}

/** The probe record from a finished 64-bit hash (xxh64 and sbbf); assembly/digest.ts calls it with a digest. */
// @ts-ignore: decorator
@inline export function probeHash(r: usize, h: u64, out: usize): void {
  itemKey = h;
  if (schemeRecord(r).scheme == SCHEME_SBBF) store<u64>(out, h);
  else probeEnhancedDouble(h, schemeRecord(r).bits, schemeRecord(r).hashes, out);
}

/** Hashes `len` units at `ptr` (u16 code units when `wide`) into its probe record at `out`. */
export function probeItem(r: usize, ptr: usize, len: usize, wide: bool, out: usize, schemes: u32): void {
  if (polySelected(r, schemes)) {
    polyBegin();
    polyUpdate(ptr, len, wide);
    probePair(r, polyH1(), polyH2(), polyH1(), out);
  } else if (bytesumSelected(r, schemes)) {
    bytesumBegin();
    bytesumUpdate(ptr, len, schemeRecord(r).bits);
    probePair(r, byteSum(), weightedSum(), byteSum() % schemeRecord(r).bits, out);
  } else {
    probeHash(r, xxh64(ptr, len, schemeRecord(r).seed), out);
  }
}

/** Starts a streamed item, for items longer than the scratch region or lines split across chunks. */
export function streamBegin(r: usize, wide: bool, schemes: u32): void {
  setStreamWide(wide);
  if (polySelected(r, schemes)) polyBegin();
  else if (bytesumSelected(r, schemes)) bytesumBegin();
  else xxh64Begin(schemeRecord(r).seed);
}

/** Feeds the next `len` units at `ptr` of a streamed item. */
export function streamFeed(r: usize, ptr: usize, len: usize, schemes: u32): void {
  if (polySelected(r, schemes)) {
    polyUpdate(ptr, len, streamWide());
  } else if (bytesumSelected(r, schemes)) {
    // bytesumUpdate takes at most 64 KiB per call (its overflow bound).
    while (len > 0) {
      const n = min<usize>(len, 65536);
      bytesumUpdate(ptr, n, schemeRecord(r).bits);
      ptr += n;
      len -= n;
    }
  } else {
    xxh64Update(ptr, len);
  }
}

/** Finishes a streamed item into its probe record at `out`. */
export function streamProbe(r: usize, out: usize, schemes: u32): void {
  if (polySelected(r, schemes)) probePair(r, polyH1(), polyH2(), polyH1(), out);
  else if (bytesumSelected(r, schemes)) probePair(r, byteSum(), weightedSum(), byteSum() % schemeRecord(r).bits, out);
  else probeHash(r, xxh64Digest(), out);
}

/** Sets the bits of the probe record at `out`; returns how many went from 0 to 1. */
// @ts-ignore: decorator
@inline export function insertProbed(r: usize, out: usize): u32 {
  if (ASC_FEATURE_THREADS) {
    // The shared build: exactly once, under the item's stripe lock (assembly/stripe.ts).
    const word = stripeOf(load<u64>(out));
    lockStripe(word);
    const fresh = insertProbedBits(r, out);
    unlockStripe(word);
    return fresh;
  }
  return insertProbedBits(r, out);
}

/** Sets the bits of the probe record at `out`; returns how many went from 0 to 1. */
// @ts-ignore: decorator
@inline function insertProbedBits(r: usize, out: usize): u32 {
  const base = payloadOf(r);
  if (schemeRecord(r).scheme == SCHEME_SBBF) return sbbfInsert(base, load<u64>(out), blocksOf(r));
  const k = schemeRecord(r).hashes;
  let fresh: u32 = 0;
  for (let i = 0; i < k; i++) fresh += <u32>setBit(base, load<u64>(out + (<usize>i << 3)));
  return fresh;
}

/** Bytes of one probe record: the u64 hash under sbbf, k u64 positions otherwise. */
// @ts-ignore: decorator
@inline export function probeStride(r: usize): usize {
  return schemeRecord(r).scheme == SCHEME_SBBF ? 8 : <usize>schemeRecord(r).hashes << 3;
}

/** Records per touched group, at most: enough loads in flight to keep every miss buffer of the core busy. */
const TOUCH_GROUP: u32 = 64;

/**
 * Records per group of a batch with records `stride` bytes long: TOUCH_GROUP,
 * or fewer when k positions make a record too long for the batch probes
 * region (an sbbf record is one u64, so its groups are always full).
 */
// @ts-ignore: decorator
@inline export function touchGroup(stride: usize): u32 {
  return <u32>min<usize>(<usize>TOUCH_GROUP, BATCH_PROBES_BYTES / stride);
}

/**
 * Reads the memory that the probe record at `out` will test and set, and
 * returns what it read (for the caller to fold into a sink, so that the
 * loads stay): the item's one block under sbbf, the byte of each position
 * otherwise. It decides nothing. Run over a group of records before they
 * are set one by one, it issues the group's cache misses together, which
 * the CPU overlaps (wasm has no prefetch instruction; a load is the
 * prefetch).
 */
// @ts-ignore: decorator
@inline export function touchProbed(r: usize, out: usize): u32 {
  if (schemeRecord(r).scheme == SCHEME_SBBF) return load<u32>(blockPtr(payloadOf(r), load<u64>(out), blocksOf(r)));
  const base = payloadOf(r);
  const k = schemeRecord(r).hashes;
  let sum: u32 = 0;
  for (let i = 0; i < k; i++) sum += <u32>load<u8>(base + <usize>(load<u64>(out + (<usize>i << 3)) >> 3));
  return sum;
}

/** Writes the positions of the probe record at `out` as doubles (exact: positions < 2^35). */
export function exportProbed(r: usize, out: usize): void {
  if (schemeRecord(r).scheme == SCHEME_SBBF) sbbfPositions(load<u64>(out), blocksOf(r), out);
  const k = schemeRecord(r).hashes;
  for (let i = 0; i < k; i++) {
    store<f64>(POSITIONS_OUT_PTR + (<usize>i << 3), <f64>load<u64>(out + (<usize>i << 3)));
  }
}

/** Finishes a streamed item and adds it; returns how many bits went from 0 to 1. */
// @ts-ignore: decorator
@inline export function streamInsert(r: usize, schemes: u32): u32 {
  streamProbe(r, PROBES_PTR, schemes);
  return insertProbed(r, PROBES_PTR);
}

/** Finishes a streamed item and tests it. */
// @ts-ignore: decorator
@inline export function streamTest(r: usize, schemes: u32): bool {
  if (polySelected(r, schemes) || bytesumSelected(r, schemes)) return sumsStreamTest(r, schemes);
  hashedForTest(r, xxh64Digest(), 0, PROBES_PTR, schemes);
  return testHashed(r, PROBES_PTR, schemes);
}

/** streamTest under poly and bytesum: a call of its own, as sumsForTest is. */
function sumsStreamTest(r: usize, schemes: u32): bool {
  if (polySelected(r, schemes)) hashedForTest(r, polyH1(), polyH2(), PROBES_PTR, schemes);
  else hashedForTest(r, byteSum(), weightedSum(), PROBES_PTR, schemes);
  return testHashed(r, PROBES_PTR, schemes);
}

/** Adds the item of `len` units at `ptr`; returns how many bits went from 0 to 1. */
// @ts-ignore: decorator
@inline export function insertItem(r: usize, ptr: usize, len: usize, wide: bool, out: usize, schemes: u32): u32 {
  // sbbf skips the probe record, word by word, as testHash does (except
  // in the shared build, whose stripe lock is taken from the record).
  if (xxh64In(schemes) && schemeRecord(r).scheme == SCHEME_SBBF && !ASC_FEATURE_THREADS) return sbbfInsertScalar(payloadOf(r), xxh64(ptr, len, schemeRecord(r).seed), blocksOf(r));
  probeItem(r, ptr, len, wide, out, schemes);
  return insertProbed(r, out);
}

/**
 * What testHashed needs of the item of `len` units at `ptr`, as two u64s
 * at `out`: the 64-bit hash and position 0 under xxh64, the hash under
 * sbbf, position 0 and h2 under poly and bytesum. Returns the address its
 * first probe reads, for a batch's touch pass (assembly/batch.ts).
 */
// @ts-ignore: decorator
@inline export function hashForTest(r: usize, ptr: usize, len: usize, wide: bool, out: usize, schemes: u32): usize {
  if (polySelected(r, schemes) || bytesumSelected(r, schemes)) return sumsForTest(r, ptr, len, wide, out, schemes);
  return hashedForTest(r, xxh64(ptr, len, schemeRecord(r).seed), 0, out, schemes);
}

/**
 * hashForTest under poly and bytesum, the exercises' schemes: a call of its
 * own where the xxh64 family's hashing is inlined, so that the calls of a
 * module that hashes every scheme carry the sums once, not once each.
 */
function sumsForTest(r: usize, ptr: usize, len: usize, wide: bool, out: usize, schemes: u32): usize {
  if (polySelected(r, schemes)) {
    polyBegin();
    polyUpdate(ptr, len, wide);
    return hashedForTest(r, polyH1(), polyH2(), out, schemes);
  }
  bytesumBegin();
  bytesumUpdate(ptr, len, schemeRecord(r).bits);
  return hashedForTest(r, byteSum(), weightedSum(), out, schemes);
}

/** hashForTest from the item's hashes, made already: h1 and h2 under poly and bytesum, h1 alone under xxh64 and sbbf. */
// @ts-ignore: decorator
@inline function hashedForTest(r: usize, h1: u64, h2: u64, out: usize, schemes: u32): usize {
  if (xxh64In(schemes) && schemeRecord(r).scheme == SCHEME_SBBF) {
    store<u64>(out, h1);
    return blockPtr(payloadOf(r), h1, blocksOf(r));
  }
  // Position 0 (h1 mod m under every scheme here) is kept for testHashed,
  // so that a batch pays no more remainders than a single has: a 64-bit
  // remainder is the slowest instruction of the walk.
  const a = h1 % schemeRecord(r).bits;
  if (xxh64In(schemes) && (!sumsIn(schemes) || schemeRecord(r).scheme == SCHEME_XXH64)) {
    store<u64>(out, h1);
    store<u64>(out, a, 8);
  } else {
    store<u64>(out, a);
    store<u64>(out, h2, 8);
  }
  return payloadOf(r) + <usize>(a >> 3);
}

/**
 * has() from the hashes hashForTest left at `out`: the one test of an item
 * per scheme for a single, streamed or digest has (testHash) and a batch's
 * under sbbf, poly and bytesum. Each position is tested as soon as it is
 * made and the first clear bit answers, so an absent item skips the rest
 * of its probes. The other shapes have a walk of their own, each measured
 * faster for its shape than this one: an xxh64 batch's, a position at a
 * time over a group of items (assembly/batch.ts); probeAll's, over many
 * records (assembly/digest.ts); a chain's, over its members
 * (assembly/chain.ts).
 */
// @ts-ignore: decorator
@inline export function testHashed(r: usize, out: usize, schemes: u32): bool {
  const first = load<u64>(out);
  if (xxh64In(schemes) && schemeRecord(r).scheme == SCHEME_SBBF) return sbbfCheck(payloadOf(r), first, blocksOf(r));
  if (!sumsIn(schemes) || (xxh64In(schemes) && schemeRecord(r).scheme == SCHEME_XXH64)) return testEnhancedDoubleAt(payloadOf(r), load<u64>(out, 8), first, schemeRecord(r).bits, schemeRecord(r).hashes, PROBES_PTR);
  // Under poly and bytesum, the first slot holds position 0 itself.
  return testDoubleAt(payloadOf(r), first, load<u64>(out, 8), schemeRecord(r).bits, schemeRecord(r).hashes);
}

/** has() of the item whose 64-bit hash is h (xxh64 and sbbf) in filter `r`: a single, streamed or digest has. */
// @ts-ignore: decorator
@inline export function testHash(r: usize, h: u64): bool {
  return testHashUnder(r, schemeRecord(r).scheme, h);
}

/** testHash, given the record's scheme, read once by a caller that needed it before the hash. */
// @ts-ignore: decorator
@inline function testHashUnder(r: usize, scheme: i32, h: u64): bool {
  // Word by word under sbbf, the shorter chain from the hash to the answer
  // for a single has (assembly/sbbf.ts); a batch keeps the v128 check
  // (testHashed), which overlaps many items.
  return scheme == SCHEME_SBBF ? sbbfCheckScalar(payloadOf(r), h, blocksOf(r)) : testEnhancedDouble(payloadOf(r), h, schemeRecord(r).bits, schemeRecord(r).hashes, PROBES_PTR);
}

/** True when the item of `len` units at `ptr` may have been added: the single-item has. */
// @ts-ignore: decorator
@inline export function testItem(r: usize, ptr: usize, len: usize, wide: bool, out: usize, schemes: u32): bool {
  // The xxh64 family straight from the hash, as a digest's has: no round
  // trip of the hash through the probe record.
  const scheme = schemeRecord(r).scheme;
  if (!sumsIn(schemes) || (scheme != SCHEME_POLY && scheme != SCHEME_BYTESUM)) return testHashUnder(r, scheme, xxh64(ptr, len, schemeRecord(r).seed));
  return sumsTestItem(r, ptr, len, wide, out, schemes);
}

/** testItem under poly and bytesum: a call of its own, as sumsForTest is. */
function sumsTestItem(r: usize, ptr: usize, len: usize, wide: bool, out: usize, schemes: u32): bool {
  hashForTest(r, ptr, len, wide, out, schemes);
  return testHashed(r, out, schemes);
}
