// The staged test track (six stages), on the default xxh64 scheme.
import { describe, expect, it } from 'vitest';
import { twins } from './helpers/twins.js';

/** Deterministic item names: the tester's items are distinct strings. */
const items = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

describe.each(twins)('the staged test track ($name)', ({ BloomFilter }) => {
  it('bf1: finds one added item', () => {
    const f = new BloomFilter(10_007, 5);
    f.add('cat');
    expect(f.has('cat')).toBe(true);
  });

  it('bf2: finds every item of a handful', () => {
    const f = new BloomFilter(10_007, 5);
    for (const s of ['a', 'b', 'c']) f.add(s);
    for (const s of ['a', 'b', 'c']) expect(f.has(s)).toBe(true);
  });

  it('bf3: never loses one of hundreds, with k distinct spots each', () => {
    const f = new BloomFilter(10_007, 5);
    const added = items('page', 600);
    for (const s of added) f.add(s);
    for (const s of added) {
      expect(f.has(s)).toBe(true);
      expect(new Set(f.positions(s)).size).toBe(5);
    }
  });

  it('bf4: 625 items in 10,007 bits give 6 to 139 hits out of 20,000 absent', () => {
    const f = new BloomFilter(10_007, 5);
    const added = items('added', 625);
    for (const s of added) f.add(s);
    expect(added.every((s) => f.has(s))).toBe(true);
    const hits = items('absent', 20_000).filter((s) => f.has(s)).length;
    expect(hits).toBeGreaterThanOrEqual(6);
    expect(hits).toBeLessThanOrEqual(139);
  });

  it('bf5: 900 items in 6,007 bits give 407 to 1,304 hits out of 20,000 absent', () => {
    const f = new BloomFilter(6_007, 5);
    const added = items('added', 900);
    for (const s of added) f.add(s);
    expect(added.every((s) => f.has(s))).toBe(true);
    const hits = items('absent', 20_000).filter((s) => f.has(s)).length;
    expect(hits).toBeGreaterThanOrEqual(407);
    expect(hits).toBeLessThanOrEqual(1_304);
  });

  it('answers the same every time for the same call sequence', () => {
    const run = () => {
      const f = new BloomFilter(6_007, 5);
      const answers: boolean[] = [];
      for (const s of items('x', 300)) answers.push(f.add(s));
      for (const s of items('y', 2_000)) answers.push(f.has(s));
      return answers;
    };
    expect(run()).toEqual(run());
  });
});
