// Plain JavaScript on purpose: the same file runs in Node (imported by the
// tests) and in Chromium (served to the page as-is, untranspiled), so both
// sides run exactly the same driver against their own copy of the library.

/** Rebuilds an item sent through JSON: a string, or { bytes: number[] } for a Uint8Array. */
function item(x) {
  return typeof x === 'string' ? x : new Uint8Array(x.bytes);
}

/**
 * Runs parity cases against `lib` (bloomwasm or bloomwasm/reference): for each
 * case, builds the filter, records every item's positions and add() result,
 * then has() of every item and probe, bitsSet, the bit string and the bytes.
 */
export function runCases(lib, cases) {
  return cases.map((c) => {
    const filter = new lib.BloomFilter(c.bits, c.hashes, { scheme: c.scheme, seed: BigInt(c.seed) });
    const items = c.items.map(item);
    const probes = c.probes.map(item);
    const positions = items.map((x) => filter.positions(x));
    const added = items.map((x) => filter.add(x));
    return {
      positions,
      added,
      has: items.map((x) => filter.has(x)),
      probes: probes.map((x) => filter.has(x)),
      probePositions: probes.map((x) => filter.positions(x)),
      bitsSet: filter.bitsSet(),
      bitString: filter.toBitString(),
      bytes: Array.from(filter.bitArray()),
    };
  });
}

/** The worked examples of the SeenFilter, SSTable and staged-test-track exercises, run against `lib`. */
export function runSeeds(lib) {
  // The SeenFilter exercise: [null, null, null, null, 9, true, false, true].
  const seen = new lib.SeenFilter(16, 3);
  const seenFilter = [seen.add('cats.io') ?? null, seen.add('dogs.io') ?? null, seen.add('owls.io') ?? null, seen.bitsSet(),
    seen.mightContain('dogs.io'), seen.mightContain('yaks.io'), seen.mightContain('bats.io')];
  const poly = new lib.BloomFilter(16, 3, { scheme: 'poly' });
  const seenFilterPositions = ['cats.io', 'dogs.io', 'owls.io', 'yaks.io', 'bats.io'].map((u) => poly.positions(u));

  // The SSTable exercise: m = 100, k = 3, bytesum; apple {30, 24, 18}, banana {9, 51, 93}.
  const f = new lib.BloomFilter(100, 3, { scheme: 'bytesum' });
  const emptyBits = f.toBitString();
  const emptyApple = f.has('apple');
  f.add('apple');
  const sstable = {
    emptyBits,
    emptyApple,
    apple: f.positions('apple'),
    banana: f.positions('banana'),
    checkApple: f.has('apple') ? 'MAYBE' : 'NO',
    checkBanana: f.has('banana') ? 'MAYBE' : 'NO',
    bits: f.toBitString(),
  };
  f.clear();
  sstable.afterReset = f.has('apple') ? 'MAYBE' : 'NO';
  for (const key of ['foo', 'bar', 'baz']) f.add(key);
  sstable.qux = f.has('qux') ? 'MAYBE' : 'NO';

  // The staged test track's accuracy stages: hits among 20,000 never-added items.
  const stage = (bits, n) => {
    const s = new lib.BloomFilter(bits, 5);
    for (let i = 0; i < n; i++) s.add(`key-${i}`);
    let hits = 0;
    for (let i = 0; i < 20000; i++) if (s.has(`absent-${i}`)) hits++;
    return { hits, bitsSet: s.bitsSet() };
  };
  const stages = { bf4: stage(10007, 625), bf5: stage(6007, 900) };

  return { seenFilter, seenFilterPositions, sstable, stages };
}
