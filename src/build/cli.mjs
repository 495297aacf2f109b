// Builds dist/cli/bloom.cjs, the `bloom` command as one CommonJS file, from
// tsc's dist/cli/main.js. Why one file: Node's ES module loader and the
// ~35 modules of a `bloom dedupe` run cost start-up time and resident
// memory for the whole run (docs/CLI.md gives both). Modules that the
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
