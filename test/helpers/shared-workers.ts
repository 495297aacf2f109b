// Starts worker_threads workers over one shared filter (the worker is
// test/helpers/shared-worker.ts, bundled once by esbuild), lets them all
// start at the same instant, and collects what each posts back.
import { build } from 'esbuild';
import { Worker } from 'node:worker_threads';
import type { SharedJob } from './shared-worker.js';

let built: Promise<unknown> | undefined;

/** Bundles the worker (once per process) into build/test/ under the repository `root`. */
function bundle(root: URL, outfile: string): Promise<unknown> {
  built ??= build({
    entryPoints: [new URL('test/helpers/shared-worker.ts', root).pathname],
    bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'warning',
  });
  return built;
}

/**
 * Runs one worker per job; all of them start together once every one is
 * ready. Resolves to their results. `root` is the repository's root (the
 * benchmark, bundled elsewhere, passes it).
 */
export async function runWorkers<R>(jobs: Array<Omit<SharedJob, 'signals'>>, root = new URL('../../', import.meta.url)): Promise<R[]> {
  const outfile = new URL('build/test/shared-worker.mjs', root).pathname;
  await bundle(root, outfile);
  const signals = new SharedArrayBuffer(8);
  const started = jobs.map((job) => {
    const worker = new Worker(outfile, { workerData: { ...job, signals } });
    let onReady: () => void;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    const done = new Promise<R>((resolve, reject) => {
      worker.on('message', (message: { ready?: boolean } & R) => {
        if (message.ready) onReady();
        else resolve(message);
      });
      worker.once('error', reject);
      worker.once('exit', (code) => code !== 0 && reject(new Error(`worker ${job.worker} exited with ${code}`)));
    });
    return { worker, ready, done };
  });
  await Promise.all(started.map((s) => s.ready));
  const flag = new Int32Array(signals);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  const results = await Promise.all(started.map((s) => s.done));
  await Promise.all(started.map((s) => s.worker.terminate()));
  return results;
}
