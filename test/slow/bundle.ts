// Child processes run plain node, which cannot import TypeScript: each child
// script is bundled from the current sources with esbuild, so the child tests
// exactly the code under test (no stale dist/).
import { buildSync } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bundles test/slow/children/<name>.ts into a temporary .mjs and returns its path. */
export function bundleChild(name: string): string {
  const outfile = join(mkdtempSync(join(tmpdir(), 'bloomwasm-child-')), `${name}.mjs`);
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
