// The lean path (bloomwasm/core, src/core.ts): what a user who only makes a
// filter, adds, asks and disposes ships, bundled by the command a user
// would run,
//   esbuild --bundle --minify --splitting --format=esm --platform=browser,
// counting the entry chunk, every chunk it imports statically and any
// .wasm it fetches by URL, gzipped at level 9; and that the bundle, run in
// Node, answers as the full class and the reference twin do.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BloomFilter, probeAll } from '../src/index.js';
import { BloomFilter as ReferenceFilter } from '../src/reference/index.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const esbuild = join(root, 'node_modules/.bin/esbuild');

/**
 * The bytes the lean bundle may take, gzipped, wasm included. The goal is
 * 14,000 and is not met yet: this entry measured 19,948 on the branch that
 * made the lean path, 20,480 after the probe and batch changes that
 * followed, 19,937 once a chain's walk moved out of the Engine
 * (src/wasm/chain-walk.ts) and 19,390 once the lean class's part of the
 * Engine became a class of its own (src/wasm/core-engine.ts), and 18,480
 * once the lean build compiled out the exercises' schemes (about 5,800 of
 * it the lean wasm), and 18,377 once the poly scheme's staging of code
 * units moved out of the lean path (src/wasm/units.ts), and 18,051 once
 * the lean wasm called one copy of the single add and has of an item
 * instead of inlining them into every caller (assembly/scheme.ts), and
 * 18,054 once a batch's chunks of strings grew (81 bytes more) and the
 * shared memory's encode bounce left Staging (94 fewer), and 16,956 once
 * the lean build was embedded as a string of its bytes rather than a
 * DEFLATE stream, with no inflater (src/build/embed-wasm.mjs), and 16,724
 * once the lean build compiled out counting filters' reads (its instances
 * hold none: assembly/record.ts's countingKind), and 16,543 once the
 * region views, the shared build's own instance, the test-only placement
 * and the checksum's digest left the classes the lean path carries
 * (src/wasm/region-handle.ts), and 16,578 once an xxh64 batch's has went a
 * position at a time (assembly/batch.ts, 35 bytes more), and 16,488 once
 * plain double hashing's sizing rates left the lean path
 * (src/filter/double-rates.ts), against
 * 34,5xx for the same calls importing 'bloomwasm'. This ceiling keeps
 * what was won from coming back until the JS side (the arena, staging, the
 * sizing search, the inflater) is cut further.
 */
const LEAN_BUDGET = 16_500;

/** The entry a common user writes: every name of the lean set, and the answers printed as JSON. */
const ENTRY = `
import { BloomFilter, probeAll } from ${JSON.stringify(join(root, 'dist/core.js'))};
const urls = Array.from({ length: 3000 }, (_, i) => 'https://example.com/page/' + i + (i % 7 === 0 ? '/é' : ''));
const out = {};
for (const [name, make] of [
  ['new', () => new BloomFilter(20011, 7)],
  ['forCapacity', () => BloomFilter.forCapacity(1000, 0.01)],
  ['sbbf', () => BloomFilter.forCapacity(1000, 0.01, { scheme: 'sbbf' })],
  ['sbbfSeeded', () => new BloomFilter(25600, 8, { scheme: 'sbbf', seed: 7n })],
]) {
  const f = make();
  const added = urls.slice(0, 500).map((u) => f.add(u));
  const many = f.addMany(urls.slice(500, 1000));
  out[name] = {
    bits: f.bits, hashes: f.hashes, added, many: Array.from(many),
    has: urls.map((u) => f.has(u)), hasMany: Array.from(f.hasMany(urls)), bitsSet: f.bitsSet(), addedCount: f.addedCount(),
  };
  f.dispose();
  try { f.has('x'); out[name].afterDispose = 'no error'; } catch (e) { out[name].afterDispose = e.name; }
}
const a = new BloomFilter(8192, 4);
const b = BloomFilter.forCapacity(200, 0.001);
a.add('shared'); b.add('shared'); b.add('only-b');
out.probeAll = [Array.from(probeAll([a, b], 'shared')), Array.from(probeAll([a, b], 'only-b')), Array.from(probeAll([a, b], 'none'))];
const errors = [];
for (const bad of [() => new BloomFilter(0, 3), () => new BloomFilter(64, 0), () => BloomFilter.forCapacity(-1, 0.01), () => a.add(42), () => a.hasMany(5),
  () => new BloomFilter(9973, 5, { scheme: 'poly' }), () => BloomFilter.forCapacity(100, 0.01, { scheme: 'bytesum' }), () => new BloomFilter(64, 2, { shared: true })]) {
  try { bad(); errors.push('no error'); } catch (e) { errors.push(e.name + ': ' + e.message); }
}
out.errors = errors;
console.log(JSON.stringify(out));
`;

let dir: string;
/** Output file name -> its bytes, from the bundle of ENTRY. */
let chunks: Map<string, Buffer>;
let answers: Record<string, any>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bloomwasm-lean-'));
  writeFileSync(join(dir, 'entry.js'), ENTRY);
  execFileSync(esbuild, ['entry.js', '--bundle', '--minify', '--splitting', '--format=esm', '--platform=browser', '--outdir=out', '--log-level=warning'], { cwd: dir });
  chunks = new Map(readdirSync(join(dir, 'out')).map((name) => [name, readFileSync(join(dir, 'out', name))]));
  answers = JSON.parse(execFileSync(process.execPath, [join(dir, 'out/entry.js')], { encoding: 'utf8' }));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The entry chunk and every chunk it imports statically, transitively. */
function staticGraph(): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = chunks.get(name)!.toString('utf8');
    // Static imports only: `import{...}from"./chunk-X.js"` or `import"./chunk-X.js"`; not import("...").
    for (const m of text.matchAll(/import\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+)["']/g)) visit(m[1]);
  };
  visit('entry.js');
  return [...seen];
}

describe('bloomwasm/core: the lean bundle', () => {
  it(`ships at most ${LEAN_BUDGET} bytes gzipped, wasm included`, () => {
    const graph = staticGraph();
    const text = graph.map((name) => chunks.get(name)!.toString('utf8')).join('');
    // A .wasm fetched by URL would be a file of the output beside the chunks; the lean build is embedded instead.
    const wasmFiles = [...chunks.keys()].filter((name) => name.endsWith('.wasm'));
    const gz = graph.reduce((sum, name) => sum + gzipSync(chunks.get(name)!, { level: 9 }).length, 0)
      + wasmFiles.reduce((sum, name) => sum + gzipSync(chunks.get(name)!, { level: 9 }).length, 0);
    expect(gz).toBeLessThanOrEqual(LEAN_BUDGET);
    // None of the full build's families or save/load code came along.
    // (Export names of the other families' wasm calls, save/load's format error.)
    const came = ['countingBatch', 'cuckooBatch', 'fuseHasBatch', 'bitmapSetMany', 'checksumBits', 'BloomFormatError', 'toBytes', 'regionView']
      .filter((name) => text.includes(name));
    expect(came).toEqual([]);
    console.log(`lean bundle: ${gz} bytes gzipped (${graph.join(', ')})`);
  });

  it('answers add, addMany, has, hasMany exactly as the full class and the reference twin do', () => {
    const urls = Array.from({ length: 3000 }, (_, i) => 'https://example.com/page/' + i + (i % 7 === 0 ? '/é' : ''));
    const cases: [string, () => BloomFilter, () => ReferenceFilter][] = [
      ['new', () => new BloomFilter(20011, 7), () => new ReferenceFilter(20011, 7)],
      ['forCapacity', () => BloomFilter.forCapacity(1000, 0.01), () => ReferenceFilter.forCapacity(1000, 0.01)],
      ['sbbf', () => BloomFilter.forCapacity(1000, 0.01, { scheme: 'sbbf' }), () => ReferenceFilter.forCapacity(1000, 0.01, { scheme: 'sbbf' })],
      ['sbbfSeeded', () => new BloomFilter(25600, 8, { scheme: 'sbbf', seed: 7n }), () => new ReferenceFilter(25600, 8, { scheme: 'sbbf', seed: 7n })],
    ];
    for (const [name, makeFull, makeReference] of cases) {
      const lean = answers[name];
      for (const f of [makeFull(), makeReference()]) {
        expect(lean.bits, name).toBe(f.bits);
        expect(lean.hashes, name).toBe(f.hashes);
        expect(lean.added, name).toEqual(urls.slice(0, 500).map((u) => f.add(u)));
        expect(lean.many, name).toEqual(Array.from(f.addMany(urls.slice(500, 1000))));
        // Every URL asked, most of them never added: the same answers mean the same bits, false positives included.
        expect(lean.has, name).toEqual(urls.map((u) => f.has(u)));
        expect(lean.hasMany, name).toEqual(lean.has.map((h: boolean) => (h ? 1 : 0)));
        expect(lean.bitsSet, name).toBe(f.bitsSet());
        expect(lean.addedCount, name).toBe(f.addedCount());
      }
      expect(lean.afterDispose, name).toBe('BloomDisposedError');
    }
  });

  it('answers probeAll with 0/1 flags as the full path does', () => {
    const a = new BloomFilter(8192, 4);
    const b = BloomFilter.forCapacity(200, 0.001);
    a.add('shared');
    b.add('shared');
    b.add('only-b');
    const full = ['shared', 'only-b', 'none'].map((item) => Array.from(probeAll([a, b], item)));
    expect(answers.probeAll).toEqual(full);
    expect(answers.probeAll[0]).toEqual([1, 1]);
  });

  it('hands over to the full build when bloomwasm is imported after lean filters were made', () => {
    // Unbundled, in Node: a lean filter first, then the full entry, then a full filter beside it.
    const script = `
      const { BloomFilter: Lean } = await import(${JSON.stringify(join(root, 'dist/core.js'))});
      const lean = new Lean(4096, 5);
      lean.add('before');
      const { BloomFilter, CountingBloomFilter, probeAll } = await import(${JSON.stringify(join(root, 'dist/index.js'))});
      const full = new BloomFilter(4096, 5);
      full.add('before');
      const copy = BloomFilter.fromBytes(full.toBytes());
      const lean2 = new Lean(4096, 5);
      lean2.add('before');
      // A counting filter lands in an instance of the full build: the lean build has no counter reads.
      const counting = new CountingBloomFilter(4096, 5);
      counting.add('before');
      const walked = [Array.from(probeAll([lean, counting, lean2], 'before')), Array.from(probeAll([counting, lean], 'after'))];
      counting.remove('before');
      console.log(JSON.stringify([lean.has('before'), lean.has('after'), copy.has('before'), lean2.has('before'),
        Array.from(probeAll([lean, full, lean2], 'before')), lean.bitsSet() === full.bitsSet(),
        walked, counting.has('before'), Array.from(probeAll([lean, counting], 'before'))]));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([true, false, true, true, [1, 1, 1], true, [[1, 1, 1], [0, 0]], false, [1, 0]]);
  });

  it('throws the typed errors on bad input, naming the parameter', () => {
    const [bits, hashes, capacity, item, items, poly, bytesum, shared] = answers.errors as string[];
    expect(bits).toMatch(/^BloomRangeError: .*bits/);
    expect(hashes).toMatch(/^BloomRangeError: .*hashes/);
    expect(capacity).toMatch(/^BloomRangeError: .*capacity/);
    expect(item).toMatch(/^BloomTypeError: .*item/);
    expect(items).toMatch(/^BloomTypeError: .*items/);
    // The exercises' schemes and shared memory are the full class's: the lean wasm has no code for them.
    expect(poly).toBe("BloomRangeError: scheme must be xxh64 or sbbf in 'bloomwasm/core' (poly and bytesum are BloomFilter's from 'bloomwasm'); got \"poly\"");
    expect(bytesum).toMatch(/^BloomRangeError: scheme must be xxh64 or sbbf .* got "bytesum"$/);
    expect(shared).toMatch(/^BloomTypeError: options\.shared/);
  });
});
