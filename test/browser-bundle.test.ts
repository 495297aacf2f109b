// The package as a browser sees it: the core import graph bundles for
// platform=browser with nothing from Node, the browser build stays within
// its size budgets with the shared-memory build in a chunk loaded on first
// use, a bundler splits it the same way, and package.json describes the
// entry points correctly.

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

/** Bytes of `text` gzipped at level 9, as a server would send it. */
const gzipped = (text: string | Uint8Array): number => gzipSync(text, { level: 9 }).length;

describe('dist/browser/: bloomwasm.js and the shared-memory chunk', () => {
  const dir = root + 'dist/browser/';
  const files = readdirSync(dir);
  const chunkName = files.find((f) => /^bloomwasm-shared-\w+\.js$/.test(f));
  const text = readFileSync(dir + 'bloomwasm.js', 'utf8');
  const chunk = chunkName === undefined ? '' : readFileSync(dir + chunkName, 'utf8');

  it('is bloomwasm.js and one chunk, which it imports only in loadSharedMemory()', () => {
    expect(files.sort()).toEqual(['bloomwasm.js', chunkName].sort());
    // One import in all, a dynamic one of the chunk: no static import, no other file.
    expect(text.match(/\bimport\s*[("'{*]/g)).toEqual(['import(']);
    expect(text).toContain(`import("./${chunkName}")`);
    // The chunk imports nothing, so nothing of the core moved into a third file.
    expect(chunk).not.toMatch(/\bimport\s*[("'{*]|\bimport\.meta\b/);
  });

  // The core is what an import of bloomwasm.js loads: every kind of filter,
  // the formats, and the JS glue of shared memory; the shared-memory chunk
  // comes on loadSharedMemory(). The budgets (KB = 1024 bytes, gzipped) keep
  // the core at what it ships: a change that adds to it pays for itself, or
  // raises them and says why in its commit message. What makes the core
  // smaller is a module per family, which a bundler can leave out
  // (test/cuckoo-bundle.test.ts and test/binary-fuse-bundle.test.ts check
  // that for one class); the sizes are in docs/RUNTIMES.md.
  it('is within its budgets: the core, and the core with the shared-memory chunk', () => {
    const core = gzipped(text);
    expect(core).toBeLessThanOrEqual(55 * 1024);
    expect(core + gzipped(chunk)).toBeLessThanOrEqual(61 * 1024);
    // The embedded wasm is a large part; an empty or truncated build would be far smaller.
    expect(core).toBeGreaterThan(8 * 1024);
    expect(gzipped(chunk)).toBeGreaterThan(3 * 1024);
  });

  it('is minified ES modules with the wasm embedded, and nothing from Node', () => {
    for (const code of [text, chunk]) {
      expect(code).not.toMatch(/\bimport\.meta\b|\.wasm\b/);
      expect(code).toMatch(/export\s*\{/);
      expect(code.split('\n').length).toBeLessThan(10);
      for (const pattern of NODE_ONLY) expect(code).not.toMatch(pattern);
    }
  });

  it('carries a wasm module far below Chromium main-thread synchronous-compile limit (8 MiB)', () => {
    // Chromium refuses `new WebAssembly.Module` on the main thread above 8 MiB
    // (older builds: 4 KiB); construction here is synchronous, so the module
    // must stay small. The browser tests prove it compiles on Chromium's main thread.
    const wasm = readFileSync(root + 'build/bloom.wasm');
    expect(wasm.length).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('a bundler building an application on the package', () => {
  it('splits the shared-memory build into a chunk of its own and leaves the line splitter out', async () => {
    const result = await build({
      stdin: { contents: "export { BloomFilter, loadSharedMemory } from './src/index.ts';", resolveDir: root, loader: 'ts' },
      bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', minify: true,
      splitting: true, outdir: '/out', metafile: true, logLevel: 'silent',
    });
    const outputs = Object.entries(result.metafile.outputs);
    expect(outputs.length).toBe(2);
    const [main, lazy] = outputs[0][1].entryPoint === '<stdin>' ? outputs : [outputs[1], outputs[0]];
    expect(Object.keys(main[1].inputs)).not.toContain('src/wasm/shared-bytes.generated.ts');
    expect(Object.keys(lazy[1].inputs)).toEqual(['src/wasm/shared-bytes.generated.ts']);
    for (const [, output] of outputs) {
      for (const input of Object.keys(output.inputs)) expect(input).not.toMatch(/lines-bytes|lines/);
    }
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
    // Cloudflare Workers get an entry that imports the .wasm as a module
    // (src/workerd.ts); Node one that loads the shared-memory build eagerly (src/index.node.ts).
    expect(pkg.exports['.']).toEqual({
      types: './dist/index.d.ts', workerd: './dist/workerd.js', node: './dist/index.node.js', import: './dist/index.js', default: './dist/index.js',
    });
    expect(pkg.exports['./browser'].import).toBe('./dist/browser/bloomwasm.js');
  });

  it('is side-effect free but for the workerd and Node entries, and whitelists its files', () => {
    // The two platform entries, which only their export conditions reach:
    // the workerd entry hands the platform-compiled modules over when it is
    // evaluated, and the Node entry the shared-memory build and Buffer's
    // UTF-8 writer. A bundler must not drop that for their re-exports.
    // Every other module is reached for what it exports.
    expect(pkg.sideEffects).toEqual(['./dist/workerd.js', './dist/index.node.js']);
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'README.md']));
    expect(pkg.type).toBe('module');
  });
});
