// The hash functions behind the three schemes. Each has a one-shot form for
// items that fit the scratch region and a streamed form (begin / update /
// digest) for longer ones; both give the same value for the same input.
// The pure-TypeScript twin is src/reference/hash.ts.

import { STREAM_PTR, STRIPE_PTR, SUMS_PTR } from "./layout";

// ---------------------------------------------------------------- XXH64
// XXH64 as specified in https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md

const PRIME64_1: u64 = 0x9e3779b185ebca87;
const PRIME64_2: u64 = 0xc2b2ae3d27d4eb4f;
const PRIME64_3: u64 = 0x165667b19e3779f9;
const PRIME64_4: u64 = 0x85ebca77c2b2ae63;
const PRIME64_5: u64 = 0x27d4eb2f165667c5;

// @ts-ignore: decorator
@inline function round(acc: u64, lane: u64): u64 {
  return rotl<u64>(acc + lane * PRIME64_2, 31) * PRIME64_1;
}

// @ts-ignore: decorator
@inline function mergeRound(acc: u64, lane: u64): u64 {
  return (acc ^ round(0, lane)) * PRIME64_1 + PRIME64_4;
}

// @ts-ignore: decorator
@inline function convergeLanes(v1: u64, v2: u64, v3: u64, v4: u64): u64 {
  let h = rotl<u64>(v1, 1) + rotl<u64>(v2, 7) + rotl<u64>(v3, 12) + rotl<u64>(v4, 18);
  h = mergeRound(h, v1);
  h = mergeRound(h, v2);
  h = mergeRound(h, v3);
  return mergeRound(h, v4);
}

/** Consumes the last (len < 32) bytes and avalanches. */
// @ts-ignore: decorator
@inline function finishTail(h: u64, ptr: usize, len: usize): u64 {
  const end = ptr + len;
  while (ptr + 8 <= end) {
    h = rotl<u64>(h ^ round(0, load<u64>(ptr)), 27) * PRIME64_1 + PRIME64_4;
    ptr += 8;
  }
  if (ptr + 4 <= end) {
    h = rotl<u64>(h ^ (<u64>load<u32>(ptr) * PRIME64_1), 23) * PRIME64_2 + PRIME64_3;
    ptr += 4;
  }
  while (ptr < end) {
    h = rotl<u64>(h ^ (<u64>load<u8>(ptr) * PRIME64_5), 11) * PRIME64_1;
    ptr++;
  }
  h ^= h >> 33;
  h *= PRIME64_2;
  h ^= h >> 29;
  h *= PRIME64_3;
  return h ^ (h >> 32);
}

/** XXH64 of `len` bytes at `ptr`. */
export function xxh64(ptr: usize, len: usize, seed: u64): u64 {
  return xxh64Inline(ptr, len, seed);
}

/**
 * xxh64, inlined where it is called: by the binary fuse filter's has of an
 * item staged by JS, whose work is this hash and one probe, so that it
 * makes no call. Every other caller calls xxh64, which keeps one copy of
 * the hash per module.
 */
// @ts-ignore: decorator
@inline export function xxh64Inline(ptr: usize, len: usize, seed: u64): u64 {
  const end = ptr + len;
  let h: u64;
  if (len >= 32) {
    let v1 = seed + PRIME64_1 + PRIME64_2;
    let v2 = seed + PRIME64_2;
    let v3 = seed;
    let v4 = seed - PRIME64_1;
    const limit = end - 32;
    do {
      v1 = round(v1, load<u64>(ptr));
      v2 = round(v2, load<u64>(ptr, 8));
      v3 = round(v3, load<u64>(ptr, 16));
      v4 = round(v4, load<u64>(ptr, 24));
      ptr += 32;
    } while (ptr <= limit);
    h = convergeLanes(v1, v2, v3, v4);
  } else {
    h = seed + PRIME64_5;
  }
  return finishTail(h + <u64>len, ptr, end - ptr);
}

/**
 * A streamed XXH64's state between updates: the four lanes, the seed, the
 * total length and the bytes of the partial stripe kept at STRIPE_PTR. It
 * lives in the work area (STREAM_PTR), not in globals, so that any module
 * of the memory can carry on a stream another began.
 */
@unmanaged class XxhStream {
  v1: u64;
  v2: u64;
  v3: u64;
  v4: u64;
  seed: u64;
  total: u64;
  stripeLen: u64;
}

/** The one stream of this work area. */
// @ts-ignore: decorator
@inline function stream(): XxhStream {
  return changetype<XxhStream>(STREAM_PTR);
}

/** Starts a streamed XXH64. */
export function xxh64Begin(seed: u64): void {
  const s = stream();
  s.seed = seed;
  s.v1 = seed + PRIME64_1 + PRIME64_2;
  s.v2 = seed + PRIME64_2;
  s.v3 = seed;
  s.v4 = seed - PRIME64_1;
  s.total = 0;
  s.stripeLen = 0;
}

/** Feeds `len` more bytes at `ptr` into the streamed XXH64. */
export function xxh64Update(ptr: usize, len: usize): void {
  const s = stream();
  s.total += <u64>len;
  const end = ptr + len;
  // The lanes in locals for the loop, written back once.
  let v1 = s.v1, v2 = s.v2, v3 = s.v3, v4 = s.v4;
  let stripeLen = <usize>s.stripeLen;
  if (stripeLen > 0) {
    const take = min<usize>(32 - stripeLen, len);
    memory.copy(STRIPE_PTR + stripeLen, ptr, take);
    stripeLen += take;
    ptr += take;
    if (stripeLen < 32) {
      s.stripeLen = stripeLen;
      return;
    }
    v1 = round(v1, load<u64>(STRIPE_PTR));
    v2 = round(v2, load<u64>(STRIPE_PTR, 8));
    v3 = round(v3, load<u64>(STRIPE_PTR, 16));
    v4 = round(v4, load<u64>(STRIPE_PTR, 24));
  }
  while (ptr + 32 <= end) {
    v1 = round(v1, load<u64>(ptr));
    v2 = round(v2, load<u64>(ptr, 8));
    v3 = round(v3, load<u64>(ptr, 16));
    v4 = round(v4, load<u64>(ptr, 24));
    ptr += 32;
  }
  s.v1 = v1;
  s.v2 = v2;
  s.v3 = v3;
  s.v4 = v4;
  s.stripeLen = end - ptr;
  memory.copy(STRIPE_PTR, ptr, end - ptr);
}

/** Finishes the streamed XXH64 and returns the hash. */
export function xxh64Digest(): u64 {
  const s = stream();
  const h = s.total >= 32 ? convergeLanes(s.v1, s.v2, s.v3, s.v4) : s.seed + PRIME64_5;
  return finishTail(h + s.total, STRIPE_PTR, <usize>s.stripeLen);
}

/** splitmix64's output function (Steele, Lea and Flood, 2014): the second, independent-looking hash. */
// @ts-ignore: decorator
@inline export function splitmix64(z: u64): u64 {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

// ------------------------------------------------------------------ poly
// The SeenFilter exercise's hashes: h1 = (h1*31 + c) mod 1,000,000,007 and
// h2 = (h2*37 + c) mod 1,000,000,009 over character codes.
//
// Reducing after every character costs a 64-bit division each. Instead six
// characters fold into one step: h*31^6 + c0*31^5 + ... + c5, and with
// h < 2^30 and c < 2^16 that is below 2^61 (2^62 for 37), so nothing
// overflows u64 and one reduction gives exactly the value of six stepwise
// ones. Twelve characters go per loop turn as two such folds a and b:
// h' = (h*B^12 + (a mod p)*B^6 + b) mod p, with B^12 reduced mod p. Each of
// the three terms is below 2^61.3 and a (mod p) does not depend on h, so the
// chain from one turn to the next holds one division per twelve characters
// instead of two, and the divisions are the chain a turn waits on
// (docs/BENCHMARKS.md, "Choices in the code").

export const POLY_MOD_1: u64 = 1_000_000_007;
export const POLY_MOD_2: u64 = 1_000_000_009;

/** 31^6 and 37^6 (the second one is above the modulus: fine, h2 * it < 2^62). */
const POLY_POW6_1: u64 = 887_503_681;
const POLY_POW6_2: u64 = 2_565_726_409;
/** 31^12 mod p1 and 37^12 mod p2. */
const POLY_POW12_1: u64 = (POLY_POW6_1 * POLY_POW6_1) % POLY_MOD_1;
const POLY_POW12_2: u64 = ((POLY_POW6_2 % POLY_MOD_2) * (POLY_POW6_2 % POLY_MOD_2)) % POLY_MOD_2;

/**
 * The running state of a poly hash (h1, h2) or a bytesum hash (the sum,
 * the weighted sum and the index of the next byte), and whether a streamed
 * item is u16 code units (assembly/scheme.ts's streamBegin). It lives in
 * the work area (SUMS_PTR), not in globals, for the reason XxhStream does:
 * a stream that the core module begins and feeds, a family module that
 * imports its memory finishes (assembly/counting.ts's countingStream).
 */
@unmanaged class SumState {
  h1: u64;
  h2: u64;
  index: u64;
  wide: u32;
}

/** The one poly or bytesum state of this work area. */
// @ts-ignore: decorator
@inline function sums(): SumState {
  return changetype<SumState>(SUMS_PTR);
}

/** The poly hash's h1 (mod 1,000,000,007) so far. */
// @ts-ignore: decorator
@inline export function polyH1(): u64 {
  return sums().h1;
}

/** The poly hash's h2 (mod 1,000,000,009) so far. */
// @ts-ignore: decorator
@inline export function polyH2(): u64 {
  return sums().h2;
}

/** Whether the streamed item is u16 code units (poly only). */
// @ts-ignore: decorator
@inline export function streamWide(): bool {
  return sums().wide != 0;
}

/** Sets streamWide. */
// @ts-ignore: decorator
@inline export function setStreamWide(wide: bool): void {
  sums().wide = <u32>wide;
}

/** Starts a poly hash. */
export function polyBegin(): void {
  sums().h1 = 0;
  sums().h2 = 0;
}

/** c0*31^5 + c1*31^4 + ... + c5, below 2^41 for c < 2^16. */
// @ts-ignore: decorator
@inline function fold6By31(c0: u64, c1: u64, c2: u64, c3: u64, c4: u64, c5: u64): u64 {
  return c0 * 28_629_151 + c1 * 923_521 + c2 * 29_791 + c3 * 961 + c4 * 31 + c5;
}

/** c0*37^5 + c1*37^4 + ... + c5, below 2^43 for c < 2^16. */
// @ts-ignore: decorator
@inline function fold6By37(c0: u64, c1: u64, c2: u64, c3: u64, c4: u64, c5: u64): u64 {
  return c0 * 69_343_957 + c1 * 1_874_161 + c2 * 50_653 + c3 * 1_369 + c4 * 37 + c5;
}

/** Feeds `count` codes of type T (u8 or u16) at `ptr` into polyH1 and polyH2. */
// @ts-ignore: decorator
@inline function polyFeed<T>(ptr: usize, count: usize): void {
  const unit = sizeof<T>();
  let h1 = sums().h1;
  let h2 = sums().h2;
  let i: usize = 0;
  for (; i + 12 <= count; i += 12) {
    const p = ptr + i * unit;
    const c0 = <u64>load<T>(p), c1 = <u64>load<T>(p + unit), c2 = <u64>load<T>(p + 2 * unit);
    const c3 = <u64>load<T>(p + 3 * unit), c4 = <u64>load<T>(p + 4 * unit), c5 = <u64>load<T>(p + 5 * unit);
    const d0 = <u64>load<T>(p + 6 * unit), d1 = <u64>load<T>(p + 7 * unit), d2 = <u64>load<T>(p + 8 * unit);
    const d3 = <u64>load<T>(p + 9 * unit), d4 = <u64>load<T>(p + 10 * unit), d5 = <u64>load<T>(p + 11 * unit);
    const a1 = fold6By31(c0, c1, c2, c3, c4, c5) % POLY_MOD_1;
    const a2 = fold6By37(c0, c1, c2, c3, c4, c5) % POLY_MOD_2;
    h1 = (h1 * POLY_POW12_1 + a1 * POLY_POW6_1 + fold6By31(d0, d1, d2, d3, d4, d5)) % POLY_MOD_1;
    h2 = (h2 * POLY_POW12_2 + a2 * POLY_POW6_2 + fold6By37(d0, d1, d2, d3, d4, d5)) % POLY_MOD_2;
  }
  for (; i + 6 <= count; i += 6) {
    const p = ptr + i * unit;
    const c0 = <u64>load<T>(p), c1 = <u64>load<T>(p + unit), c2 = <u64>load<T>(p + 2 * unit);
    const c3 = <u64>load<T>(p + 3 * unit), c4 = <u64>load<T>(p + 4 * unit), c5 = <u64>load<T>(p + 5 * unit);
    h1 = (h1 * POLY_POW6_1 + fold6By31(c0, c1, c2, c3, c4, c5)) % POLY_MOD_1;
    h2 = (h2 * POLY_POW6_2 + fold6By37(c0, c1, c2, c3, c4, c5)) % POLY_MOD_2;
  }
  for (; i < count; i++) {
    const c = <u64>load<T>(ptr + i * unit);
    h1 = (h1 * 31 + c) % POLY_MOD_1;
    h2 = (h2 * 37 + c) % POLY_MOD_2;
  }
  sums().h1 = h1;
  sums().h2 = h2;
}

/** Feeds `count` codes at `ptr` (u16 code units when `wide`, else bytes). */
export function polyUpdate(ptr: usize, count: usize, wide: bool): void {
  if (wide) polyFeed<u16>(ptr, count);
  else polyFeed<u8>(ptr, count);
}

// --------------------------------------------------------------- bytesum
// The SSTable exercise's hashes over UTF-8 bytes: h1 = sum(b) mod m and
// h2 = sum((index+1) * b) mod m.

/** The bytesum hash's sum of bytes so far. */
// @ts-ignore: decorator
@inline export function byteSum(): u64 {
  return sums().h1;
}

/** The bytesum hash's weighted sum (mod m) so far. */
// @ts-ignore: decorator
@inline export function weightedSum(): u64 {
  return sums().h2;
}

/** Starts a bytesum hash. */
export function bytesumBegin(): void {
  sums().h1 = 0;
  sums().h2 = 0;
  sums().index = 0;
}

/**
 * Feeds `len` (at most 65,536) bytes. The weighted sum is reduced mod m once
 * per update: (index+1)*255 < 2^43 for any item below 2^35 bytes, so 2^16
 * such terms stay below 2^59 and the u64 cannot overflow in between.
 */
export function bytesumUpdate(ptr: usize, len: usize, m: u64): void {
  const state = sums();
  let s1 = state.h1;
  let s2: u64 = 0;
  let index = state.index;
  for (let i: usize = 0; i < len; i++) {
    const b = <u64>load<u8>(ptr + i);
    index++;
    s1 += b;
    s2 += index * b;
  }
  state.h1 = s1;
  state.h2 = (state.h2 + s2 % m) % m;
  state.index = index;
}
