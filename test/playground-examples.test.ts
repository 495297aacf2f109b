// The playground's worked examples say why their rates differ: every number
// in the SeenFilter example's note is recomputed here from the library,
// over the probes the playground measures with.

import { describe, expect, it } from 'vitest';
import { BloomFilter, falsePositiveRate } from '../src/reference/index.js';
import { poly } from '../src/reference/hash.js';
import { mulberry32 } from '../src/cli/mulberry32.js';
import { EXAMPLES } from '../src/playground/examples.js';

const example = EXAMPLES['seen-filter'];
const note = example.ratesNote!;

/** The example's filter after its three adds. */
function played(): BloomFilter {
  const f = new BloomFilter(example.bits, example.hashes, { scheme: example.scheme });
  for (const step of example.steps) if (step.op === 'add') f.add(step.item);
  return f;
}

describe("the SeenFilter example's rates note", () => {
  const f = played();
  const m = f.bits;
  const bits = f.bitArray();
  const on = (p: number): boolean => ((bits[p >> 3] >> (p & 7)) & 1) === 1;
  const maybe = (h1: number, h2: number): boolean => [0, 1, 2].every((i) => on((h1 + i * h2) % m));

  it('is on the poly example of m = 16, k = 3, and only there', () => {
    expect([example.scheme, m, f.hashes]).toEqual(['poly', 16, 3]);
    expect(EXAMPLES.sstable.ratesNote).toBeUndefined();
  });

  it('states the bits: 9 set, 7 of the 8 odd ones', () => {
    const set = Array.from({ length: m }, (_, p) => p).filter(on);
    expect(set).toEqual([1, 2, 3, 5, 7, 8, 9, 11, 15]);
    expect(set.filter((p) => p % 2 === 1).length).toBe(7);
    expect(note).toContain('cats, dogs and owls set 7 of the 8 odd bits');
    expect(note).toContain('these three items set 9');
  });

  it('states the rate over every (h1, h2) pair mod 16: 59 of 256, against (9/16)^3 for independent positions', () => {
    let hits = 0;
    for (let h1 = 0; h1 < m; h1++) for (let h2 = 0; h2 < m; h2++) if (maybe(h1, h2)) hits++;
    expect(hits).toBe(59);
    expect(f.currentFalsePositiveRate()).toBe(Math.pow(9 / 16, 3));
    expect(note).toContain(`answer MAYBE to 59 (${((59 / 256) * 100).toFixed(1)}%; 2,000 probes measure it give or take two points), not (9/16)³ = ${(Math.pow(9 / 16, 3) * 100).toFixed(1)}%`);
    // Two points is about two standard deviations of a share of 2,000 probes.
    expect(2 * Math.sqrt(((59 / 256) * (197 / 256)) / 2000)).toBeCloseTo(0.0188, 4);
    // Even steps stay on one parity and carry most of it; h2 of 0 or 8 repeats a position.
    let even = 0;
    for (let h1 = 0; h1 < m; h1++) for (let h2 = 0; h2 < m; h2 += 2) if (maybe(h1, h2)) even++;
    expect([even, hits - even]).toEqual([45, 14]);
    expect(new Set([0, 1, 2].map((i) => (5 + i * 8) % m)).size).toBe(2);
  });

  it("states theory's expected fill: 6.9 of 16 bits, for 7.96%", () => {
    expect((m * (1 - Math.exp((-3 * 3) / m))).toFixed(1)).toBe('6.9');
    expect((falsePositiveRate(16, 3, 3) * 100).toPrecision(3)).toBe('7.96');
    expect(note).toContain('it expects 6.9 bits set (1 − e^(−9/16) of 16)');
  });

  it("holds on the playground's own probes: h1 and h2 uniform mod 16, and the measured rate near 59/256", () => {
    // The playground's probe names (src/playground/playground.ts): probe-<n>-<seeded word>.
    const random = mulberry32(0x9e3779b9);
    const word = (): string => Math.floor(random() * 2 ** 32).toString(36).padStart(7, '0');
    const N = 32_000;
    const h1s = new Array<number>(m).fill(0);
    const h2s = new Array<number>(m).fill(0);
    let maybes = 0;
    for (let i = 0; i < N; i++) {
      const probe = `probe-${i}-${word()}`;
      const { h1, h2 } = poly(Array.from(probe, (c) => c.charCodeAt(0)));
      h1s[h1 % m]++;
      h2s[h2 % m]++;
      if (f.has(probe)) maybes++;
    }
    // 2,000 a residue on average, sd about 43: 15% is more than 6 sd.
    for (const count of [...h1s, ...h2s]) expect(Math.abs(count - N / m)).toBeLessThan(0.15 * (N / m));
    // sd of the share over 32,000 probes is about 0.24 points.
    expect(Math.abs(maybes / N - 59 / 256)).toBeLessThan(0.012);
    expect(note).toContain("not the hash (the probes' h1 and h2 are uniform mod 16)");
  });
});
