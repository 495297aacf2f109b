// util.inspect (console.log) of every kind: one short line with the kind,
// its size and its fill, the same for the wasm classes and their twins;
// a disposed object says so instead of throwing.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { twins } from './helpers/twins.js';

/** Each kind's filled filter; BloomFilter and friends hold 1000 items `item-i`. */
function filled(impl: (typeof twins)[number]) {
  const items = Array.from({ length: 1000 }, (_, i) => `item-${i}`);
  const filter = impl.BloomFilter.forCapacity(1000, 0.01);
  const sbbf = impl.BloomFilter.forCapacity(1000, 0.01, { scheme: 'sbbf' });
  const chain = new impl.ScalableBloomFilter({ capacity: 400, falsePositiveRate: 0.01 });
  const counting = impl.CountingBloomFilter.forCapacity(2000, 0.01);
  const sliding = new impl.SlidingBloomFilter({ window: 500, falsePositiveRate: 0.01 });
  let now = 1_000_000;
  const timed = new impl.SlidingBloomFilter({ windowMs: 60_000, capacity: 4000, falsePositiveRate: 0.01, clock: () => now });
  const cuckoo = impl.CuckooFilter.forCapacity(2000, 0.01);
  for (const f of [filter, sbbf, chain, counting, sliding, timed, cuckoo]) f.addMany(items);
  now += 30_000;
  const fuse = impl.BinaryFuseFilter.from(items);
  const bitmap = new impl.Bitmap(1000);
  bitmap.setMany([1, 2, 3, 500, 999]);
  return { filter, sbbf, chain, counting, sliding, timed, cuckoo, fuse, bitmap };
}

describe.each(twins)('util.inspect of the $name classes', (impl) => {
  it('is one line per kind: its size and its fill', () => {
    const f = filled(impl);
    const shown = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, inspect(v)]));
    expect(shown).toEqual({
      filter: 'BloomFilter { bits: 9586, hashes: 7, added: 1000, fill: 51.8% }',
      sbbf: 'BloomFilter { bits: 10752, hashes: 8, scheme: sbbf, added: 999, fill: 52.2% }',
      chain: 'ScalableBloomFilter { members: 2, bits: 14422, added: 1000, fill: 44.8% }',
      counting: 'CountingBloomFilter { counters: 19171, hashes: 7, added: 1000, fill: 30.7% }',
      sliding: 'SlidingBloomFilter { window: 500, bits: 8192, live: 568, rate: 0.93% }',
      timed: 'SlidingBloomFilter { windowMs: 60000, capacity: 4000, bits: 127664, live: 1000, rate: 0.14% }',
      cuckoo: 'CuckooFilter { capacity: 2000, members: 1, held: 1000, load: 42.1% }',
      fuse: 'BinaryFuseFilter { keys: 1000, fingerprintBits: 8, bitsPerKey: 11.26 }',
      bitmap: 'Bitmap { bits: 1000, size: 5 }',
    });
  });

  it('says what the public accessors say', () => {
    const { filter, sbbf, chain, counting, sliding, cuckoo, fuse } = filled(impl);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    for (const f of [filter, sbbf]) expect(inspect(f)).toContain(`bits: ${f.bits}, hashes: ${f.hashes}, `);
    expect(inspect(filter)).toContain(`added: ${filter.size}, fill: ${pct(filter.bitsSet() / filter.bits)} }`);
    const bits = chain.members.reduce((n, m) => n + m.bits, 0);
    const set = chain.members.reduce((n, m) => n + m.bitsSet, 0);
    expect(inspect(chain)).toBe(`ScalableBloomFilter { members: ${chain.members.length}, bits: ${bits}, added: ${chain.size}, fill: ${pct(set / bits)} }`);
    expect(inspect(counting)).toContain(`counters: ${counting.bits}, hashes: ${counting.hashes}, added: ${counting.size}, fill: ${pct(counting.bitsSet() / counting.bits)}`);
    expect(inspect(sliding)).toContain(`rate: ${Number((100 * sliding.currentFalsePositiveRate()).toPrecision(2))}% }`);
    const slots = cuckoo.members.reduce((n, m) => n + m.buckets * cuckoo.bucketSize, 0);
    expect(inspect(cuckoo)).toContain(`held: ${cuckoo.size}, load: ${pct(cuckoo.size / slots)} }`);
    expect(inspect(fuse)).toContain(`bitsPerKey: ${(fuse.arrayLength * 8 / fuse.size).toFixed(2)} }`);
  });

  it('is what console.log prints, and stays one line inside arrays and objects', () => {
    const f = new impl.BloomFilter(959, 7);
    const line = 'BloomFilter { bits: 959, hashes: 7, added: 0, fill: 0.0% }';
    expect(inspect([f, { seen: f }], { breakLength: Infinity })).toBe(`[ ${line}, { seen: ${line} } ]`);
  });

  it('empty filters: no division by zero', () => {
    expect(inspect(impl.BinaryFuseFilter.from([]))).toBe('BinaryFuseFilter { keys: 0, fingerprintBits: 8, bitsPerKey: 0 }');
    expect(inspect(new impl.Bitmap(1))).toBe('Bitmap { bits: 1, size: 0 }');
    expect(inspect(new impl.BloomFilter(1, 1, { scheme: 'poly' }))).toBe('BloomFilter { bits: 1, hashes: 1, scheme: poly, added: 0, fill: 0.0% }');
  });

  it('says a disposed object is disposed, and does not throw', () => {
    const names = { filter: 'BloomFilter', sbbf: 'BloomFilter', chain: 'ScalableBloomFilter', counting: 'CountingBloomFilter', sliding: 'SlidingBloomFilter', timed: 'SlidingBloomFilter', cuckoo: 'CuckooFilter', fuse: 'BinaryFuseFilter', bitmap: 'Bitmap' };
    for (const [kind, f] of Object.entries(filled(impl))) {
      f.dispose();
      expect(inspect(f)).toBe(`${names[kind as keyof typeof names]} { disposed }`);
      expect(() => (f as { has(x: never): boolean }).has(1 as never)).toThrow(impl.BloomDisposedError);
    }
  });
});
