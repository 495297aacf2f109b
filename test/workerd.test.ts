// Cloudflare Workers: `wrangler dev` (local workerd) serves a worker that
// imports the package as a user's worker does (`from 'bloomwasm'`, which the
// `workerd` export condition sends to src/workerd.ts), and runs the worked
// examples, the parity vectors and dedupe streams; its answers must equal Node's. Workers
// refuse to compile wasm from bytes at run time, so this fails when the
// condition or the .wasm module import is missing.
//
// wrangler needs Node 22.12 or later: the test runs it with the Node of
// build/runtimes/node24 (`npm run runtimes` installs it from the package
// registry; .ci/run does). In CI a missing runtime fails the test; outside
// CI it is skipped, loudly.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parityCases } from './helpers/parity-cases.js';
import { runCases, runSeeds, runStatic } from './helpers/run-cases.js';
import { runStream } from './helpers/run-stream.js';
import { RUNTIMES } from '../src/build/runtimes.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
/** The Node that runs wrangler (`npm run runtimes` installs it). */
const node24 = RUNTIMES.find((r) => r.name === 'Node 24')!;
const NODE24 = join(root, node24.dir, node24.binary);
const WRANGLER = join(root, 'node_modules/wrangler/bin/wrangler.js');

const inCI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== '0' && process.env.CI !== 'false';
const present = existsSync(NODE24) && existsSync(WRANGLER);
if (!present && !inCI) {
  console.warn(`\n*** SKIPPING the Cloudflare Workers test: ${existsSync(WRANGLER) ? NODE24 : WRANGLER} is missing (npm ci, then npm run runtimes). In CI it fails instead. ***\n`);
}
const describeWorkerd: typeof describe = present || inCI ? describe : (describe.skip as typeof describe);

/** The worker: the package as a user imports it, and the parity driver. */
const WORKER = `import * as lib from 'bloomwasm';
import { runCases, runSeeds, runStatic } from './run-cases.js';
import { runStream } from './run-stream.js';
export default {
  async fetch(request) {
    const url = new URL(request.url);
    try {
      if (url.pathname === '/seeds') return Response.json(runSeeds(lib));
      if (url.pathname === '/static') return Response.json(runStatic(lib));
      if (url.pathname === '/stream') return Response.json(await runStream(lib));
      if (url.pathname === '/cases') return Response.json(runCases(lib, await request.json()));
      if (url.pathname === '/shared') {
        let made;
        try { new lib.BloomFilter(64, 3, { shared: true }); made = 'made'; } catch (e) { made = e.name; }
        const loaded = await lib.loadSharedMemory().then(() => 'loaded', (e) => e.name + ': ' + e.message);
        return Response.json({ made, loaded });
      }
      const filters = [];
      for (let i = 0; i < 20000; i++) {
        const f = lib.BloomFilter.forCapacity(1000, 0.01);
        f.add('key-' + i);
        filters.push(f);
      }
      const found = filters.filter((f, i) => f.has('key-' + i)).length;
      const chain = new lib.ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01 });
      for (let i = 0; i < 1000; i++) chain.add('c' + i);
      return Response.json({ found, chain: chain.has('c500'), members: chain.members.length, disposed: typeof filters[0].dispose });
    } catch (error) {
      return new Response(String(error && error.stack || error), { status: 500 });
    }
  },
};
`;

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describeWorkerd('the package in Cloudflare Workers (wrangler dev, local workerd)', () => {
  let dir: string;
  let child: ChildProcess | undefined;
  let base: string;
  let log = '';

  beforeAll(async () => {
    if (!existsSync(NODE24)) throw new Error(`${NODE24} is missing: run npm run runtimes (.ci/run does)`);
    dir = mkdtempSync(join(tmpdir(), 'bloomwasm-workerd-'));
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'node_modules'));
    // The package as installed: its package.json's exports, its dist/.
    symlinkSync(root, join(dir, 'node_modules/bloomwasm'), 'dir');
    copyFileSync(join(root, 'test/helpers/run-cases.js'), join(dir, 'src/run-cases.js'));
    copyFileSync(join(root, 'test/helpers/run-stream.js'), join(dir, 'src/run-stream.js'));
    writeFileSync(join(dir, 'src/index.js'), WORKER);
    writeFileSync(join(dir, 'wrangler.toml'), 'name = "bloomwasm-parity"\nmain = "src/index.js"\ncompatibility_date = "2026-11-01"\n');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(NODE24, [WRANGLER, 'dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'info'], {
      cwd: dir,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: join(dir, 'logs'), NO_COLOR: '1', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`wrangler dev did not start in 90 s:\n${log}`)), 90_000);
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Ready on')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child!.stdout!.on('data', onData);
      child!.stderr!.on('data', onData);
      child!.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`wrangler dev exited with ${code}:\n${log}`));
      });
    });
  });

  afterAll(async () => {
    if (child?.pid !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('makes 20,000 filters and a chain in a worker, each answering for its own keys', async () => {
    const response = await fetch(`${base}/`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text)).toEqual({ found: 20_000, chain: true, members: 7, disposed: 'function' });
  });

  it('has no shared memory: a shared filter is refused before loadSharedMemory(), which Workers refuse in turn', async () => {
    const response = await fetch(`${base}/shared`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const { made, loaded } = JSON.parse(text);
    expect(made).toBe('BloomNotLoadedError');
    // The platform refuses to compile the threads build from bytes at run time.
    expect(loaded).toMatch(/^CompileError: .*disallowed by embedder/);
  });

  it('runs the worked examples of the source documents, equal to Node', async () => {
    const response = await fetch(`${base}/seeds`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const wasm = await import('../dist/index.js');
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(runSeeds(wasm))));
  });

  it('answers as Node for the cuckoo and binary fuse filters (kicks, growth, removes, files, reference bytes)', async () => {
    const response = await fetch(`${base}/static`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const wasm = await import('../dist/index.js');
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(runStatic(wasm))));
  });

  it("dedupes a stream through every kind of filter, with backpressure, on the Worker's own streams, and builds BloomFilter.from, as Node does", async () => {
    const response = await fetch(`${base}/stream`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const wasm = await import('../dist/index.js');
    const inNode = await runStream(wasm);
    expect(inNode.backpressure.stalled).toEqual({ accepted: 32, added: 16, acceptedAt3: 6 });
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(inNode)));
  });

  it('sets the same bits as Node on thousands of fast-check vectors', async () => {
    const cases = parityCases();
    const response = await fetch(`${base}/cases`, { method: 'POST', body: JSON.stringify(cases) });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const wasm = await import('../dist/index.js');
    const inNode = JSON.parse(JSON.stringify(runCases(wasm, cases))) as unknown[];
    const inWorker = JSON.parse(text) as unknown[];
    expect(inWorker.length).toBe(cases.length);
    for (let i = 0; i < cases.length; i++) expect({ case: i, ...(inWorker[i] as object) }).toEqual({ case: i, ...(inNode[i] as object) });
  });
});
