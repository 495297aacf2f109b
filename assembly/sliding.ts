// A sliding-window Bloom filter of rotating generations, stored bit-sliced
// (docs/SLIDING.md): each of the m positions holds a G-bit word (u8 when
// G = 8, u16 when G = 16), and bit j of word i is position i of generation
// j. Every generation uses the same k positions of an item (the xxh64
// scheme's, assembly/probe.ts), so a query hashes once and reads k words:
// the item may be present when some live generation has all k bits, that
// is when (AND of the k words) & live != 0. This is the layout of the
// Age-Partitioned Bloom Filter's slices turned sideways (Shtul, Baquero and
// Almeida, arXiv 2001.03147): one load per position probes every generation.
// Which plane is current and which are live is decided in TypeScript
// (src/sliding/generations.ts) and passed to each call.
// The pure-TypeScript twin is src/reference/sliding.ts.

import { KIND_SLIDING, named, payloadOf, REFUSED, SchemeRecord, schemeRecord } from "./record";
import { createRecord } from "./core-calls";
import { BATCH_FLAGS_PTR, BATCH_MAX, BATCH_OFFSETS_PTR, MAX_HASHES, PROBES_PTR, SCRATCH_PTR } from "./layout";
import { probeItem, SCHEME_XXH64, streamProbe, XXH64_FAMILY } from "./scheme";
import { checksumUpdate } from "./checksum";

/** The op of slidingItem, slidingStream and slidingBatch that only tests; the other, 0, adds. */
const OP_HAS = 1;

/**
 * A sliding filter's record (KIND_SLIDING): the scheme's parameters (m
 * words, k) and the width of a word. Its payload is the m words, m *
 * wordBytes bytes. Which planes are current and live is not here: JS
 * passes it to each call.
 */
@unmanaged export class SlidingRecord extends SchemeRecord {
  /** Bytes of one word (1 or 2): G / 8 generations. */
  wordBytes: u32;
}

/** Bytes of one word of record `r`. */
// @ts-ignore: decorator
@inline function wordBytes(r: usize): usize {
  return <usize>changetype<SlidingRecord>(r).wordBytes;
}

/** Bytes of the words: m * wordBytes. */
// @ts-ignore: decorator
@inline function wordsLength(r: usize): usize {
  return <usize>schemeRecord(r).bits * wordBytes(r);
}

// @ts-ignore: decorator
@inline function getWord(r: usize, p: u64, width: usize): u32 {
  return width == 1 ? <u32>load<u8>(payloadOf(r) + <usize>p) : <u32>load<u16>(payloadOf(r) + (<usize>p << 1));
}

// @ts-ignore: decorator
@inline function orWord(r: usize, p: u64, width: usize, bit: u32): void {
  if (width == 1) {
    const ptr = payloadOf(r) + <usize>p;
    store<u8>(ptr, <u32>load<u8>(ptr) | bit);
  } else {
    const ptr = payloadOf(r) + (<usize>p << 1);
    store<u16>(ptr, <u32>load<u16>(ptr) | bit);
  }
}

/**
 * Runs `op` on the probe record in PROBES_PTR. has: 1 when some generation
 * of `live` has all k bits. add: the same test first, then the bit of
 * `plane` set in all k words; returns 1 when the item was not present (new
 * within the window). A has stops at the first word that leaves no live
 * generation standing.
 */
function slidingProbed(r: usize, op: i32, plane: u32, live: u32): i32 {
  const width = wordBytes(r);
  const k = schemeRecord(r).hashes;
  let all: u32 = live;
  for (let i = 0; i < k; i++) {
    all &= getWord(r, load<u64>(PROBES_PTR + (<usize>i << 3)), width);
    if (all == 0 && op == OP_HAS) return 0;
  }
  if (op == OP_HAS) return 1;
  const bit: u32 = <u32>1 << plane;
  for (let i = 0; i < k; i++) orWord(r, load<u64>(PROBES_PTR + (<usize>i << 3)), width, bit);
  return all == 0 ? 1 : 0;
}

/** Runs `op` (0 add, 1 has) on the item in scratch (len units; u16 code units when wide). */
function slidingItemAt(r: usize, len: u32, wide: bool, op: i32, plane: u32, live: u32): i32 {
  probeItem(r, SCRATCH_PTR, len, wide, PROBES_PTR, XXH64_FAMILY);
  return slidingProbed(r, op, plane, live);
}

/** slidingItem for a streamed item (after streamBegin and streamUpdate). */
function slidingStreamAt(r: usize, op: i32, plane: u32, live: u32): i32 {
  streamProbe(r, PROBES_PTR, XXH64_FAMILY);
  return slidingProbed(r, op, plane, live);
}

/**
 * Runs `op` on `count` items staged as a batch (as countingBatch), in
 * order, all with the same plane and live generations; item i's answer
 * goes to the batch flags region. Returns how many answered 1.
 */
function slidingBatchAt(r: usize, count: u32, op: i32, plane: u32, live: u32): u32 {
  count = min<u32>(count, BATCH_MAX);
  let ones: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const start = load<u32>(BATCH_OFFSETS_PTR + (<usize>i << 2));
    const end = load<u32>(BATCH_OFFSETS_PTR + (<usize>(i + 1) << 2));
    probeItem(r, SCRATCH_PTR + <usize>start, <usize>(end - start), false, PROBES_PTR, XXH64_FAMILY);
    const answer = slidingProbed(r, op, plane, live) != 0;
    store<u8>(BATCH_FLAGS_PTR + <usize>i, <u8>answer);
    ones += <u32>answer;
  }
  return ones;
}

/**
 * Clears bit `plane` of every word: the generation of that plane is
 * forgotten, and the plane can take a new one. Sixteen bytes at a time
 * with SIMD; the words start 64-byte aligned (assembly/record.ts), so the
 * bytes left after the last whole vector start on a word boundary.
 */
function slidingClearPlaneAt(r: usize, plane: u32): void {
  const width = wordBytes(r);
  const keep: u32 = ~(<u32>1 << plane);
  const end = payloadOf(r) + wordsLength(r);
  let ptr = payloadOf(r);
  if (ASC_FEATURE_SIMD) {
    const mask = width == 1 ? i8x16.splat(<i8>keep) : i16x8.splat(<i16>keep);
    for (; ptr + 16 <= end; ptr += 16) v128.store(ptr, v128.and(v128.load(ptr), mask));
  } else {
    const half: u64 = width == 1 ? <u64>(keep & 0xff) * 0x01010101 : <u64>(keep & 0xffff) * 0x00010001;
    const mask: u64 = (half << 32) | half;
    for (; ptr + 8 <= end; ptr += 8) store<u64>(ptr, load<u64>(ptr) & mask);
  }
  if (width == 1) {
    for (; ptr < end; ptr++) store<u8>(ptr, <u32>load<u8>(ptr) & keep);
  } else {
    for (; ptr < end; ptr += 2) store<u16>(ptr, <u32>load<u16>(ptr) & keep);
  }
}

/** Feeds the words to the file checksum, straight from memory. */
function slidingChecksumWordsAt(r: usize): void {
  checksumUpdate(payloadOf(r), wordsLength(r));
}

/**
 * A new sliding filter of m = `m` words of `wordBytes` bytes (1 or 2), k
 * and seed hi:lo (validated by the caller), its words zero: its address,
 * or 0 when this instance's memory cannot hold it (assembly/record-life.ts's
 * createRecord). Its scheme is always xxh64: a long item's stream is begun
 * by the core's streamBegin and finished here (slidingStream), and XXH64
 * alone keeps its stream's state in memory (assembly/layout.ts's
 * STREAM_PTR), where both instances see it; poly and bytesum keep theirs
 * in the globals of the instance that began it.
 */
export function slidingCreate(m: f64, k: i32, seedLo: u32, seedHi: u32, wordBytes: u32): usize {
  const r = createRecord(KIND_SLIDING, <u64>m * <u64>wordBytes);
  if (r == 0) return 0;
  const s = changetype<SlidingRecord>(r);
  s.bits = <u64>m;
  s.seed = (<u64>seedHi << 32) | <u64>seedLo;
  s.hashes = min(k, MAX_HASHES);
  s.scheme = SCHEME_XXH64;
  s.wordBytes = wordBytes;
  return r;
}

// The exports: each names its record (assembly/record.ts) and refuses a
// pair that names no live record with REFUSED.

/** slidingItemAt on record r: REFUSED when r and generation name no live record. */
export function slidingItem(r: usize, generation: u32, len: u32, wide: bool, op: i32, plane: u32, live: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>slidingItemAt(r, len, wide, op, plane, live);
}

/** slidingStreamAt on record r: REFUSED when r and generation name no live record. */
export function slidingStream(r: usize, generation: u32, op: i32, plane: u32, live: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>slidingStreamAt(r, op, plane, live);
}

/** slidingBatchAt on record r: REFUSED when r and generation name no live record. */
export function slidingBatch(r: usize, generation: u32, count: u32, op: i32, plane: u32, live: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  return <i32>slidingBatchAt(r, count, op, plane, live);
}

/** slidingClearPlaneAt on record r: REFUSED when r and generation name no live record. */
export function slidingClearPlane(r: usize, generation: u32, plane: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  slidingClearPlaneAt(r, plane);
  return 0;
}

/** slidingChecksumWordsAt on record r: REFUSED when r and generation name no live record. */
export function slidingChecksumWords(r: usize, generation: u32): i32 {
  r = named(r, generation);
  if (r == 0) return REFUSED;
  slidingChecksumWordsAt(r);
  return 0;
}
