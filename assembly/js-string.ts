// Strings read in place: a JavaScript string passed as an externref and read
// code unit by code unit through the JS String Builtins
// (https://github.com/WebAssembly/js-string-builtins, "wasm:js-string"),
// which the engine supplies itself: no TextEncoder, no call into C++ per
// string. Each unit still costs a builtin call (docs/RUNTIMES.md has its
// cost), so only short strings take this path (src/wasm/staging.ts,
// IN_PLACE_MAX).
//
// The module is compiled with { builtins: ['js-string'] } (src/wasm/module.ts).
// Engines without the builtins get plain JS functions for these two imports;
// the wrapper then never calls the exports that use them, and copies strings
// with TextEncoder.encodeInto as before (src/wasm/staging.ts says which
// engines take which path, and why).
//
// The externref stays in parameters and locals, never in memory: a string
// cannot be stored there.
//
// The twin is src/reference/js-string.ts.

// @ts-ignore: decorator
@external("wasm:js-string", "length")
declare function stringLength(s: externref): i32;

// @ts-ignore: decorator
@external("wasm:js-string", "charCodeAt")
declare function stringCharCodeAt(s: externref, i: i32): i32;

/** The string's length in UTF-16 code units. */
// @ts-ignore: decorator
@inline export function unitsOf(s: externref): i32 {
  return stringLength(s);
}

/**
 * Writes the UTF-8 encoding of `s` at `ptr` and returns its byte length.
 * The encoding is TextEncoder's (WHATWG Encoding, "UTF-8 encode" of the
 * string's scalar values): a lone surrogate becomes U+FFFD (EF BF BD), a
 * surrogate pair one four-byte sequence. The caller guarantees 3 bytes per
 * code unit of room (a pair's four bytes are two units' six).
 */
export function encodeUtf8(s: externref, ptr: usize): usize {
  const n = stringLength(s);
  let out = ptr;
  let i = 0;
  // ASCII runs, the common case of URLs and keys, one byte per unit.
  for (; i < n; i++) {
    const c = stringCharCodeAt(s, i);
    if (c >= 0x80) break;
    store<u8>(out++, <u8>c);
  }
  for (; i < n; i++) {
    let c = <u32>stringCharCodeAt(s, i);
    if (c < 0x80) {
      store<u8>(out++, <u8>c);
    } else if (c < 0x800) {
      store<u8>(out, <u8>(0xc0 | (c >> 6)));
      store<u8>(out, <u8>(0x80 | (c & 0x3f)), 1);
      out += 2;
    } else if ((c & 0xf800) != 0xd800) {
      store<u8>(out, <u8>(0xe0 | (c >> 12)));
      store<u8>(out, <u8>(0x80 | ((c >> 6) & 0x3f)), 1);
      store<u8>(out, <u8>(0x80 | (c & 0x3f)), 2);
      out += 3;
    } else {
      // A surrogate: a high one followed by a low one is a pair; any other is lone.
      const next = i + 1 < n ? <u32>stringCharCodeAt(s, i + 1) : 0;
      if (c < 0xdc00 && (next & 0xfc00) == 0xdc00) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        store<u8>(out, <u8>(0xf0 | (c >> 18)));
        store<u8>(out, <u8>(0x80 | ((c >> 12) & 0x3f)), 1);
        store<u8>(out, <u8>(0x80 | ((c >> 6) & 0x3f)), 2);
        store<u8>(out, <u8>(0x80 | (c & 0x3f)), 3);
        out += 4;
        i++;
      } else {
        store<u8>(out, 0xef);
        store<u8>(out, 0xbf, 1);
        store<u8>(out, 0xbd, 2);
        out += 3;
      }
    }
  }
  return out - ptr;
}

/** Writes the string's UTF-16 code units at `ptr` (the poly scheme hashes those) and returns how many. */
export function copyUnits(s: externref, ptr: usize): usize {
  const n = stringLength(s);
  for (let i = 0; i < n; i++) store<u16>(ptr + (<usize>i << 1), <u16>stringCharCodeAt(s, i));
  return <usize>n;
}
