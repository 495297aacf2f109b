// The lean path (bloomwasm/core, src/core.ts): what a user who only makes a
// filter, adds, asks and disposes ships, bundled by the command a user
// would run,
//   esbuild --bundle --minify --splitting --format=esm --platform=browser,
// counting the entry chunk, every chunk it imports statically and any
// .wasm it fetches by URL, gzipped at level 9; and that the bundle, run in
// Node, answers as the full class and the reference twin do.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
 * The bytes the lean bundle may take, gzipped, wasm included, for the
 * common user of LEAN_ENTRY: what a user who imports BloomFilter alone
 * ships. A change that adds to this path pays for itself, or raises the
 * budget and says why in its commit message; the sizes, change by change,
 * are in docs/BENCHMARKS.md.
 */
const LEAN_BUDGET = 14_100;
/** The wider entry's ceiling (gzip -9), so that what was won for batches, probeAll and the counts stays won. */
const WIDE_BUDGET = 15_650;

/**
 * 40 filters for probeAll, as the lean entry and the test below both make
 * them: both schemes, sizes from tiny (false positives on every item) to
 * roomy, k from 1, and a second seed (those records are flagged for JS to
 * ask on its own); filter j holds the items i with i % (j + 2) == 0.
 */
const MANY_FILTERS = `
const many = Array.from({ length: 40 }, (_, j) => j % 5 === 4
  ? new BloomFilter(64 + 32 * j, 1 + (j % 9), { seed: 11n })
  : j % 3 === 0 ? BloomFilter.forCapacity(50 + 20 * j, 0.001 * (1 + j), { scheme: 'sbbf' })
  : new BloomFilter(97 + 251 * j, 1 + (j % 8)));
many.forEach((f, j) => { for (let i = 0; i < 300; i += j + 2) f.add('item/' + i); });
`;

/**
 * Items longer than a filter's scratch (64 KiB), which are streamed into
 * the hash, and their neighbours one byte off, for filters of both schemes.
 */
const LONG_ITEMS = `
const longItems = ['a'.repeat(70_000), 'é'.repeat(40_000) + '/x', new Uint8Array(200_000).map((_, i) => i * 7),
  'a'.repeat(69_999), 'é'.repeat(40_000) + '/y', new Uint8Array(200_000).map((_, i) => (i === 199_999 ? 1 : i * 7))];
const long = [() => new BloomFilter(4099, 5), () => new BloomFilter(2048, 8, { scheme: 'sbbf', seed: 3n })];
const longAnswers = () => long.map((make) => {
  const f = make();
  const added = longItems.slice(0, 3).map((x) => f.add(x));
  return { added, has: longItems.map((x) => f.has(x)), hasMany: Array.from(f.hasMany(longItems)), bitsSet: f.bitsSet() };
});
`;

/** The common user of the lean path: makes filters both ways, adds, asks and disposes. */
const LEAN_ENTRY = `
import { BloomFilter } from ${JSON.stringify(join(root, 'dist/core.js'))};
const f = BloomFilter.forCapacity(1000, 0.01);
const g = new BloomFilter(20011, 7);
f.add('https://example.com/a');
g.add('https://example.com/b');
console.log(f.has('https://example.com/a'), g.has('https://example.com/a'));
f.dispose();
g.dispose();
`;

/** Every name of the lean set, and the answers printed as JSON. */
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
    has: urls.map((u) => f.has(u)), hasMany: Array.from(f.hasMany(urls)), bitsSet: f.bitsSet(), addedCount: f.size,
  };
  f.dispose();
  try { f.has('x'); out[name].afterDispose = 'no error'; } catch (e) { out[name].afterDispose = e.name; }
}
const a = new BloomFilter(8192, 4);
const b = BloomFilter.forCapacity(200, 0.001);
a.add('shared'); b.add('shared'); b.add('only-b');
out.probeAll = [Array.from(probeAll([a, b], 'shared')), Array.from(probeAll([a, b], 'only-b')), Array.from(probeAll([a, b], 'none'))];
${MANY_FILTERS}
out.probeMany = Array.from({ length: 300 }, (_, i) => Array.from(probeAll(many, 'item/' + i)).join(''));
${LONG_ITEMS}
out.long = longAnswers();
const errors = [];
for (const bad of [() => new BloomFilter(0, 3), () => new BloomFilter(64, 0), () => BloomFilter.forCapacity(-1, 0.01), () => a.add(42), () => a.hasMany(5),
  () => new BloomFilter(9973, 5, { scheme: 'poly' }), () => BloomFilter.forCapacity(100, 0.01, { scheme: 'bytesum' }), () => new BloomFilter(64, 2, { shared: true })]) {
  try { bad(); errors.push('no error'); } catch (e) { errors.push(e.name + ': ' + e.message); }
}
out.errors = errors;
console.log(JSON.stringify(out));
`;

let dir: string;
let answers: Record<string, any>;

/** Bundles `source` as the user's entry.js under dir/name; output file name -> its bytes. */
function bundle(name: string, source: string): Map<string, Buffer> {
  const at = join(dir, name);
  mkdirSync(at);
  writeFileSync(join(at, 'entry.js'), source);
  execFileSync(esbuild, ['entry.js', '--bundle', '--minify', '--splitting', '--format=esm', '--platform=browser', '--outdir=out', '--log-level=warning'], { cwd: at });
  return new Map(readdirSync(join(at, 'out')).map((file) => [file, readFileSync(join(at, 'out', file))]));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bloomwasm-lean-'));
  bundle('answers', ENTRY);
  answers = JSON.parse(execFileSync(process.execPath, [join(dir, 'answers/out/entry.js')], { encoding: 'utf8' }));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The entry chunk and every chunk it imports statically, transitively. */
function staticGraph(chunks: Map<string, Buffer>): string[] {
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

/**
 * Bytes of `data` gzipped by `gzip -9 -n`, the tool the budgets are stated
 * in. zlib's level 9, which Node's gzipSync runs, writes a little more for
 * these chunks; shipped() reports both.
 */
function gzipped(data: Buffer): number {
  return execFileSync('gzip', ['-9', '-n'], { input: data }).length;
}

/** Gzipped bytes of the entry chunk, the chunks it imports statically and any .wasm beside them; and their text. */
function shipped(chunks: Map<string, Buffer>): { gz: number; zlib: number; text: string; graph: string[] } {
  const graph = staticGraph(chunks);
  // A .wasm fetched by URL would be a file of the output beside the chunks; the lean build is embedded instead.
  const counted = [...graph, ...[...chunks.keys()].filter((name) => name.endsWith('.wasm'))].map((name) => chunks.get(name)!);
  const gz = counted.reduce((sum, data) => sum + gzipped(data), 0);
  const zlib = counted.reduce((sum, data) => sum + gzipSync(data, { level: 9 }).length, 0);
  return { gz, zlib, text: graph.map((name) => chunks.get(name)!.toString('utf8')).join(''), graph };
}

describe('bloomwasm/core: the lean bundle', () => {
  it(`ships at most ${LEAN_BUDGET} bytes gzipped, wasm included, for new, forCapacity, add, has and dispose`, () => {
    const { gz, zlib, text, graph } = shipped(bundle('lean', LEAN_ENTRY));
    expect(gz).toBeLessThanOrEqual(LEAN_BUDGET);
    // None of the full build's families or save/load code came along.
    // (Export names of the other families' wasm calls, save/load's format error.)
    const came = ['countingBatch', 'cuckooBatch', 'fuseHasBatch', 'bitmapSetMany', 'checksumBits', 'BloomFormatError', 'toBytes', 'regionView']
      .filter((name) => text.includes(name));
    expect(came).toEqual([]);
    console.log(`lean bundle: ${gz} bytes by gzip -9, ${zlib} by zlib's level 9 (${graph.join(', ')})`);
  });

  it(`ships at most ${WIDE_BUDGET} bytes gzipped with the batches, probeAll and the counts too`, () => {
    const { gz, zlib, graph } = shipped(bundle('wide', ENTRY));
    expect(gz).toBeLessThanOrEqual(WIDE_BUDGET);
    console.log(`lean bundle with batches, probeAll and counts: ${gz} bytes by gzip -9, ${zlib} by zlib's level 9 (${graph.join(', ')})`);
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
        expect(lean.addedCount, name).toBe(f.size);
      }
      expect(lean.afterDispose, name).toBe('BloomDisposedError');
    }
  });

  it('answers items longer than scratch (streamed into the hash) as the full class does', () => {
    const full = new Function('BloomFilter', LONG_ITEMS + 'return longAnswers();')(BloomFilter) as { has: boolean[] }[];
    expect(answers.long).toEqual(full);
    expect(full.map((f) => f.has.slice(0, 3))).toEqual([[true, true, true], [true, true, true]]);
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
    // The lean build walks the records in turn where the full one blocks and groups them: the same flags.
    const many = new Function('BloomFilter', MANY_FILTERS + 'return many;')(BloomFilter) as BloomFilter[];
    const expected = Array.from({ length: 300 }, (_, i) => Array.from(probeAll(many, 'item/' + i)).join(''));
    expect(answers.probeMany).toEqual(expected);
    expect(expected.map((row, i) => row.split('').every((flag, j) => flag === '1' || i % (j + 2) !== 0))).not.toContain(false);
    // Not every filter says yes to every item: the absent answers are there to compare too.
    expect(expected.join('')).toContain('0');
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
