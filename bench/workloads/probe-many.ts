// Workload (g), hash once, probe many: which of 200 filters of different
// sizes may hold key K (the SSTable read path: one filter per file)?
// probeAll against 200 separate has() calls and against the target's unit,
// the `wasm single` row: one has() plus 200 bit-block reads (one byte read
// from each filter's bits, at a place the key picks). The target is probeAll
// at most 3× that row.

import { BloomFilter, probeAll } from '../../src/index.node.js';
import { urls } from '../data.js';
import { type Context, type Spec, measureInterleaved } from '../harness.js';

/** The filters the store would hold. */
const FILES = 200;

/** Measures (g). */
export async function probeManyWorkload(ctx: Context): Promise<void> {
  const { quick, scale } = ctx.settings;
  // Files of 1,000 to 50,000 keys (a tenth of that in quick mode), 10 bits per key, k = 7.
  const perFile = (i: number) => Math.round((1000 + (49_000 * i) / (FILES - 1)) * (quick ? 0.1 : Math.min(1, scale)));
  const queries = quick ? 256 : 4096;
  const workload = `(g) one key against ${FILES} filters of ${perFile(0) * 10} to ${perFile(FILES - 1) * 10} bits, k = 7`;
  ctx.log(`workload (g): filling ${FILES} filters`);
  const present = urls(queries, 3, 'g').strings;
  const absent = urls(queries, 4, 'h').strings;
  const filters: BloomFilter[] = [];
  const blocked: BloomFilter[] = [];
  for (let i = 0; i < FILES; i++) {
    const n = perFile(i);
    const own: string[] = [];
    for (let j = 0; j < n; j++) own.push(`file${i}/key${j}`);
    const f = new BloomFilter(10 * n, 7);
    f.addMany(own);
    filters.push(f);
    // The same files under sbbf: one 256-bit block per key, about 10 bits per key.
    const b = new BloomFilter(256 * Math.ceil((10 * n) / 256), 8, { scheme: 'sbbf' });
    b.addMany(own);
    blocked.push(b);
  }
  // Each present key lives in exactly one file.
  present.forEach((key, j) => {
    filters[j % FILES].add(key);
    blocked[j % FILES].add(key);
  });
  const views = filters.map((f) => f.bitArray());
  const block = 16;
  const floor = (keys: string[]) => (from: number): number => {
    let c = 0;
    for (let i = from; i < from + block; i++) {
      const key = keys[i];
      c += filters[i % FILES].has(key) ? 1 : 0;
      // A place that depends on the key, so the reads cannot be hoisted out.
      const at = Math.imul(key.charCodeAt(key.length - 1) + i, 0x9e3779b1) >>> 0;
      for (let f = 0; f < FILES; f++) c ^= views[f][at % views[f].length];
    }
    return c;
  };
  const all = (keys: string[], list: BloomFilter[]) => (from: number): number => {
    let c = 0;
    for (let i = from; i < from + block; i++) c += probeAll(list, keys[i])[i % FILES];
    return c;
  };
  // The same, with the answers written into one array passed every time.
  const into = new Uint8Array(FILES);
  const allInto = (keys: string[], list: BloomFilter[]) => (from: number): number => {
    let c = 0;
    for (let i = from; i < from + block; i++) c += probeAll(list, keys[i], into)[i % FILES];
    return c;
  };
  const each = (keys: string[], list: BloomFilter[]) => (from: number): number => {
    let c = 0;
    for (let i = from; i < from + block; i++) for (const f of list) c += f.has(keys[i]) ? 1 : 0;
    return c;
  };
  const unit = 'the target\'s unit: one has() plus 200 bit-block reads (a byte of each filter\'s bits)';
  const specs: Spec[] = [];
  for (const [op, keys] of [['has present', present], ['has absent', absent]] as const) {
    specs.push(
      { workload, op, contestant: 'wasm single', block, total: queries, run: floor(keys), note: unit },
      { workload, op, contestant: 'probeAll', block, total: queries, run: all(keys, filters), note: 'one call into wasm: one encode, one hash, every filter walked in place' },
      { workload, op, contestant: 'probeAll into one array', block, total: queries, run: allInto(keys, filters), note: 'the same, the answers written into one Uint8Array given each time (no array made per key)' },
      { workload, op, contestant: '200 has() calls', block, total: queries, run: each(keys, filters) },
      { workload, op, contestant: 'probeAll, sbbf filters', block, total: queries, run: all(keys, blocked), note: 'the same files as sbbf filters (k = 8, one 256-bit block each): masks once per key, one block read per filter' },
      { workload, op, contestant: 'probeAll into one array, sbbf filters', block, total: queries, run: allInto(keys, blocked) },
      { workload, op, contestant: '200 has() calls, sbbf filters', block, total: queries, run: each(keys, blocked) },
    );
  }
  // Interleaved rounds, since the rows are read as ratios to the floor row.
  measureInterleaved(ctx, specs, quick ? 3 : 15);
}
