// The version-1 binary format: round trips, wasm/reference byte identity,
// the header decoded by hand, and one test per validation rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { twins } from './helpers/twins.js';
import { checksum } from '../src/reference/checksum.js';
import { xxh64 } from '../src/reference/hash.js';

const SCHEMES = ['xxh64', 'poly', 'bytesum'] as const;
const { BloomFormatError } = wasm;

/** Decodes a header with a DataView, independently of src/format/filter.ts. */
function decode(bytes: Uint8Array) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return {
    magic: new TextDecoder().decode(bytes.subarray(0, 4)),
    version: v.getUint16(4, true),
    scheme: v.getUint8(6),
    hashes: v.getUint8(7),
    seed: v.getBigUint64(8, true),
    bits: v.getBigUint64(16, true),
    bitsSet: v.getBigUint64(24, true),
    addedCount: v.getBigUint64(32, true),
    payloadLength: v.getBigUint64(40, true),
    checksum: v.getBigUint64(48, true),
  };
}

/** A valid file, edited by `edit` and re-checksummed, so only the edited rule can fail. */
function forged(edit: (view: DataView, bytes: Uint8Array) => void, base?: Uint8Array): Uint8Array {
  const bytes = (base ?? sample()).slice();
  edit(new DataView(bytes.buffer), bytes);
  const sum = checksum(bytes.subarray(0, 48), bytes.subarray(56));
  new DataView(bytes.buffer).setBigUint64(48, sum, true);
  return bytes;
}

function sample(): Uint8Array {
  const f = new reference.BloomFilter(100, 3, { scheme: 'xxh64', seed: 7n });
  for (const w of ['apple', 'banana', 'cherry']) f.add(w);
  return f.toBytes();
}

function formatError(run: () => unknown): InstanceType<typeof BloomFormatError> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BloomFormatError);
    return error as InstanceType<typeof BloomFormatError>;
  }
  throw new Error('expected a BloomFormatError');
}

describe.each(twins)('round trips ($name)', ({ BloomFilter }) => {
  it.each(SCHEMES)('keeps every bit, both counters and the parameters under %s', (scheme) => {
    const f = new BloomFilter(1237, 5, { scheme, seed: scheme === 'xxh64' ? 0xfedcba9876543210n : 0 });
    for (let i = 0; i < 150; i++) f.add(`item-${i}`);
    const g = BloomFilter.fromBytes(f.toBytes());
    expect([g.bits, g.hashes, g.scheme, g.seed]).toEqual([f.bits, f.hashes, f.scheme, f.seed]);
    expect(g.toBitString()).toBe(f.toBitString());
    expect(g.bitsSet()).toBe(f.bitsSet());
    expect(g.size).toBe(f.size);
    for (let i = 0; i < 150; i++) expect(g.has(`item-${i}`)).toBe(true);
    expect(g.toBytes()).toEqual(f.toBytes());
  });

  it('keeps every bit, both counters, the parameters and the seed under sbbf', () => {
    const f = new BloomFilter(256 * 40, 8, { scheme: 'sbbf', seed: 0xfedcba9876543210n });
    for (let i = 0; i < 700; i++) f.add(`item-${i}`);
    const g = BloomFilter.fromBytes(f.toBytes());
    expect([g.bits, g.hashes, g.scheme, g.seed]).toEqual([f.bits, f.hashes, 'sbbf', f.seed]);
    expect(Buffer.compare(g.bitArray(), f.bitArray())).toBe(0);
    expect([g.bitsSet(), g.size]).toEqual([f.bitsSet(), f.size]);
    for (let i = 0; i < 700; i++) expect(g.has(`item-${i}`)).toBe(true);
    expect(g.toBytes()).toEqual(f.toBytes());
  });

  it.each(SCHEMES)('round-trips an empty %s filter', (scheme) => {
    const f = new BloomFilter(9, 2, { scheme });
    const bytes = f.toBytes();
    expect(bytes.length).toBe(56 + 2);
    const g = BloomFilter.fromBytes(bytes);
    expect([g.bits, g.hashes, g.scheme, g.bitsSet(), g.size]).toEqual([9, 2, scheme, 0, 0]);
    expect(g.toBitString()).toBe('000000000');
    expect(g.toBytes()).toEqual(bytes);
  });

  it.each(SCHEMES)('round-trips a full %s filter (every bit set)', (scheme) => {
    const f = new BloomFilter(13, 5, { scheme });
    for (let i = 0; f.bitsSet() < 13 && i < 10_000; i++) f.add(`fill-${i}`);
    expect(f.bitsSet()).toBe(13);
    const g = BloomFilter.fromBytes(f.toBytes());
    expect(g.toBitString()).toBe('1'.repeat(13));
    expect([g.bitsSet(), g.size]).toEqual([13, f.size]);
    expect([g.estimatedCount(), g.currentFalsePositiveRate()]).toEqual([Infinity, 1]);
    expect(g.has('anything at all')).toBe(true);
  });

  it('loads into a filter that keeps working: adds after a load count on', () => {
    const f = new BloomFilter(500, 4);
    f.add('a');
    const g = BloomFilter.fromBytes(f.toBytes());
    expect(g.add('b')).toBe(true);
    expect(g.size).toBe(2);
    expect(g.bitsSet()).toBe(bitsOf(g));
  });

  it('accepts a Uint8Array view into a larger buffer', () => {
    const f = new BloomFilter(64, 2);
    f.add('view');
    const bytes = f.toBytes();
    const big = new Uint8Array(bytes.length + 10);
    big.set(bytes, 5);
    expect(BloomFilter.fromBytes(big.subarray(5, 5 + bytes.length)).toBitString()).toBe(f.toBitString());
  });

  it('refuses a non-Uint8Array with BloomTypeError naming bytes', () => {
    expect(() => BloomFilter.fromBytes([1, 2, 3] as unknown as Uint8Array)).toThrow(wasm.BloomTypeError);
    expect(() => BloomFilter.fromBytes('BLMW' as unknown as Uint8Array)).toThrow(/bytes must be a Uint8Array/);
  });
});

function bitsOf(f: { toBitString(): string }): number {
  return [...f.toBitString()].filter((c) => c === '1').length;
}

describe('wasm and reference write the same bytes', () => {
  it('for any scheme, seed, m, k and items (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SCHEMES),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.oneof(fc.string(), fc.uint8Array({ maxLength: 40 })), { maxLength: 60 }),
        (scheme, seed, bits, hashes, items) => {
          const k = scheme === 'xxh64' ? Math.min(hashes, bits) : hashes;
          const options = { scheme, seed: scheme === 'xxh64' ? seed : 0n };
          const w = new wasm.BloomFilter(bits, k, options);
          const r = new reference.BloomFilter(bits, k, options);
          for (const item of items) expect(w.add(item)).toBe(r.add(item));
          const wb = w.toBytes();
          const rb = r.toBytes();
          expect(wb).toEqual(rb);
          // Each loads the other's file.
          expect(reference.BloomFilter.fromBytes(wb).toBytes()).toEqual(wb);
          expect(wasm.BloomFilter.fromBytes(rb).toBytes()).toEqual(rb);
        },
      ),
      { numRuns: 150, seed: 4 },
    );
  });
});

describe('the header, decoded by hand', () => {
  it.each(twins)('lays out every field little-endian at its documented offset ($name)', ({ BloomFilter }) => {
    const f = new BloomFilter(1001, 6, { scheme: 'xxh64', seed: 0x1122334455667788n });
    f.add('one');
    f.add('two');
    f.add('one'); // not new: addedCount stays 2
    const bytes = f.toBytes();
    expect(bytes.length).toBe(56 + 126);
    expect(decode(bytes)).toEqual({
      magic: 'BLMW',
      version: 1,
      scheme: 0,
      hashes: 6,
      seed: 0x1122334455667788n,
      bits: 1001n,
      bitsSet: BigInt(f.bitsSet()),
      addedCount: 2n,
      payloadLength: 126n,
      checksum: checksum(bytes.subarray(0, 48), bytes.subarray(56)),
    });
    expect(Array.from(bytes.subarray(8, 16))).toEqual([0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]);
    expect(bytes.subarray(56)).toEqual(f.bitArray());
  });

  it('gives the scheme ids 0 xxh64, 1 poly, 2 bytesum, 3 sbbf', () => {
    const shape = (scheme: string): [number, number] => (scheme === 'sbbf' ? [256, 8] : [8, 1]);
    expect(wasm.SCHEMES.map((scheme) => decode(new wasm.BloomFilter(...shape(scheme), { scheme }).toBytes()).scheme)).toEqual([0, 1, 2, 3]);
  });

  it('stores bit p at bit p & 7 of payload byte p >> 3', () => {
    const f = new wasm.BloomFilter(100, 3, { scheme: 'bytesum' });
    f.add('apple'); // positions 30, 24, 18 (the SSTable exercise)
    const payload = f.toBytes().subarray(56);
    expect(payload[30 >> 3]).toBe((1 << (30 & 7)) | (1 << (24 & 7)));
    expect(payload[18 >> 3]).toBe(1 << (18 & 7));
    expect(payload.reduce((n, b) => n + (b === 0 ? 0 : 1), 0)).toBe(2);
  });

  it('checksums with XXH64 (seed 0) over bytes 0-47 then the payload', () => {
    const bytes = sample();
    expect(decode(bytes).checksum).toBe(checksum(bytes.subarray(0, 48), bytes.subarray(56)));
    // The same digest by a plain one-shot XXH64 of the joined bytes, from the reference hash module.
    const joined = new Uint8Array([...bytes.subarray(0, 48), ...bytes.subarray(56)]);
    expect(decode(bytes).checksum).toBe(xxh64(joined, 0n));
  });
});

describe.each(twins)('validation: each rule throws BloomFormatError with its field and offset ($name)', ({ BloomFilter }) => {
  const cases: Array<[string, () => Uint8Array, string, number, RegExp]> = [
    ['empty input', () => new Uint8Array(0), 'magic', 0, /truncated.*ends at byte 0/],
    ['wrong magic', () => forged((_, b) => b.set([0x42, 0x4c, 0x4d, 0x58])), 'magic', 0, /42 4c 4d 57.*got 42 4c 4d 58/],
    ['a newer version', () => forged((v) => v.setUint16(4, 2, true)), 'version', 4, /unsupported version 2: written by a newer bloomwasm/],
    ['version 0', () => forged((v) => v.setUint16(4, 0, true)), 'version', 4, /unsupported version 0/],
    ['an unknown scheme', () => forged((v) => v.setUint8(6, 4)), 'scheme', 6, /\[0, 3\].*3 sbbf.*got 4/],
    ['sbbf with k other than 8', () => forged((v) => v.setUint8(6, 3)), 'hashes', 7, /must be 8 under sbbf; got 3/],
    ['sbbf with bits not whole blocks', () => forged((v) => { v.setUint8(6, 3); v.setUint8(7, 8); v.setBigUint64(8, 0n, true); }), 'bits', 16, /multiple of 256 under sbbf.*got 100/],
    ['k = 0', () => forged((v) => v.setUint8(7, 0)), 'hashes', 7, /\[1, 64\]; got 0/],
    ['k = 65', () => forged((v) => v.setUint8(7, 65)), 'hashes', 7, /\[1, 64\]; got 65/],
    ['a seed under poly', () => forged((v) => { v.setUint8(6, 1); v.setBigUint64(8, 1n, true); }), 'seed', 8, /must be 0 under poly/],
    ['m = 0', () => forged((v) => v.setBigUint64(16, 0n, true)), 'bits', 16, /\[1, 34358689792\]; got 0/],
    ['m = 2^64 - 1', () => forged((v) => v.setBigUint64(16, (1n << 64n) - 1n, true)), 'bits', 16, /got 18446744073709551615/],
    ['k > m under xxh64', () => forged((v) => { v.setUint8(7, 9); v.setBigUint64(16, 8n, true); }), 'hashes', 7, /at most bits \(8\)/],
    ['bitsSet > m', () => forged((v) => v.setBigUint64(24, 101n, true)), 'bitsSet', 24, /\[0, bits = 100\]; got 101/],
    ['addedCount >= 2^53', () => forged((v) => v.setBigUint64(32, 1n << 53n, true)), 'addedCount', 32, /2\^53 - 1/],
    ['a payload length not ceil(m / 8)', () => forged((v) => v.setBigUint64(40, 12n, true)), 'payloadLength', 40, /ceil\(bits \/ 8\) = 13; got 12/],
    ['a header cut short', () => sample().subarray(0, 30), 'bitsSet', 24, /truncated.*reach byte 32.*ends at byte 30/],
    ['a truncated payload', () => sample().subarray(0, 60), 'payload', 60, /truncated: 13 payload bytes must end at byte 69/],
    ['trailing garbage', () => new Uint8Array([...sample(), 0]), 'payload', 69, /1 unexpected bytes after the payload/],
    ['a wrong checksum', () => { const b = sample(); b[48] ^= 1; return b; }, 'checksum', 48, /corrupt/],
    ['a flipped payload bit', () => { const b = sample(); b[60] ^= 4; return b; }, 'checksum', 48, /corrupt/],
    ['a padding bit set past m', () => forged((v, b) => { b[68] |= 0x80; v.setBigUint64(24, v.getBigUint64(24, true) + 1n, true); }), 'payload', 68, /4 padding bits past bit 99 must be 0/],
    ['bitsSet not the count of 1 bits', () => forged((v) => v.setBigUint64(24, v.getBigUint64(24, true) - 1n, true)), 'bitsSet', 24, /but the payload has \d+ bits set/],
  ];
  it.each(cases)('refuses %s', (_, bytes, field, offset, message) => {
    const error = formatError(() => BloomFilter.fromBytes(bytes()));
    expect(error.field).toBe(field);
    expect(error.offset).toBe(offset);
    expect(error.message).toMatch(message);
    expect(error.message).toContain(`${field} at byte ${offset}`);
  });

  it('refuses a 100-byte input claiming 2^34 bits without allocating its 2 GiB', () => {
    const bytes = forged((v) => {
      v.setBigUint64(16, 1n << 34n, true);
      v.setBigUint64(40, 1n << 31n, true);
    }, new Uint8Array([...sample().subarray(0, 56), ...new Uint8Array(44)]));
    expect(bytes.length).toBe(100);
    const before = process.memoryUsage();
    const error = formatError(() => BloomFilter.fromBytes(bytes));
    const after = process.memoryUsage();
    expect([error.field, error.offset]).toEqual(['payload', 100]);
    expect(error.message).toContain('2147483648 payload bytes must end at byte 2147483704');
    // Nothing near 2 GiB was touched or reserved.
    expect(after.rss - before.rss).toBeLessThan(64 * 1024 * 1024);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024);
  });
});

describe.each(twins)('addedCount saturates at 2^53 - 1 ($name)', ({ BloomFilter }) => {
  it('53 self-unions of a one-item filter: toBytes writes what fromBytes reads', () => {
    const f = new BloomFilter(64, 3);
    f.add('only');
    for (let i = 0; i < 53; i++) f.union(f.clone());
    expect(f.size).toBe(Number.MAX_SAFE_INTEGER);
    const bytes = f.toBytes();
    expect(decode(bytes).addedCount).toBe(2n ** 53n - 1n);
    const back = BloomFilter.fromBytes(bytes);
    expect([back.size, back.bitsSet(), back.has('only')]).toEqual([Number.MAX_SAFE_INTEGER, f.bitsSet(), true]);
    // An add past the saturated count keeps it there, and the file still loads.
    back.add('one more');
    expect(back.size).toBe(Number.MAX_SAFE_INTEGER);
    expect(BloomFilter.fromBytes(back.toBytes()).size).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('a union below the bound is the exact sum; one past it stops at 2^53 - 1', () => {
    const a = new BloomFilter(64, 3);
    a.add('a');
    for (let i = 0; i < 52; i++) a.union(a.clone()); // 2^52
    expect(a.size).toBe(2 ** 52);
    const b = a.clone().union(a.clone()); // 2^53: one past the bound
    expect(b.size).toBe(2 ** 53 - 1);
    expect(BloomFilter.union(a, a).size).toBe(2 ** 53 - 1);
  });
});
