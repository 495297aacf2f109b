// The package as a browser sees it: the core import graph bundles for
// platform=browser with nothing from Node, the single-file build stays within
// its size budget, and package.json describes the entry points correctly.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const pkg = JSON.parse(readFileSync(root + 'package.json', 'utf8'));

/** Bundles one entry for the browser in memory; esbuild fails on any node: import or Node builtin. */
async function bundleForBrowser(entry: string): Promise<{ text: string; metafile: Metafile }> {
  const result = await build({
    entryPoints: [root + entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    metafile: true,
    // Keep every module's whole code: an unused Buffer is still a Buffer.
    treeShaking: false,
    logLevel: 'silent',
  });
  expect(result.errors).toEqual([]);
  return { text: result.outputFiles[0].text, metafile: result.metafile };
}

// Identifiers that exist only in Node; none may appear in browser code.
const NODE_ONLY = [/\bBuffer\b/, /\bprocess\./, /\brequire\(/, /["']node:/, /\b__dirname\b/, /\b__filename\b/];

describe('the core import graph is browser-safe', () => {
  for (const entry of ['src/index.ts', 'src/reference/index.ts']) {
    it(`${entry} bundles for platform=browser with no Node-only module or global`, async () => {
      const { text, metafile } = await bundleForBrowser(entry);
      const inputs = Object.keys(metafile.inputs);
      expect(inputs.length).toBeGreaterThan(3);
      for (const input of inputs) {
        expect(input).not.toMatch(/^node:|src\/(node|cli|redis)\//);
        for (const imp of metafile.inputs[input].imports) expect(imp.path).not.toMatch(/^node:/);
      }
      for (const pattern of NODE_ONLY) expect(text).not.toMatch(pattern);
    });
  }
});

describe('the type declarations', () => {
  it('hold no base64: the embedded wasm is typed string, not a literal type', () => {
    const declarations = readdirSync(root + 'dist', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(20);
    for (const file of declarations) expect(readFileSync(root + 'dist/' + file, 'utf8'), file).not.toMatch(/[A-Za-z0-9+/]{200}/);
  });
});

describe('dist/browser/bloomwasm.js', () => {
  const text = readFileSync(root + 'dist/browser/bloomwasm.js', 'utf8');

  // Two wasm builds are embedded: the filter (about 12 KB of gzipped base64)
  // and its shared-memory build for worker threads (about 8 KB). The heap
  // that lets filters share an instance (assembly/heap.ts, src/wasm/arena.ts)
  // with dispose() (3.5 KB), and the small-n sizing (src/filter/exact-rate.ts
  // and its search, 1.3 KB) took it from 35.9 KB to about 41, and the rest
  // of the filters to 42.0. The sliding window (assembly/sliding.ts, the
  // generations, the BLMS format and its checks, src/sliding/ and
  // src/format/sliding.ts: 3.8 KB) took it to 45.8.
  it('is at most 46 KB gzipped', () => {
    const gzipped = gzipSync(text, { level: 9 }).length;
    expect(gzipped).toBeLessThanOrEqual(46 * 1024);
    // The embedded wasm is most of it; an empty or truncated build would be far smaller.
    expect(gzipped).toBeGreaterThan(3 * 1024);
  });

  it('is one self-contained minified ES module with the wasm embedded', () => {
    expect(text).not.toMatch(/\bimport\s*[("'{*]|\bimport\.meta\b|\.wasm\b/);
    expect(text).toMatch(/export\s*\{/);
    expect(text.split('\n').length).toBeLessThan(10);
    for (const pattern of NODE_ONLY) expect(text).not.toMatch(pattern);
  });

  it('carries a wasm module far below Chromium main-thread synchronous-compile limit (8 MiB)', () => {
    // Chromium refuses `new WebAssembly.Module` on the main thread above 8 MiB
    // (older builds: 4 KiB); construction here is synchronous, so the module
    // must stay small. The browser tests prove it compiles on Chromium's main thread.
    const wasm = readFileSync(root + 'build/bloom.wasm');
    expect(wasm.length).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('package.json', () => {
  it('has an exports map with types first and an import condition for every code entry', () => {
    for (const [subpath, target] of Object.entries<Record<string, string> | string>(pkg.exports)) {
      if (subpath === './package.json') continue;
      expect(typeof target).toBe('object');
      const conditions = Object.keys(target);
      expect(conditions[0]).toBe('types');
      expect(conditions).toContain('import');
      // ESM only: no require condition (the README says why); `default` lets
      // require(esm) in Node 20.19+ and 22.12+ load the same module.
      expect(conditions).not.toContain('require');
    }
    // Cloudflare Workers get an entry that imports the .wasm as a module (src/workerd.ts).
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', workerd: './dist/workerd.js', import: './dist/index.js', default: './dist/index.js' });
    expect(pkg.exports['./browser'].import).toBe('./dist/browser/bloomwasm.js');
  });

  it('is side-effect free but for the workerd entry, and whitelists its files', () => {
    // The workerd entry hands the platform-compiled module over when it is
    // evaluated: a bundler must not drop that for its re-exports.
    expect(pkg.sideEffects).toEqual(['./dist/workerd.js']);
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'README.md']));
    expect(pkg.type).toBe('module');
  });
});
