// Renders packed bits (bit p at byte p >> 3, bit p & 7) as '0'/'1' text,
// bit 0 first, the way the SSTable command protocol's BLOOM-BITS prints them.

import { BloomRangeError } from '../errors.js';

/** V8's longest string, so toBitString fails clearly instead of deep inside the engine. */
export const MAX_BIT_STRING = 2 ** 29 - 24;

const BYTE_TEXT: string[] = [];
for (let b = 0; b < 256; b++) {
  let s = '';
  for (let bit = 0; bit < 8; bit++) s += (b >> bit) & 1 ? '1' : '0';
  BYTE_TEXT.push(s);
}

/** The first `bits` bits of `bytes` as a string of 0s and 1s. */
export function bitString(bytes: Uint8Array, bits: number): string {
  if (bits > MAX_BIT_STRING) throw new BloomRangeError('bits', bits, `at most ${MAX_BIT_STRING} for toBitString`);
  const whole = Math.floor(bits / 8);
  const parts: string[] = new Array(whole + 1);
  for (let i = 0; i < whole; i++) parts[i] = BYTE_TEXT[bytes[i]];
  parts[whole] = whole < bytes.length ? BYTE_TEXT[bytes[whole]].slice(0, bits - whole * 8) : '';
  return parts.join('');
}
