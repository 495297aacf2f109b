// Builds the browser artefacts with esbuild, after tsc and embed-wasm.mjs:
// - dist/browser/bloomwasm.js: the whole library as one minified ES module,
//   the filter's wasm embedded (no .wasm file to resolve or serve), and
//   next to it dist/browser/bloomwasm-shared-<hash>.js, the shared-memory
//   build, which bloomwasm.js imports only when loadSharedMemory() is
//   called (src/wasm/shared-build.ts). That chunk imports nothing, so
//   bloomwasm.js stays one file: serve the folder, import bloomwasm.js;
// - dist/playground/: the playground page (index.html, playground.css and
//   one bundled playground.js), which `bloom serve` serves.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

// ES2022, as tsc's output (dist/) is: the engines that run the filter's
// wasm (SIMD: Chrome 91, Firefox 89, Safari 16.4) all have it. Lowering
// class fields to ES2020 would add esbuild's __publicField helper, which
// the code splitting would put in a chunk of its own that bloomwasm.js
// imports.
const common = { bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, logLevel: 'warning' };

// The chunk's name carries a hash of its content: a stale one must not linger.
rmSync(root + 'dist/browser', { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { bloomwasm: root + 'src/index.ts' },
  outdir: root + 'dist/browser',
  splitting: true,
  chunkNames: 'bloomwasm-shared-[hash]',
  legalComments: 'none',
});
const files = readdirSync(root + 'dist/browser');
if (files.length !== 2) throw new Error(`dist/browser: expected bloomwasm.js and one chunk, got ${files.join(', ')}`);

mkdirSync(root + 'dist/playground', { recursive: true });
await build({
  ...common,
  entryPoints: [root + 'src/playground/playground.ts'],
  outfile: root + 'dist/playground/playground.js',
});
for (const file of ['index.html', 'playground.css']) {
  copyFileSync(root + 'src/playground/' + file, root + 'dist/playground/' + file);
}
