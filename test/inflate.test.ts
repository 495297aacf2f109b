// The embedded wasm builds are stored as raw DEFLATE (src/build/
// embed-wasm.mjs) and inflated by src/wasm/inflate.ts: every block type and
// every level that zlib writes must come back byte for byte, and a broken
// stream must be refused, not read past.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { constants, deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inflate } from '../src/wasm/inflate.js';

const root = fileURLToPath(new URL('../', import.meta.url));

/** zlib's raw DEFLATE of `bytes` with `options`, then inflate(): must give the bytes back. */
function roundTrip(bytes: Uint8Array, options: Parameters<typeof deflateRawSync>[1] = {}): void {
  const stream = deflateRawSync(bytes, options);
  expect(Buffer.from(inflate(stream, bytes.length)).equals(Buffer.from(bytes))).toBe(true);
}

describe('inflate', () => {
  it('gives back the built wasm modules, at every level', () => {
    for (const file of [
      'build/bloom.wasm', 'build/bloom-shared.wasm', 'build/bloom-lines.wasm', 'build/bloom-chain.wasm', 'build/bloom-bloom.wasm', 'build/bloom-counting.wasm',
      'build/bloom-cuckoo.wasm', 'build/bloom-fuse.wasm', 'build/bloom-sliding.wasm', 'build/bloom-bitmap.wasm',
    ]) {
      const wasm = readFileSync(root + file);
      for (const level of [0, 1, 6, 9]) roundTrip(wasm, { level });
    }
  });

  it('reads stored, fixed-code and dynamic-code blocks, and long overlapping matches', () => {
    roundTrip(new Uint8Array(0));
    roundTrip(new Uint8Array(70_000), { level: 0 }); // two stored blocks
    roundTrip(new TextEncoder().encode('abc'), { strategy: constants.Z_FIXED });
    roundTrip(new Uint8Array(100_000).fill(7)); // one byte, then matches of 258 at distance 1
    const text = new TextEncoder().encode('the filter, the bits, the hashes; '.repeat(500));
    roundTrip(text, { strategy: constants.Z_FIXED });
    roundTrip(text, { strategy: constants.Z_HUFFMAN_ONLY });
    roundTrip(text, { level: 9, memLevel: 9 });
  });

  it('gives back any bytes (fast-check)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.integer({ min: 0, max: 9 }), fc.boolean(), (bytes, level, repetitive) => {
        const input = repetitive ? bytes.map((b) => b & 3) : bytes;
        roundTrip(input, { level });
      }),
      { numRuns: 300, seed: 22 },
    );
  });

  it('refuses a stream that ends early, gives too many or too few bytes, or uses block type 3', () => {
    const wasm = readFileSync(root + 'build/bloom.wasm');
    const stream = deflateRawSync(wasm, { level: 9 });
    expect(() => inflate(stream.subarray(0, stream.length >> 1), wasm.length)).toThrow(RangeError);
    expect(() => inflate(stream, wasm.length - 1)).toThrow(RangeError);
    expect(() => inflate(stream, wasm.length + 1)).toThrow(/bytes where/);
    expect(() => inflate(Uint8Array.of(0b111), 1)).toThrow(/reserved/);
  });
});
