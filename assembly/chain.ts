// A ScalableBloomFilter's has in one call: its members live in one
// instance (assembly/record.ts), so the item is hashed once, here, and
// each member's record is probed with that hash, newest first, until one
// reports the item (after a first pass that rules most members out
// together: firstTwo). Before, each member was another
// instance, and a has cost one call and one probe per member on top of the
// hash (8.8 times one filter's has at 7 members; docs/MEMORY.md).
// Members of the xxh64 family only (xxh64, sbbf): under poly and bytesum
// the hash depends on each member's m. The twin asks member by member
// (src/scalable/scalable-over.ts); the answers are the same.

import { BATCH_MAX, BATCH_OFFSETS_PTR, PROBES_PTR, SCRATCH_PTR, bitsBase } from "./layout";
import { bits, blocks, hashes, scheme, seed } from "./filter";
import { splitmix64, xxh64 } from "./hash";
import { testEnhancedDouble } from "./probe";
import { isLive, peek, unpeek } from "./record";
import { SALT0, SALT1, blockPtr, sbbfCheckScalar } from "./sbbf";
import { SCHEME_SBBF } from "./scheme";

/** Members that the first pass (firstTwo) takes at once: one bit each in a u64. */
const PASS_MAX: u32 = 64;

/**
 * The first pass over the members: for each xxh64 one, its first two positions of
 * enhanced double hashing (assembly/probe.ts: a = h mod m, then
 * a + (s mod m) mod m, moved by one if it repeats a, with s =
 * splitmix64(h), the same for every member) and whether both bits are set.
 * Nothing here branches on a bit, so the members' divisions and loads
 * overlap instead of waiting on each other, and an absent item (whose
 * first two bits are both set in a half-full member one time in four)
 * leaves few members for the second pass. An sbbf member is asked for
 * the bits of words 0 and 1 of its block.
 */
// @ts-ignore: decorator
@inline function firstTwo(count: u32, h: u64, s: u64): u64 {
  let maybe: u64 = 0;
  for (let i: u32 = 0; i < count; i++) {
    peek(<usize>load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 3)));
    let both: u64;
    if (scheme == SCHEME_SBBF) {
      // Words 0 and 1 of the item's block (assembly/sbbf.ts's layout).
      const block = blockPtr(h, blocks);
      const key = <u32>h;
      both = <u64>((load<u32>(block) >> ((key * SALT0) >> 27)) & (load<u32>(block, 4) >> ((key * SALT1) >> 27)) & 1);
    } else {
      const m = bits;
      const a = h % m;
      let p = a + s % m;
      if (p >= m) p -= m;
      if (p == a) p = p + 1 == m ? 0 : p + 1;
      both = <u64>((<u32>load<u8>(bitsBase + <usize>(a >> 3)) >> <u32>(a & 7)) & 1);
      if (hashes > 1) both &= <u64>((<u32>load<u8>(bitsBase + <usize>(p >> 3)) >> <u32>(p & 7)) & 1);
    }
    maybe |= both << <u64>i;
  }
  return maybe;
}

/**
 * The item of `len` bytes in scratch, tested against the `count` records
 * listed as (address, generation) u32 pairs at the batch offsets region
 * (oldest first, all of one seed): returns the index of the newest that
 * reports it, or -1; -2, having read nothing, when a pair does not name a
 * live record (assembly/record.ts). Each member is tested as its own has()
 * tests, stopping at its first clear bit; the records are only peeked at,
 * so the selected one stays selected.
 */
export function chainHas(count: u32, len: u32): i32 {
  if (count == 0 || count > (BATCH_MAX + 1) >> 1) return count == 0 ? -1 : -2;
  for (let i: u32 = 0; i < count; i++) {
    const at = BATCH_OFFSETS_PTR + (<usize>i << 3);
    if (!isLive(<usize>load<u32>(at), load<u32>(at, 4))) return -2;
  }
  peek(<usize>load<u32>(BATCH_OFFSETS_PTR));
  const h = xxh64(SCRATCH_PTR, len, seed);
  const maybe = count <= PASS_MAX ? firstTwo(count, h, splitmix64(h)) : ~(<u64>0);
  let hit: i32 = -1;
  for (let i = <i32>count - 1; i >= 0; i--) {
    if (i < <i32>PASS_MAX && ((maybe >> <u64>i) & 1) == 0) continue;
    peek(<usize>load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 3)));
    const found = scheme == SCHEME_SBBF ? sbbfCheckScalar(h, blocks) : testEnhancedDouble(h, bits, hashes, PROBES_PTR);
    if (found) {
      hit = i;
      break;
    }
  }
  unpeek();
  return hit;
}
