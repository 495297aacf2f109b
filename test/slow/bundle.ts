// Child processes run plain node, which cannot import TypeScript: each child
// script is bundled from the current sources with esbuild, so the child tests
// exactly the code under test (no stale dist/).
import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bundles test/slow/children/<name>.ts into `<dir>/<name>.mjs` (the caller's temporary directory) and returns its path. */
export function bundleChild(name: string, dir: string): string {
  const outfile = join(dir, `${name}.mjs`);
  buildSync({
    entryPoints: [fileURLToPath(new URL(`./children/${name}.ts`, import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}
