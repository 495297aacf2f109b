// Hash once, probe many: an item's 64-bit XXH64 digest is computed once
// (digestItem, or digestBegin/digestUpdate/digestStream for a long one),
// under a seed given as an argument, in whatever instance holds the
// filters, and then handed to any number of filters of the xxh64 family
// (xxh64, sbbf), each of which turns it into its own probe record
// (assembly/scheme.ts's probeHash) without seeing the item again. Under
// poly and bytesum the hash itself depends on m, so they have no digest;
// the wrappers refuse them before calling in.
// The pure-TypeScript twin is src/reference/digest.ts.

import { BATCH_FLAGS_PTR, BATCH_MAX, BATCH_OFFSETS_PTR, POSITIONS_OUT_PTR, PROBES_PTR, SCRATCH_PTR } from "./layout";
import { countAdd } from "./filter";
import { splitmix64, xxh64, xxh64Begin, xxh64Digest, xxh64Update } from "./hash";
import { insertProbed, probeHash, SCHEME_SBBF, SCHEME_XXH64, testProbed } from "./scheme";
import { KIND_COUNTING, KIND_FILTER, peek, unpeek } from "./record";
import { firstTwoAt, reportsPeeked } from "./chain";

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

/** probeRecords' flag for a record it cannot answer by the digest: another seed, poly or bytesum, or another kind. */
const ASK: u8 = 2;

/**
 * probeAll over `count` records (at most BATCH_MAX) listed as u32s at the
 * batch offsets region: flag j (batch flags region) is 1 when record j may
 * hold the item, 0 when it surely does not, and ASK (2) when the record is
 * not a filter or counting filter of the xxh64 family with the first
 * record's seed (JS asks those itself). The item is the `len` bytes in
 * scratch, hashed here under the first record's seed, or when `len` is
 * negative the digest hi:lo; its digest is left at positionsPtr as
 * digestItem leaves it. Two passes, as assembly/chain.ts's walks: the first
 * two positions of every record, then the survivors in full. Returns how
 * many may hold it.
 */
export function probeRecords(count: u32, len: i32, lo: u32, hi: u32): u32 {
  count = min<u32>(count, BATCH_MAX);
  if (count == 0) return 0;
  const seed = load<u64>(<usize>load<u32>(BATCH_OFFSETS_PTR), 8);
  const h = len >= 0 ? xxh64(SCRATCH_PTR, <usize>len, seed) : seedOf(lo, hi);
  store<u64>(POSITIONS_OUT_PTR, h);
  const s = splitmix64(h);
  for (let j: u32 = 0; j < count; j++) {
    const r = <usize>load<u32>(BATCH_OFFSETS_PTR + (<usize>j << 2));
    const scheme = load<i32>(r, 44);
    const kind = load<u32>(r, 48);
    const walkable = load<u64>(r, 8) == seed && (scheme == SCHEME_XXH64 || scheme == SCHEME_SBBF)
      && (kind == KIND_FILTER || kind == KIND_COUNTING);
    store<u8>(BATCH_FLAGS_PTR + <usize>j, walkable ? <u8>firstTwoAt(r, h, s) : ASK);
  }
  let found: u32 = 0;
  for (let j: u32 = 0; j < count; j++) {
    if (load<u8>(BATCH_FLAGS_PTR + <usize>j) != 1) continue;
    const r = <usize>load<u32>(BATCH_OFFSETS_PTR + (<usize>j << 2));
    peek(r);
    const holds = reportsPeeked(h, load<u32>(r, 48) == KIND_COUNTING);
    store<u8>(BATCH_FLAGS_PTR + <usize>j, <u8>holds);
    found += <u32>holds;
  }
  unpeek();
  return found;
}
