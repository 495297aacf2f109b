// A wasm build as text a bundler writes as it is: each byte one or two
// printable characters, decoded by src/wasm/embedded.ts's textBytes. Used
// for each module's generated file (src/build/embed-wasm.mjs) and for the
// single-file browser build's one literal of every module
// (src/build/browser.mjs).

/**
 * The characters the text is written in: printable ASCII but for the
 * quotes, the backslash and the dollar sign, so that a bundler writes them
 * as they are in any kind of string literal. The decoder rebuilds the same
 * list.
 */
const TEXT_EXCLUDED = '"$\'\\`';
const ALPHABET = [];
for (let c = 0x20; c < 0x7f; c++) if (!TEXT_EXCLUDED.includes(String.fromCharCode(c))) ALPHABET.push(String.fromCharCode(c));

/** How many of the build's byte values take one character; the other 256 - 88 take two. */
const SINGLES = 88;

/**
 * `wasm` as text, and which byte values take one character (`frequent`, 64
 * hex digits: digit d holds bytes 4d to 4d + 3, bit q byte 4d + q). The
 * SINGLES most frequent byte values take one character each, in ascending
 * order of value; the others, in ascending order, two (a prefix, the
 * alphabet's characters after the singles', then any character). Every
 * byte stays whole and in place, so that gzip finds the build's repeats as
 * it does in the bytes themselves. A bundler escapes every character
 * outside printable ASCII (esbuild: \xNN, four bytes), which a character a
 * byte, however shifted, could not avoid; and unlike a permutation of all
 * 256 values it needs no table.
 */
export function wasmText(wasm) {
  const counts = new Array(256).fill(0);
  for (const byte of wasm) counts[byte]++;
  const byFrequency = [...counts.keys()].sort((a, b) => counts[b] - counts[a] || a - b);
  const frequent = new Set(byFrequency.slice(0, SINGLES));
  const code = new Array(256);
  let singles = 0;
  let others = 0;
  for (let b = 0; b < 256; b++) {
    if (frequent.has(b)) code[b] = ALPHABET[singles++];
    else {
      code[b] = ALPHABET[SINGLES + Math.floor(others / ALPHABET.length)] + ALPHABET[others % ALPHABET.length];
      others++;
    }
  }
  let text = '';
  for (const byte of wasm) text += code[byte];
  let hex = '';
  for (let d = 0; d < 64; d++) {
    let digit = 0;
    for (let q = 0; q < 4; q++) if (frequent.has(4 * d + q)) digit |= 1 << q;
    hex += digit.toString(16);
  }
  return { text, frequent: hex };
}
