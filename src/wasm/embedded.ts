// The wasm builds as src/build/embed-wasm.mjs embeds them: text, a byte to
// one or two printable characters, decoded here on a module's first use.
// Text gzips as small as base64 of a DEFLATE stream (docs/BENCHMARKS.md,
// "The wasm as text") and needs no inflater in the bundle.

/**
 * The bytes of the build that src/build/wasm-text.mjs's wasmText wrote
 * as `text`: over the alphabet of printable ASCII but for " $ ' \\ and `,
 * the byte values that `frequent` marks (64 hex digits, bit q of digit d
 * for byte 4d + q) are one character each, in ascending order of value,
 * and the others, in ascending order, two: a prefix (the alphabet's
 * characters after the singles') and any character.
 */
export function textBytes(text: string, frequent: string): Uint8Array<ArrayBuffer> {
  const index = new Uint8Array(127);
  let size = 0;
  for (let c = 32; c < 127; c++) if (!'"$\'\\`'.includes(String.fromCharCode(c))) index[c] = size++;
  const singles: number[] = [];
  const others: number[] = [];
  for (let b = 0; b < 256; b++) ((parseInt(frequent[b >> 2], 16) >> (b & 3)) & 1 ? singles : others).push(b);
  const bytes = new Uint8Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = index[text.charCodeAt(i)];
    bytes[n++] = c < singles.length ? singles[c] : others[(c - singles.length) * size + index[text.charCodeAt(++i)]];
  }
  return bytes.slice(0, n);
}
