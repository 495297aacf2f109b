// A ScalableBloomFilter's has in one call: its members live in one
// instance (assembly/record.ts), so the item is hashed once, here, and
// each member's record is selected and probed with that hash, newest
// first, until one reports the item. Before, each member was another
// instance, and a has cost one call and one probe per member on top of the
// hash (8.8 times one filter's has at 7 members; docs/MEMORY.md).
// Members of the xxh64 family only (xxh64, sbbf): under poly and bytesum
// the hash depends on each member's m. The twin asks member by member
// (src/scalable/scalable-over.ts); the answers are the same.

import { BATCH_OFFSETS_PTR, PROBES_PTR, SCRATCH_PTR } from "./layout";
import { seed } from "./filter";
import { xxh64 } from "./hash";
import { select } from "./record";
import { probeHash, testProbed } from "./scheme";

/**
 * The item of `len` bytes in scratch, tested against the `count` records
 * listed as u32s at the batch offsets region (oldest first, all of one
 * seed): returns the index of the newest that reports it, or -1. The
 * record selected afterwards is that one, or the first when none does.
 */
export function chainHas(count: u32, len: u32): i32 {
  select(<usize>load<u32>(BATCH_OFFSETS_PTR));
  const h = xxh64(SCRATCH_PTR, len, seed);
  for (let i = <i32>count - 1; i >= 0; i--) {
    select(<usize>load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2)));
    probeHash(h, PROBES_PTR);
    if (testProbed(PROBES_PTR)) return i;
  }
  return -1;
}
