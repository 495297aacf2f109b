// Four worker processes (test/helpers/redis-add-worker.ts) add the same
// items to one Redis filter at once: each is started, waits until all are
// ready, then all are told "go" together.
import { spawn } from 'node:child_process';
import { build } from 'esbuild';

/** The indices each of 4 workers was told were new, after all added `count` items to filter `name` at `url`. */
export async function raceWorkers(url: string, name: string, count: number, kind: 'plain' | 'sliding'): Promise<number[][]> {
  const outfile = new URL('../../build/test/redis-add-worker.mjs', import.meta.url).pathname;
  await build({
    entryPoints: [new URL('./redis-add-worker.ts', import.meta.url).pathname],
    bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile, logLevel: 'warning',
  });
  const workers = [0, 1, 2, 3].map((w) => {
    const child = spawn(process.execPath, [outfile, url, name, String(w), String(count), kind], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const ready = new Promise<void>((resolve) => {
      const check = () => (out.startsWith('ready\n') ? resolve() : child.stdout.once('data', check));
      check();
    });
    const done = new Promise<number[]>((resolve, reject) =>
      child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.slice('ready\n'.length))) : reject(new Error(`worker ${w} exited ${code}: ${out}`)))),
    );
    return { child, ready, done };
  });
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.child.stdin.end('go\n');
  return Promise.all(workers.map((w) => w.done));
}
