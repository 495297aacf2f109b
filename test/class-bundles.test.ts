// Pay for what you import: what a user who imports one class ships, bundled
// by the command a user would run,
//   esbuild --bundle --minify --splitting --format=esm --platform=browser,
// counting the entry chunk, every chunk it imports statically and any .wasm
// beside them, gzipped at level 9 as Node's zlib.gzipSync computes it; that
// each bundle carries its own family's wasm module and no other's; and that
// it runs, in Node, with the answers the unbundled package gives.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const esbuild = join(root, 'node_modules/.bin/esbuild');
const entry = JSON.stringify(join(root, 'dist/index.js'));

/**
 * Each class's user, the calls the sizes are stated for, and the budget its
 * bundle may take: a change that adds to a class's path pays for itself,
 * or raises its budget and says why in its commit message.
 */
const USERS = {
  BloomFilter: {
    budget: 26_000,
    source: `import { BloomFilter } from ${entry};
const f = BloomFilter.forCapacity(1000, 0.01);
const g = new BloomFilter(20011, 7);
f.add('https://example.com/a');
g.add('https://example.com/b');
console.log(JSON.stringify([f.has('https://example.com/a'), f.has('https://example.com/b'), g.has('https://example.com/b'), f.bits, f.hashes]));
f.dispose();
g.dispose();
`,
    answers: [true, false, true, 9586, 7],
    // The core module, and the Bloom filter's.
    modules: ['bytes', 'bloom-bytes'],
  },
  CuckooFilter: {
    budget: 18_700,
    source: `import { CuckooFilter } from ${entry};
const f = CuckooFilter.forCapacity(1000, 0.01);
f.add('a');
f.add('b');
const removed = f.remove('b');
console.log(JSON.stringify([f.has('a'), f.has('b'), removed]));
f.dispose();
`,
    answers: [true, false, true],
    modules: ['bytes', 'cuckoo-bytes'],
  },
  BinaryFuseFilter: {
    budget: 18_400,
    source: `import { BinaryFuseFilter } from ${entry};
const f = BinaryFuseFilter.from(['a', 'b', 'c']);
console.log(JSON.stringify([f.has('a'), f.has('c')]));
f.dispose();
`,
    answers: [true, true],
    modules: ['bytes', 'fuse-bytes'],
  },
} as const;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bloomwasm-classes-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles `source` as the user's entry.js under dir/name: the output files, and the embedded wasm modules each holds. */
function bundle(name: string, source: string): { chunks: Map<string, Buffer>; modulesOf: Map<string, string[]> } {
  const at = join(dir, name);
  mkdirSync(at);
  writeFileSync(join(at, 'entry.js'), source);
  execFileSync(esbuild, ['entry.js', '--bundle', '--minify', '--splitting', '--format=esm', '--platform=browser', '--outdir=out', '--metafile=meta.json', '--log-level=warning'], { cwd: at });
  // An input counts when it put bytes into an output: esbuild lists what tree shaking dropped with 0.
  const meta = JSON.parse(readFileSync(join(at, 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> };
  const modulesOf = new Map(Object.entries(meta.outputs).map(([output, { inputs }]) => [output.replace(/^out\//, ''), Object.entries(inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => /dist\/wasm\/([\w-]+)\.generated\.js$/.exec(file)?.[1])
    .filter((m): m is string => m !== undefined)]));
  return { chunks: new Map(readdirSync(join(at, 'out')).map((file) => [file, readFileSync(join(at, 'out', file))])), modulesOf };
}

/** The entry chunk and every chunk it imports statically, transitively. */
function staticGraph(chunks: Map<string, Buffer>): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    // Static imports only: `import{...}from"./chunk-X.js"` or `import"./chunk-X.js"`; not import("...").
    for (const m of chunks.get(name)!.toString('utf8').matchAll(/import\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+)["']/g)) visit(m[1]);
  };
  visit('entry.js');
  return [...seen];
}

describe('what a user of one class ships', () => {
  for (const [name, user] of Object.entries(USERS)) {
    it(`${name}: at most ${user.budget} bytes gzipped, wasm included, with its own wasm module and no other family's`, () => {
      const { chunks, modulesOf } = bundle(name, user.source);
      const counted = [...staticGraph(chunks), ...[...chunks.keys()].filter((file) => file.endsWith('.wasm'))];
      // The shared-memory build is a chunk of its own, loaded by loadSharedMemory() alone: not counted.
      const modules = counted.flatMap((file) => modulesOf.get(file) ?? []).sort();
      const gz = counted.reduce((sum, file) => sum + gzipSync(chunks.get(file)!, { level: 9 }).length, 0);
      console.log(`${name}: ${gz} bytes by zlib's level 9 (${counted.join(', ')})`);
      expect(gz).toBeLessThanOrEqual(user.budget);
      expect(modules).toEqual([...user.modules].sort());
      expect(JSON.parse(execFileSync(process.execPath, [join(dir, name, 'out/entry.js')], { encoding: 'utf8' }))).toEqual(user.answers);
    }, 60_000);
  }

  it('bloomwasm/core is the package entry under another name', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.exports['./core']).toEqual(pkg.exports['.']);
  });
});
