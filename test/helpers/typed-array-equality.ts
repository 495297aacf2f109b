// toEqual of two typed arrays, element by element in one loop. Vitest's
// own comparison walks them as objects, key by key, which takes seconds for
// the megabytes of a filter's file. The answer is vitest's: the same
// constructor, the same length and every element the same by Object.is (so
// 0 is not -0, and NaN is NaN); other own properties of a typed array are
// not compared, and none of this suite's have any.
import { expect } from 'vitest';

type Elements = ArrayLike<number | bigint>;

expect.addEqualityTesters([
  function sameTypedArray(a: unknown, b: unknown): boolean | undefined {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a instanceof DataView || b instanceof DataView) return undefined;
    if (a.constructor !== b.constructor) return undefined;
    const x = a as unknown as Elements;
    const y = b as unknown as Elements;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
    return true;
  },
]);
