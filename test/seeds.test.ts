// The worked examples of the source documents, exactly as printed there.
import { describe, expect, it } from 'vitest';
import { twins } from './helpers/twins.js';

describe.each(twins)('the SeenFilter exercise ($name)', ({ SeenFilter, BloomFilter }) => {
  it('replays the example to [null, null, null, null, 9, true, false, true]', () => {
    // The seed lists one result per call: the constructor and the three adds return nothing.
    const f = new SeenFilter(16, 3);
    const out = [
      null,
      f.add('cats.io') ?? null,
      f.add('dogs.io') ?? null,
      f.add('owls.io') ?? null,
      f.bitsSet(),
      f.mightContain('dogs.io'),
      f.mightContain('yaks.io'),
      f.mightContain('bats.io'),
    ];
    expect(out).toEqual([null, null, null, null, 9, true, false, true]);
  });

  it('gives the positions the text lists', () => {
    const f = new BloomFilter(16, 3, { scheme: 'poly' });
    expect(f.positions('cats.io')).toEqual([1, 2, 3]);
    expect(f.positions('dogs.io')).toEqual([9, 8, 7]);
    expect(f.positions('owls.io')).toEqual([11, 5, 15]);
    expect(f.positions('yaks.io')).toEqual([2, 15, 12]);
    expect(f.positions('bats.io')).toEqual([7, 1, 11]);
  });

  it('uses h1 = 750,493,409 and h2 = 956,570,721 for cats.io', () => {
    // Position i = (h1 + i*h2) mod m: with m above both hashes, the first two positions reveal them.
    const f = new BloomFilter(2_000_000_000, 2, { scheme: 'poly' });
    const [p0, p1] = f.positions('cats.io');
    expect(p0).toBe(750_493_409);
    expect(p1).toBe(750_493_409 + 956_570_721);
  });

  it('counts a bit only once when two positions coincide', () => {
    // m = 1: every position is 0.
    const f = new SeenFilter(1, 16);
    f.add('cats.io');
    expect(f.bitsSet()).toBe(1);
  });
});

describe.each(twins)('the SSTable exercise filter ($name)', ({ BloomFilter }) => {
  const fresh = () => new BloomFilter(100, 3, { scheme: 'bytesum' });

  it('maps apple to {30, 24, 18} and banana to {9, 51, 93}', () => {
    const f = fresh();
    expect(f.positions('apple')).toEqual([30, 24, 18]);
    expect(f.positions('banana')).toEqual([9, 51, 93]);
    f.add('apple');
    expect(f.has('banana')).toBe(false);
    expect(f.has('apple')).toBe(true);
  });

  it('prints one hundred 0s for a fresh filter, and the set bits after adds', () => {
    const f = fresh();
    expect(f.toBitString()).toBe('0'.repeat(100));
    f.add('apple');
    const bits = f.toBitString();
    expect(bits).toHaveLength(100);
    expect([...bits].flatMap((c, i) => (c === '1' ? [i] : []))).toEqual([18, 24, 30]);
  });

  it('answers NO to everything when empty', () => {
    const f = fresh();
    for (const key of ['apple', 'banana', '', 'x']) expect(f.has(key)).toBe(false);
  });

  it('keeps qux absent after foo, bar and baz', () => {
    const f = fresh();
    for (const key of ['foo', 'bar', 'baz']) f.add(key);
    expect(f.has('qux')).toBe(false);
    for (const key of ['foo', 'bar', 'baz']) expect(f.has(key)).toBe(true);
  });

  it('forgets apple after clear() (reset semantics)', () => {
    const f = fresh();
    f.add('apple');
    f.clear();
    expect(f.has('apple')).toBe(false);
    expect(f.bitsSet()).toBe(0);
    expect(f.toBitString()).toBe('0'.repeat(100));
  });

  it('hashes a string and its UTF-8 bytes alike', () => {
    const f = fresh();
    expect(f.positions(new TextEncoder().encode('apple'))).toEqual([30, 24, 18]);
  });
});
