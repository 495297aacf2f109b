// The golden files of format version 1 (test/golden/README.md), asserted
// byte for byte against both implementations so the format cannot drift.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { twins } from './helpers/twins.js';


type Filter = InstanceType<typeof wasm.BloomFilter> | InstanceType<typeof reference.BloomFilter>;
type Ctor = typeof wasm.BloomFilter | typeof reference.BloomFilter;

const golden = (name: string) => new Uint8Array(readFileSync(new URL(`./golden/${name}.bin`, import.meta.url)));

const recipes: Record<string, { make: (F: Ctor) => Filter; items: string[]; hex: string }> = {
  xxh64: {
    make: (F) => new F(64, 3, { scheme: 'xxh64', seed: 0x0123456789abcdefn }),
    items: ['apple', 'banana', 'cherry'],
    hex:
      '424c4d5701000003efcdab8967452301' + '40000000000000000900000000000000' +
      '03000000000000000800000000000000' + 'a1155bf59ae54a648008010008940404',
  },
  poly: {
    make: (F) => new F(16, 3, { scheme: 'poly' }),
    items: ['cats.io', 'dogs.io', 'owls.io'],
    hex:
      '424c4d57010001030000000000000000' + '10000000000000000900000000000000' +
      '03000000000000000200000000000000' + 'efc314807ca80890ae8b',
  },
  bytesum: {
    make: (F) => new F(100, 3, { scheme: 'bytesum' }),
    items: ['apple', 'banana'],
    hex:
      '424c4d57010002030000000000000000' + '64000000000000000600000000000000' +
      '02000000000000000d00000000000000' + '7ff18ad4c497f1840002044100000800' + '0000002000',
  },
  sbbf: {
    // Two 256-bit blocks; the payload is the Parquet bitset of these three items.
    make: (F) => new F(512, 8, { scheme: 'sbbf' }),
    items: ['apple', 'banana', 'cherry'],
    hex:
      '424c4d57010003080000000000000000' + '00020000000000001800000000000000' +
      '03000000000000004000000000000000' + 'f0bf509b469304180400000000000020' +
      '00000004000001000000020080000000' + '00000080000400000020010000100200' +
      '00208000004004000010000200080004' + '0001002040000020',
  },
  empty: {
    make: (F) => new F(10, 1),
    items: [],
    hex:
      '424c4d57010000010000000000000000' + '0a000000000000000000000000000000' +
      '00000000000000000200000000000000' + '627beb507eb1ccd00000',
  },
};

const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('golden files', () => {
  it.each(Object.keys(recipes))('%s.bin holds exactly the bytes this test spells out', (name) => {
    expect(toHex(golden(name))).toBe(recipes[name].hex);
  });

  describe.each(twins)('$name', ({ BloomFilter }) => {
    it.each(Object.keys(recipes))('writes %s.bin byte for byte', (name) => {
      const f = recipes[name].make(BloomFilter);
      for (const item of recipes[name].items) f.add(item);
      expect(toHex(f.toBytes())).toBe(toHex(golden(name)));
    });

    it.each(Object.keys(recipes))('loads %s.bin into the same filter', (name) => {
      const loaded = BloomFilter.fromBytes(golden(name));
      const built = recipes[name].make(BloomFilter);
      for (const item of recipes[name].items) built.add(item);
      expect([loaded.bits, loaded.hashes, loaded.scheme, loaded.seed]).toEqual([built.bits, built.hashes, built.scheme, built.seed]);
      expect(loaded.toBitString()).toBe(built.toBitString());
      expect(loaded.size).toBe(recipes[name].items.length);
      for (const item of recipes[name].items) expect(loaded.has(item)).toBe(true);
    });
  });

  it('poly.bin carries the SeenFilter exercise example: 9 bits set at 1, 2, 3, 5, 7, 8, 9, 11, 15', () => {
    const f = wasm.BloomFilter.fromBytes(golden('poly'));
    expect(f.bitsSet()).toBe(9);
    expect(f.toBitString()).toBe('0111010111010001');
  });

  it('bytesum.bin carries the SSTable exercise example: apple {30, 24, 18} and banana {9, 51, 93}', () => {
    const f = reference.BloomFilter.fromBytes(golden('bytesum'));
    const ones = [...f.toBitString()].flatMap((c, i) => (c === '1' ? [i] : []));
    expect(ones).toEqual([9, 18, 24, 30, 51, 93]);
  });
});
