// Fixed, seeded inputs for the benchmarks: URL-like strings of 64 to 70
// characters, short keys of 8 to 16 bytes and long keys of 1 KiB. Each set is
// generated once as packed bytes; the strings are decoded from those bytes, so
// they are flat one-byte strings like the ones a crawler reads from I/O (a
// string built with += is a rope, which slows every per-character peer).

import { mulberry32 } from '../src/cli/mulberry32.js';

/** Packed items: item i is bytes[offsets[i], offsets[i + 1]). */
export interface Packed {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/** One item set in its three forms. */
export interface ItemSet {
  packed: Packed;
  strings: string[];
  views: Uint8Array[];
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const PATH = new TextEncoder().encode('abcdefghijklmnopqrstuvwxyz0123456789/-_');

/**
 * n distinct ASCII items. `marker` is written right after the prefix and
 * differs between the present and the absent set, so the two never overlap;
 * the item's index in base 36 follows it, so items within a set are distinct.
 */
function generate(n: number, seed: number, marker: string, shape: (r: () => number, i: number) => { prefix: string; length: number }): Packed {
  const r = mulberry32(seed);
  const encoder = new TextEncoder();
  // xorshift32 for the filler characters: one step per character keeps generation to a few seconds.
  let x = (Math.imul(seed, 0x9e3779b1) >>> 0) || 1;
  let bytes = new Uint8Array(n * 80);
  const offsets = new Uint32Array(n + 1);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const { prefix, length } = shape(r, i);
    const head = prefix + marker + i.toString(36) + '/';
    if (at + Math.max(length, head.length) > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, at + length + head.length));
      grown.set(bytes);
      bytes = grown;
    }
    at += encoder.encodeInto(head, bytes.subarray(at)).written;
    for (let c = head.length; c < length; c++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      bytes[at++] = PATH[(x >>> 0) % PATH.length];
    }
    offsets[i + 1] = at;
  }
  return { bytes: bytes.slice(0, at), offsets };
}

function forms(packed: Packed): ItemSet {
  const decoder = new TextDecoder();
  const n = packed.offsets.length - 1;
  const strings = new Array<string>(n);
  const views = new Array<Uint8Array>(n);
  for (let i = 0; i < n; i++) {
    views[i] = packed.bytes.subarray(packed.offsets[i], packed.offsets[i + 1]);
    strings[i] = decoder.decode(views[i]);
  }
  return { packed, strings, views };
}

function host(r: () => number): string {
  let h = '';
  const len = 5 + Math.floor(r() * 8);
  for (let i = 0; i < len; i++) h += LETTERS[Math.floor(r() * 26)];
  return h;
}

/** n URL-like strings of 64 to 70 characters (workload a). */
export function urls(n: number, seed: number, marker: string): ItemSet {
  return forms(generate(n, seed, marker, (r) => ({ prefix: `https://www.${host(r)}.com/`, length: 64 + Math.floor(r() * 7) })));
}

/** n keys of 8 to 16 bytes (workload b). */
export function shortKeys(n: number, seed: number, marker: string): ItemSet {
  return forms(generate(n, seed, marker, (r) => ({ prefix: '', length: 8 + Math.floor(r() * 9) })));
}

/** n keys of exactly 1 KiB (workload b). */
export function longKeys(n: number, seed: number, marker: string): ItemSet {
  return forms(generate(n, seed, marker, (r) => ({ prefix: `k/${host(r)}/`, length: 1024 })));
}
