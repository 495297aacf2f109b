// What the classes above src/wasm/ hand to it: items, checked batches of
// them, and a filter's checked parameters, with the scheme registry whose
// ids are assembly/scheme.ts's. Declared here, at the boundary, so that
// src/wasm/ imports nothing from the folders above it; src/filter/items.ts
// and src/filter/options.ts, which check them, re-export them.

/**
 * The hash schemes. Their ids (the index here) are part of the file format
 * and match the SCHEME_* constants of assembly/scheme.ts.
 */
export const SCHEMES = ['xxh64', 'poly', 'bytesum', 'sbbf'] as const;

/**
 * A hash scheme name: `xxh64` (default), `poly` (the SeenFilter exercise),
 * `bytesum` (the SSTable command protocol) or `sbbf` (Apache Parquet's
 * split-block Bloom filter; docs/SCHEMES.md).
 */
export type Scheme = (typeof SCHEMES)[number];

/** One item: a string (hashed as UTF-8, or as UTF-16 code units under `poly`) or raw bytes. */
export type Item = string | Uint8Array;

/**
 * Items that already are bytes, packed: item i is
 * `bytes.subarray(offsets[i], offsets[i + 1])`, so `offsets` has n + 1 entries.
 */
export interface PackedItems {
  /** The items' bytes, back to back. */
  bytes: Uint8Array;
  /** n + 1 non-decreasing byte offsets into `bytes`. */
  offsets: Uint32Array | readonly number[];
}

/** What addMany and hasMany take: an array or iterable of items, or the packed form. */
export type BatchItems = Iterable<Item> | PackedItems;

/** A checked batch: a list of items, or packed bytes with checked offsets. */
export type CheckedBatch =
  | { readonly packed: false; readonly list: readonly Item[]; readonly count: number }
  | { readonly packed: true; readonly bytes: Uint8Array; readonly offsets: ArrayLike<number>; readonly count: number };

/** Validated filter parameters. */
export interface FilterParams {
  bits: number;
  hashes: number;
  scheme: Scheme;
  schemeId: number;
  seed: bigint;
}

/**
 * The low 32 bits of a u64 (a seed, a generator's state): the exports take
 * a u64 as two u32 arguments, low half then high half, since an i64 would
 * cross as a BigInt, allocated on every call.
 */
export function low32(value: bigint): number {
  return Number(value & 0xffffffffn);
}

/** The high 32 bits of a u64 below 2^64: see low32. */
export function high32(value: bigint): number {
  return Number(value >> 32n);
}
