// Walks over many records in one call, which the one shared memory makes
// possible: every filter is a record of the same instance
// (assembly/record.ts), so an item is hashed once, here, and each record
// is probed with that hash. Two walks use it: a ScalableBloomFilter's
// members (has, hasMany, addMany) and probeAll's list of filters
// (assembly/digest.ts's probeRecords).
//
// Written for the memory system: with many filters nearly every read
// misses the cache, and what makes a walk slow is a read whose bit decides
// a branch before the next record's read is issued, so that the misses wait
// for one another. So a walk goes in steps, each in two passes: the
// arithmetic for every record still in play (placeFirstTwo), then a tight
// loop of reads alone (readFirstTwo), whose bits only decide, without a
// branch, which records stay. The first step reads the first two positions
// of every record: an absent item, whose first two bits are both set in a
// half-full filter one time in four, leaves few records. probeAll then
// reads the later positions of the xxh64 survivors two steps a round the
// same way (assembly/digest.ts); a chain gives its survivors a second step
// (positions 2 and 3, or the rest of the sbbf block) and tests the few left
// as their own has() would, both from the first step's start state, so a
// survivor takes no remainder again. (The remainder is i64.rem_u: a float64
// quotient with an exact correction, tried in this walk, was slower on the
// machine measured, and so was a Barrett reduction by a reciprocal kept in
// each record, whose 64 x 64-bit high product takes four multiplications
// in wasm. What cost the walk was branches the predictor cannot learn:
// a + b wrapping past m, true half the time, and the test of which members
// survived, true for a random quarter. Both are gone: the wrap is a
// select, and the survivors are the set bits of the first step's mask.)
// Members of the xxh64 family only (xxh64, sbbf): under poly and bytesum
// the hash depends on each member's m. The twin asks member by member
// (src/scalable/scalable-over.ts); the answers are the same.

import { BATCH_FLAGS_PTR, BATCH_MAX, BATCH_OFFSETS_PTR, BATCH_PROBES_PTR, CHAIN_MAX, CHAIN_RECORDS_PTR, PROBES_PTR, SCRATCH_PTR } from "./layout";
import { countAdd } from "./filter";
import { splitmix64, xxh64 } from "./hash";
import { testEnhancedDoubleFrom } from "./probe";
import { KIND_FILTER, headerOf, isLive, payloadOf, schemeRecord } from "./record";
import { SALT0, SALT1, sbbfCheck } from "./sbbf";
import { SCHEME_SBBF, SCHEME_XXH64, insertProbed, probeHash, testHash } from "./scheme";

/** Bytes per record of placeFirstTwo's output: two byte addresses and their shifts and mask, then under xxh64 its start state a and b (u64s at +16, +24). */
export const PLACED_BYTES: usize = 32;

/** A placed record that the walk cannot answer (another seed or scheme, another kind). */
const UNWALKABLE: u32 = 1 << 24;

/** Places a record the walk cannot answer: its reads are of scratch, its flag 2. */
// @ts-ignore: decorator
@inline export function unwalkable(at: usize): void {
  store<u32>(at, <u32>SCRATCH_PTR);
  store<u32>(at, <u32>SCRATCH_PTR, 4);
  store<u32>(at, UNWALKABLE, 8);
}

/**
 * The first step's arithmetic for record `r` and the item whose hash is h
 * (s = splitmix64(h)), written to `at`: the byte addresses of its first
 * two positions, and per position the shift and mask that isolate its
 * bit. Under xxh64 the first two
 * of enhanced double hashing (assembly/probe.ts: a = h mod m, then
 * a + (s mod m) mod m, moved by one if it repeats a; k = 1 reads a twice;
 * a and b = s mod m are kept for a survivor's later positions), under sbbf the bits of words 0
 * and 1 of its block. A record of another
 * seed, scheme or kind is marked UNWALKABLE and reads scratch instead.
 */
// @ts-ignore: decorator
@inline export function placeFirstTwo(r: usize, h: u64, s: u64, seed: u64, at: usize): void {
  const kind = headerOf(r).kind;
  const record = schemeRecord(r);
  const m = record.bits;
  const schemeId = record.scheme;
  // The kind is tested first: a record of another kind may have no seed
  // or scheme. A counting filter's counters are its module's to read
  // (assembly/counting-module.ts): JS asks it.
  if (kind != KIND_FILTER || record.seed != seed || (schemeId != SCHEME_XXH64 && schemeId != SCHEME_SBBF)) {
    unwalkable(at);
    return;
  }
  let p: u64, q: u64;
  if (schemeId == SCHEME_SBBF) {
    // Bit b of word i of block j is position 256 j + 32 i + b (assembly/sbbf.ts).
    const block = (((h >> 32) * (m >> 8)) >> 32) << 8;
    const key = <u32>h;
    p = block + <u64>((key * SALT0) >> 27);
    q = block + 32 + <u64>((key * SALT1) >> 27);
  } else {
    p = h % m;
    const b = s % m;
    store<u64>(at, p, 16);
    store<u64>(at, b, 24);
    q = p + b;
    // A select: q wraps about half the time, which a branch would mispredict as often.
    q = select<u64>(q - m, q, q >= m);
    if (q == p) q = q + 1 == m ? 0 : q + 1;
    if (schemeRecord(r).hashes == 1) q = p;
  }
  const base = <u32>payloadOf(r);
  store<u32>(at, base + <u32>(p >> 3));
  store<u32>(at, base + <u32>(q >> 3), 4);
  store<u32>(at, <u32>(p & 7) | (<u32>(q & 7) << 8) | (1 << 16), 8);
}

/** The first step's reads for the record placed at `at`: 1 when both positions are set, 0 when not, 2 when it is UNWALKABLE. No branch. */
// @ts-ignore: decorator
@inline export function readFirstTwo(at: usize): u32 {
  const meta = load<u32>(at, 8);
  const mask = (meta >> 16) & 0xff;
  const one = (<u32>load<u8>(<usize>load<u32>(at)) >> (meta & 7)) & mask;
  const two = (<u32>load<u8>(<usize>load<u32>(at, 4)) >> ((meta >> 8) & 7)) & mask;
  const both = <u32>(one != 0) & <u32>(two != 0);
  return select<u32>(2, both, meta & UNWALKABLE);
}

/** Member record i of the chain (oldest first): the address of pair i. */
// @ts-ignore: decorator
@inline function member(i: u32): usize {
  return <usize>load<u32>(CHAIN_RECORDS_PTR + (<usize>i << 3));
}

/** Whether every one of the `count` (record, generation) pairs names a live record (assembly/record.ts). */
function membersLive(count: u32): bool {
  if (count == 0 || count > CHAIN_MAX) return false;
  for (let i: u32 = 0; i < count; i++) {
    const at = CHAIN_RECORDS_PTR + (<usize>i << 3);
    if (!isLive(<usize>load<u32>(at), load<u32>(at, 4))) return false;
  }
  return true;
}

/** Bytes per member of the first step's state under xxh64: a, b and position 1 (u64s). */
const MEMBER_STATE: usize = 24;

/** Member i's first-step state: a = h mod m at +0, b = splitmix64(h) mod m at +8, position 1 at +16. */
// @ts-ignore: decorator
@inline function memberState(i: u32): usize {
  return BATCH_PROBES_PTR + <usize>i * MEMBER_STATE;
}

/**
 * Whether positions 2 and 3 (as many of them as k has) of member i, whose
 * first two are set, are set too, as 1 or 0: made from its first-step
 * state as enhancedDoubleFrom (assembly/probe.ts) makes them, the repeat
 * rule included, and read with no branch on their bits.
 */
// @ts-ignore: decorator
@inline function nextTwoSet(i: u32, r: usize): u64 {
  const k = schemeRecord(r).hashes;
  if (k <= 2) return 1;
  const m = schemeRecord(r).bits;
  const base = payloadOf(r);
  const at = memberState(i);
  const p0 = load<u64>(at);
  const b0 = load<u64>(at, 8);
  const p1 = load<u64>(at, 16);
  let a = p0 + b0;
  a = select<u64>(a - m, a, a >= m);
  let b = b0 + 1;
  if (b >= m) b %= m;
  a += b;
  a = select<u64>(a - m, a, a >= m);
  let p2 = a;
  while (p2 == p0 || p2 == p1) p2 = p2 + 1 == m ? 0 : p2 + 1;
  let set = bitSet(base, p2);
  if (k > 3) {
    b += 2;
    if (b >= m) b %= m;
    a += b;
    a = select<u64>(a - m, a, a >= m);
    let p3 = a;
    while (p3 == p0 || p3 == p1 || p3 == p2) p3 = p3 + 1 == m ? 0 : p3 + 1;
    set &= bitSet(base, p3);
  }
  return <u64>set;
}

/**
 * The index of the newest of the `count` members that reports the item
 * whose hash is h, or -1: the first step over every member, a second over
 * its survivors, and then the few left newest first, each as its own
 * has().
 */
function newestReporting(count: u32, h: u64): i32 {
  // A chain's members are plain filters of one scheme and seed (JS checked):
  // the first step reads each one's two bits straight from its record, the
  // loads waiting on no branch; bit i of `maybe` is member i's.
  let maybe: u64 = 0;
  const first = min<u32>(count, 64);
  const xxh = schemeRecord(member(0)).scheme == SCHEME_XXH64;
  if (!xxh) {
    const key = <u32>h;
    const bit0 = (key * SALT0) >> 27;
    const bit1 = (key * SALT1) >> 27;
    for (let i: u32 = 0; i < first; i++) {
      const r = member(i);
      const block = payloadOf(r) + (<usize>(((h >> 32) * (schemeRecord(r).bits >> 8)) >> 32) << 5);
      maybe |= <u64>((load<u32>(block) >> bit0) & (load<u32>(block, 4) >> bit1) & 1) << <u64>i;
    }
  } else {
    const s = splitmix64(h);
    for (let i: u32 = 0; i < first; i++) {
      const r = member(i);
      const m = schemeRecord(r).bits;
      const p = h % m;
      const b = s % m;
      let q = p + b;
      q = select<u64>(q - m, q, q >= m);
      if (q == p) q = q + 1 == m ? 0 : q + 1;
      if (schemeRecord(r).hashes == 1) q = p;
      // Member i's start state and position 1, for its later positions if it survives.
      const at = memberState(i);
      store<u64>(at, p);
      store<u64>(at, b, 8);
      store<u64>(at, q, 16);
      const base = payloadOf(r);
      maybe |= <u64>(bitSet(base, p) & bitSet(base, q)) << <u64>i;
    }
  }
  // Members past the first step's 64, newest first, each as its own has().
  for (let i = <i32>count - 1; i >= 64; i--) {
    if (testHash(member(<u32>i), h)) return i;
  }
  // The second step, over the first one's survivors (a random quarter of
  // the members for an absent item), by the set bits of `maybe` found by
  // clz rather than by a test of each member's bit: under sbbf each
  // survivor's block in full, by the SIMD check, which answers; under
  // xxh64 its positions 2 and 3, which leave a sixteenth of the members.
  // No branch waits on a bit read.
  let more: u64 = 0;
  for (let left = maybe; left != 0; ) {
    const i = 63 - <i32>clz(left);
    left ^= <u64>1 << <u64>i;
    const r = member(<u32>i);
    if (xxh) more |= nextTwoSet(<u32>i, r) << <u64>i;
    else more |= <u64>sbbfCheck(payloadOf(r), h, schemeRecord(r).bits >> 8) << <u64>i;
  }
  if (!xxh) return more == 0 ? -1 : 63 - <i32>clz(more);
  // The last few, newest first, each tested in full from its first step's
  // state, without a remainder.
  while (more != 0) {
    const i = 63 - <i32>clz(more);
    more ^= <u64>1 << <u64>i;
    const r = member(<u32>i);
    const at = memberState(<u32>i);
    if (testEnhancedDoubleFrom(payloadOf(r), load<u64>(at), load<u64>(at, 8), schemeRecord(r).bits, schemeRecord(r).hashes, PROBES_PTR)) return i;
  }
  return -1;
}

/** Bit p of the bits at `base`, as 1 or 0. */
// @ts-ignore: decorator
@inline function bitSet(base: usize, p: u64): u32 {
  return (<u32>load<u8>(base + <usize>(p >> 3)) >> <u32>(p & 7)) & 1;
}

/**
 * The item of `len` bytes in scratch, tested against the `count` members
 * listed as (record, generation) pairs at the chain records region (oldest
 * first, all of one seed): returns the index of the newest that reports
 * it, or -1; -2, having read nothing, when a pair does not name a live
 * record.
 */
export function chainHas(count: u32, len: u32): i32 {
  if (!membersLive(count)) return -2;
  return newestReporting(count, xxh64(SCRATCH_PTR, len, schemeRecord(member(0)).seed));
}

/** chainBatch's operations. */
const OP_ADD: u32 = 0;

/**
 * A chain's has (op 1) or add (op 0) of batch items [first, count): staged
 * as a batch (item i is scratch bytes [offsets[i], offsets[i+1]) of the
 * batch offsets region), or, when `hashed`, given by their digests as u64s
 * in scratch. Flag i goes to the batch flags region: has, whether a member
 * reports item i; add, whether it was new, which is exactly when no member
 * reports it, and then it is added to the newest member, at most `room`
 * of them.
 * Returns where it stopped: `count`, or the first item that is new while
 * the newest member has no room left, for JS to start a member and call
 * again from there; -1, having read nothing, when a member's pair does not
 * name a live record.
 */
export function chainBatch(members: u32, first: u32, count: u32, room: f64, op: u32, hashed: bool): i32 {
  if (!membersLive(members)) return -1;
  const newest = member(members - 1);
  count = min<u32>(count, BATCH_MAX);
  const seed = schemeRecord(member(0)).seed;
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
    if (left == 0) return <i32>i;
    probeHash(newest, h, PROBES_PTR);
    const fresh = countAdd(newest, insertProbed(newest, PROBES_PTR));
    store<u8>(BATCH_FLAGS_PTR + <usize>i, <u8>fresh);
    if (fresh) left--;
  }
  return <i32>count;
}
