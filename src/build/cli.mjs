// Builds dist/cli/bloom.cjs, the `bloom` command as one CommonJS file, from
// tsc's dist/cli/main.js. Why one file: Node's ES module loader and the
// ~35 modules of a `bloom dedupe` run cost start-up time and resident
// memory for the whole run. Measured on `bloom dedupe` of 1,000 lines, the
// bundle runs in 70-90 ms against 110-120 and peaks at 51.6-52.7 MB of RSS
// against 54.6; on 10^7 URLs, 74.8-75.1 MB against 75.8-76.4 (73.6 against
// 74.7-74.9 with --capacity), which is what keeps the run within 1/15 of
// awk's memory with a margin. Modules that the
// commands import only when used stay so (esbuild runs a bundled module's
// body at its import() call). The library itself stays ES modules.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const outfile = root + 'dist/cli/bloom.cjs';

await build({
  entryPoints: [root + 'dist/cli/main.js'],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  // Nothing from node_modules: the command has no dependencies (node: built-ins are external anyway).
  packages: 'external',
  // import.meta.url (the playground's directory, package.json) is the bundle's own URL, in dist/cli/ as main.js is.
  define: { 'import.meta.url': '__bundleUrl' },
  // "use strict" first, as ES modules are: esbuild's own comes after the banner, where it is no directive.
  banner: { js: "'use strict';\nconst __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
