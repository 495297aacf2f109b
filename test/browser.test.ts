// The browser bundle in real browsers (Chromium and Firefox): the worked examples, a few thousand
// fast-check parity vectors, and dedupe streams over the browser's own
// TransformStream run in the page and must equal Node's results (the wasm
// build and the reference twin) bit for bit; construction is synchronous on
// the main thread.

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BROWSERS, type TestBrowser, type TestPage } from './helpers/browsers.js';
import { runCases, runSeeds, runStatic } from './helpers/run-cases.js';
import { runStream } from './helpers/run-stream.js';
import { parityCases } from './helpers/parity-cases.js';

const root = fileURLToPath(new URL('../', import.meta.url));

// The page: a module script that imports the browser build and, with no
// await, builds a filter at the top level, so the wasm compiles
// synchronously on the main thread.
const PAGE = `<!doctype html>
<meta charset="utf-8"><title>bloomwasm parity</title><link rel="icon" href="data:,">
<script type="module">
import * as lib from './bloomwasm.js';
import { runCases, runSeeds, runStatic } from './run-cases.js';
import { runStream } from './run-stream.js';
const f = new lib.BloomFilter(1000, 7);
f.add('main thread');
window.sync = { has: f.has('main thread'), absent: f.has('never'), bitsSet: f.bitsSet(), worker: typeof WorkerGlobalScope !== 'undefined' };
window.runCases = (cases) => runCases(lib, cases);
// Many live filters: one per key space, as a page that keeps one per user would.
window.manyFilters = (count) => {
  const filters = [];
  for (let i = 0; i < count; i++) {
    const g = lib.BloomFilter.forCapacity(1000, 0.01);
    g.add('user-' + i);
    filters.push(g);
  }
  let found = 0;
  let crossTalk = 0;
  for (let i = 0; i < count; i++) {
    if (filters[i].has('user-' + i)) found++;
    if (filters[i].bitsSet() !== filters[i].hashes) crossTalk++;
  }
  const disposedHas = (() => { filters[0].dispose(); try { filters[0].has('user-0'); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } })();
  for (const g of filters.slice(1)) g.dispose();
  return { found, crossTalk, disposedHas, bits: filters[1].bits };
};
window.runSeeds = () => runSeeds(lib);
window.runStatic = () => runStatic(lib);
window.runStream = () => runStream(lib);
document.documentElement.dataset.ready = 'true';
</script>`;

for (const { name, launch, describe } of BROWSERS) describe(`the browser bundle in ${name}`, () => {
  let browser: TestBrowser;
  let page: TestPage;
  let server: { url: string; close(): Promise<void> };
  let dir: string;
  const errors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bloomwasm-page-'));
    copyFileSync(root + 'dist/browser/bloomwasm.js', join(dir, 'bloomwasm.js'));
    copyFileSync(root + 'test/helpers/run-cases.js', join(dir, 'run-cases.js'));
    copyFileSync(root + 'test/helpers/run-stream.js', join(dir, 'run-stream.js'));
    writeFileSync(join(dir, 'index.html'), PAGE);
    const { startServer } = await import('../dist/cli/serve.js');
    server = await startServer(0, dir);
    browser = await launch();
    page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(server.url);
    await page.waitForSelector('html[data-ready]');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('constructs a filter synchronously on the main thread', async () => {
    const sync = await page.evaluate(() => (window as unknown as { sync: unknown }).sync, undefined);
    expect(sync).toEqual({ has: true, absent: false, bitsSet: 7, worker: false });
    expect(errors).toEqual([]);
  });

  it('runs the worked examples of the source documents with their published numbers, equal to Node', async () => {
    const inPage = await page.evaluate(() => (window as unknown as { runSeeds(): unknown }).runSeeds(), undefined);
    const wasm = await import('../dist/index.js');
    const reference = await import('../dist/reference/index.js');
    expect(inPage).toEqual(runSeeds(wasm));
    expect(inPage).toEqual(runSeeds(reference));
    const seeds = inPage as ReturnType<typeof runSeeds>;
    expect(seeds.seenFilter).toEqual([null, null, null, 9, true, false, true]);
    expect(seeds.seenFilterPositions).toEqual([[1, 2, 3], [9, 8, 7], [11, 5, 15], [2, 15, 12], [7, 1, 11]]);
    expect(seeds.sstable.apple).toEqual([30, 24, 18]);
    expect(seeds.sstable.banana).toEqual([9, 51, 93]);
    expect(seeds.sstable.emptyBits).toBe('0'.repeat(100));
    expect(seeds.sstable.emptyApple).toBe(false);
    expect([seeds.sstable.checkApple, seeds.sstable.checkBanana, seeds.sstable.afterReset, seeds.sstable.qux]).toEqual(['MAYBE', 'NO', 'NO', 'NO']);
    expect(seeds.sstable.bits).toBe([...'0'.repeat(100)].map((_, i) => ([18, 24, 30].includes(i) ? '1' : '0')).join(''));
    expect(seeds.stages.bf4.hits).toBeGreaterThanOrEqual(6);
    expect(seeds.stages.bf4.hits).toBeLessThanOrEqual(139);
    expect(seeds.stages.bf5.hits).toBeGreaterThanOrEqual(407);
    expect(seeds.stages.bf5.hits).toBeLessThanOrEqual(1304);
  });

  it('holds 10^5 live filters (more than the engine allows instances), each answering for its own key', async () => {
    const result = await page.evaluate((n) => (window as unknown as { manyFilters(n: number): unknown }).manyFilters(n), 100_000);
    expect(result).toEqual({
      found: 100_000,
      crossTalk: 0,
      disposedHas: 'BloomDisposedError: BloomFilter.has: this object was disposed (dispose() gave its memory back); create a new one to go on',
      bits: 9586,
    });
    expect(errors).toEqual([]);
  });

  it('answers as Node for the cuckoo and binary fuse filters (kicks, growth, removes, files, reference bytes)', async () => {
    const inPage = await page.evaluate(() => (window as unknown as { runStatic(): unknown }).runStatic(), undefined);
    const wasm = await import('../dist/index.js');
    const reference = await import('../dist/reference/index.js');
    const inNode = runStatic(wasm);
    expect(inNode).toEqual(runStatic(reference));
    expect(inPage).toEqual(inNode);
    expect(errors).toEqual([]);
  });

  it('dedupes a stream through every kind of filter, with backpressure, and builds BloomFilter.from, as Node does', async () => {
    const inPage = await page.evaluate(() => (window as unknown as { runStream(): Promise<unknown> }).runStream(), undefined);
    const wasm = await import('../dist/index.js');
    const reference = await import('../dist/reference/index.js');
    const inNode = await runStream(wasm);
    expect(inNode).toEqual(await runStream(reference));
    expect(inPage).toEqual(inNode);
    // The page's own streams held the producer at 16 + 16 while nothing was read.
    expect(inNode.backpressure.stalled).toEqual({ accepted: 32, added: 16, acceptedAt3: 6 });
    expect(inNode.dedupe.cuckoo.passed).toBe(2000);
    expect(errors).toEqual([]);
  });

  it('sets the same bits as Node (wasm and reference) on thousands of fast-check vectors', async () => {
    const cases = parityCases();
    const count = cases.reduce((n, c) => n + c.items.length + c.probes.length, 0);
    expect(count).toBeGreaterThan(4000);
    const inPage = await page.evaluate((c) => (window as unknown as { runCases(c: unknown): unknown }).runCases(c), cases);
    const wasm = await import('../dist/index.js');
    const reference = await import('../dist/reference/index.js');
    const inNode = runCases(wasm, cases);
    expect(inNode).toEqual(runCases(reference, cases));
    // Case by case, so a failure names the case rather than dumping all of them.
    const results = inPage as typeof inNode;
    expect(results.length).toBe(cases.length);
    for (let i = 0; i < cases.length; i++) {
      expect({ case: i, ...results[i] }).toEqual({ case: i, ...inNode[i] });
    }
    expect(errors).toEqual([]);
  });
});
