// The counting filter's file (magic "BLM4", version 1): golden files spelled
// out byte for byte and written by both twins, and every header and payload
// fault refused with BloomFormatError naming the field and offset.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import { xxh64 } from '../src/reference/hash.js';
import { twins } from './helpers/twins.js';

const golden = (name: string) => new Uint8Array(readFileSync(new URL(`./golden/${name}.bin`, import.meta.url)));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

type Ctor = typeof wasm.CountingBloomFilter;
const recipes: Record<string, { make: (C: Ctor) => InstanceType<Ctor>; hex: string }> = {
  // apple twice, banana, cherry added then removed: counters 11, 58, 42 at 2; 35, 7, 44 at 1.
  'counting-xxh64': {
    make: (C) => {
      const c = new C(64, 3, { scheme: 'xxh64', seed: 0x0123456789abcdefn });
      for (const item of ['apple', 'apple', 'banana', 'cherry']) c.add(item);
      c.remove('cherry');
      return c;
    },
    hex:
      '424c4d3401000003efcdab8967452301' + '40000000000000000600000000000000' +
      '03000000000000002000000000000000' + '30a6f786ad9e33c6' +
      '00000010002000000000000000000000' + '00100000000201000000000000020000',
  },
  // m = 17 (odd: a padding nibble), poly: cats.io 16 times saturates 0, 1, 2; dogs.io {5, 9, 13}; owls.io {4, 1, 15}.
  'counting-poly': {
    make: (C) => {
      const c = new C(17, 3, { scheme: 'poly' });
      for (let i = 0; i < 16; i++) c.add('cats.io');
      c.add('dogs.io');
      c.add('owls.io');
      return c;
    },
    hex:
      '424c4d34010001030000000000000000' + '11000000000000000800000000000000' +
      '12000000000000000900000000000000' + '5cdedc1bd1cecb20' + 'ff0f1100100010100' + '0',
  },
};

/** Rewrites the checksum after a deliberate change, so the check after it is reached. */
function reseal(bytes: Uint8Array): Uint8Array {
  const joined = new Uint8Array(bytes.length - 8);
  joined.set(bytes.subarray(0, 48));
  joined.set(bytes.subarray(56), 48);
  new DataView(bytes.buffer, bytes.byteOffset).setBigUint64(48, xxh64(joined, 0n), true);
  return bytes;
}

describe('counting golden files', () => {
  it.each(Object.keys(recipes))('%s.bin holds exactly the bytes this test spells out', (name) => {
    expect(toHex(golden(name))).toBe(recipes[name].hex);
  });

  describe.each(twins)('$name', ({ CountingBloomFilter, COUNTING_FORMAT_VERSION }) => {
    it('writes version 1', () => expect(COUNTING_FORMAT_VERSION).toBe(1));

    it.each(Object.keys(recipes))('writes %s.bin byte for byte', (name) => {
      expect(toHex(recipes[name].make(CountingBloomFilter).toBytes())).toBe(toHex(golden(name)));
    });

    it.each(Object.keys(recipes))('loads %s.bin into the same filter', (name) => {
      const loaded = CountingBloomFilter.fromBytes(golden(name));
      const built = recipes[name].make(CountingBloomFilter);
      expect([loaded.bits, loaded.hashes, loaded.scheme, loaded.seed]).toEqual([built.bits, built.hashes, built.scheme, built.seed]);
      expect(loaded.counters()).toEqual(built.counters());
      expect([loaded.bitsSet(), loaded.saturatedCount(), loaded.size]).toEqual([built.bitsSet(), built.saturatedCount(), built.size]);
      expect(loaded.toBytes()).toEqual(golden(name));
    });

    it.each([3, 15, 16, 17, 31, 1001, 4099])('recounts the nonzero and saturated counters of a loaded file of %i counters', (bits) => {
      // Every counter level, saturation included; m not a multiple of 16 reaches the loop's byte tail.
      const c = new CountingBloomFilter(bits, 3, { scheme: 'xxh64' });
      for (let i = 0; i < 6 * bits; i++) c.add(`item${i % (2 * bits)}`);
      const packed = c.counters();
      let nonzero = 0;
      let full = 0;
      for (let p = 0; p < bits; p++) {
        const v = (packed[p >> 1] >> ((p & 1) * 4)) & 15;
        nonzero += v > 0 ? 1 : 0;
        full += v === 15 ? 1 : 0;
      }
      const loaded = CountingBloomFilter.fromBytes(c.toBytes());
      expect([loaded.bitsSet(), loaded.saturatedCount()]).toEqual([nonzero, full]);
      expect([c.bitsSet(), c.saturatedCount()]).toEqual([nonzero, full]);
    });

    it('counting-poly.bin keeps its saturated counters saturated after loading', () => {
      const c = CountingBloomFilter.fromBytes(golden('counting-poly'));
      expect(c.saturatedCount()).toBe(3);
      for (let i = 0; i < 20; i++) c.remove('cats.io');
      expect(c.count('cats.io')).toBe(15);
    });
  });
});

describe.each(twins)('$name counting file faults', ({ CountingBloomFilter, BloomFilter, ScalableBloomFilter, BloomFormatError }) => {
  const file = () => golden('counting-poly').slice();
  const refuse = (bytes: Uint8Array, field: string, offset: number, message: RegExp) => {
    let caught: unknown;
    try {
      CountingBloomFilter.fromBytes(bytes);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BloomFormatError);
    expect(caught).toMatchObject({ field, offset });
    expect((caught as Error).message).toMatch(message);
  };

  it('names the right class when handed the other kind of file', () => {
    expect(() => BloomFilter.fromBytes(file())).toThrow(/this is a counting filter, "BLM4": load it with CountingBloomFilter.fromBytes/);
    refuse(golden('xxh64'), 'magic', 0, /not a bloomwasm counting filter.*this is a single filter, "BLMW": load it with BloomFilter.fromBytes/);
    expect(() => BloomFilter.fromBytes(new ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01 }).toBytes())).toThrow(/this is a ScalableBloomFilter chain, "BLMC": load it with ScalableBloomFilter.fromBytes/);
  });

  it('refuses a newer version', () => {
    const bytes = file();
    bytes[4] = 2;
    refuse(bytes, 'version', 4, /unsupported version 2/);
  });

  it('refuses a wrong payloadLength (ceil(bits * 4 / 8))', () => {
    const bytes = file();
    bytes[40] = 3;
    refuse(bytes, 'payloadLength', 40, /ceil\(bits \* 4 \/ 8\) = 9/);
  });

  it('refuses a corrupt counter by its checksum', () => {
    const bytes = file();
    bytes[60] ^= 1;
    refuse(bytes, 'checksum', 48, /the data is corrupt/);
  });

  it('refuses a nonzero padding nibble past an odd m', () => {
    const bytes = file();
    bytes[64] = 0x10;
    refuse(reseal(bytes), 'payload', 64, /padding bits past counter 16 must be 0/);
  });

  it('refuses a bitsSet that is not the count of counters above 0', () => {
    const bytes = file();
    bytes[24] = 7;
    refuse(reseal(bytes), 'bitsSet', 24, /says 7, but the payload has 8 counters above 0/);
  });

  it('refuses truncated and overlong input', () => {
    refuse(file().subarray(0, 60), 'payload', 60, /truncated/);
    const longer = new Uint8Array(file().length + 1);
    longer.set(file());
    refuse(longer, 'payload', 65, /1 unexpected bytes/);
  });
});
