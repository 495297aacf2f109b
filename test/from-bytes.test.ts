// fromBytes(bytes, kind?) of bloomwasm and of bloomwasm/reference: any
// kind from its bytes, by the magic, into that entry's class.
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { everyKind, kindClasses } from './helpers/kinds.js';

describe.each([
  ['bloomwasm', wasm, reference],
  ['bloomwasm/reference', reference, wasm],
] as const)('fromBytes of %s', (where, impl, other) => {
  const classes = kindClasses(impl);

  it("reads every kind's bytes, from either implementation, into its own class", () => {
    for (const source of [impl, other]) {
      for (const [kind, f] of Object.entries(everyKind(source))) {
        const Class = classes[kind as keyof typeof classes];
        const read = (impl.fromBytes as (b: Uint8Array) => { toBytes(): Uint8Array })(f.toBytes());
        expect(read, kind).toBeInstanceOf(Class);
        expect(read.toBytes(), kind).toEqual(f.toBytes());
        expect((impl.fromBytes as (b: Uint8Array, c: unknown) => { toBytes(): Uint8Array })(f.toBytes(), Class).toBytes()).toEqual(f.toBytes());
      }
    }
  });

  it('refuses another kind than the one named, naming both', () => {
    const bytes = everyKind(impl, 10).counting.toBytes();
    expect(() => (impl.fromBytes as (b: Uint8Array, c: unknown) => unknown)(bytes, classes.cuckoo)).toThrow(
      'invalid bloomwasm filter data: magic at byte 0: this holds a CountingBloomFilter ("BLM4"), not the CuckooFilter asked for',
    );
  });

  it("refuses the other entry's classes, naming kind", () => {
    const bytes = everyKind(impl, 10).filter.toBytes();
    expect(() => (impl.fromBytes as (b: Uint8Array, c: unknown) => unknown)(bytes, other.BloomFilter)).toThrow(
      new RegExp(`^kind must be one of ${where}'s classes BloomFilter, ScalableBloomFilter, CountingBloomFilter, SlidingBloomFilter, CuckooFilter, BinaryFuseFilter; got class BloomFilter$`),
    );
  });

  it('refuses what is not bytes, and bytes of no kind', () => {
    expect(() => impl.fromBytes('BLMW' as never)).toThrow(impl.BloomTypeError);
    expect(() => impl.fromBytes(new Uint8Array([1, 2, 3, 4, 5]))).toThrow(/magic at byte 0: not a bloomwasm file: it must start with one of "BLMW", .*; got 01 02 03 04$/);
    expect(() => impl.fromBytes(new Uint8Array(0))).toThrow(impl.BloomFormatError);
  });

  it('passes the clock to a sliding filter', () => {
    let now = 0;
    const f = new impl.SlidingBloomFilter({ windowMs: 100, capacity: 10, falsePositiveRate: 0.01, clock: () => now });
    f.add('x');
    const g = (impl.fromBytes as (b: Uint8Array, c: unknown, o: unknown) => { has(x: string): boolean })(f.toBytes(), impl.SlidingBloomFilter, { clock: () => now });
    const h = impl.fromBytes(f.toBytes(), { clock: () => now }) as { has(x: string): boolean };
    expect([g.has('x'), h.has('x')]).toEqual([true, true]);
    now = 1000;
    expect([g.has('x'), h.has('x')]).toEqual([false, false]);
  });
});

it('types the result by the class named', () => {
  const bytes = wasm.CuckooFilter.forCapacity(10, 0.1).toBytes();
  expectTypeOf(wasm.fromBytes(bytes, wasm.CuckooFilter)).toEqualTypeOf<wasm.CuckooFilter>();
  expectTypeOf(reference.fromBytes(bytes, reference.CuckooFilter)).toEqualTypeOf<reference.CuckooFilter>();
  expectTypeOf(wasm.fromBytes(bytes)).toEqualTypeOf<wasm.FileFilter>();
  expect(wasm.fromBytes(bytes, wasm.CuckooFilter).capacity).toBe(10);
});
