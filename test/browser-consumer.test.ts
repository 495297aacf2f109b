// The package as a user installs it: `npm pack`, install the tarball into a
// fresh project (offline: it has no dependencies), then use it from Node
// (import, require, tsc --noEmit, the bin) and from a browser bundle built
// by esbuild and run in Chromium.

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BROWSERS, waitForValue } from './helpers/browsers.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let project: string;
let tarball: string;

function sh(cmd: string, args: string[], cwd = project): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'bloomwasm-consumer-'));
  const packs = join(project, 'packs');
  mkdirSync(packs);
  // --ignore-scripts: `npm test` has just built dist/; prepare would rebuild it.
  sh(npm, ['pack', '--ignore-scripts', '--pack-destination', packs], root);
  tarball = join(packs, readdirSync(packs).find((f) => f.endsWith('.tgz'))!);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  sh(npm, ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts']);
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

// The same few operations everywhere; the SeenFilter and SSTable exercises' numbers.
const OPS = `
const f = new BloomFilter(100, 3, { scheme: 'bytesum' });
f.add('apple');
const seen = new SeenFilter(16, 3);
for (const url of ['cats.io', 'dogs.io', 'owls.io']) seen.add(url);
const big = BloomFilter.forCapacity(1000, 0.01);
const result = [f.positions('apple'), f.has('apple'), f.has('banana'), seen.bitsSet(), seen.mightContain('bats.io'), big.bits, big.hashes, big.add('x'), big.has('x')];
`;
const EXPECTED = [[30, 24, 18], true, false, 9, true, 9586, 7, true, true];

// A crawl frontier through dedupeStream over a filter from BloomFilter.from (ES module top-level await).
const STREAM_OPS = `
const known = BloomFilter.from(new Set(['https://c/']), 0.01);
const frontier = new ReadableStream({ start(c) { for (const u of ['https://a/', 'https://b/', 'https://a/', 'https://c/', 'https://d/']) c.enqueue(u); c.close(); } });
const fresh = [];
const reader = frontier.pipeThrough(dedupeStream(known)).getReader();
for (let r = await reader.read(); !r.done; r = await reader.read()) fresh.push(r.value);
`;
const EXPECTED_FRESH = ['https://a/', 'https://b/', 'https://d/'];

describe('the packed package in a fresh project', () => {
  it('ships dist (library, browser build, playground) and nothing from src or test', () => {
    const files = sh('tar', ['-tzf', tarball]).split('\n').filter(Boolean);
    for (const f of ['package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/reference/index.js', 'package/dist/browser/bloomwasm.js', 'package/dist/playground/index.html', 'package/dist/playground/playground.js', 'package/README.md']) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => /^package\/(src|test|assembly|bench|build)\//.test(f))).toEqual([]);
  });

  it('imports in Node and runs a few operations', () => {
    writeFileSync(join(project, 'use.mjs'), `import { BloomFilter, SeenFilter, dedupeStream } from 'bloomwasm';\nimport * as reference from 'bloomwasm/reference';\n${OPS}${STREAM_OPS}\nconst r = new reference.BloomFilter(100, 3, { scheme: 'bytesum' }).positions('apple');\nconsole.log(JSON.stringify({ result, r, fresh }));\n`);
    expect(JSON.parse(sh('node', ['use.mjs']))).toEqual({ result: EXPECTED, r: [30, 24, 18], fresh: EXPECTED_FRESH });
  });

  it('requires in Node where require(esm) exists (there is no CommonJS build)', () => {
    writeFileSync(join(project, 'use.cjs'), `const { BloomFilter, SeenFilter } = require('bloomwasm');\n${OPS}\nconsole.log(JSON.stringify(result));\n`);
    // require(esm) is on by default from Node 20.19 and 22.12; older Node has
    // to import(). The `default` export condition is what require resolves.
    const supported = (process.features as { require_module?: boolean }).require_module === true;
    if (supported) expect(JSON.parse(sh('node', ['--no-warnings', 'use.cjs']))).toEqual(EXPECTED);
    else expect(() => sh('node', ['use.cjs'])).toThrow(/ERR_REQUIRE_ESM/);
  });

  it('type-checks a consumer file with tsc --noEmit', () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: false }, files: ['consumer.ts'] }),
    );
    writeFileSync(
      join(project, 'consumer.ts'),
      `import { BloomFilter, BloomRangeError, dedupeStream, falsePositiveRate, type Scheme } from 'bloomwasm';
import { BloomFilter as ReferenceFilter } from 'bloomwasm/reference';
import { BloomFilter as BrowserFilter } from 'bloomwasm/browser';
const scheme: Scheme = 'poly';
const f: BloomFilter = new BloomFilter(1000, 7, { scheme, seed: 0 });
const isNew: boolean = f.add('a');
const where: number[] = f.positions(new Uint8Array([1, 2]));
const rate: number = falsePositiveRate(f.bits, 10, f.hashes);
const twin = new ReferenceFilter(1000, 7);
const b: BrowserFilter = BrowserFilter.forCapacity(10, 0.1);
// @ts-expect-error items are strings or Uint8Arrays
f.add(42);
// @ts-expect-error not a scheme
new BloomFilter(10, 1, { scheme: 'md5' });
const fromSet: BloomFilter = BloomFilter.from(new Set(['a', new Uint8Array([1])]), 0.01);
const urls: TransformStream<string, string> = dedupeStream<string>(fromSet);
// @ts-expect-error a Set's add does not say whether the item was new
dedupeStream(new Set<string>());
export const used = [isNew, where, rate, twin.bitsSet(), b.hashes, BloomRangeError, urls];
`,
    );
    // The repository's TypeScript, run in the consumer project against the installed package.
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    expect(sh('node', [tsc, '--noEmit', '-p', 'tsconfig.json'])).toBe('');
  });

  it('runs `npx bloom --help`', () => {
    expect(sh('npx', ['--no-install', 'bloom', '--help'])).toMatch(/Usage: bloom/);
  });

  it('serves the installed playground with `bloom serve`', async () => {
    const child = spawn(join(project, 'node_modules/.bin/bloom'), ['serve', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await vi.waitFor(() => expect(out).toMatch(/http:\/\/127\.0\.0\.1:\d+\//), { timeout: 30_000 });
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)![0];
      expect(await (await fetch(url)).text()).toContain('<title>bloomwasm playground</title>');
      expect((await fetch(url + 'playground.js')).status).toBe(200);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});

for (const { name, launch, describe } of BROWSERS) describe(`the packed package bundled for the browser (${name})`, () => {
  it(`bundles a one-line consumer with esbuild and runs it in ${name}`, async () => {
    const web = join(project, `web-${name}`);
    mkdirSync(web);
    writeFileSync(
      join(project, 'entry.js'),
      `import { BloomFilter, SeenFilter, dedupeStream } from 'bloomwasm';\n${OPS}${STREAM_OPS}\ndocument.body.dataset.result = JSON.stringify([...result, fresh]);\n`,
    );
    const out = await build({
      absWorkingDir: project,
      entryPoints: ['entry.js'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      minify: true,
      outfile: join(web, 'app.js'),
      metafile: true,
      logLevel: 'silent',
    });
    expect(out.errors).toEqual([]);
    // Resolved through the exports map to the package's ESM entry.
    expect(Object.keys(out.metafile.inputs)).toContain('node_modules/bloomwasm/dist/index.js');
    writeFileSync(join(web, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script type="module" src="app.js"></script>');

    const { startServer } = await import('../dist/cli/serve.js');
    const server = await startServer(0, web);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(server.url);
      const result = await waitForValue(page, () => document.body.dataset.result);
      expect(JSON.parse(result)).toEqual([...EXPECTED, EXPECTED_FRESH]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
