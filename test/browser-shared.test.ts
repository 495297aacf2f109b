// A filter shared between a page and a Web Worker in a real Chromium and
// Firefox, with the shared-memory build loaded lazily (loadSharedMemory(),
// its chunk next to dist/browser/bloomwasm.js) on both sides. The
// page is served by `bloom serve`'s server, whose COOP/COEP headers make it
// cross-origin isolated: only then does the browser allow shared memory.
// The worker adds, the page sees the items; the page adds, the worker sees
// them; both use the browser build (dist/browser/bloomwasm.js).
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BROWSERS, waitForValue, type TestBrowser } from './helpers/browsers.js';

const root = fileURLToPath(new URL('../', import.meta.url));

// The page first checks that the shared-memory build is not loaded with
// the library (a shared filter is refused, naming loadSharedMemory(), and
// no chunk has been fetched), loads it, makes a shared filter, hands it to a
// module worker (which loads the build itself), and reports what each side
// saw. `window.result` is set once both sides are done.
const PAGE = `<!doctype html>
<meta charset="utf-8"><title>bloomwasm shared</title><link rel="icon" href="data:,">
<script type="module">
import { BloomFilter, loadSharedMemory } from './bloomwasm.js';
const chunks = () => performance.getEntriesByType('resource').filter((e) => /bloomwasm-shared-\\w+\\.js$/.test(e.name)).length;
let beforeLoad = 'made';
try {
  new BloomFilter(64, 3, { shared: true });
} catch (e) {
  beforeLoad = e.name + ': ' + e.message;
}
const chunksBefore = chunks();
await loadSharedMemory();
const chunksAfter = chunks();
const scheme = new URLSearchParams(location.search).get('scheme');
const [bits, hashes] = scheme === 'sbbf' ? [1 << 20, 8] : [1 << 20, 7];
const filter = new BloomFilter(bits, hashes, { scheme, shared: true });
const pageItems = Array.from({ length: 2000 }, (_, i) => 'page ' + i);
filter.addMany(pageItems);
const worker = new Worker('./worker.js', { type: 'module' });
worker.onerror = (e) => { window.result = { error: String(e.message) }; };
worker.onmessage = ({ data }) => {
  const workerItems = Array.from({ length: 5000 }, (_, i) => 'worker ' + i + (i % 3 ? '' : ' é'));
  const seen = filter.hasMany(workerItems).reduce((a, b) => a + b, 0);
  window.result = {
    beforeLoad,
    chunksBefore,
    chunksAfter,
    isolated: self.crossOriginIsolated,
    workerIsolated: data.isolated,
    workerSawPage: data.sawPage,
    workerAdded: data.added,
    pageSawWorker: seen,
    absent: filter.has('never added'),
    bitsSet: filter.bitsSet(),
    addedCount: filter.size,
  };
};
worker.postMessage(filter.share());
</script>`;

const WORKER = `import { BloomFilter, loadSharedMemory } from './bloomwasm.js';
self.onmessage = async ({ data: handle }) => {
  // A worker has a module graph of its own: it loads the build too.
  await loadSharedMemory();
  const filter = BloomFilter.attach(handle);
  const pageItems = Array.from({ length: 2000 }, (_, i) => 'page ' + i);
  const sawPage = filter.hasMany(pageItems).reduce((a, b) => a + b, 0);
  let added = 0;
  for (let i = 0; i < 5000; i++) {
    const item = 'worker ' + i + (i % 3 ? '' : ' é');
    if (i % 2 ? filter.add(item) : filter.addMany([item])[0]) added++;
  }
  self.postMessage({ isolated: self.crossOriginIsolated, sawPage, added });
};
`;

for (const { name, launch, describe } of BROWSERS) describe(`a filter shared between a page and a Web Worker (${name}, bloom serve)`, () => {
  let dir: string;
  let server: { url: string; close(): Promise<void> };
  let browser: TestBrowser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bloomwasm-shared-'));
    // bloomwasm.js and the chunk it imports on loadSharedMemory().
    for (const file of readdirSync(join(root, 'dist/browser'))) copyFileSync(join(root, 'dist/browser', file), join(dir, file));
    writeFileSync(join(dir, 'index.html'), PAGE);
    writeFileSync(join(dir, 'worker.js'), WORKER);
    const { startServer } = await import('../dist/cli/serve.js');
    server = await startServer(0, dir);
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['xxh64', 'sbbf'])('is cross-origin isolated, and each side sees the other\'s items (%s)', async (scheme) => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const response = await page.goto(`${server.url}?scheme=${scheme}`);
    expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
    expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
    const result = await waitForValue(page, () => (window as unknown as { result?: Record<string, unknown> }).result);
    expect(errors).toEqual([]);
    expect(result).toMatchObject({
      chunksBefore: 0,
      chunksAfter: 1,
      isolated: true,
      workerIsolated: true,
      workerSawPage: 2000,
      workerAdded: 5000,
      pageSawWorker: 5000,
      absent: false,
      addedCount: 7000,
    });
    expect(result.beforeLoad).toMatch(/^BloomNotLoadedError: new BloomFilter\(bits, hashes, \{ shared: true \}\) needs the shared-memory build.*`await loadSharedMemory\(\)`/);
    await page.close();
  });
});
