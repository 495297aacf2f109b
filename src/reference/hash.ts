// The reference twin of assembly/hash.ts: the same hashes, written plainly
// with BigInt where 64-bit arithmetic is needed. Slow on purpose: it is the
// oracle the wasm path is checked against.

const MASK64 = (1n << 64n) - 1n;
const u64 = (x: bigint): bigint => x & MASK64;
const rotl = (x: bigint, r: bigint): bigint => u64((x << r) | (x >> (64n - r)));

// XXH64, https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md
const PRIME64_1 = 0x9e3779b185ebca87n;
const PRIME64_2 = 0xc2b2ae3d27d4eb4fn;
const PRIME64_3 = 0x165667b19e3779f9n;
const PRIME64_4 = 0x85ebca77c2b2ae63n;
const PRIME64_5 = 0x27d4eb2f165667c5n;

function readU64(bytes: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i]);
  return v;
}

function readU32(bytes: Uint8Array, at: number): bigint {
  return BigInt((bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0);
}

function round(acc: bigint, lane: bigint): bigint {
  return u64(rotl(u64(acc + u64(lane * PRIME64_2)), 31n) * PRIME64_1);
}

function mergeRound(acc: bigint, lane: bigint): bigint {
  return u64((acc ^ round(0n, lane)) * PRIME64_1 + PRIME64_4);
}

/** XXH64 of `bytes` with a 64-bit seed. */
export function xxh64(bytes: Uint8Array, seed: bigint): bigint {
  const len = bytes.length;
  let at = 0;
  let h: bigint;
  if (len >= 32) {
    let v1 = u64(seed + PRIME64_1 + PRIME64_2);
    let v2 = u64(seed + PRIME64_2);
    let v3 = seed;
    let v4 = u64(seed - PRIME64_1);
    for (; at + 32 <= len; at += 32) {
      v1 = round(v1, readU64(bytes, at));
      v2 = round(v2, readU64(bytes, at + 8));
      v3 = round(v3, readU64(bytes, at + 16));
      v4 = round(v4, readU64(bytes, at + 24));
    }
    h = u64(rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n));
    h = mergeRound(h, v1);
    h = mergeRound(h, v2);
    h = mergeRound(h, v3);
    h = mergeRound(h, v4);
  } else {
    h = u64(seed + PRIME64_5);
  }
  h = u64(h + BigInt(len));
  for (; at + 8 <= len; at += 8) {
    h = u64(rotl(h ^ round(0n, readU64(bytes, at)), 27n) * PRIME64_1 + PRIME64_4);
  }
  if (at + 4 <= len) {
    h = u64(rotl(h ^ u64(readU32(bytes, at) * PRIME64_1), 23n) * PRIME64_2 + PRIME64_3);
    at += 4;
  }
  for (; at < len; at++) {
    h = u64(rotl(h ^ u64(BigInt(bytes[at]) * PRIME64_5), 11n) * PRIME64_1);
  }
  h ^= h >> 33n;
  h = u64(h * PRIME64_2);
  h ^= h >> 29n;
  h = u64(h * PRIME64_3);
  return h ^ (h >> 32n);
}

/** splitmix64's output function (Steele, Lea and Flood, 2014). */
export function splitmix64(z: bigint): bigint {
  z = u64((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = u64((z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return z ^ (z >> 31n);
}

export const POLY_MOD_1 = 1_000_000_007;
export const POLY_MOD_2 = 1_000_000_009;

/**
 * The SeenFilter exercise's hashes over character codes, reduced after every code exactly as
 * the seed writes them (h*37 + c < 2^53, so doubles are exact).
 */
export function poly(codes: ArrayLike<number>): { h1: number; h2: number } {
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < codes.length; i++) {
    h1 = (h1 * 31 + codes[i]) % POLY_MOD_1;
    h2 = (h2 * 37 + codes[i]) % POLY_MOD_2;
  }
  return { h1, h2 };
}

/** The SSTable exercise's hashes: sum(b) mod m and sum((index+1) * b) mod m over the bytes. */
export function bytesum(bytes: Uint8Array, m: number): { h1: number; h2: number } {
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < bytes.length; i++) {
    h1 = (h1 + bytes[i]) % m;
    h2 = (h2 + (i + 1) * bytes[i]) % m;
  }
  return { h1, h2 };
}
