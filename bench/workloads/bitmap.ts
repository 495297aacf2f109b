// Workload (f): the bitmap article's structure, 10^6 random integers in
// [1, 10^8] in a Bitmap of 10^8 + 1 bits, against the reference twin and a
// Set<number>; then iteration (the bitmap sort) against Uint32Array sort.

import { performance } from 'node:perf_hooks';
import { mulberry32 } from '../../src/cli/mulberry32.js';
import { Bitmap } from '../../src/index.node.js';
import { Bitmap as ReferenceBitmap } from '../../src/reference/index.js';
import { measure, type Context, type Spec } from '../harness.js';
import { count } from './standard.js';

const SIZE = 100_000_001;

/** Measures (f) and records the iteration timing. */
export async function bitmapWorkload(ctx: Context): Promise<void> {
  ctx.log('workload (f): Bitmap');
  const n = ctx.settings.n;
  const workload = `(f) Bitmap of 10^8 + 1 bits, ${count(n)} random integers`;
  const block = Math.min(1000, n);
  const random = mulberry32(4);
  const next = () => 1 + (Math.floor(random() * 2 ** 32) % 100_000_000);
  const present = new Uint32Array(n).map(next);
  const full = new Bitmap(SIZE);
  full.setMany(present);
  const absent = new Uint32Array(n);
  for (let i = 0; i < n; ) {
    const v = next();
    if (!full.has(v)) absent[i++] = v;
  }
  const refFull = new ReferenceBitmap(SIZE);
  refFull.setMany(present);
  const set = new Set(present);
  const single = new Bitmap(SIZE);
  const batch = new Bitmap(SIZE);
  const ref = new ReferenceBitmap(SIZE);
  let jsSet = new Set<number>();
  const each = (f: (v: number) => unknown, values: Uint32Array) => (from: number, b: number) => {
    let c = 0;
    for (let i = from; i < from + b; i++) if (f(values[i])) c++;
    return c;
  };
  const specs: Spec[] = [
    { workload, op: 'add', contestant: 'wasm single', block, total: n, reset: () => single.clear(), run: each((v) => single.set(v), present), note: 'add is set(v)' },
    { workload, op: 'has present', contestant: 'wasm single', block, total: n, run: each((v) => full.has(v), present) },
    { workload, op: 'has absent', contestant: 'wasm single', block, total: n, run: each((v) => full.has(v), absent) },
    { workload, op: 'add', contestant: 'wasm batch', block, total: n, reset: () => batch.clear(), run: (from, b) => batch.setMany(present.subarray(from, from + b)) },
    { workload, op: 'has present', contestant: 'wasm batch', block, total: n, run: (from, b) => full.hasMany(present.subarray(from, from + b))[0] },
    { workload, op: 'has absent', contestant: 'wasm batch', block, total: n, run: (from, b) => full.hasMany(absent.subarray(from, from + b))[0] },
    { workload, op: 'add', contestant: 'reference', block, total: n, reset: () => ref.clear(), run: each((v) => ref.set(v), present) },
    { workload, op: 'has present', contestant: 'reference', block, total: n, run: each((v) => refFull.has(v), present) },
    { workload, op: 'has absent', contestant: 'reference', block, total: n, run: each((v) => refFull.has(v), absent) },
    { workload, op: 'add', contestant: 'Set<number>', block, total: n, reset: () => (jsSet = new Set()), run: each((v) => jsSet.add(v), present) },
    { workload, op: 'has present', contestant: 'Set<number>', block, total: n, run: each((v) => set.has(v), present) },
    { workload, op: 'has absent', contestant: 'Set<number>', block, total: n, run: each((v) => set.has(v), absent) },
  ];
  await measure(ctx, specs);
  const t0 = performance.now();
  const sorted = full.toArray();
  const t1 = performance.now();
  present.slice().sort();
  const t2 = performance.now();
  ctx.results.bitmap = { values: n, distinct: sorted.length, toArrayMs: t1 - t0, sortMs: t2 - t1 };
}
