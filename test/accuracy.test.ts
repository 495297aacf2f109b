// Measured false-positive rates against the theory, with a fixed item
// generator so the counts are the same on every run.
import { describe, expect, it } from 'vitest';
import { BloomFilter, falsePositiveRate } from '../src/index.js';

const url = (i: number, tag: string) => `https://www.example-${i % 977}.com/${tag}/page/${i}?ref=${(i * 2654435761) >>> 0}`;

describe('accuracy', () => {
  it('measures within 15% of (1 - e^(-kn/m))^k at n = 100,000, m = 10n, k = 7', () => {
    const n = 100_000;
    const f = new BloomFilter(10 * n, 7);
    for (let i = 0; i < n; i++) f.add(url(i, 'in'));
    for (let i = 0; i < n; i++) expect(f.has(url(i, 'in'))).toBe(true);
    let hits = 0;
    for (let i = 0; i < n; i++) if (f.has(url(i, 'out'))) hits++;
    const measured = hits / n;
    const theory = falsePositiveRate(10 * n, n, 7);
    expect(Math.abs(measured - theory) / theory).toBeLessThan(0.15);
  });

  it.each(['poly', 'bytesum'] as const)('%s also never loses an added item at n = 20,000', (scheme) => {
    const f = new BloomFilter(200_003, 7, { scheme });
    for (let i = 0; i < 20_000; i++) f.add(url(i, 'in'));
    for (let i = 0; i < 20_000; i++) expect(f.has(url(i, 'in'))).toBe(true);
  });
});
