// Sizing small filters by each scheme's own position generator
// (src/filter/exact-rate.ts, docs/SCHEMES.md "Sizing small filters"): the
// exact rates against brute force, the bound against the exact rates, the
// sizes forCapacity picks, measured rates of those filters with seeded
// items, and version-1 chain files, which keep the sizes they were made with.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  binomialBlockedRate, enhancedPattern, exactGeneratorRate, generatorRate, generatorRateBound,
} from '../src/filter/exact-rate.js';
import { doublePattern } from '../src/filter/double-rates.js';
import { FORMULA_TOLERANCE, SMALLEST_SEARCHED_RATE, schemeSize, sbbfFalsePositiveRate } from '../src/filter/sizing.js';
import { BloomFilter, SCHEMES } from '../src/index.js';
import { probeDouble, probeEnhancedDouble } from '../src/reference/probe.js';
import { splitmix64 } from '../src/reference/hash.js';
import { twins } from './helpers/twins.js';

/** mulberry32: a small seeded generator, so every run draws the same items. */
function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 64 random bytes: long enough that bytesum's sums spread over m up to a few thousand. */
function randomItem(next: () => number): Uint8Array {
  const out = new Uint8Array(64);
  for (let i = 0; i < out.length; i++) out[i] = Math.floor(next() * 256);
  return out;
}

/** The rate over all m^4 query and item pairs for one item, by brute force. */
function bruteOneItem(pattern: (b: number, m: number, k: number) => number[], m: number, k: number): number {
  let hits = 0;
  const sets = Array.from({ length: m }, (_, b) => pattern(b, m, k));
  for (let a = 0; a < m; a++) {
    for (let b = 0; b < m; b++) {
      const bits = new Set(sets[b].map((p) => (p + a) % m));
      for (let qb = 0; qb < m; qb++) {
        // The query may take a = 0 and count all m of its shifts, as the union is shift-invariant.
        if (sets[qb].every((p) => bits.has(p))) hits++;
      }
    }
  }
  return hits / (m * m * m);
}

const NS = [1, 2, 3, 5, 10, 30, 100];
const RATES = [0.01, 0.001];

describe('the position patterns', () => {
  it('enhancedPattern shifted by a is the xxh64 probe of any hash with that a and b', () => {
    const next = mulberry32(7);
    for (const [m, k] of [[10, 7], [13, 9], [100, 7], [3, 3]]) {
      for (let t = 0; t < 200; t++) {
        const h = BigInt(Math.floor(next() * 2 ** 32)) * 2n ** 32n + BigInt(Math.floor(next() * 2 ** 32));
        const a = Number(h % BigInt(m));
        const b = Number(splitmix64(h) % BigInt(m));
        expect(enhancedPattern(b, m, k).map((p) => (p + a) % m)).toEqual(probeEnhancedDouble(h, m, k));
      }
    }
  });

  it('doublePattern shifted by a is the set of the poly and bytesum probes', () => {
    for (const [m, k] of [[12, 7], [16, 3], [100, 10]]) {
      for (let a = 0; a < m; a++) {
        for (let b = 0; b < m; b++) {
          expect(new Set(doublePattern(b, m, k).map((p) => (p + a) % m))).toEqual(new Set(probeDouble(a, b, m, k)));
        }
      }
    }
  });
});

describe('exactGeneratorRate', () => {
  it.each([[10, 7], [12, 3], [9, 4]])('equals brute force for one item, m = %i, k = %i', (m, k) => {
    expect(exactGeneratorRate('xxh64', m, k, 1)).toBeCloseTo(bruteOneItem(enhancedPattern, m, k), 12);
    expect(exactGeneratorRate('poly', m, k, 1)).toBeCloseTo(bruteOneItem(doublePattern, m, k), 12);
  });

  it('gives the rates measured on today\'s xxh64 sizes: 2.4% at n = 1 (m = 10), 1.44% at n = 3, 1.17% at n = 10', () => {
    expect(exactGeneratorRate('xxh64', 10, 7, 1)).toBeCloseTo(0.024, 6);
    expect(exactGeneratorRate('xxh64', 29, 7, 3)).toBeCloseTo(0.01436, 4);
    expect(exactGeneratorRate('xxh64', 96, 7, 10)).toBeCloseTo(0.01165, 4);
  });

  it('stays below generatorRateBound beyond the enumerated sizes (checked where both can be computed)', () => {
    for (const scheme of ['xxh64', 'poly'] as const) {
      for (const m of scheme === 'xxh64' ? [180, 257, 300] : [257, 270, 360, 420, 504]) {
        for (const k of [3, 7, 10]) {
          for (const n of [1, 5, 20, 40]) {
            const exact = exactGeneratorRate(scheme, m, k, n);
            if (exact > 0.5) continue;
            expect(generatorRateBound(scheme, m, k, n)).toBeGreaterThanOrEqual(exact);
          }
        }
      }
    }
  });
});

describe('binomialBlockedRate', () => {
  it('is the exact block-load sum, term by term', () => {
    for (const [n, z] of [[1, 1], [3, 2], [30, 2], [100, 7]]) {
      let sum = 0;
      let c = 1; // C(n, i)
      for (let i = 0; i <= n; i++) {
        sum += c * Math.pow(1 / z, i) * Math.pow(1 - 1 / z, n - i) * Math.pow(1 - Math.pow(31 / 32, i), 8);
        c = (c * (n - i)) / (i + 1);
      }
      expect(binomialBlockedRate(n, z)).toBeCloseTo(sum, 14);
    }
  });

  it('is below the Poisson mixture wherever the rate is below 0.5, so that formula was conservative for sizing', () => {
    for (const n of NS) {
      for (const z of [1, 2, 4, 8]) {
        const poisson = sbbfFalsePositiveRate(256 * z, n);
        if (poisson < 0.5) expect(binomialBlockedRate(n, z)).toBeLessThanOrEqual(poisson);
      }
    }
    // Near rate 1 the binomial is the larger (100 items in one block: 0.711 against 0.702); rule 2 takes the larger.
    expect(binomialBlockedRate(100, 1)).toBeGreaterThan(sbbfFalsePositiveRate(256, 100));
  });
});

describe('forCapacity at small n', () => {
  it.each(SCHEMES.flatMap((s) => RATES.map((p) => [s, p] as const)))('%s at p = %s: the computed rate of the chosen m and k is at most p', (scheme, p) => {
    for (const n of NS) {
      const { bits, hashes } = schemeSize(n, p, scheme);
      const rate = scheme === 'sbbf'
        ? Math.max(sbbfFalsePositiveRate(bits, n), binomialBlockedRate(n, bits / 256))
        : generatorRate(scheme, bits, hashes, n);
      expect(rate, `${scheme} n = ${n}: ${bits} bits, k = ${hashes}`).toBeLessThanOrEqual(p);
      expect(bits).toBeGreaterThanOrEqual(schemeSize(n, p, scheme, 1).bits);
    }
  });

  it('keeps big filters at their formula sizes (rule 1)', () => {
    for (const scheme of SCHEMES) {
      for (const [n, p] of [[1000, 0.01], [10_000, 0.001], [1_000_000, 0.01], [1_000_000, 1e-6], [100, 1e-9]] as const) {
        // Double hashing's 1/(2m) floor resizes poly and bytesum well past n = 1000 at small p (docs/SCHEMES.md).
        if ((scheme === 'poly' || scheme === 'bytesum') && !(n === 1_000_000 && p === 0.01)) continue;
        expect(schemeSize(n, p, scheme), `${scheme} ${n} ${p}`).toEqual(schemeSize(n, p, scheme, 1));
      }
    }
    expect(schemeSize(1_000_000, 0.01, 'xxh64')).toEqual({ bits: 9_585_059, hashes: 7 });
  });

  it('leaves rates below SMALLEST_SEARCHED_RATE to rule 1, and within FORMULA_TOLERANCE where rule 1 already holds', () => {
    expect(schemeSize(100, SMALLEST_SEARCHED_RATE / 10, 'poly')).toEqual(schemeSize(100, SMALLEST_SEARCHED_RATE / 10, 'poly', 1));
    const { bits, hashes } = schemeSize(1000, 0.01, 'xxh64');
    expect(generatorRate('xxh64', bits, hashes, 1000)).toBeLessThanOrEqual(0.01 * (1 + FORMULA_TOLERANCE));
  });

  it('builds the same m and k in both twins', () => {
    for (const scheme of SCHEMES) {
      for (const n of [1, 3, 30]) {
        const [w, r] = twins.map(({ BloomFilter: F }) => F.forCapacity(n, 0.01, { scheme }));
        expect([w.bits, w.hashes]).toEqual([r.bits, r.hashes]);
        expect([w.bits, w.hashes]).toEqual(Object.values(schemeSize(n, 0.01, scheme)));
      }
    }
  });

  it('costs about a microsecond or less per forCapacity(1000, 0.01) sizing', () => {
    schemeSize(1000, 0.01, 'xxh64');
    const start = performance.now();
    for (let i = 0; i < 100_000; i++) schemeSize(1000, 0.01, 'xxh64');
    expect((performance.now() - start) / 100_000).toBeLessThan(0.01); // ms per call: generous for slow CI
  });
});

describe('measured rates of forCapacity filters at small n (seeded)', () => {
  // Per case: TRIALS filters of n random 64-byte items, each asked QUERIES
  // absent items. The mean of the per-trial rates must stay below p plus
  // four standard errors of that mean (the trials are independent; the
  // queries of one trial share its filter, so the error is taken from the
  // spread of the per-trial rates, not from a binomial over all queries).
  const TRIALS = 3000;
  const QUERIES = 100;
  it.each(SCHEMES.flatMap((s) => NS.map((n) => [s, n] as const)))('%s, n = %i, p = 0.01', (scheme, n) => {
    const p = 0.01;
    const next = mulberry32(1000 * SCHEMES.indexOf(scheme) + n);
    const rates: number[] = [];
    // One filter, cleared between trials: clear() zeroes the bits, so each trial starts empty.
    const f = BloomFilter.forCapacity(n, p, { scheme });
    for (let t = 0; t < TRIALS; t++) {
      f.clear();
      for (let i = 0; i < n; i++) f.add(randomItem(next));
      let hits = 0;
      for (let q = 0; q < QUERIES; q++) if (f.has(randomItem(next))) hits++;
      rates.push(hits / QUERIES);
    }
    const mean = rates.reduce((s, r) => s + r, 0) / TRIALS;
    const variance = rates.reduce((s, r) => s + (r - mean) ** 2, 0) / (TRIALS - 1);
    const error = Math.sqrt(variance / TRIALS);
    expect(mean, `measured ${mean} ± ${error}`).toBeLessThanOrEqual(p + 4 * error);
  }, 60_000);
});

describe('chain files and the sizing rule', () => {
  const v1 = new Uint8Array(readFileSync(new URL('./golden/chain-v1.bin', import.meta.url)));

  it.each(twins)('a version-1 chain loads with its rule-1 member sizes and saves back byte for byte ($name)', ({ ScalableBloomFilter }) => {
    expect(new DataView(v1.buffer, v1.byteOffset).getUint16(4, true)).toBe(1);
    const chain = ScalableBloomFilter.fromBytes(v1);
    expect(chain.members.map((f) => [f.bits, f.hashes, f.capacity])).toEqual([[111, 8, 10], [250, 9, 20], [557, 10, 40]]);
    expect(Buffer.from(chain.toBytes()).equals(Buffer.from(v1))).toBe(true);
    for (let i = 0; chain.members.length < 4; i++) chain.add(`more ${i}`);
    // Its next member is sized by rule 1 too, and the file stays version 1.
    const fourth = schemeSize(80, 0.01 * 0.5 * 0.5 ** 3, 'xxh64', 1);
    expect([chain.members[3].bits, chain.members[3].hashes]).toEqual([fourth.bits, fourth.hashes]);
    const again = chain.toBytes();
    expect(new DataView(again.buffer, again.byteOffset).getUint16(4, true)).toBe(1);
    expect(ScalableBloomFilter.fromBytes(again).members.map((f) => f.bits)).toEqual(chain.members.map((f) => f.bits));
  });

  it.each(twins)('a new chain is version 2, sized by rule 2, and round-trips ($name)', ({ ScalableBloomFilter }) => {
    const chain = new ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01 });
    for (let i = 0; chain.members.length < 3; i++) chain.add(`item ${i}`);
    const sizes = [0, 1, 2].map((i) => schemeSize(10 * 2 ** i, 0.01 * 0.5 * 0.5 ** i, 'xxh64', 2));
    expect(chain.members.map((f) => ({ bits: f.bits, hashes: f.hashes }))).toEqual(sizes);
    const bytes = chain.toBytes();
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint16(4, true)).toBe(2);
    expect(Buffer.from(ScalableBloomFilter.fromBytes(bytes).toBytes()).equals(Buffer.from(bytes))).toBe(true);
  });
});
