// JSON.stringify and Kind.fromJSON for every kind, both implementations:
// the versioned wrapper around the binary format (docs/FORMAT.md, "JSON
// form") gives back the same bytes, and every fault names its field.
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { fromBase64, toBase64 } from '../src/format/base64.js';
import { everyKind, kindClasses } from './helpers/kinds.js';

const implementations = [
  ['wasm', wasm],
  ['reference', reference],
] as const;


const latin = (bytes: Uint8Array) => String.fromCharCode(...bytes);

describe.each(implementations)('JSON with the %s classes', (_, impl) => {
  it('JSON.stringify gives the wrapper; fromJSON of it, parsed or as text, gives the same bytes, in either implementation', () => {
    const filters = everyKind(impl);
    const ours = kindClasses(impl);
    const theirs = kindClasses(impl === wasm ? reference : wasm);
    for (const [kind, f] of Object.entries(filters)) {
      const Class = ours[kind as keyof typeof ours];
      const text = JSON.stringify(f);
      const value = JSON.parse(text) as { type: string; version: number; bytes: string };
      expect(Object.keys(value), kind).toEqual(['type', 'version', 'bytes']);
      expect(value.type, kind).toBe(`bloomwasm/${Class.name}`);
      expect(value.version).toBe(1);
      expect(value.bytes).toBe(Buffer.from(f.toBytes()).toString('base64'));
      for (const input of [value, text]) {
        const back = Class.fromJSON(input as never);
        expect(back, kind).toBeInstanceOf(Class);
        expect(back.toBytes(), kind).toEqual(f.toBytes());
        const twin = theirs[kind as keyof typeof theirs].fromJSON(input as never);
        expect(twin.toBytes(), kind).toEqual(f.toBytes());
      }
    }
  });

  it('nests: a record of filters survives JSON.stringify and JSON.parse', () => {
    const { filter, cuckoo } = everyKind(impl, 50);
    const parsed = JSON.parse(JSON.stringify({ seen: filter, blocked: [cuckoo] }));
    expect(impl.BloomFilter.fromJSON(parsed.seen).toBytes()).toEqual(filter.toBytes());
    expect(impl.CuckooFilter.fromJSON(parsed.blocked[0]).toBytes()).toEqual(cuckoo.toBytes());
  });

  it('a sliding filter from JSON takes a clock', () => {
    let now = 5_000;
    const f = new impl.SlidingBloomFilter({ windowMs: 1000, capacity: 100, falsePositiveRate: 0.01, clock: () => now });
    f.add('a');
    const g = impl.SlidingBloomFilter.fromJSON(f.toJSON(), { clock: () => now });
    expect(g.has('a')).toBe(true);
    now += 2000;
    expect(g.has('a')).toBe(false);
    expect(() => impl.SlidingBloomFilter.fromJSON(f.toJSON(), { clock: 5 as never })).toThrow(impl.BloomTypeError);
  });

  it('refuses another kind, naming type and both kinds', () => {
    const json = everyKind(impl, 10).cuckoo.toJSON();
    expect(() => impl.BloomFilter.fromJSON(json)).toThrow(impl.BloomTypeError);
    expect(() => impl.BloomFilter.fromJSON(json)).toThrow('type must be "bloomwasm/BloomFilter" (this holds a CuckooFilter); got "bloomwasm/CuckooFilter"');
    expect(() => impl.CuckooFilter.fromJSON({ ...json, type: 'cuckoo' })).toThrow('type must be "bloomwasm/CuckooFilter"; got "cuckoo"');
    expect(() => impl.CuckooFilter.fromJSON({ ...json, type: undefined } as never)).toThrow(/^type must be .*; got undefined$/);
  });

  it('refuses another version, naming version', () => {
    const json = everyKind(impl, 10).filter.toJSON();
    for (const version of [2, 0, '1', undefined]) {
      expect(() => impl.BloomFilter.fromJSON({ ...json, version } as never)).toThrow(impl.BloomRangeError);
      expect(() => impl.BloomFilter.fromJSON({ ...json, version } as never)).toThrow(/^version must be 1 \(the JSON wrapper versions this release reads\); got /);
    }
  });

  it('refuses bad base64 with BloomFormatError naming bytes and the character', () => {
    const json = everyKind(impl, 10).counting.toJSON();
    const C = impl.CountingBloomFilter;
    expect(() => C.fromJSON({ ...json, bytes: json.bytes.slice(1) })).toThrow(impl.BloomFormatError);
    expect(() => C.fromJSON({ ...json, bytes: json.bytes.slice(1) })).toThrow(/bytes at byte \d+: base64 text must be a multiple of 4 characters long/);
    expect(() => C.fromJSON({ ...json, bytes: '-' + json.bytes.slice(1) })).toThrow('invalid bloomwasm filter data: bytes at byte 0: "-" is not a base64 character here');
    expect(() => C.fromJSON({ ...json, bytes: json.bytes.replace(/^(.{8})./, '$1\n') })).toThrow('bytes at byte 8: "\\n" is not a base64 character');
    expect(() => C.fromJSON({ ...json, bytes: 7 } as never)).toThrow(impl.BloomTypeError);
    expect(() => C.fromJSON({ ...json, bytes: 7 } as never)).toThrow('bytes must be a base64 string; got 7');
  });

  it('refuses what is not the wrapper, naming value', () => {
    for (const value of [null, 7, [], undefined, 'not json', '[1]']) {
      expect(() => impl.BinaryFuseFilter.fromJSON(value as never)).toThrow(impl.BloomTypeError);
      expect(() => impl.BinaryFuseFilter.fromJSON(value as never)).toThrow(/^value must be an object \{ type: "bloomwasm\/BinaryFuseFilter", version: 1, bytes: "<base64>" \} or its JSON text/);
    }
  });

  it('checks the bytes inside as fromBytes does', () => {
    const json = everyKind(impl, 10).filter.toJSON();
    const bytes = fromBase64(json.bytes, 'bytes');
    bytes[60] ^= 1;
    expect(() => impl.BloomFilter.fromJSON({ ...json, bytes: toBase64(bytes) })).toThrow(/^invalid bloomwasm filter data: checksum at byte/);
    expect(() => impl.BloomFilter.fromJSON({ ...json, bytes: '' })).toThrow(impl.BloomFormatError);
  });

  it('reads each field once', () => {
    const json = everyKind(impl, 10).fuse.toJSON();
    const reads: string[] = [];
    const value = new Proxy(json, {
      get(target, key, receiver) {
        reads.push(String(key));
        return Reflect.get(target, key, receiver);
      },
    });
    impl.BinaryFuseFilter.fromJSON(value);
    expect(reads.sort()).toEqual(['bytes', 'type', 'version']);
  });

  it('a disposed filter refuses toJSON with BloomDisposedError', () => {
    const f = impl.BloomFilter.forCapacity(10, 0.1);
    f.dispose();
    expect(() => JSON.stringify(f)).toThrow(impl.BloomDisposedError);
  });
});

describe('base64', () => {
  it('matches Node for every length mod 3 and every byte value', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    for (let n = 0; n <= 260; n++) {
      const bytes = all.length >= n ? all.subarray(0, n) : new Uint8Array(n).map((_, i) => (i * 37) & 255);
      const text = toBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64'));
      expect(fromBase64(text, 'bytes')).toEqual(bytes);
    }
    expect(toBase64(new TextEncoder().encode('foobar'))).toBe('Zm9vYmFy');
    expect(latin(fromBase64('Zm9vYg==', 'bytes'))).toBe('foob');
    expect(latin(fromBase64('Zm9vYmE=', 'bytes'))).toBe('fooba');
  });

  it('refuses text that is not the canonical base64 of some bytes', () => {
    expect(() => fromBase64('Zm9vYh==', 'bytes')).toThrow('bytes at byte 5: the last base64 character has bits set');
    expect(() => fromBase64('Zm9vYmF=', 'bytes')).toThrow('bytes at byte 6: the last base64 character has bits set');
    expect(() => fromBase64('Zm9v=mFy', 'bytes')).toThrow('bytes at byte 4: "=" is not a base64 character here');
    expect(() => fromBase64('Zm9vYg==', 'b')).not.toThrow();
    expect(() => fromBase64('Zm9vY===', 'b')).toThrow('b at byte 5: "=" is not a base64 character here');
    expect(() => fromBase64('Zm9-', 'b')).toThrow('b at byte 3: "-" is not a base64 character here');
    expect(() => fromBase64('Zm9é', 'b')).toThrow('b at byte 3: "é" is not a base64 character here');
  });
});
