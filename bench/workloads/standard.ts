// The contestants of workloads (a) to (c): the wasm filter (single calls on
// strings and on bytes, batches of strings and packed batches), the same
// under the sbbf scheme (m rounded up to whole 256-bit blocks, k = 8) and
// single calls and batches of strings under bytesum, the
// reference twin, the npm peers `bloomfilter` and `bloom-filters`, and the
// encode-only floor, all with m = bits and k = 7 over the same items.

import BloomFilters from 'bloom-filters';
import { BloomFilter as PeerBloomfilter } from 'bloomfilter';
import { BloomFilter } from '../../src/index.node.js';
import { BloomFilter as ReferenceFilter } from '../../src/reference/index.js';
import type { ItemSet } from '../data.js';
import { blocksOf, encoder, floorView, K, loadReference, loop, packedBlocks, type Spec } from '../harness.js';
import type { Op } from '../results.js';

/** What one standard workload compares. */
export interface StandardSetup {
  workload: string;
  bits: number;
  present: ItemSet;
  absent: ItemSet;
  /** Items per call for fast and slow contestants. */
  fast: number;
  slow: number;
  /** Items the slow peer (bloom-filters) is filled with; all of them when undefined. */
  slowFill?: number;
  /** Why `bloomfilter` is left out, when it is. */
  skipBloomfilter?: string;
  /** Whether to add the bytesum rows (two more filters of `bits`: not for the large workload). */
  bytesum?: boolean;
}

/** The filled filters, for the accuracy and heap measurements after workload (a). */
export interface Filled {
  wasm: BloomFilter;
  reference: ReferenceFilter;
  /** Loads the wasm filter's bits into `reference` (once); its has tasks do it, but in isolated runs they ran elsewhere. */
  loadReference: () => void;
  bloomfilter?: PeerBloomfilter;
  bloomFilters?: () => InstanceType<typeof BloomFilters.BloomFilter>;
}

/** The specs of one standard workload, and its filters holding every present item. */
export function standardSpecs(s: StandardSetup): { specs: Spec[]; filled: Filled } {
  const { workload, bits, present, absent, fast, slow } = s;
  const n = present.strings.length;
  const specs: Spec[] = [];
  const ops: [Op, ItemSet][] = [
    ['has present', present],
    ['has absent', absent],
  ];

  // wasm single calls on strings.
  const addFilter = new BloomFilter(bits, K);
  const full = new BloomFilter(bits, K);
  full.addMany(present.packed);
  specs.push({ workload, op: 'add', contestant: 'wasm single', block: fast, total: n, reset: () => addFilter.clear(), run: loop((x) => addFilter.add(x), present) });
  for (const [op, set] of ops) specs.push({ workload, op, contestant: 'wasm single', block: fast, total: n, run: loop((x) => full.has(x), set) });

  // wasm batches of strings.
  const presentBlocks = blocksOf(present.strings, fast);
  const absentBlocks = blocksOf(absent.strings, fast);
  specs.push({ workload, op: 'add', contestant: 'wasm batch', block: fast, total: n, reset: () => addFilter.clear(), run: (from) => addFilter.addMany(presentBlocks[from / fast])[0] });
  for (const [op, blocks] of [['has present', presentBlocks], ['has absent', absentBlocks]] as const) {
    specs.push({ workload, op, contestant: 'wasm batch', block: fast, total: n, run: (from) => full.hasMany(blocks[from / fast])[0] });
  }

  // Items that already are bytes: Uint8Array single calls, and the packed batch
  // form; add into `empty` (cleared when a task wraps), has against `filled`.
  const pp = packedBlocks(present.packed, fast);
  const pa = packedBlocks(absent.packed, fast);
  const bytesSpecs = (scheme: string, empty: BloomFilter, filled: BloomFilter): Spec[] => [
    ...([['add', present], ...ops] as [Op, ItemSet][]).map(([op, set]): Spec => ({
      workload, op, contestant: `${scheme} single (bytes)`, block: fast, total: n,
      reset: op === 'add' ? () => empty.clear() : undefined,
      run: (from, b) => {
        let c = 0;
        const items = set.views;
        if (op === 'add') for (let i = from; i < from + b; i++) c += empty.add(items[i]) ? 1 : 0;
        else for (let i = from; i < from + b; i++) c += filled.has(items[i]) ? 1 : 0;
        return c;
      },
    })),
    { workload, op: 'add', contestant: `${scheme} batch (packed)`, block: fast, total: n, reset: () => empty.clear(), run: (from) => empty.addMany(pp[from / fast])[0] },
    ...([['has present', pp], ['has absent', pa]] as const).map(([op, blocks]): Spec => (
      { workload, op, contestant: `${scheme} batch (packed)`, block: fast, total: n, run: (from) => filled.hasMany(blocks[from / fast])[0] }
    )),
  ];
  specs.push(...bytesSpecs('wasm', addFilter, full));

  // The same calls under sbbf: one block (one cache line) per item.
  const sbbfBits = Math.ceil(bits / 256) * 256;
  const sbbfAdd = new BloomFilter(sbbfBits, 8, { scheme: 'sbbf' });
  const sbbfFull = new BloomFilter(sbbfBits, 8, { scheme: 'sbbf' });
  sbbfFull.addMany(present.packed);
  const sbbfNote = 'scheme sbbf: m rounded up to whole 256-bit blocks, k = 8';
  specs.push({ workload, op: 'add', contestant: 'sbbf single', block: fast, total: n, reset: () => sbbfAdd.clear(), run: loop((x) => sbbfAdd.add(x), present), note: sbbfNote });
  for (const [op, set] of ops) specs.push({ workload, op, contestant: 'sbbf single', block: fast, total: n, run: loop((x) => sbbfFull.has(x), set) });
  specs.push(...bytesSpecs('sbbf', sbbfAdd, sbbfFull));
  specs.push({ workload, op: 'add', contestant: 'sbbf batch', block: fast, total: n, reset: () => sbbfAdd.clear(), run: (from) => sbbfAdd.addMany(presentBlocks[from / fast])[0], note: sbbfNote });
  for (const [op, blocks] of [['has present', presentBlocks], ['has absent', absentBlocks]] as const) {
    specs.push({ workload, op, contestant: 'sbbf batch', block: fast, total: n, run: (from) => sbbfFull.hasMany(blocks[from / fast])[0] });
  }

  // The same single calls and batches under bytesum (the sum-of-bytes pair, seed 001's scheme).
  if (s.bytesum === true) specs.push(...bytesumSpecs(s, presentBlocks, absentBlocks));

  // The reference twin: BigInt XXH64, so smaller blocks. One object (a 10^10-bit
  // one is 1.25 GB): add runs on it first, then has loads the wasm bits into it.
  const ref = new ReferenceFilter(bits, K);
  let refLoaded = false;
  const loadRef = () => {
    if (!refLoaded) loadReference(ref, full);
    refLoaded = true;
  };
  specs.push({
    workload, op: 'add', contestant: 'reference', block: slow, total: n,
    reset: () => {
      ref.clear();
      refLoaded = false;
    },
    run: loop((x) => ref.add(x), present),
  });
  for (const [op, set] of ops) {
    specs.push({ workload, op, contestant: 'reference', block: slow, total: n, prepare: loadRef, note: 'for has, the bits are loaded from the wasm filter', run: loop((x) => ref.has(x), set) });
  }

  // bloomfilter (jasondavies): FNV-1a over charCodeAt, strings only.
  let bfFull: PeerBloomfilter | undefined;
  if (s.skipBloomfilter === undefined) {
    let bfAdd = new PeerBloomfilter(bits, K);
    const bf = new PeerBloomfilter(bits, K);
    for (const item of present.strings) bf.add(item);
    bfFull = bf;
    specs.push({ workload, op: 'add', contestant: 'bloomfilter', block: fast, total: n, reset: () => (bfAdd = new PeerBloomfilter(bits, K)), run: loop((x) => bfAdd.add(x), present) });
    for (const [op, set] of ops) specs.push({ workload, op, contestant: 'bloomfilter', block: fast, total: n, run: loop((x) => bf.test(x), set) });
  }

  // bloom-filters: the most downloaded; slow, so smaller blocks and possibly a
  // partial fill. One object again, refilled (untimed) before the has tasks.
  // Each new one is touched (untimed) first, as our filters are when they are
  // cleared: otherwise every first write to a page of a 1.25 GB array faults it in.
  const fillCount = Math.min(s.slowFill ?? n, n);
  const newBs = () => {
    const f = new BloomFilters.BloomFilter(bits, K);
    (f as unknown as { _filter: { array: Uint8Array } })._filter.array.fill(0);
    return f;
  };
  let bsAdd = newBs();
  let bsFull = bsAdd;
  let bsFilled = false;
  const fillBs = () => {
    if (bsFilled) return bsFull;
    bsFilled = true;
    bsFull = bsAdd = newBs();
    for (let i = 0; i < fillCount; i++) bsFull.add(present.strings[i]);
    return bsFull;
  };
  const partial = fillCount < n ? `filled with the first ${fillCount.toLocaleString('en-US')} items; has cycles over those` : undefined;
  specs.push({
    workload, op: 'add', contestant: 'bloom-filters', block: slow, total: fillCount,
    reset: () => {
      bsAdd = newBs();
      bsFilled = false;
    },
    run: loop((x) => bsAdd.add(x), present),
  });
  for (const [op, set] of ops) {
    specs.push({ workload, op, contestant: 'bloom-filters', block: slow, total: fillCount, note: partial, prepare: op === 'has present' ? fillBs : undefined, run: loop((x) => bsFull.has(x), set) });
  }

  // The floor: encodeInto of the same strings into wasm memory, nothing else.
  specs.push({ workload, op: 'encode', contestant: 'encode only (floor)', block: fast, total: n, run: loop((x) => encoder.encodeInto(x, floorView).written, present) });
  return { specs, filled: { wasm: full, reference: ref, loadReference: loadRef, bloomfilter: bfFull, bloomFilters: fillBs } };
}

/** "1,000,000": item counts in workload titles. */
export const count = (n: number): string => n.toLocaleString('en-US');

/** Single calls and batches of strings under bytesum, as the wasm rows above. */
function bytesumSpecs(s: StandardSetup, presentBlocks: string[][], absentBlocks: string[][]): Spec[] {
  const { workload, bits, present, absent, fast } = s;
  const n = present.strings.length;
  const ops: [Op, ItemSet][] = [
    ['has present', present],
    ['has absent', absent],
  ];
  const out: Spec[] = [];
  const bytesumAdd = new BloomFilter(bits, K, { scheme: 'bytesum' });
  const bytesumFull = new BloomFilter(bits, K, { scheme: 'bytesum' });
  bytesumFull.addMany(present.packed);
  const bytesumNote = 'scheme bytesum, m = bits, k = 7';
  out.push({ workload, op: 'add', contestant: 'bytesum single', block: fast, total: n, reset: () => bytesumAdd.clear(), run: loop((x) => bytesumAdd.add(x), present), note: bytesumNote });
  for (const [op, set] of ops) out.push({ workload, op, contestant: 'bytesum single', block: fast, total: n, run: loop((x) => bytesumFull.has(x), set) });
  out.push({ workload, op: 'add', contestant: 'bytesum batch', block: fast, total: n, reset: () => bytesumAdd.clear(), run: (from) => bytesumAdd.addMany(presentBlocks[from / fast])[0], note: bytesumNote });
  for (const [op, blocks] of [['has present', presentBlocks], ['has absent', absentBlocks]] as const) {
    out.push({ workload, op, contestant: 'bytesum batch', block: fast, total: n, run: (from) => bytesumFull.hasMany(blocks[from / fast])[0] });
  }
  return out;
}
