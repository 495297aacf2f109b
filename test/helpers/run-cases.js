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

/** A short fingerprint of bytes (FNV-1a), so the answers stay small. */
function fnv(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return `${bytes.length}:${h.toString(16)}`;
}

/**
 * The cuckoo filter and the binary fuse filter, run against `lib`: adds,
 * removes and counts with a kick sequence fixed by the seeded generator,
 * growth, batches, files written and read back, and the binary fuse
 * filter's reference bytes. Every engine must give these answers exactly.
 */
export function runStatic(lib) {
  const items = Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? `https://example.com/${i}/é😀` : `item-${i}`));
  const absent = Array.from({ length: 3000 }, (_, i) => `absent-${i}`);
  const flags = (f, list) => fnv(Uint8Array.from(list.map((x) => (f.has(x) ? 1 : 0))));

  // Fixed capacity, filled to 95%, then half removed.
  const c = lib.CuckooFilter.forCapacity(2000, 0.001);
  const added = c.addMany(items.slice(0, 1900));
  const nx = items.slice(0, 50).map((x) => c.addIfAbsent(x));
  const counts = items.slice(0, 20).map((x) => c.count(x));
  const removed = items.slice(0, 950).map((x) => c.remove(x));
  const afterRemove = { kept: items.slice(950, 1900).filter((x) => c.has(x)).length, absentHits: absent.filter((x) => c.has(x)).length };
  const file = c.toBytes();
  const back = lib.CuckooFilter.fromBytes(file);
  let full = '';
  const small = lib.CuckooFilter.forCapacity(50, 0.01);
  try {
    for (const x of items) small.add(x);
  } catch (e) {
    full = e.name;
  }
  // Growth across members.
  const g = lib.CuckooFilter.forCapacity(100, 0.001, { growth: 2 });
  items.slice(0, 2000).forEach((x) => g.add(x));
  const cuckoo = {
    added: fnv(added),
    addIfAbsent: nx.filter(Boolean).length,
    counts,
    removed: removed.filter(Boolean).length,
    afterRemove,
    size: c.size,
    file: fnv(file),
    sameFile: fnv(back.toBytes()) === fnv(file),
    hasMany: fnv(back.hasMany(items.slice(0, 2000))),
    full,
    grown: { members: g.members.length, kept: items.slice(0, 2000).filter((x) => g.has(x)).length, absent: flags(g, absent), file: fnv(g.toBytes()) },
  };
  c.dispose();
  back.dispose();
  small.dispose();
  g.dispose();

  // Binary fuse filters, 8- and 16-bit, from items and from 64-bit keys.
  const keys = new BigUint64Array(1000);
  let x = 0x9e3779b97f4a7c15n;
  for (let i = 0; i < keys.length; i++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    keys[i] = x;
  }
  const fuse = [8, 16].map((fingerprintBits) => {
    const f = lib.BinaryFuseFilter.from(items, { fingerprintBits });
    const k = lib.BinaryFuseFilter.fromKeys(keys, { fingerprintBits });
    const reference = k.toReferenceBytes();
    const again = lib.BinaryFuseFilter.fromReferenceBytes(reference, { fingerprintBits });
    const read = lib.BinaryFuseFilter.fromBytes(f.toBytes());
    const answer = {
      fingerprintBits,
      kept: items.filter((y) => f.has(y)).length,
      absent: flags(f, absent),
      hasMany: fnv(read.hasMany([...items.slice(0, 500), ...absent.slice(0, 500)])),
      file: fnv(f.toBytes()),
      keysKept: Array.from(keys).filter((key) => again.hasKey(key)).length,
      reference: fnv(reference),
    };
    for (const y of [f, k, again, read]) y.dispose();
    return answer;
  });
  return { cuckoo, fuse };
}
