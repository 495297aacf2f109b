// The reference hashes against published vectors; parity.test.ts then ties
// the wasm hashes to these.
import { describe, expect, it } from 'vitest';
import { bytesum, poly, splitmix64, xxh64 } from '../src/reference/hash.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('xxh64', () => {
  it('matches the published vectors (seed 0)', () => {
    expect(xxh64(utf8(''), 0n)).toBe(0xef46db3751d8e999n);
    expect(xxh64(utf8('a'), 0n)).toBe(0xd24ec4f1a98c6e5bn);
    expect(xxh64(utf8('abc'), 0n)).toBe(0x44bc2cf5ad770999n);
  });

  it('matches vectors that cover the 32-byte stripe loop and a seed', () => {
    // xxhsum -H64 of the 43-byte pangram; seeded values from the xxHash sanity table.
    expect(xxh64(utf8('The quick brown fox jumps over the lazy dog'), 0n)).toBe(0x0b242d361fda71bcn);
    expect(xxh64(utf8(''), 2_654_435_761n)).toBe(0xac75fda2929b17efn); // seed = PRIME32_1
  });
});

describe('splitmix64', () => {
  it('mixes 0 to 0 and 1 to the splitmix64 finaliser value', () => {
    expect(splitmix64(0n)).toBe(0n);
    expect(splitmix64(1n)).toBe(0x5692161d100b05e5n);
  });
});

describe('poly', () => {
  it('gives the SeenFilter exercise values for cats.io', () => {
    const units = [...'cats.io'].map((c) => c.charCodeAt(0));
    expect(poly(units)).toEqual({ h1: 750_493_409, h2: 956_570_721 });
  });
});

describe('bytesum', () => {
  it('gives the SSTable exercise values for apple: byte sum 530 and weighted sum 1594', () => {
    expect(bytesum(utf8('apple'), 100)).toEqual({ h1: 30, h2: 94 });
    expect(bytesum(utf8('apple'), 100_000)).toEqual({ h1: 530, h2: 1594 });
  });
});
