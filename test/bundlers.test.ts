// What a user's production build keeps: a project that imports the package
// by name (node_modules/bloomwasm, a link to this package with its
// package.json, exports and sideEffects) is built by Vite (Rolldown,
// minified, as `vite build` does) and run in Node, and a page is built by
// Vite and by webpack in production mode and run in headless Chromium.
// A bundler drops a module its package calls free of side effects when
// nothing it exports is used: each class reaches its wasm through what it
// imports (src/wasm/module.ts the core, each family its own module), never
// through a module imported for its effect. So each page's output holds the
// wasm modules of what it imports and no other family's, as esbuild's does
// (test/class-bundles.test.ts).

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, describeBrowser, type Browser } from './helpers/chromium.js';
import { waitForValue, type TestPage } from './helpers/browsers.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const vite = join(root, 'node_modules/vite/dist/node/index.js');
const webpack = join(root, 'node_modules/webpack/lib/index.js');

/**
 * The embedded wasm modules (src/build/embed-wasm.mjs lists them in
 * build/embedded.json), each known in a bundle by its generated file's
 * FREQUENT literal: 64 hex digits that no minifier rewrites.
 */
const EMBEDDED = (JSON.parse(readFileSync(join(root, 'build/embedded.json'), 'utf8')) as { module: string; bytesOf?: string }[])
  .filter((entry) => entry.bytesOf !== undefined)
  .map(({ module }) => {
    const frequent = /_FREQUENT = '([0-9a-f]{64})'/.exec(readFileSync(join(root, 'dist/wasm', `${module}.generated.js`), 'utf8'));
    if (frequent === null) throw new Error(`dist/wasm/${module}.generated.js has no FREQUENT literal`);
    return { module, frequent: frequent[1] };
  });

/** The embedded wasm modules that the .js files under `out` hold, sorted. */
function wasmModulesIn(out: string): string[] {
  const text = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js')).map((file) => readFileSync(join(out, file), 'utf8')).join('\n');
  return EMBEDDED.filter(({ frequent }) => text.includes(frequent)).map(({ module }) => module).sort();
}

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bloomwasm-bundlers-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules/bloomwasm'), 'dir');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Builds `source` as a project's entry with Vite in production mode, runs the output in Node and returns what it printed, parsed. */
function viteRun(name: string, source: string): unknown {
  const at = project(name, source);
  const build = `const { build } = await import(${JSON.stringify(vite)});
await build({ root: process.cwd(), configFile: false, logLevel: 'silent', mode: 'production',
  build: { outDir: 'out', minify: true, rollupOptions: { input: 'entry.js', output: { entryFileNames: 'app.js', format: 'es' } } } });`;
  execFileSync(process.execPath, ['--input-type=module', '-e', build], { cwd: at, stdio: 'pipe' });
  return JSON.parse(execFileSync(process.execPath, [join(at, 'out/app.js')], { encoding: 'utf8' }));
}

describe('a Vite production build of a project that imports the package', () => {
  it('bloomwasm/core: the same BloomFilter as bloomwasm, every scheme included', () => {
    expect(viteRun('core', `
import { BloomFilter, probeAll } from 'bloomwasm/core';
const f = BloomFilter.forCapacity(1000, 0.01);
const g = new BloomFilter(20011, 7, { scheme: 'xxh64' });
const p = new BloomFilter(9973, 5, { scheme: 'poly' });
f.add('https://example.com/a');
g.add('https://example.com/b');
console.log(JSON.stringify([f.has('https://example.com/a'), f.has('https://example.com/b'), f.bits, f.hashes, Array.from(probeAll([f, g], 'https://example.com/b')), p.add('a'), p.has('a')]));
`)).toEqual([true, false, 9586, 7, [0, 1], true, true]);
  }, 120_000);

  it('bloomwasm: each class imported alone runs, with the wasm of its family alone', () => {
    expect(viteRun('bloom', `
import { BloomFilter } from 'bloomwasm';
const f = new BloomFilter(9973, 5, { scheme: 'poly' });
console.log(JSON.stringify([f.add('a'), f.add('a'), f.has('b'), f.bitsSet()]));
`)).toEqual([true, false, false, 5]);
    expect(wasmModulesIn(join(dir, 'bloom/out'))).toEqual(['bloom-bytes', 'bytes']);
    expect(viteRun('cuckoo', `
import { CuckooFilter } from 'bloomwasm';
const f = CuckooFilter.forCapacity(1000, 0.01);
f.add('a');
console.log(JSON.stringify([f.has('a'), f.has('b'), f.count('a')]));
`)).toEqual([true, false, 1]);
    expect(wasmModulesIn(join(dir, 'cuckoo/out'))).toEqual(['bytes', 'cuckoo-bytes']);
    expect(viteRun('fuse', `
import { BinaryFuseFilter } from 'bloomwasm';
const f = BinaryFuseFilter.from(['a', 'b', 'c']);
console.log(JSON.stringify([f.has('a'), f.has('c'), f.size]));
`)).toEqual([true, true, 3]);
    expect(wasmModulesIn(join(dir, 'fuse/out'))).toEqual(['bytes', 'fuse-bytes']);
    expect(viteRun('others', `
import { Bitmap, CountingBloomFilter, ScalableBloomFilter, SlidingBloomFilter } from 'bloomwasm';
const c = new CountingBloomFilter(1000, 4);
c.add('a');
const s = new ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01 });
for (let i = 0; i < 100; i++) s.add('item ' + i);
const w = new SlidingBloomFilter({ window: 100, falsePositiveRate: 0.01 });
w.add('a');
const b = new Bitmap(1000);
b.set(7);
console.log(JSON.stringify([c.has('a'), c.has('b'), s.has('item 99'), s.members.length > 1, w.has('a'), b.has(7), b.has(8)]));
`)).toEqual([true, false, true, true, true, true, false]);
  }, 240_000);
});

/** A project directory `name` with `source` as its entry and the package linked into its node_modules. */
function project(name: string, source: string): string {
  const at = join(dir, name);
  mkdirSync(at);
  symlinkSync(join(dir, 'node_modules'), join(at, 'node_modules'), 'dir');
  writeFileSync(join(at, 'entry.js'), source);
  return at;
}

/** Builds a page of `source` with Vite in production mode into `<project>/out` (an ES module script); returns the directory. */
function vitePage(name: string, source: string): string {
  const at = project(name, source);
  writeFileSync(join(at, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script type="module" src="./entry.js"></script>');
  const build = `const { build } = await import(${JSON.stringify(vite)});
await build({ root: process.cwd(), configFile: false, logLevel: 'silent', mode: 'production', build: { outDir: 'out', minify: true } });`;
  execFileSync(process.execPath, ['--input-type=module', '-e', build], { cwd: at, stdio: 'pipe' });
  return join(at, 'out');
}

/** Builds a page of `source` with webpack in production mode into `<project>/out` (a classic script); returns the directory. */
function webpackPage(name: string, source: string): string {
  const at = project(name, source);
  const build = `const webpack = require(${JSON.stringify(webpack)});
webpack({ mode: 'production', context: process.cwd(), entry: './entry.js', target: 'web',
  output: { path: require('node:path').join(process.cwd(), 'out'), filename: 'app.js' } }, (error, stats) => {
  if (error || stats.hasErrors()) { console.error(error ?? stats.toString('errors-only')); process.exit(1); }
});`;
  execFileSync(process.execPath, ['-e', build], { cwd: at, stdio: 'pipe' });
  writeFileSync(join(at, 'out/index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script src="app.js"></script>');
  return join(at, 'out');
}

// What each page does and must show: the three classes a user imports
// alone, and `bloomwasm/core` (the same entry) with its probeAll.
const PAGES = {
  bloomwasm: {
    source: `import { BloomFilter } from 'bloomwasm';
const f = BloomFilter.forCapacity(1000, 0.01);
f.add('https://example.com/a');
document.body.dataset.result = JSON.stringify([f.has('https://example.com/a'), f.has('https://example.com/b'), f.bits, f.hashes, f.size]);
f.dispose();
`,
    expected: [true, false, 9586, 7, 1],
    modules: ['bloom-bytes', 'bytes'],
  },
  'bloomwasm (CuckooFilter)': {
    source: `import { CuckooFilter } from 'bloomwasm';
const f = CuckooFilter.forCapacity(1000, 0.01);
f.add('a');
f.add('b');
const removed = f.remove('b');
document.body.dataset.result = JSON.stringify([f.has('a'), f.has('b'), removed, f.count('a')]);
f.dispose();
`,
    expected: [true, false, true, 1],
    modules: ['bytes', 'cuckoo-bytes'],
  },
  'bloomwasm (BinaryFuseFilter)': {
    source: `import { BinaryFuseFilter } from 'bloomwasm';
const f = BinaryFuseFilter.from(['a', 'b', 'c']);
document.body.dataset.result = JSON.stringify([f.has('a'), f.has('c'), f.size]);
f.dispose();
`,
    expected: [true, true, 3],
    modules: ['bytes', 'fuse-bytes'],
  },
  'bloomwasm/core': {
    source: `import { BloomFilter, probeAll } from 'bloomwasm/core';
const f = BloomFilter.forCapacity(1000, 0.01);
const g = new BloomFilter(20011, 7, { scheme: 'xxh64' });
f.add('https://example.com/a');
g.add('https://example.com/b');
document.body.dataset.result = JSON.stringify([f.has('https://example.com/a'), f.has('https://example.com/b'), f.bits, f.hashes, Array.from(probeAll([f, g], 'https://example.com/b'))]);
`,
    expected: [true, false, 9586, 7, [0, 1]],
    // probeAll walks its filters with the chain's module.
    modules: ['bloom-bytes', 'bytes', 'chain-bytes'],
  },
} as const;

describeBrowser('Vite and webpack production builds of a page that imports the package, in headless Chromium', () => {
  // One browser for every page: each page is served from a port of its own,
  // so no two share an origin, a cache or storage.
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  const builders = { Vite: vitePage, webpack: webpackPage };
  for (const [bundler, buildPage] of Object.entries(builders)) {
    for (const [entry, { source, expected, modules }] of Object.entries(PAGES)) {
      it(`${bundler}: ${entry} answers, with the wasm of what it imports alone`, async () => {
        const out = buildPage(`${bundler}-${entry.replace(/\W+/g, '-')}`, source);
        expect(wasmModulesIn(out)).toEqual(modules);
        const { startServer } = await import('../dist/cli/serve.js');
        const server = await startServer(0, out);
        const page = (await browser!.context.newPage()) as unknown as TestPage;
        try {
          const errors: string[] = [];
          page.on('pageerror', (e) => errors.push(String(e)));
          await page.goto(server.url);
          const result = await waitForValue(page, () => document.body.dataset.result);
          expect(errors).toEqual([]);
          expect(JSON.parse(result)).toEqual(expected);
        } finally {
          await page.close();
          await server.close();
        }
      }, 180_000);
    }
  }
});
