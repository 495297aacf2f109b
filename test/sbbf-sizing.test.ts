// Sizing a split-block filter: the blocked false-positive rate (Putze,
// Sanders and Singler 2007; Parquet's BloomFilter.md), the bits forCapacity
// chooses from it, and measured rates against it at n = 10^6.
import { describe, expect, it } from 'vitest';
import {
  BloomFilter, BloomRangeError, ScalableBloomFilter, falsePositiveRate, optimalBits, sbbfFalsePositiveRate, sbbfOptimalBits,
} from '../src/index.js';
import { BloomFilter as ReferenceFilter } from '../src/reference/index.js';

/** The same sum with exact Poisson weights e^-l l^i / i!, term by term, for small loads. */
function bruteRate(bits: number, n: number): number {
  const lambda = n / (bits / 256);
  let weight = Math.exp(-lambda);
  let sum = 0;
  for (let i = 0; i < 400; i++) {
    sum += weight * Math.pow(1 - Math.pow(1 - 1 / 32, i), 8);
    weight *= lambda / (i + 1);
  }
  return sum;
}

const present = (i: number) => `https://www.example-${i % 977}.com/in/page/${i}?ref=${(i * 2654435761) >>> 0}`;
const absent = (i: number) => `https://www.example-${i % 977}.com/out/page/${i}?ref=${(i * 2654435761) >>> 0}`;

describe('sbbfFalsePositiveRate', () => {
  it('equals the Poisson-weighted sum computed term by term', () => {
    for (const [bits, n] of [[256, 1], [256, 30], [2560, 100], [256_000, 5_000], [1 << 20, 100_000], [1 << 20, 300_000]]) {
      expect(sbbfFalsePositiveRate(bits, n)).toBeCloseTo(bruteRate(bits, n), 14);
    }
  });

  it('is 0 when empty, rises with n, and exceeds the classic rate at the same bits per item', () => {
    expect(sbbfFalsePositiveRate(1024, 0)).toBe(0);
    let last = 0;
    for (const n of [10, 100, 1_000, 10_000]) {
      const rate = sbbfFalsePositiveRate(256 * 400, n);
      expect(rate).toBeGreaterThan(last);
      last = rate;
    }
    expect(sbbfFalsePositiveRate(10_240_000, 1_000_000)).toBeGreaterThan(falsePositiveRate(10_240_000, 1_000_000, 8));
  });

  it('refuses bits that are not whole blocks and negative counts', () => {
    expect(() => sbbfFalsePositiveRate(1000, 10)).toThrow(BloomRangeError);
    expect(() => sbbfFalsePositiveRate(1024, -1)).toThrow(/capacity/);
  });
});

describe('sbbfOptimalBits', () => {
  it.each([[1, 0.5], [1_000, 0.01], [1_000_000, 0.01], [1_000_000, 0.001], [12_345, 1e-6]])(
    'n = %d, p = %d: the fewest whole blocks whose rate is at most p',
    (n, p) => {
      const bits = sbbfOptimalBits(n, p);
      expect(bits % 256).toBe(0);
      expect(sbbfFalsePositiveRate(bits, n)).toBeLessThanOrEqual(p);
      if (bits > 256) expect(sbbfFalsePositiveRate(bits - 256, n)).toBeGreaterThan(p);
    },
  );

  it('needs more bits than the classic filter for the same n and p', () => {
    expect(sbbfOptimalBits(1_000_000, 0.01)).toBeGreaterThan(optimalBits(1_000_000, 0.01));
  });
});

describe.each([
  ['wasm', BloomFilter],
  ['reference', ReferenceFilter],
] as const)('forCapacity with sbbf (%s)', (_, Filter) => {
  it('builds k = 8 and sbbfOptimalBits(n, p) bits', () => {
    const f = Filter.forCapacity(50_000, 0.01, { scheme: 'sbbf' });
    expect([f.scheme, f.hashes, f.bits]).toEqual(['sbbf', 8, sbbfOptimalBits(50_000, 0.01)]);
  });

  it('estimates the count and the current rate from the fill', () => {
    const n = 20_000;
    const f = Filter.forCapacity(n, 0.01, { scheme: 'sbbf' });
    for (let i = 0; i < n; i++) f.add(present(i));
    expect(Math.abs(f.estimatedCount() - n) / n).toBeLessThan(0.02);
    const expected = sbbfFalsePositiveRate(f.bits, n);
    expect(Math.abs(f.currentFalsePositiveRate() - expected) / expected).toBeLessThan(0.1);
  });
});

describe('measured rate at n = 10^6 (wasm)', () => {
  it.each([0.01, 0.001])('p = %d: within a tenth of the formula on 10^6 absent items', (p) => {
    const n = 1_000_000;
    const f = BloomFilter.forCapacity(n, p, { scheme: 'sbbf' });
    const chunk: string[] = [];
    let hits = 0;
    for (const [make, run] of [[present, (c: string[]) => f.addMany(c)], [absent, (c: string[]) => f.hasMany(c)]] as const) {
      for (let i = 0; i < n; i++) {
        chunk.push(make(i));
        if (chunk.length === 10_000 || i === n - 1) {
          const flags = run(chunk);
          if (make === absent) hits += flags.reduce((a, b) => a + b, 0);
          chunk.length = 0;
        }
      }
    }
    const theory = sbbfFalsePositiveRate(f.bits, n);
    expect(theory).toBeLessThanOrEqual(p);
    expect(Math.abs(hits / n - theory) / theory).toBeLessThan(0.1);
    expect(Math.abs(f.currentFalsePositiveRate() - theory) / theory).toBeLessThan(0.1);
  });
});

describe('ScalableBloomFilter with sbbf members', () => {
  it('sizes each member with the blocked rate', () => {
    const s = new ScalableBloomFilter({ capacity: 1_000, falsePositiveRate: 0.01, scheme: 'sbbf' });
    for (let i = 0; i < 5_000; i++) s.add(present(i));
    expect(s.members.length).toBeGreaterThan(1);
    for (const m of s.members) {
      expect(m.hashes).toBe(8);
      expect(m.bits).toBe(sbbfOptimalBits(m.capacity, m.falsePositiveRate));
    }
    for (let i = 0; i < 5_000; i++) expect(s.has(present(i))).toBe(true);
    const copy = ScalableBloomFilter.fromBytes(s.toBytes());
    expect(copy.members).toEqual(s.members);
  });
});
