// A record's life: made in the heap (assembly/heap.ts) with a generation
// of its own, and released. Only the core module (assembly/index.ts), which
// holds the heap, makes and releases records; a family module that imports
// its memory names records and reads them (assembly/record.ts).

import { HEAP_START } from "./layout";
import { heapAlloc, heapFree } from "./heap";
import { headerOf, isLive, KIND_FILTER, RECORD_BYTES, writeSchemeFields } from "./record";

// The work area (scratch and the regions an item passes through) lies past
// the statics, in memory the module does not declare: it is grown here, at
// start, so that JS can make its views before the first record.
const startPages = <i32>((HEAP_START + 0xffff) >> 16);
if (memory.size() < startPages) memory.grow(startPages - memory.size());

/** The generation the next record gets (never 0). */
let nextGeneration: u32 = 1;
/** The generation of the record create() made last. */
let madeGeneration: u32 = 0;

/**
 * A new record of `kind` with `payload` bytes after it, all zero but its
 * header: the first step of every family's create. Returns its address,
 * or 0 when this instance's memory cannot hold it (JS then opens another);
 * its generation is then createdGeneration().
 */
export function createRecord(kind: u32, payload: u64): usize {
  const bytes = <u64>RECORD_BYTES + payload;
  if (bytes > 0xffff_0000) return 0;
  const r = heapAlloc(<u32>bytes);
  if (r == 0) return 0;
  const header = headerOf(r);
  header.kind = kind;
  header.payloadBytes = payload;
  const generation = nextGeneration;
  // 2^32 records later the count wraps; 0 stays "not live".
  nextGeneration = generation == 0xffff_ffff ? 1 : generation + 1;
  header.generation = generation;
  madeGeneration = generation;
  return r;
}

/**
 * Bytes of the payload of a scheme family's record of m = `m`
 * (filter.ts's byteLength). A counting or sliding filter's record is its
 * module's to make (assembly/counting.ts's countingCreate, sliding.ts's
 * slidingCreate).
 */
function schemePayloadBytes(kind: u32, m: u64): u64 {
  if (kind == KIND_FILTER) return (m + 7) >> 3;
  return 0;
}

/**
 * A new record of a scheme family (`kind`: a Bloom filter, the hashing
 * kind) for m = `m`, k, scheme and seed (validated by the caller), its
 * payload zero. Returns its address, or 0 (createRecord).
 */
export function create(m: f64, k: i32, schemeId: i32, seedLo: u32, seedHi: u32, kind: u32): usize {
  const r = createRecord(kind, schemePayloadBytes(kind, <u64>m));
  if (r == 0) return 0;
  writeSchemeFields(r, m, k, schemeId, seedLo, seedHi);
  return r;
}

/** The generation of the record that create() made last. */
export function createdGeneration(): u32 {
  return madeGeneration;
}

/**
 * Gives record `r`'s region back to the heap. Returns 0, or 1 (and frees
 * nothing) when `r` and `generation` do not name a live record.
 */
export function release(r: usize, generation: u32): i32 {
  if (!isLive(r, generation)) return 1;
  headerOf(r).generation = 0;
  heapFree(r);
  return 0;
}

/** The bytes of record `r`'s region after the record, or -1 when it is not live (for tests: regions must not overlap). */
export function recordPayload(r: usize, generation: u32): f64 {
  if (!isLive(r, generation)) return -1;
  return <f64>headerOf(r).payloadBytes;
}
