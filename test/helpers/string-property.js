// The string parity property, as plain JavaScript that any runtime runs
// (test/js-string.test.ts under the test's Node, test/helpers/portable.js
// under Node 20, 22 and 26, Bun and Deno): for arbitrary strings (lone
// surrogates, astral characters, combining marks, lengths 0 to 10,000),
//   - wasm's in-place encoder (assembly/js-string.ts) writes TextEncoder's
//     bytes and the reference twin's (src/reference/js-string.ts), and the
//     string's code units in units mode;
//   - a filter that reads every string in place, one that copies every
//     string in with encodeInto, and the reference twin give the same
//     positions and answers and end with the same bits, under every scheme.
// Where the engine has no JS String Builtins, wasm reads the strings
// through plain JS imports: slower, but the same encoder.
import fc from 'fast-check';

/** One code unit or pair of every kind a string can hold. */
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0x7ff }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0x800, max: 0xd7ff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0xe000, max: 0xffff }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) }, // a lone surrogate, or half of a pair by chance
  { weight: 2, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) }, // astral: a surrogate pair
  { weight: 1, arbitrary: fc.integer({ min: 0x300, max: 0x36f }).map((c) => String.fromCharCode(c)) }, // combining marks
);

/** Strings of 0 to 10,000 code units, most of them short (the in-place path's range), some long. */
export const strings = fc.oneof(
  { weight: 3, arbitrary: fc.array(piece, { maxLength: 40 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.array(piece, { minLength: 40, maxLength: 10_000, size: 'max' }).map((a) => a.join('').slice(0, 10_000)) },
);

/** Strings at the edges: empty, lone halves at either end, a pair across the in-place limit. */
export const edges = [
  '', 'a', '\ud800', '\udc00', 'x\ud800', '\udc00x', '\ud800\ud800', '\udc00\ud800', '\ud83d\ude00', 'e\u0301',
  'a'.repeat(31) + '\ud83d\ude00', 'a'.repeat(32) + '\ud83d', 'é'.repeat(33), '😀'.repeat(5000), 'z'.repeat(10_000),
];

const SCHEMES = ['xxh64', 'poly', 'bytesum', 'sbbf'];

/**
 * Checks the property; returns { runs, failed, counterexample } (fast-check's
 * verdict, with the failing strings as code-point lists so they print).
 * `lib` and `ref` are the package and its reference twin; `refStrings`,
 * `wasm`, `staging` and `filterBase` the reference/js-string.js,
 * wasm/module.js, wasm/staging.js and filter/filter-base.js modules of the
 * same build.
 */
export function checkStringParity({ lib, ref, refStrings, wasm, staging, filterBase }, { runs = 200, seed = 42 } = {}) {
  const x = wasm.instantiate();
  const scratch = () => new Uint8Array(x.memory.buffer, x.scratchPtr(), x.scratchSize());
  const encoder = new TextEncoder();
  const saved = staging.inPlaceUnits();
  const longest = Math.floor(x.scratchSize() / 3);
  const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

  /** A filter of `scheme`. */
  const made = (scheme) => scheme === 'sbbf' ? new lib.BloomFilter(4096, 8, { scheme, seed: 9n }) : new lib.BloomFilter(4099, 6, { scheme, seed: scheme === 'xxh64' ? 9n : 0n });
  /** call() with `filter`'s staging reading strings up to `limit` units in place (-1: none), the engine's limit again after. */
  const at = (limit, filter, call) => {
    const staged = filterBase.coreEngineOf(filter).walkArena().staging;
    staged.readInPlaceUpTo(limit);
    try {
      return call();
    } finally {
      staged.readInPlaceUpTo(saved);
    }
  };

  const property = fc.property(fc.array(strings, { minLength: 1, maxLength: 4 }), (list) => {
    for (const s of list) {
      const utf8 = encoder.encode(s);
      const written = x.stageString(s, 0, 0);
      if (!same(scratch().subarray(0, written), utf8)) return false;
      if (!same(refStrings.encodeUtf8(s), utf8)) return false;
      const units = x.stageString(s, 0, 1);
      const codes = new Uint16Array(x.memory.buffer, x.scratchPtr(), units);
      if (units !== s.length || !codes.every((c, i) => c === s.charCodeAt(i))) return false;
    }
    for (const scheme of SCHEMES) {
      const inPlace = made(scheme);
      const copied = made(scheme);
      const twin = scheme === 'sbbf' ? new ref.BloomFilter(4096, 8, { scheme, seed: 9n }) : new ref.BloomFilter(4099, 6, { scheme, seed: scheme === 'xxh64' ? 9n : 0n });
      for (const s of list) {
        const p = Array.from(twin.positions(s));
        if (!same(Array.from(at(longest, inPlace, () => inPlace.positions(s))), p) || !same(Array.from(at(-1, copied, () => copied.positions(s))), p)) return false;
        const fresh = twin.add(s);
        if (at(longest, inPlace, () => inPlace.add(s)) !== fresh || at(-1, copied, () => copied.add(s)) !== fresh) return false;
        if (!at(longest, inPlace, () => inPlace.has(s)) || !at(-1, copied, () => copied.has(s))) return false;
      }
      const batchPlace = made(scheme);
      at(longest, batchPlace, () => batchPlace.addMany(list));
      const bits = twin.bitArray();
      if (!same(inPlace.bitArray(), bits) || !same(copied.bitArray(), bits) || !same(batchPlace.bitArray(), bits)) return false;
      inPlace.dispose();
      copied.dispose();
      batchPlace.dispose();
    }
    return true;
  });
  const verdict = fc.check(property, { numRuns: runs, seed, examples: edges.map((s) => [[s]]) });
  return {
    runs: verdict.numRuns,
    failed: verdict.failed,
    counterexample: verdict.counterexample === null ? null : verdict.counterexample[0].map((s) => Array.from(s, (c) => c.codePointAt(0))),
  };
}
