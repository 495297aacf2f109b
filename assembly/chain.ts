// Walks over many records in one call, which the one shared memory makes
// possible: every filter is a record of the same instance
// (assembly/record.ts), so an item is hashed once, here, and each record
// is probed with that hash. Two walks use it: a ScalableBloomFilter's
// members (has, hasMany, addMany, newest first, until one reports the
// item) and probeAll's list of filters (assembly/digest.ts's
// probeRecords).
//
// Each walk goes in two passes. The first (firstTwoAt) makes, for each
// record, the first two positions of its item and reads both, branching on
// no bit, so that the records' divisions and loads overlap instead of
// waiting on each other; an absent item, whose first two bits are both set
// in a half-full filter one time in four, leaves few records for the
// second pass, which tests each survivor as its own has() would.
// Members of the xxh64 family only (xxh64, sbbf): under poly and bytesum
// the hash depends on each member's m. The twin asks member by member
// (src/scalable/scalable-over.ts); the answers are the same.

import { BATCH_FLAGS_PTR, BATCH_OFFSETS_PTR, CHAIN_RECORDS_PTR, PROBES_PTR, SCRATCH_PTR } from "./layout";
import { bits, blocks, countAdd, hashes, scheme } from "./filter";
import { splitmix64, xxh64 } from "./hash";
import { testEnhancedDouble } from "./probe";
import { KIND_COUNTING, RECORD_BYTES, peek, unpeek } from "./record";
import { SALT0, SALT1, sbbfCheckScalar } from "./sbbf";
import { SCHEME_SBBF, insertProbed, probeHash } from "./scheme";
import { countingHasHash } from "./counting";

/** Members that the first pass takes at once: one bit each in a u64. */
const PASS_MAX: u32 = 64;

/** The 4-bit counter p of the counters at `base` is above 0, as 1 or 0. */
// @ts-ignore: decorator
@inline function counterSet(base: usize, p: u64): u32 {
  return ((<u32>load<u8>(base + <usize>(p >> 1)) >> (<u32>(p & 1) << 2)) & 15) != 0 ? 1 : 0;
}

/** Bit p of the bits at `base`, as 1 or 0. */
// @ts-ignore: decorator
@inline function bitSet(base: usize, p: u64): u32 {
  return (<u32>load<u8>(base + <usize>(p >> 3)) >> <u32>(p & 7)) & 1;
}

/**
 * Whether record `r` (a filter or a counting filter of the xxh64 family)
 * holds the first two positions of the item whose hash is h, with s =
 * splitmix64(h): under xxh64 the first two of enhanced double hashing
 * (assembly/probe.ts: a = h mod m, then a + (s mod m) mod m, moved by one
 * if it repeats a), under sbbf the bits of words 0 and 1 of its block.
 * Read from the record itself, without peeking; nothing branches on a bit.
 */
// @ts-ignore: decorator
@inline export function firstTwoAt(r: usize, h: u64, s: u64): u32 {
  const m = load<u64>(r);
  const base = r + <usize>RECORD_BYTES;
  const counting = load<u32>(r, 48) == KIND_COUNTING;
  let p: u64, q: u64;
  if (load<i32>(r, 44) == SCHEME_SBBF) {
    // Bit b of word i of block j is position 256 j + 32 i + b (assembly/sbbf.ts).
    const block = (((h >> 32) * (m >> 8)) >> 32) << 8;
    const key = <u32>h;
    p = block + <u64>((key * SALT0) >> 27);
    q = block + 32 + <u64>((key * SALT1) >> 27);
  } else {
    p = h % m;
    q = p + s % m;
    if (q >= m) q -= m;
    if (q == p) q = q + 1 == m ? 0 : q + 1;
    if (load<i32>(r, 40) == 1) q = p;
  }
  return counting ? counterSet(base, p) & counterSet(base, q) : bitSet(base, p) & bitSet(base, q);
}

/** Whether the record peeked at (assembly/record.ts's peek) holds every position of the item whose hash is h. */
// @ts-ignore: decorator
@inline export function reportsPeeked(h: u64, counting: bool): bool {
  if (counting) return countingHasHash(h);
  return scheme == SCHEME_SBBF ? sbbfCheckScalar(h, blocks) : testEnhancedDouble(h, bits, hashes, PROBES_PTR);
}

/** Member record i of the chain (oldest first). */
// @ts-ignore: decorator
@inline function member(i: u32): usize {
  return <usize>load<u32>(CHAIN_RECORDS_PTR + (<usize>i << 2));
}

/**
 * The index of the newest of the `count` members that reports the item
 * whose hash is h, or -1. The parameter globals are left peeked at some
 * member: the caller calls unpeek().
 */
function newestReporting(count: u32, h: u64): i32 {
  let maybe: u64 = ~(<u64>0);
  if (count <= PASS_MAX) {
    const s = splitmix64(h);
    maybe = 0;
    for (let i: u32 = 0; i < count; i++) maybe |= <u64>firstTwoAt(member(i), h, s) << <u64>i;
  }
  for (let i = <i32>count - 1; i >= 0; i--) {
    if (i < <i32>PASS_MAX && ((maybe >> <u64>i) & 1) == 0) continue;
    peek(member(<u32>i));
    if (reportsPeeked(h, false)) return i;
  }
  return -1;
}

/**
 * The item of `len` bytes in scratch, tested against the `count` members
 * listed as u32s at the chain records region (oldest first, all of one
 * seed): returns the index of the newest that reports it, or -1. The
 * records are only peeked at, so the selected one stays selected.
 */
export function chainHas(count: u32, len: u32): i32 {
  const hit = newestReporting(count, xxh64(SCRATCH_PTR, len, load<u64>(member(0), 8)));
  unpeek();
  return hit;
}

/** chainBatch's operations. */
const OP_ADD: u32 = 0;

/**
 * A chain's has (op 1) or add (op 0) of batch items [first, count): staged
 * as a batch (item i is scratch bytes [offsets[i], offsets[i+1]) of the
 * batch offsets region), or, when `hashed`, given by their digests as u64s
 * in scratch. Flag i goes to the batch flags region: has, whether a member
 * reports item i; add, whether it was new, which is exactly when no member
 * reports it, and then it is added to the newest member (the selected
 * record, which JS selected), at most `room` of them. Returns where it
 * stopped: `count`, or the first item that is new while the newest member
 * has no room left, for JS to start a member and call again from there.
 */
export function chainBatch(members: u32, first: u32, count: u32, room: f64, op: u32, hashed: bool): u32 {
  const seed = load<u64>(member(0), 8);
  let left = <u64>room;
  for (let i = first; i < count; i++) {
    let h: u64;
    if (hashed) h = load<u64>(SCRATCH_PTR + (<usize>i << 3));
    else {
      const start = load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2));
      const end = load<u32>(BATCH_OFFSETS_PTR + (<usize>(i + 1) << 2));
      h = xxh64(SCRATCH_PTR + <usize>start, <usize>(end - start), seed);
    }
    const hit = newestReporting(members, h);
    if (op != OP_ADD || hit >= 0) {
      store<u8>(BATCH_FLAGS_PTR + <usize>i, <u8>(op != OP_ADD && hit >= 0));
      continue;
    }
    unpeek();
    if (left == 0) return i;
    probeHash(h, PROBES_PTR);
    const fresh = countAdd(insertProbed(PROBES_PTR));
    store<u8>(BATCH_FLAGS_PTR + <usize>i, <u8>fresh);
    if (fresh) left--;
  }
  unpeek();
  return count;
}
