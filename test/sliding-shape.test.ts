// slidingShape: the shape a window's options give (docs/SLIDING.md), and
// the typed errors that name the option at fault.
import { describe, expect, it } from 'vitest';
import { BloomRangeError, BloomTypeError } from '../src/errors.js';
import { schemeSize } from '../src/filter/sizing.js';
import { generatorRate } from '../src/filter/exact-rate.js';
import { slidingFalsePositiveRate, slidingShape } from '../src/sliding/shape.js';

describe('slidingShape', () => {
  it('a count window of 10^5 at 0.01: 8 generations of ceil(n/7) adds, each sized for 1 - 0.99^(1/8)', () => {
    const shape = slidingShape({ window: 100_000, falsePositiveRate: 0.01 });
    const q = 1 - Math.pow(0.99, 1 / 8);
    expect(shape).toMatchObject({
      mode: 'count', window: 100_000, windowMs: 0, capacity: 100_000, falsePositiveRate: 0.01,
      generations: 8, generationCapacity: 14_286, periodMs: 0,
    });
    expect({ bits: shape.bits, hashes: shape.hashes }).toEqual(schemeSize(14_286, q, 'xxh64'));
    expect(generatorRate('xxh64', shape.bits, shape.hashes, shape.generationCapacity)).toBeLessThanOrEqual(q * 1.01);
  });

  it('a time window: 16 generations, P = windowMs / 7', () => {
    const shape = slidingShape({ windowMs: 7000, capacity: 700, falsePositiveRate: 0.001, clock: () => 0 });
    expect(shape).toMatchObject({ mode: 'time', window: 0, windowMs: 7000, capacity: 700, generations: 16, generationCapacity: 100, periodMs: 1000 });
  });

  it('8 full generations at their capacity meet p', () => {
    for (const [n, p] of [[100_000, 0.01], [1000, 0.001], [7, 0.1], [1, 0.5]] as const) {
      const shape = slidingShape({ window: n, falsePositiveRate: p });
      const full = new Array(8).fill(shape.generationCapacity);
      expect(slidingFalsePositiveRate(shape.bits, shape.hashes, full)).toBeLessThanOrEqual(p * 1.01);
    }
  });

  it('slidingFalsePositiveRate is 0 for no live adds and rises with them', () => {
    const { bits, hashes } = slidingShape({ window: 1000, falsePositiveRate: 0.01 });
    expect(slidingFalsePositiveRate(bits, hashes, [])).toBe(0);
    expect(slidingFalsePositiveRate(bits, hashes, [0, 0])).toBe(0);
    const one = slidingFalsePositiveRate(bits, hashes, [143]);
    expect(slidingFalsePositiveRate(bits, hashes, [143, 143])).toBeGreaterThan(one);
    expect(slidingFalsePositiveRate(bits, hashes, [1000])).toBeGreaterThan(slidingFalsePositiveRate(bits, hashes, new Array(7).fill(143)));
  });

  const refused: Array<[string, unknown, typeof BloomRangeError | typeof BloomTypeError, string]> = [
    ['no options', undefined, BloomTypeError, 'options'],
    ['no window at all', { falsePositiveRate: 0.01 }, BloomTypeError, 'window'],
    ['both kinds', { window: 10, windowMs: 10, capacity: 10, falsePositiveRate: 0.01 }, BloomTypeError, 'window'],
    ['a window of 0', { window: 0, falsePositiveRate: 0.01 }, BloomRangeError, 'window'],
    ['a fractional window', { window: 1.5, falsePositiveRate: 0.01 }, BloomRangeError, 'window'],
    ['a string window', { window: '10', falsePositiveRate: 0.01 }, BloomTypeError, 'window'],
    ['a rate of 0', { window: 10, falsePositiveRate: 0 }, BloomRangeError, 'falsePositiveRate'],
    ['a rate of 1', { window: 10, falsePositiveRate: 1 }, BloomRangeError, 'falsePositiveRate'],
    ['a NaN rate', { window: 10, falsePositiveRate: NaN }, BloomRangeError, 'falsePositiveRate'],
    ['no rate', { window: 10 }, BloomTypeError, 'falsePositiveRate'],
    ['a negative windowMs', { windowMs: -1, capacity: 10, falsePositiveRate: 0.01 }, BloomRangeError, 'windowMs'],
    ['an infinite windowMs', { windowMs: Infinity, capacity: 10, falsePositiveRate: 0.01 }, BloomRangeError, 'windowMs'],
    ['a windowMs of 0', { windowMs: 0, capacity: 10, falsePositiveRate: 0.01 }, BloomRangeError, 'windowMs'],
    ['a time window without capacity', { windowMs: 10, falsePositiveRate: 0.01 }, BloomTypeError, 'capacity'],
    ['a capacity of 0', { windowMs: 10, capacity: 0, falsePositiveRate: 0.01 }, BloomRangeError, 'capacity'],
    ['a clock that is not a function', { windowMs: 10, capacity: 10, falsePositiveRate: 0.01, clock: 5 }, BloomTypeError, 'clock'],
    ['a clock on a count window', { window: 10, falsePositiveRate: 0.01, clock: () => 0 }, BloomTypeError, 'clock'],
    ['a capacity on a count window', { window: 10, capacity: 10, falsePositiveRate: 0.01 }, BloomTypeError, 'capacity'],
    ['a window too large for memory', { window: 2 ** 40, falsePositiveRate: 0.01 }, BloomRangeError, 'window'],
  ];
  for (const [what, options, type, parameter] of refused) {
    it(`refuses ${what}, naming ${parameter}`, () => {
      let error: unknown;
      try {
        slidingShape(options);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(type);
      expect((error as BloomRangeError).parameter).toBe(parameter);
      expect((error as Error).message).toContain(parameter);
    });
  }
});
