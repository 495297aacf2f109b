// Hash once, probe many: an item's 64-bit XXH64 digest is computed once
// (digestItem, or digestBegin/digestUpdate/digestStream for a long one),
// under a seed given as an argument, in whatever instance holds the
// filters, and then handed to any number of filters of the xxh64 family
// (xxh64, sbbf), each of which turns it into its own probe record
// (assembly/scheme.ts's probeHash) without seeing the item again. Under
// poly and bytesum the hash itself depends on m, so they have no digest;
// the wrappers refuse them before calling in.
// The pure-TypeScript twin is src/reference/digest.ts.

import {
  BATCH_FLAGS_PTR, BATCH_MAX, BATCH_OFFSETS_PTR, BATCH_PROBES_PTR, POSITIONS_OUT_PTR, PROBES_PTR, SCRATCH_PTR,
} from "./layout";
import { countAdd } from "./filter";
import { splitmix64, xxh64, xxh64Begin, xxh64Digest, xxh64Update } from "./hash";
import { insertProbed, probeHash, SCHEME_SBBF, SCHEME_XXH64, testHash } from "./scheme";
import { headerOf, isLive, KIND_FILTER, named, payloadOf, REFUSED, schemeRecord } from "./record";
import { sbbfCheck } from "./sbbf";
import { PLACED_BYTES, placeFirstTwo, readFirstTwo, unwalkable } from "./chain";

/** The seed hi:lo as one u64. */
// @ts-ignore: decorator
@inline function seedOf(lo: u32, hi: u32): u64 {
  return (<u64>hi << 32) | <u64>lo;
}

/** XXH64 of the `len` bytes in scratch under seed hi:lo, stored as a little-endian u64 at positionsPtr. */
export function digestItem(len: u32, seedLo: u32, seedHi: u32): void {
  store<u64>(POSITIONS_OUT_PTR, xxh64(SCRATCH_PTR, len, seedOf(seedLo, seedHi)));
}

/** Starts the digest of an item too long for scratch, under seed hi:lo. */
export function digestBegin(seedLo: u32, seedHi: u32): void {
  xxh64Begin(seedOf(seedLo, seedHi));
}

/** Feeds the next `len` bytes of scratch to the digest begun by digestBegin. */
export function digestUpdate(len: u32): void {
  xxh64Update(SCRATCH_PTR, len);
}

/** Ends the digest begun by digestBegin, stored as digestItem stores it. */
export function digestStream(): void {
  store<u64>(POSITIONS_OUT_PTR, xxh64Digest());
}


/** Records per block of a walk: their placed first steps fill the start of scratch. */
const WALK_BLOCK: u32 = 512;

/** xxh64 survivors of the first step whose later positions are made and read together, two a round (readGroup). */
const GROUP: u32 = 64;

/**
 * Scratch after the placed block: per group member a slot of its walk's
 * state (GROUP_SLOT bytes, the fields below), then its positions so far.
 */
const GROUP_SLOT: usize = 48;
const GROUP_PTR: usize = SCRATCH_PTR + <usize>WALK_BLOCK * PLACED_BYTES;
const GROUP_POSITIONS_PTR: usize = GROUP_PTR + <usize>GROUP * GROUP_SLOT;

/** A group slot's fields: its bits' address, k and its flag's index (u32s); m, a, b and the seen mask (u64s). */
const SLOT_BASE: usize = 0;
const SLOT_K: usize = 4;
const SLOT_FLAG: usize = 8;
const SLOT_M: usize = 16;
const SLOT_A: usize = 24;
const SLOT_B: usize = 32;
const SLOT_SEEN: usize = 40;

/** The block's survivors of the first step, as u16 indexes, listed without a branch. */
const SURVIVORS_PTR: usize = BATCH_PROBES_PTR;
/** A group's members still in play, as u8 indexes. */
const LIVE_PTR: usize = SURVIVORS_PTR + (<usize>WALK_BLOCK << 1);

/** Group member g's field at `field`. */
// @ts-ignore: decorator
@inline function groupField(g: u32, field: usize): usize {
  return GROUP_PTR + <usize>g * GROUP_SLOT + field;
}

/**
 * Takes record `r`, whose first two positions of the item are set, into
 * group slot g: its walk's state after position 1, as enhancedDoubleFrom
 * (assembly/probe.ts) has it then, from the first step's a = h mod m and
 * b = splitmix64(h) mod m; its later positions are made one step at a
 * time by readGroup, only as far as its bits stay set.
 */
// @ts-ignore: decorator
@inline function joinGroup(g: u32, r: usize, flag: u32, a: u64, b: u64): void {
  const m = schemeRecord(r).bits;
  const k = schemeRecord(r).hashes;
  store<u32>(groupField(g, SLOT_BASE), <u32>payloadOf(r));
  store<u32>(groupField(g, SLOT_K), <u32>k);
  store<u32>(groupField(g, SLOT_FLAG), flag);
  store<u64>(groupField(g, SLOT_M), m);
  // Position 1: a + b mod m, moved by one where it repeats position 0 (the
  // first step read it so); the state goes on from a + b, b + 1.
  let a1 = a + b;
  a1 = select<u64>(a1 - m, a1, a1 >= m);
  let p1 = a1;
  if (p1 == a) p1 = p1 + 1 == m ? 0 : p1 + 1;
  let b1 = b + 1;
  if (b1 >= m) b1 %= m;
  store<u64>(groupField(g, SLOT_A), a1);
  store<u64>(groupField(g, SLOT_B), b1);
  store<u64>(groupField(g, SLOT_SEEN), (<u64>1 << (a & 63)) | (<u64>1 << (p1 & 63)));
  const positions = GROUP_POSITIONS_PTR + (<usize>g << 9);
  store<u64>(positions, a);
  store<u64>(positions, p1, 8);
}

/**
 * Group member g's position i (i >= 2), made from its state as
 * enhancedDoubleFrom (assembly/probe.ts) makes it, the repeat rule
 * included, and written after its positions so far; the state moves on.
 */
// @ts-ignore: decorator
@inline function nextPosition(g: u32, i: u32): u64 {
  const m = load<u64>(groupField(g, SLOT_M));
  let a = load<u64>(groupField(g, SLOT_A)) + load<u64>(groupField(g, SLOT_B));
  a = select<u64>(a - m, a, a >= m);
  let b = load<u64>(groupField(g, SLOT_B)) + <u64>i;
  if (b >= m) b %= m;
  store<u64>(groupField(g, SLOT_A), a);
  store<u64>(groupField(g, SLOT_B), b);
  const positions = GROUP_POSITIONS_PTR + (<usize>g << 9);
  const seen = load<u64>(groupField(g, SLOT_SEEN));
  let p = a;
  while ((seen >> (p & 63)) & 1) {
    let j: u32 = 0;
    while (j < i && load<u64>(positions + (<usize>j << 3)) != p) j++;
    if (j == i) break;
    p = p + 1 == m ? 0 : p + 1;
  }
  store<u64>(groupField(g, SLOT_SEEN), seen | (<u64>1 << (p & 63)));
  store<u64>(positions + (<usize>i << 3), p);
  return p;
}

/** Whether position p of group member g is set, as 1 or 0. */
// @ts-ignore: decorator
@inline function groupBit(g: u32, p: u64): u32 {
  const base = <usize>load<u32>(groupField(g, SLOT_BASE));
  return (<u32>load<u8>(base + <usize>(p >> 3)) >> <u32>(p & 7)) & 1;
}

/**
 * Reads positions 2 onwards of the `n` group members, two steps at a time:
 * each round makes the next two positions of every member still in play
 * and reads them; the round's reads are independent of one another, and
 * their bits only decide, without a branch, which members stay. A member
 * that reaches its k holds the item. Two positions a round rather than
 * one: a round waits for its reads, and half as many rounds wait half as
 * often, for a position made in vain where the first of the two is clear.
 */
function readGroup(n: u32): u32 {
  for (let g: u32 = 0; g < n; g++) store<u8>(LIVE_PTR + <usize>g, <u8>g);
  let live = n;
  let found: u32 = 0;
  for (let i: u32 = 2; live > 0; i += 2) {
    let going: u32 = 0;
    for (let t: u32 = 0; t < live; t++) {
      const g = <u32>load<u8>(LIVE_PTR + <usize>t);
      const k = load<u32>(groupField(g, SLOT_K));
      if (i >= k) {
        store<u8>(BATCH_FLAGS_PTR + <usize>load<u32>(groupField(g, SLOT_FLAG)), 1);
        found++;
        continue;
      }
      let bit = groupBit(g, nextPosition(g, i));
      if (i + 1 < k) bit &= groupBit(g, nextPosition(g, i + 1));
      store<u8>(LIVE_PTR + <usize>going, <u8>g);
      going += bit;
    }
    live = going;
  }
  return found;
}

/** The most records one probeRecords call takes: their (record, generation) pairs fill the batch offsets region. */
export const PROBE_RECORDS_MAX: u32 = (BATCH_MAX + 1) >> 1;

/** Record j of probeRecords' list: the address of pair j. */
// @ts-ignore: decorator
@inline function listed(j: u32): usize {
  return <usize>load<u32>(BATCH_OFFSETS_PTR + (<usize>j << 3));
}

/**
 * probeAll over `count` records (at most PROBE_RECORDS_MAX) listed as
 * (record, generation) pairs at the batch offsets region: flag j (batch
 * flags region) is 1 when record j may hold the item, 0 when it surely
 * does not, and 2 when the record is not a live Bloom filter of the xxh64
 * family with the first record's seed (JS asks those itself,
 * and a released one refuses by name). The item is the `len` bytes in scratch,
 * hashed here under the first record's seed, or when `len` is negative the
 * digest hi:lo; its digest is left at positionsPtr as digestItem leaves
 * it. In steps, as assembly/chain.ts explains: the first two positions of
 * every record of a block, then sbbf survivors in full (their other words
 * share the cache line just read) and xxh64 survivors two positions a round,
 * a group together. Returns how many may hold it. Scratch is overwritten.
 */
export function probeRecords(count: u32, len: i32, lo: u32, hi: u32): u32 {
  count = min<u32>(count, PROBE_RECORDS_MAX);
  if (count == 0) return 0;
  // The seed walked is the first live record's; a dead one is only flagged.
  let seed: u64 = 0;
  for (let j: u32 = 0; j < count; j++) {
    if (isLive(listed(j), load<u32>(BATCH_OFFSETS_PTR + (<usize>j << 3), 4))) {
      seed = schemeRecord(listed(j)).seed;
      break;
    }
  }
  const h = len >= 0 ? xxh64(SCRATCH_PTR, <usize>len, seed) : seedOf(lo, hi);
  store<u64>(POSITIONS_OUT_PTR, h);
  const s = splitmix64(h);
  let found: u32 = 0;
  for (let first: u32 = 0; first < count; first += WALK_BLOCK) {
    const n = min<u32>(WALK_BLOCK, count - first);
    // The records' headers first, in a loop of their own: each is a line of
    // its own in memory, and read together their misses overlap, so that
    // the arithmetic below finds them in cache. (The generation checked
    // here is in the same line.)
    for (let j = first; j < first + n; j++) {
      store<u8>(BATCH_FLAGS_PTR + <usize>j, <u8>isLive(listed(j), load<u32>(BATCH_OFFSETS_PTR + (<usize>j << 3), 4)));
    }
    for (let j: u32 = 0; j < n; j++) {
      const at = SCRATCH_PTR + <usize>j * PLACED_BYTES;
      if (load<u8>(BATCH_FLAGS_PTR + <usize>(first + j))) placeFirstTwo(listed(first + j), h, s, seed, at);
      else unwalkable(at);
    }
    // The flags of the first step, and its survivors listed without a
    // branch: a random quarter of an absent item's records survive it, a
    // test of each flag that the predictor would miss as often.
    let survivors: u32 = 0;
    for (let j: u32 = 0; j < n; j++) {
      const flag = readFirstTwo(SCRATCH_PTR + <usize>j * PLACED_BYTES);
      store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>flag);
      store<u16>(SURVIVORS_PTR + (<usize>survivors << 1), <u16>j);
      survivors += <u32>(flag == 1);
    }
    let grouped: u32 = 0;
    for (let t: u32 = 0; t < survivors; t++) {
      const j = <u32>load<u16>(SURVIVORS_PTR + (<usize>t << 1));
      const r = listed(first + j);
      if (schemeRecord(r).scheme == SCHEME_SBBF) {
        // The block's other words share the line just read: tested in full,
        // a plain filter's without a branch (assembly/sbbf.ts's sbbfCheck).
        const holds = sbbfCheck(payloadOf(r), h, schemeRecord(r).bits >> 8);
        store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), <u8>holds);
        found += <u32>holds;
        continue;
      }
      if (schemeRecord(r).hashes <= 2) {
        // Both of its positions are set: it holds the item.
        found++;
        continue;
      }
      store<u8>(BATCH_FLAGS_PTR + <usize>(first + j), 0);
      // From the first step's start state (assembly/chain.ts's placeFirstTwo): no remainder again.
      const placed = SCRATCH_PTR + <usize>j * PLACED_BYTES;
      joinGroup(grouped, r, first + j, load<u64>(placed, 16), load<u64>(placed, 24));
      if (++grouped == GROUP) {
        found += readGroup(grouped);
        grouped = 0;
      }
    }
    if (grouped > 0) found += readGroup(grouped);
  }
  return found;
}

/** Tests the item whose digest is hi:lo (two u32 halves: no BigInt at the boundary) in record r; REFUSED when r and generation name no live record. */
export function hasDigest(r: usize, generation: u32, lo: u32, hi: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>testHash(r, (<u64>hi << 32) | <u64>lo);
}

/** Adds the item whose digest is hi:lo to record r: 1 when a bit went from 0 to 1; REFUSED as hasDigest. */
export function addDigest(r: usize, generation: u32, lo: u32, hi: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  probeHash(r, (<u64>hi << 32) | <u64>lo, PROBES_PTR);
  return <i32>countAdd(r, insertProbed(r, PROBES_PTR));
}
