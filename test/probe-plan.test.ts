// probeAll's in-place walks (src/filter/probe-walks.ts, probe-arithmetic.ts) against the reference
// twin: the division-free remainders and splitmix64 (against BigInt), the
// xxh64 walk over many filters at once (repeats, k = 1, both widths), the sbbf
// block, masks and walk, and the plan cache when the same array changes or a
// filter's memory grows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import { PROBE_LAYOUT, type ProbeLayout, type ProbeTarget } from '../src/filter/item-digest.js';
import { ASK_DIGEST, IN_PLACE_MAX_BITS, makePlan } from '../src/filter/probe-plan.js';
import { mixed, powerMod, reduce, sbbfBlock, sbbfMasks, splitmix64Halves } from '../src/filter/probe-arithmetic.js';
import { walkSbbf, walkXxh64 } from '../src/filter/probe-walks.js';
import { splitmix64 } from '../src/reference/hash.js';
import { probeEnhancedDouble } from '../src/reference/probe.js';
import { sbbfPositions } from '../src/reference/sbbf.js';
import { twins } from './helpers/twins.js';
import { engineOf } from '../src/filter/filter.js';
import { useCliBuild } from '../src/wasm/lines-build.js';
import { reserveLines } from '../src/wasm/lines-region.js';

// One test grows a filter's memory by reserving line dedupe's region, which
// only instances of the command line's build have: every instance of this
// file is of it (the same filter code, plus the line splitter).
useCliBuild();

const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const halves = (h: bigint): [number, number] => [Number(h & 0xffffffffn), Number(h >> 32n)];

/** A packed bit array (width 1) or 4-bit counters (width 4) with `positions` set. */
function viewWith(m: number, width: 1 | 4, positions: number[]): Uint8Array {
  const v = new Uint8Array(Math.ceil((m * width) / 8) + 4);
  for (const p of positions) {
    if (width === 1) v[p >>> 3] |= 1 << (p & 7);
    else v[p >>> 1] |= 3 << ((p & 1) << 2);
  }
  return v;
}

/** A filter probeAll would read in place: only its layout matters to makePlan. */
function inPlace(bits: number, hashes: number, width: 1 | 4, sbbf: boolean, view: Uint8Array): ProbeTarget {
  const layout: ProbeLayout = { bits, hashes, width, sbbf, digestible: true, seedLo: 0, seedHi: 0, view };
  const never = () => {
    throw new Error('asked, not walked');
  };
  return { scheme: sbbf ? 'sbbf' : 'xxh64', seed: 0n, has: never, hasDigest: never, [PROBE_LAYOUT]: () => layout } as ProbeTarget;
}

const plan = (filters: ProbeTarget[]) => makePlan(filters, (i) => new Error(`not a filter: ${i}`), () => true);

/** Moduli where the correction steps of reduce() are most likely to be off by one. */
const edgeBits = [64, 65, 127, 1000, 2 ** 16 - 1, 2 ** 16, 2 ** 16 + 1, 2 ** 24 + 3, 2 ** 29, 2 ** 29 + 1, 2 ** 30 - 35, IN_PLACE_MAX_BITS];
const edgeDigests = [0n, 1n, (1n << 32n) - 1n, 1n << 32n, (1n << 48n) - 1n, 1n << 48n, (1n << 63n) - 1n, 1n << 63n, (1n << 64n) - 1n];

describe('probeAll in place', () => {
  it('reduce is h mod m exactly (BigInt), for every 64-bit h and 64 <= m < 2^30, with no division (powerMod too)', () => {
    const check = (h: bigint, m: number) => {
      const [lo, hi] = halves(h);
      const r32 = powerMod(32, m);
      const r48 = powerMod(48, m);
      expect([r32, r48]).toEqual([Number((1n << 32n) % BigInt(m)), Number((1n << 48n) % BigInt(m))]);
      expect(reduce(hi >>> 16, hi & 0xffff, lo, m, r32, r48, 1 / m)).toBe(Number(h % BigInt(m)));
    };
    for (const m of edgeBits) for (const h of edgeDigests) {
      check(h, m);
      // The digests just below and above a multiple of m.
      const q = h / BigInt(m);
      for (const d of [-1n, 0n, 1n]) for (const e of [q * BigInt(m) + d, (q + 1n) * BigInt(m) + d]) if (e >= 0n && e < 1n << 64n) check(e, m);
    }
    fc.assert(fc.property(u64, fc.integer({ min: 64, max: IN_PLACE_MAX_BITS }), (h, m) => check(h, m)), { numRuns: 20_000, seed: 14 });
  });

  it('splitmix64Halves equals the reference splitmix64 (BigInt)', () => {
    const check = (h: bigint) => {
      const [lo, hi] = halves(h);
      splitmix64Halves(lo, hi);
      expect(((BigInt(mixed[1] >>> 0) << 32n) | BigInt(mixed[0] >>> 0))).toBe(splitmix64(h));
    };
    edgeDigests.forEach(check);
    fc.assert(fc.property(u64, check), { numRuns: 5000, seed: 17 });
  });

  it('the xxh64 walk answers every filter of a list as the reference positions do (repeats, k = 1, both widths)', () => {
    const filter = fc.record({
      m: fc.oneof(fc.integer({ min: 64, max: 3000 }), fc.constantFrom(64, 65, 2 ** 20 + 7)),
      k: fc.integer({ min: 1, max: 64 }),
      width: fc.constantFrom<1 | 4>(1, 4),
      drop: fc.option(fc.nat(), { nil: undefined }),
    });
    fc.assert(
      fc.property(u64, fc.array(filter, { minLength: 1, maxLength: 12 }), (h, specs) => {
        const filters = specs.map(({ m, k, width, drop }) => {
          const positions = probeEnhancedDouble(h, m, k);
          const missing = drop === undefined ? -1 : positions[drop % k];
          return inPlace(m, k, width, false, viewWith(m, width, positions.filter((p) => p !== missing)));
        });
        const p = plan(filters);
        const out = new Uint8Array(filters.length);
        const [lo, hi] = halves(h);
        walkXxh64(p.xxh64, lo, hi, out);
        walkXxh64(p.xxh64Counters, lo, hi, out);
        expect(Array.from(out)).toEqual(specs.map((s) => (s.drop === undefined ? 1 : 0)));
      }),
      { numRuns: 1000, seed: 15 },
    );
  });

  it('asks xxh64 filters of 2^30 bits and more, or below 64 bits, with hasDigest instead of reading them in place', () => {
    const big = inPlace(IN_PLACE_MAX_BITS + 1, 7, 1, false, new Uint8Array(8));
    const small = inPlace(63, 3, 1, false, new Uint8Array(8));
    const walked = inPlace(IN_PLACE_MAX_BITS, 7, 1, false, new Uint8Array(8));
    const p = plan([big, small, walked, inPlace(64, 3, 4, false, new Uint8Array(32))]);
    expect(Array.from(p.asked)).toEqual([0, 1]);
    expect(Array.from(p.how)).toEqual([ASK_DIGEST, ASK_DIGEST]);
    expect(Array.from(p.xxh64.index)).toEqual([2]);
    expect(Array.from(p.xxh64Counters.index)).toEqual([3]);
    // And a real one below 64 bits answers as has().
    const tiny = [new wasm.BloomFilter(40, 3), new wasm.BloomFilter(63, 2)];
    tiny[0].add('a');
    tiny[1].add('b');
    for (const k of ['a', 'b', 'c']) expect(Array.from(wasm.probeAll(tiny, k))).toEqual(tiny.map((f) => (f.has(k) ? 1 : 0)));
  });

  it('the sbbf block (exact from 16-bit halves) and masks equal the reference positions', () => {
    fc.assert(
      fc.property(u64, fc.integer({ min: 1, max: 2 ** 27 }), (h, blocks) => {
        const [lo, hi] = halves(h);
        expect(sbbfBlock(hi, blocks)).toBe(Number(((h >> 32n) * BigInt(blocks)) >> 32n));
        const masks = new Uint32Array(8);
        sbbfMasks(lo, masks);
        const positions = sbbfPositions(h, 256 * blocks);
        masks.forEach((mask, i) => expect(mask).toBe(2 ** (positions[i] % 32)));
      }),
      { numRuns: 500, seed: 16 },
    );
    expect(sbbfBlock(0xffffffff, 2 ** 27)).toBe(2 ** 27 - 1);
  });

  it('the sbbf walk answers every filter of a list as the reference positions do (bit 31 included, both widths)', () => {
    const filter = fc.record({ blocks: fc.integer({ min: 1, max: 64 }), width: fc.constantFrom<1 | 4>(1, 4), drop: fc.option(fc.nat(), { nil: undefined }) });
    fc.assert(
      fc.property(u64, fc.array(filter, { minLength: 1, maxLength: 12 }), (h, specs) => {
        const filters = specs.map(({ blocks, width, drop }) => {
          const positions = sbbfPositions(h, 256 * blocks);
          const missing = drop === undefined ? -1 : positions[drop % 8];
          return inPlace(256 * blocks, 8, width, true, viewWith(256 * blocks, width, positions.filter((p) => p !== missing)));
        });
        const out = new Uint8Array(filters.length);
        const [lo, hi] = halves(h);
        const p = plan(filters);
        walkSbbf(p.sbbf, lo, hi, out);
        walkSbbf(p.sbbfCounters, lo, hi, out);
        expect(Array.from(out)).toEqual(specs.map((s) => (s.drop === undefined ? 1 : 0)));
      }),
      { numRuns: 1000, seed: 18 },
    );
  });
});

describe.each(twins)('$name probeAll on one array, changed between calls', ({ probeAll, BloomFilter, CountingBloomFilter }) => {
  it('answers as has() after elements are replaced, added and removed', () => {
    const make = (i: number) =>
      i % 4 === 0 ? new BloomFilter(256 * (1 + i), 8, { scheme: 'sbbf' })
        : i % 4 === 1 ? new CountingBloomFilter(300 + i, 3 + (i % 5))
          : i % 4 === 2 ? new BloomFilter(97 + i, 3, { scheme: 'poly' }) : new BloomFilter(400 + 7 * i, 1 + (i % 9));
    const filters = Array.from({ length: 12 }, (_, i) => make(i));
    const check = () => {
      filters.forEach((f, i) => f.add(`k${i % 5}`));
      for (let j = 0; j < 8; j++) expect(Array.from(probeAll(filters, `k${j}`))).toEqual(filters.map((f) => (f.has(`k${j}`) ? 1 : 0)));
    };
    check();
    filters[3] = new BloomFilter(5000, 7, { seed: 9n });
    check();
    filters.push(make(13), make(16));
    check();
    filters.splice(0, 3);
    check();
    filters.length = 0;
    expect(probeAll(filters, 'k1')).toEqual(new Uint8Array(0));
  });
});

describe('probeAll reads live bits', () => {
  it('sees bits added between calls on the same array (the cached views are live)', () => {
    const f = new wasm.BloomFilter(1000, 5);
    const filters = [f, new wasm.BloomFilter(2048, 8, { scheme: 'sbbf' })];
    expect(Array.from(wasm.probeAll(filters, 'x'))).toEqual([0, 0]);
    filters[0].add('x');
    filters[1].add('x');
    expect(Array.from(wasm.probeAll(filters, 'x'))).toEqual([1, 1]);
  });
});

describe('probeAll after a filter\'s memory grows', () => {
  it('answers from the new memory: the cached plan is dropped, not read through detached views', () => {
    const grown = new wasm.BloomFilter(100_003, 7);
    const blocked = new wasm.BloomFilter(25_600, 8, { scheme: 'sbbf' });
    const filters = [grown, blocked, new wasm.BloomFilter(5000, 3)];
    const keys = Array.from({ length: 200 }, (_, i) => `key-${i}`);
    keys.forEach((k, i) => filters[i % 3].add(k));
    const answers = () => keys.map((k) => Array.from(wasm.probeAll(filters, k)));
    const before = answers();
    expect(before).toEqual(keys.map((k) => filters.map((f) => (f.has(k) ? 1 : 0))));
    // The lines region of `bloom dedupe` grows the filter's memory, detaching every view of its bits.
    expect(reserveLines(engineOf(grown), 1 << 20, false)).toBe(true);
    expect(answers()).toEqual(before);
  });
});
