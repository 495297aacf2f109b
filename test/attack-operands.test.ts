// union/intersect given something other than a filter of the same
// implementation: the BloomTypeError names what it got (its class, not a
// bare [object Object]) and hints at the twin only when it is the twin.
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';

describe('union with the wrong kind of operand', () => {
  const a = new wasm.BloomFilter(1000, 3);
  const r = new reference.BloomFilter(1000, 3);

  it.each([
    ['a ScalableBloomFilter', () => new wasm.ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.1 })],
    ['a CountingBloomFilter', () => new wasm.CountingBloomFilter(1000, 3)],
    ['[object Object]', () => ({ bits: 1000, hashes: 3 })],
    ['null', () => null],
  ])('names %s and gives no twin hint', (got, make) => {
    expect(() => a.clone().union(make() as never)).toThrow(new wasm.BloomTypeError('other', make(), 'a BloomFilter from bloomwasm'));
    expect(() => a.clone().union(make() as never)).toThrow(`other must be a BloomFilter from bloomwasm; got ${got}`);
    expect(() => r.clone().union(make() as never)).toThrow(`other must be a BloomFilter from bloomwasm/reference; got ${got}`);
  });

  it('the other implementation\'s filter gets the twin hint', () => {
    expect(() => a.clone().union(r as never)).toThrow('other must be a BloomFilter from bloomwasm (not the reference twin); got a BloomFilter');
    expect(() => r.clone().intersect(a as never)).toThrow('other must be a BloomFilter from bloomwasm/reference (not the wasm filter); got a BloomFilter');
  });
});
