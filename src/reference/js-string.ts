// The reference twin of assembly/js-string.ts: a string's UTF-8 bytes and
// its UTF-16 code units, written plainly from the WHATWG Encoding Standard's
// "UTF-8 encode" (https://encoding.spec.whatwg.org/#utf-8-encode): the
// string's code points, where a lone surrogate is U+FFFD, each as one to
// four bytes. TextEncoder does the same, and test/js-string.test.ts holds
// the three (wasm, TextEncoder, this) against each other.

import { bytesView } from '../wasm/typed-arrays.js';

/** The UTF-8 encoding of `s`, as TextEncoder gives it. */
export function encodeUtf8(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + (c - 0xd800) * 0x400 + (next - 0xdc00);
        i++;
      } else {
        c = 0xfffd; // a lone surrogate
      }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Uint8Array.from(out);
}

/** The UTF-16 code units of `s` (what the poly scheme hashes). */
export function copyUnits(s: string): number[] {
  const units = new Array<number>(s.length);
  for (let i = 0; i < s.length; i++) units[i] = s.charCodeAt(i);
  return units;
}

/**
 * The bytes an item is hashed as: a string's UTF-8, or a plain view of the
 * bytes given (src/wasm/typed-arrays.ts), so that a subclass's getters
 * are never read, as the wasm side never reads them.
 */
export function itemBytes(item: string | Uint8Array): Uint8Array {
  return typeof item === 'string' ? encodeUtf8(item) : bytesView(item);
}
