// Inflate (RFC 1951, DEFLATE), for the single-file browser build
// (src/build/browser.mjs), which carries every wasm module in one DEFLATE
// stream: the modules share code (XXH64, the record check, the batch
// staging) that one stream compresses once. Browsers' own
// DecompressionStream is asynchronous, and a filter is made synchronously
// (`new BloomFilter(m, k)` right after the import), so this decoder is
// synchronous and small rather than fast: it reads one bit at a time, which
// costs well under a millisecond for the modules' 55 KB.
// test/inflate.test.ts holds it against node:zlib.

/** Code-length code order (RFC 1951, 3.2.7). */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** Base values and extra bits of length codes 257-285 and distance codes 0-29 (RFC 1951, 3.2.5). */
const LENGTH_BASE: number[] = [];
const LENGTH_EXTRA: number[] = [];
const DISTANCE_BASE: number[] = [];
const DISTANCE_EXTRA: number[] = [];
for (let i = 0, length = 3, distance = 1; i < 30; i++) {
  // Lengths: four codes per extra-bit count from code 265 on; code 285 is 258 with none.
  const lengthExtra = i < 8 ? 0 : (i >> 2) - 1;
  LENGTH_BASE.push(i === 28 ? 258 : length);
  LENGTH_EXTRA.push(i === 28 ? 0 : lengthExtra);
  length += 1 << lengthExtra;
  // Distances: two codes per extra-bit count from code 4 on.
  const distanceExtra = Math.max(0, (i >> 1) - 1);
  DISTANCE_BASE.push(distance);
  DISTANCE_EXTRA.push(distanceExtra);
  distance += 1 << distanceExtra;
}

/** A canonical Huffman code: how many codes of each length 0-15, and the symbols in code order. */
interface Code {
  counts: Uint16Array;
  symbols: Uint16Array;
}

/** The canonical code of `lengths` (RFC 1951, 3.2.2): symbols ordered by code length, then by value. */
function codeOf(lengths: ArrayLike<number>): Code {
  const counts = new Uint16Array(16);
  for (let i = 0; i < lengths.length; i++) counts[lengths[i]]++;
  counts[0] = 0;
  const next = new Uint16Array(16);
  for (let len = 1; len < 16; len++) next[len] = next[len - 1] + counts[len - 1];
  const symbols = new Uint16Array(lengths.length);
  for (let i = 0; i < lengths.length; i++) if (lengths[i] !== 0) symbols[next[lengths[i]]++] = i;
  return { counts, symbols };
}

/** The fixed codes of block type 1 (RFC 1951, 3.2.6), made on first use. */
let fixed: [Code, Code] | undefined;

/**
 * The `size` bytes that the raw DEFLATE stream `input` encodes. Throws a
 * RangeError on a stream that is not DEFLATE or does not give `size` bytes:
 * the bytes are the package's own, so that is a broken build.
 */
export function inflate(input: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  // The bit reader: bits are read from the least significant end of each byte.
  let byte = 0;
  let bit = 8;
  let next = 0;
  const bits = (n: number): number => {
    let value = 0;
    for (let i = 0; i < n; i++) {
      if (bit === 8) {
        if (next >= input.length) throw new RangeError('inflate: the stream ends early');
        byte = input[next++];
        bit = 0;
      }
      value |= ((byte >> bit++) & 1) << i;
    }
    return value;
  };
  // Huffman codes are read most significant bit first, one bit at a time.
  const decode = ({ counts, symbols }: Code): number => {
    let code = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len < 16; len++) {
      code |= bits(1);
      const count = counts[len];
      if (code - first < count) return symbols[index + code - first];
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    throw new RangeError('inflate: an invalid Huffman code');
  };

  let last = 0;
  while (!last) {
    last = bits(1);
    const type = bits(2);
    if (type === 0) {
      // Stored: the rest of this byte is skipped, then LEN, NLEN and LEN bytes.
      bit = 8;
      const len = input[next] | (input[next + 1] << 8);
      if (next + 4 + len > input.length || at + len > size) throw new RangeError('inflate: a stored block overruns');
      out.set(input.subarray(next + 4, next + 4 + len), at);
      next += 4 + len;
      at += len;
      continue;
    }
    let literals: Code;
    let distances: Code;
    if (type === 1) {
      if (fixed === undefined) {
        const lengths = new Uint8Array(288);
        lengths.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
        fixed = [codeOf(lengths), codeOf(new Uint8Array(30).fill(5))];
      }
      [literals, distances] = fixed;
    } else if (type === 2) {
      const literalCount = bits(5) + 257;
      const distanceCount = bits(5) + 1;
      const codeLengthCount = bits(4) + 4;
      const codeLengths = new Uint8Array(19);
      for (let i = 0; i < codeLengthCount; i++) codeLengths[CODE_LENGTH_ORDER[i]] = bits(3);
      const codeLengthCode = codeOf(codeLengths);
      const lengths = new Uint8Array(literalCount + distanceCount);
      for (let i = 0; i < lengths.length; ) {
        const symbol = decode(codeLengthCode);
        if (symbol < 16) {
          lengths[i++] = symbol;
          continue;
        }
        // 16 repeats the previous length 3-6 times; 17 and 18 give 3-10 and 11-138 zeros.
        const repeat = symbol === 16 ? 3 + bits(2) : symbol === 17 ? 3 + bits(3) : 11 + bits(7);
        if (symbol === 16 && i === 0) throw new RangeError('inflate: a repeat with no previous length');
        if (i + repeat > lengths.length) throw new RangeError('inflate: code lengths overrun');
        lengths.fill(symbol === 16 ? lengths[i - 1] : 0, i, i + repeat);
        i += repeat;
      }
      literals = codeOf(lengths.subarray(0, literalCount));
      distances = codeOf(lengths.subarray(literalCount));
    } else {
      throw new RangeError('inflate: block type 3 is reserved');
    }
    for (;;) {
      const symbol = decode(literals);
      if (symbol === 256) break;
      if (symbol < 256) {
        if (at >= size) throw new RangeError('inflate: more bytes than expected');
        out[at++] = symbol;
        continue;
      }
      // The length's extra bits come before the distance code.
      const l = symbol - 257;
      if (l > 28) throw new RangeError('inflate: an invalid length code');
      const length = LENGTH_BASE[l] + bits(LENGTH_EXTRA[l]);
      const d = decode(distances);
      if (d > 29) throw new RangeError('inflate: an invalid distance code');
      const distance = DISTANCE_BASE[d] + bits(DISTANCE_EXTRA[d]);
      if (distance > at || at + length > size) throw new RangeError('inflate: a match out of range');
      // Byte by byte: a match may overlap the bytes it is copying.
      for (let i = 0; i < length; i++, at++) out[at] = out[at - distance];
    }
  }
  if (at !== size) throw new RangeError(`inflate: ${at} bytes where ${size} were expected`);
  return out;
}

/** The bytes that `base64`, a raw DEFLATE stream of `size` bytes, encodes (src/build/browser.mjs). */
export function inflateBase64(base64: string, size: number): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return inflate(bytes, size);
}
