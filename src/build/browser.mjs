// Builds the browser artefacts with esbuild, after tsc and embed-wasm.mjs:
// - dist/browser/bloomwasm.js: the whole library as one minified ES module,
//   the wasm embedded as base64 (no .wasm file to resolve or serve);
// - dist/playground/: the playground page (index.html, playground.css and
//   one bundled playground.js), which `bloom serve` serves.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

// ES2020: the library needs BigInt (the XXH64 seed) and nothing newer.
const common = { bundle: true, format: 'esm', platform: 'browser', target: 'es2020', minify: true, logLevel: 'warning' };

await build({
  ...common,
  entryPoints: [root + 'src/index.ts'],
  outfile: root + 'dist/browser/bloomwasm.js',
  legalComments: 'none',
});

mkdirSync(root + 'dist/playground', { recursive: true });
await build({
  ...common,
  entryPoints: [root + 'src/playground/playground.ts'],
  outfile: root + 'dist/playground/playground.js',
});
for (const file of ['index.html', 'playground.css']) {
  copyFileSync(root + 'src/playground/' + file, root + 'dist/playground/' + file);
}
