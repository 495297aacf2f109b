// Runs the npm scripts named on the command line side by side, as many at
// once as the machine has cores, starting them in the order given (the
// longest first, where the caller knows it). The steps it runs (asc, tsc)
// are each one thread, and the build and the type check are made of
// several that do not depend on one another: run one after another they
// leave a core idle on a machine of two, as CI's is. Each script's output
// is printed whole when it ends, so that two never interleave. When one
// fails, no other is started, and the command exits 1 once those running
// have ended.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const names = process.argv.slice(2);
// Under npm, npm_execpath is npm's own script; elsewhere, npm on the PATH.
const npm = process.env.npm_execpath || undefined;

/** Runs `npm run name`; resolves to whether it succeeded, its output printed. */
function run(name) {
  return new Promise((resolve) => {
    const child = npm === undefined
      ? spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', name], { shell: process.platform === 'win32' })
      : spawn(process.execPath, [npm, 'run', name]);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      process.stdout.write(Buffer.concat(output));
      if (code !== 0) console.error(`${name}: ${signal ?? `exit code ${code}`}`);
      resolve(code === 0);
    });
  });
}

let next = 0;
let failed = false;
/** Takes the next script while none has failed. */
async function lane() {
  while (!failed && next < names.length) {
    if (!(await run(names[next++]))) failed = true;
  }
}
await Promise.all(Array.from({ length: Math.min(availableParallelism(), names.length) }, lane));
if (failed) process.exitCode = 1;
