// Hash once, probe many: an item's 64-bit XXH64 digest is computed once
// (digestItem, digestStream) and then handed to any number of filters of the
// xxh64 family, each of which turns it into its own k positions (probeHash)
// without seeing the item again. Under poly and bytesum the hash itself
// depends on m, so they have no digest; the wrappers refuse them before
// calling in.
// The pure-TypeScript twin is src/reference/digest.ts.

import { POSITIONS_OUT_PTR, PROBES_PTR, SCRATCH_PTR } from "./layout";
import { bits, hashes, seed, setProbed, testProbed } from "./filter";
import { xxh64, xxh64Digest } from "./hash";
import { probeEnhancedDouble } from "./probe";

/** The item's positions from its digest `h`, into PROBES_PTR (the xxh64 scheme's probes). */
export function probeHash(h: u64): void {
  probeEnhancedDouble(h, bits, hashes, PROBES_PTR);
}

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
  probeHash((<u64>hi << 32) | <u64>lo);
  return testProbed();
}

/** Adds the item whose digest is hi:lo; true when a bit went from 0 to 1. */
export function addDigest(lo: u32, hi: u32): bool {
  probeHash((<u64>hi << 32) | <u64>lo);
  return setProbed();
}
