// Byte-level helpers for tests of the chain format: re-sealing checksums
// after a deliberate change, and finding each member's span.
import { checksum } from '../../src/reference/checksum.js';
import { xxh64 } from '../../src/reference/hash.js';

/** Rewrites the chain header's checksum after a deliberate change, so the field checks behind it are reached. */
export function resealChain(bytes: Uint8Array): Uint8Array {
  new DataView(bytes.buffer, bytes.byteOffset).setBigUint64(56, xxh64(bytes.subarray(0, 56), 0n), true);
  return bytes;
}

/** Rewrites the checksum of the member file starting at `start` (length `length`). */
export function resealMember(bytes: Uint8Array, start: number, length: number): Uint8Array {
  const sum = checksum(bytes.subarray(start, start + 48), bytes.subarray(start + 56, start + length));
  new DataView(bytes.buffer, bytes.byteOffset).setBigUint64(start + 48, sum, true);
  return bytes;
}

/** Member [start, length) spans of a valid chain. */
export function spans(bytes: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  for (let at = 64; at + 56 <= bytes.length; ) {
    const length = 56 + Number(view.getBigUint64(at + 40, true));
    out.push([at, length]);
    at += length;
  }
  return out;
}
