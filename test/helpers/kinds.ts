// One filter of each kind the package saves, with items in it, from either
// implementation: for the tests that must cover every kind.
import type * as wasm from '../../src/index.js';
import type * as reference from '../../src/reference/index.js';

/** bloomwasm or bloomwasm/reference. */
export type Implementation = typeof wasm | typeof reference;

/** A filter of each saved kind, by name, each holding `items` items (`item-0`, ...); the binary fuse filter holds `key-0`, .... */
export function everyKind(impl: Implementation, items = 300) {
  const filter = impl.BloomFilter.forCapacity(1000, 0.01);
  const chain = new impl.ScalableBloomFilter({ capacity: 100, falsePositiveRate: 0.01 });
  const counting = new impl.CountingBloomFilter(1000, 4);
  const sliding = new impl.SlidingBloomFilter({ window: 500, falsePositiveRate: 0.01 });
  const cuckoo = impl.CuckooFilter.forCapacity(1000, 0.01);
  for (let i = 0; i < items; i++) for (const f of [filter, chain, counting, sliding, cuckoo]) f.add(`item-${i}`);
  const fuse = impl.BinaryFuseFilter.from(Array.from({ length: items }, (_, i) => `key-${i}`));
  return { filter, chain, counting, sliding, cuckoo, fuse };
}

/** The class of each kind of everyKind, by the same names. */
export function kindClasses(impl: Implementation) {
  return {
    filter: impl.BloomFilter,
    chain: impl.ScalableBloomFilter,
    counting: impl.CountingBloomFilter,
    sliding: impl.SlidingBloomFilter,
    cuckoo: impl.CuckooFilter,
    fuse: impl.BinaryFuseFilter,
  };
}
