// The calls of a Bloom filter on one item (staged in scratch, read in
// place from a string, or streamed through scratch in pieces) and on a
// batch: the bodies of the exports of the modules that hash a Bloom
// filter's items, each of which passes the schemes it hashes as a constant
// (assembly/scheme.ts says why): the Bloom filter's module
// (assembly/bloom.ts) and the shared build (assembly/shared.ts), every
// scheme; the core (assembly/index.ts), whose streams other families
// finish, the xxh64 family.

import { PROBES_PTR, SCRATCH_PTR } from "./layout";
import { countAdd } from "./filter";
import {
  exportProbed, insertItem, itemKey, polySelected, probeItem, xxh64In, streamBegin as streamStart, streamFeed, streamInsert, streamProbe, streamTest, testItem,
} from "./scheme";
import { shardIndex } from "./shard";
import { copyUnits, encodeUtf8 } from "./js-string";
import { headerOf, KIND_CUCKOO, KIND_FILTER, named, REFUSED, schemeKind } from "./record";
import { CuckooRecord } from "./cuckoo-record";
import { xxh64Begin, xxh64Update } from "./hash";
export { addBatchCall, hasBatchCall } from "./batch";

/** Adds the item in scratch (len units; u16 code units when wide) to record r. Returns 1 if it was new. */
// @ts-ignore: decorator
@inline export function addCall(r: usize, generation: u32, len: u32, wide: bool, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  const fresh = countAdd(r, insertItem(r, SCRATCH_PTR, len, wide, PROBES_PTR, schemes));
  return <i32>fresh;
}

/** Tests the item in scratch. */
// @ts-ignore: decorator
@inline export function hasCall(r: usize, generation: u32, len: u32, wide: bool, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>testItem(r, SCRATCH_PTR, len, wide, PROBES_PTR, schemes);
}

/** add() of the string `s`, read in place (the poly scheme hashes its code units). */
// @ts-ignore: decorator
@inline export function addStringCall(s: externref, r: usize, generation: u32, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  const wide = polySelected(r, schemes);
  const len = wide ? copyUnits(s, SCRATCH_PTR) : encodeUtf8(s, SCRATCH_PTR);
  const fresh = countAdd(r, insertItem(r, SCRATCH_PTR, len, wide, PROBES_PTR, schemes));
  return <i32>fresh;
}

/** has() of the string `s`, read in place. */
// @ts-ignore: decorator
@inline export function hasStringCall(s: externref, r: usize, generation: u32, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  const wide = polySelected(r, schemes);
  const len = wide ? copyUnits(s, SCRATCH_PTR) : encodeUtf8(s, SCRATCH_PTR);
  return <i32>testItem(r, SCRATCH_PTR, len, wide, PROBES_PTR, schemes);
}

/** Writes the item's positions to the positions region; REFUSED or 0. */
// @ts-ignore: decorator
@inline export function positionsCall(r: usize, generation: u32, len: u32, wide: bool, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  probeItem(r, SCRATCH_PTR, len, wide, PROBES_PTR, schemes);
  exportProbed(r, PROBES_PTR);
  return 0;
}

/** Writes the item's positions and returns its shard in [0, shards). */
// @ts-ignore: decorator
@inline export function shardPositionsCall(r: usize, generation: u32, len: u32, wide: bool, shards: u32, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  probeItem(r, SCRATCH_PTR, len, wide, PROBES_PTR, schemes);
  exportProbed(r, PROBES_PTR);
  return <i32>shardIndex(itemKey, shards);
}

/** Ends a streamed item, writes its positions and returns its shard in [0, shards). */
// @ts-ignore: decorator
@inline export function streamShardPositionsCall(r: usize, generation: u32, shards: u32, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  streamProbe(r, PROBES_PTR, schemes);
  exportProbed(r, PROBES_PTR);
  return <i32>shardIndex(itemKey, shards);
}

/**
 * Starts a streamed item for record r, for items longer than the scratch
 * region: under its scheme and seed, or, for a cuckoo table or a binary
 * fuse filter, which have no scheme, XXH64 under the family's own item
 * seed (the table's seed; 0 for a fuse key). JS stages every family's long
 * items the same way (src/wasm/staging.ts), so the family's record says
 * which.
 */
// @ts-ignore: decorator
@inline export function streamBeginCall(r: usize, generation: u32, wide: bool, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  // The shared build holds one Bloom filter and no records (assembly/record.ts's named()).
  const kind = ASC_FEATURE_THREADS ? KIND_FILTER : headerOf(r).kind;
  if (!xxh64In(schemes) || schemeKind(kind)) streamStart(r, wide, schemes);
  else xxh64Begin(kind == KIND_CUCKOO ? changetype<CuckooRecord>(r).seed : 0);
  return 0;
}

/** Feeds the next `len` units of a streamed item from scratch, hashed as streamBegin began it for record r. */
// @ts-ignore: decorator
@inline export function streamUpdateCall(r: usize, generation: u32, len: u32, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  if (ASC_FEATURE_THREADS || !xxh64In(schemes) || schemeKind(headerOf(r).kind)) streamFeed(r, SCRATCH_PTR, len, schemes);
  else xxh64Update(SCRATCH_PTR, len);
  return 0;
}

/** Ends a streamed item and adds it. */
// @ts-ignore: decorator
@inline export function streamAddCall(r: usize, generation: u32, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  const fresh = countAdd(r, streamInsert(r, schemes));
  return <i32>fresh;
}

/** Ends a streamed item and tests it. */
// @ts-ignore: decorator
@inline export function streamHasCall(r: usize, generation: u32, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>streamTest(r, schemes);
}

/** Ends a streamed item and writes its positions. */
// @ts-ignore: decorator
@inline export function streamPositionsCall(r: usize, generation: u32, schemes: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  streamProbe(r, PROBES_PTR, schemes);
  exportProbed(r, PROBES_PTR);
  return 0;
}
