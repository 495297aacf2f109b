// The exported ABI of one filter instance. JS copies an item into the
// scratch region and calls one of these; everything else is in the helpers.
// Scheme ids are part of the file format: 0 = xxh64, 1 = poly, 2 = bytesum.

import { BITS_PTR, MAX_HASHES, POSITIONS_OUT_PTR, PROBES_PTR, SCRATCH_PTR, SCRATCH_SIZE, reserveBits } from "./layout";
import { clearBits, getBit, setBit } from "./bit-array";
import {
  byteSum, bytesumBegin, bytesumUpdate, polyBegin, polyH1, polyH2, polyUpdate,
  weightedSum, xxh64, xxh64Begin, xxh64Digest, xxh64Update,
} from "./hash";
import { probeDouble, probeEnhancedDouble } from "./probe";

const SCHEME_XXH64 = 0;
const SCHEME_POLY = 1;
const SCHEME_BYTESUM = 2;

let bits: u64 = 1;
let hashes: i32 = 1;
let scheme: i32 = SCHEME_XXH64;
let seed: u64 = 0;
let setCount: u64 = 0;
let newAddCount: u64 = 0;
let streamWide: bool = false;

/**
 * Sets the filter's parameters and makes room for its bits. The caller has
 * validated them. Returns 0, or 1 when memory for the bits cannot be had.
 */
export function configure(m: f64, k: i32, schemeId: i32, seedLo: u32, seedHi: u32): i32 {
  bits = <u64>m;
  hashes = min(k, MAX_HASHES);
  scheme = schemeId;
  seed = (<u64>seedHi << 32) | <u64>seedLo;
  if (!reserveBits(byteLength())) return 1;
  clear();
  return 0;
}

/** Bytes of the packed bit array: ceil(m / 8). */
function byteLength(): u64 {
  return (bits + 7) >> 3;
}

// Hashes `len` units in the scratch region into the probe positions.
function probeScratch(len: usize, wide: bool): void {
  if (scheme == SCHEME_XXH64) {
    probeEnhancedDouble(xxh64(SCRATCH_PTR, len, seed), bits, hashes);
  } else if (scheme == SCHEME_POLY) {
    polyBegin();
    polyUpdate(SCRATCH_PTR, len, wide);
    probeDouble(polyH1, polyH2, bits, hashes);
  } else {
    bytesumBegin();
    bytesumUpdate(SCRATCH_PTR, len, bits);
    probeDouble(byteSum % bits, weightedSum, bits, hashes);
  }
}

// Sets the probed bits; true when any went from 0 to 1.
function setProbed(): bool {
  let fresh: u64 = 0;
  for (let i = 0; i < hashes; i++) {
    if (setBit(load<u64>(PROBES_PTR + (<usize>i << 3)))) fresh++;
  }
  setCount += fresh;
  if (fresh) newAddCount++;
  return fresh != 0;
}

// True when every probed bit is set.
function testProbed(): bool {
  for (let i = 0; i < hashes; i++) {
    if (!getBit(load<u64>(PROBES_PTR + (<usize>i << 3)))) return false;
  }
  return true;
}

// Copies the probe positions out as doubles (exact: positions < 2^35).
function exportProbed(): void {
  for (let i = 0; i < hashes; i++) {
    store<f64>(POSITIONS_OUT_PTR + (<usize>i << 3), <f64>load<u64>(PROBES_PTR + (<usize>i << 3)));
  }
}

/** Adds the item in scratch (len units; u16 code units when wide). Returns 1 if it was new. */
export function add(len: u32, wide: bool): bool {
  probeScratch(len, wide);
  return setProbed();
}

/** Tests the item in scratch. */
export function has(len: u32, wide: bool): bool {
  probeScratch(len, wide);
  return testProbed();
}

/** Writes the item's positions to the positions region. */
export function positions(len: u32, wide: bool): void {
  probeScratch(len, wide);
  exportProbed();
}

/** Starts a streamed item, for items longer than the scratch region. */
export function streamBegin(wide: bool): void {
  streamWide = wide;
  if (scheme == SCHEME_XXH64) xxh64Begin(seed);
  else if (scheme == SCHEME_POLY) polyBegin();
  else bytesumBegin();
}

/** Feeds the next `len` units of a streamed item from scratch. */
export function streamUpdate(len: u32): void {
  if (scheme == SCHEME_XXH64) xxh64Update(SCRATCH_PTR, len);
  else if (scheme == SCHEME_POLY) polyUpdate(SCRATCH_PTR, len, streamWide);
  else bytesumUpdate(SCRATCH_PTR, len, bits);
}

function streamProbe(): void {
  if (scheme == SCHEME_XXH64) probeEnhancedDouble(xxh64Digest(), bits, hashes);
  else if (scheme == SCHEME_POLY) probeDouble(polyH1, polyH2, bits, hashes);
  else probeDouble(byteSum % bits, weightedSum, bits, hashes);
}

/** Ends a streamed item and adds it. */
export function streamAdd(): bool {
  streamProbe();
  return setProbed();
}

/** Ends a streamed item and tests it. */
export function streamHas(): bool {
  streamProbe();
  return testProbed();
}

/** Ends a streamed item and writes its positions. */
export function streamPositions(): void {
  streamProbe();
  exportProbed();
}

/** Bits that are 1, kept as a counter raised on each 0-to-1 transition. */
export function bitsSet(): f64 {
  return <f64>setCount;
}

/** Adds that set at least one bit. */
export function newAdds(): f64 {
  return <f64>newAddCount;
}

/** Zeroes the bits and both counters. */
export function clear(): void {
  clearBits(byteLength());
  setCount = 0;
  newAddCount = 0;
}

/** Offset of the scratch region. */
export function scratchPtr(): usize {
  return SCRATCH_PTR;
}

/** Size of the scratch region in bytes. */
export function scratchSize(): u32 {
  return SCRATCH_SIZE;
}

/** Offset of the f64 positions region. */
export function positionsPtr(): usize {
  return POSITIONS_OUT_PTR;
}

/** Offset of the packed bits. */
export function bitsPtr(): usize {
  return BITS_PTR;
}
