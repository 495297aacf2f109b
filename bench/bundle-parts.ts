// `npm run bench:bundle`: what each part of BloomFilter costs a bundle that
// calls only new, forCapacity, add, has and dispose, the bundle
// test/class-bundles.test.ts measures (esbuild --bundle --minify,
// --format=esm --platform=browser, gzip level 9 as Node's zlib computes it).
// A class's methods stay in a bundle whether they are called or not, so the
// figures say what taking a group of methods off the class would save.
//
// Each variant is the built dist/ copied to build/bench/dist-parts with
// some of BloomFilter's methods cut out of the compiled classes
// (dist/filter/filter.js and filter-base.js), bundled from a copy of the
// user's entry. "Alone" adds one group to the bare class (every group cut);
// "last out" takes one group from the whole class. The wasm rows: the two
// modules the class carries, and the Bloom filter's module compiled for the
// xxh64 family alone (assembly/bloom.ts with XXH64_FAMILY for EVERY_SCHEME),
// which is what leaving poly and bytesum to another class would ship.
//
// The steps below the bare class: what it would weigh with parts of the
// engine it still reaches left out as well, one after another, each a
// change to the public surface (the poly and bytesum schemes, `shared`,
// batches, the Bloom module's calls other than add and has). Each is the
// bare variant with a compiled file replaced or an import stubbed out,
// measured and not run.
//
// Writes the "bundle" section of docs/BENCHMARKS.md (build/bench/BENCHMARKS.md
// under BENCH_QUICK, which is no quicker: sizes do not vary).

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { documentPath, writeSection } from './document.js';
import { wasmText } from '../src/build/wasm-text.mjs';

const ROOT = process.cwd();
const WORK = join(ROOT, 'build/bench/dist-parts');
const gzip = (bytes: string | Uint8Array) => gzipSync(bytes, { level: 9 }).length;

/** BloomFilter's methods by what they are for, as the compiled classes name them. */
const GROUPS: Record<string, readonly string[]> = {
  'share, attach, shared': ['get shared', 'share', 'static attach'],
  'toBytes, fromBytes': ['toBytes', 'static fromBytes'],
  'toJSON, fromJSON': ['toJSON', 'static fromJSON'],
  'toParquet, fromParquet': ['toParquet', 'static fromParquet'],
  'clone, union, intersect': ['clone', 'union', 'intersect', 'static union', 'static intersect', 'combine'],
  'addMany, hasMany': ['addMany', 'hasMany'],
  'addDigest, hasDigest': ['addDigest', 'hasDigest'],
  'from': ['static from'],
  'positions, shardOf': ['positions', 'shardOf'],
  'bitArray, toBitString': ['bitArray', 'toBitString'],
  'estimatedCount, currentFalsePositiveRate': ['estimatedCount', 'currentFalsePositiveRate'],
  'inspect': ['[INSPECT]'],
  'clear': ['clear'],
};
const CLASS_FILES = ['filter/filter.js', 'filter/filter-base.js'];

/** `source` without the methods named: each from its line at class indentation to its closing brace there. */
function cut(source: string, names: readonly string[], file: string): string {
  for (const name of names) {
    const at = source.indexOf(`\n    ${name}(`);
    if (at < 0) continue;
    const end = source.indexOf('\n    }\n', at);
    if (end < 0) throw new Error(`${file}: no end of ${name}`);
    source = source.slice(0, at) + source.slice(end + '\n    }'.length);
  }
  return source;
}

const ENTRY = `import { BloomFilter } from './dist/index.js';
const f = BloomFilter.forCapacity(1000, 0.01);
const g = new BloomFilter(20011, 7);
f.add('https://example.com/a');
console.log(f.has('https://example.com/a'), g.has('https://example.com/a'));
f.dispose();
g.dispose();
`;

/** The compiled classes, read once: each variant writes a cut copy of them over the copied dist. */
const SOURCES = new Map(CLASS_FILES.map((file) => [file, readFileSync(join(ROOT, 'dist', file), 'utf8')]));

// A method renamed in the class would silently stay in every variant: each name must be found.
const missing = Object.values(GROUPS).flat().filter((name) => ![...SOURCES.values()].some((source) => source.includes(`\n    ${name}(`)));
if (missing.length > 0) throw new Error(`not methods of BloomFilter's compiled classes (renamed?): ${missing.join(', ')}`);

rmSync(WORK, { recursive: true, force: true });
cpSync(join(ROOT, 'dist'), join(WORK, 'dist'), { recursive: true });
// sideEffects: false as the package says it (its two platform entries are not reached here).
writeFileSync(join(WORK, 'package.json'), JSON.stringify({ type: 'module', sideEffects: false }));
writeFileSync(join(WORK, 'entry.js'), ENTRY);

/** The gzipped bundle of the entry when BloomFilter keeps only the groups in `kept`. */
async function bundleKeeping(kept: readonly string[]): Promise<number> {
  const dropped = Object.entries(GROUPS).filter(([group]) => !kept.includes(group)).flatMap(([, names]) => names);
  for (const [file, source] of SOURCES) writeFileSync(join(WORK, 'dist', file), cut(source, dropped, file));
  const result = await build({ entryPoints: [join(WORK, 'entry.js')], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'error' });
  return gzip(result.outputFiles[0].text);
}

const groups = Object.keys(GROUPS);
const whole = await bundleKeeping(groups);
const bare = await bundleKeeping([]);
const rows: string[] = [];
for (const group of groups) {
  const alone = (await bundleKeeping([group])) - bare;
  const lastOut = whole - (await bundleKeeping(groups.filter((g) => g !== group)));
  rows.push(`| ${group} | ${alone.toLocaleString('en-US')} | ${lastOut.toLocaleString('en-US')} |`);
}

// The wasm the class carries, and the Bloom filter's module for the xxh64
// family alone, and with only its single calls (add, has, their string and
// stream forms).
const variant = join(ROOT, 'build/bench/assembly-xxh64');
mkdirSync(join(ROOT, 'build/bench'), { recursive: true });
/** The Bloom filter's module compiled from assembly/ with `edit` applied to a copy, into `out`. */
function bloomVariant(out: string, edit: (dir: string) => void): string {
  rmSync(variant, { recursive: true, force: true });
  cpSync(join(ROOT, 'assembly'), variant, { recursive: true });
  const bloomCalls = readFileSync(join(variant, 'bloom.ts'), 'utf8');
  if (!bloomCalls.includes('EVERY_SCHEME')) throw new Error('assembly/bloom.ts no longer passes EVERY_SCHEME');
  writeFileSync(join(variant, 'bloom.ts'), bloomCalls.replaceAll('EVERY_SCHEME', 'XXH64_FAMILY'));
  edit(variant);
  const path = join(ROOT, 'build/bench', out);
  execFileSync(join(ROOT, 'node_modules/.bin/asc'), [join(variant, 'bloom-module.ts'), '--config', 'asconfig.json', '--target', 'bloom', '-o', path], { cwd: ROOT });
  rmSync(variant, { recursive: true, force: true });
  return path;
}
const xxh64Only = bloomVariant('bloom-xxh64.wasm', () => {});
const singlesOnly = bloomVariant('bloom-singles.wasm', (dir) => {
  writeFileSync(join(dir, 'bloom-module.ts'), 'export { add, addString, has, hasString, streamAdd, streamBegin, streamHas, streamUpdate } from "./bloom";\n');
});

/** Rewrites `file` of the copied dist (as the steps before left it) with `edit`, which must change it. */
function replaceIn(file: string, edit: (source: string) => string): void {
  const source = readFileSync(join(WORK, 'dist', file), 'utf8');
  const edited = edit(source);
  if (edited === source) throw new Error(`dist/${file}: the step no longer applies (renamed?)`);
  writeFileSync(join(WORK, 'dist', file), edited);
}

/** The generated Bloom module file over `wasm`'s bytes (the text has no quote or backslash: src/build/wasm-text.mjs). */
function bloomBytes(wasm: string): (source: string) => string {
  const { text, frequent } = wasmText(readFileSync(wasm));
  const literals = [[/WASM_BLOOM_TEXT = '.*';/, `WASM_BLOOM_TEXT = '${text}';`], [/WASM_BLOOM_TEXT_FREQUENT = '.*';/, `WASM_BLOOM_TEXT_FREQUENT = '${frequent}';`]] as const;
  return (source) => literals.reduce((edited, [literal, by]) => {
    if (!literal.test(edited)) throw new Error(`dist/wasm/bloom-bytes.generated.js: no ${literal.source}`);
    return edited.replace(literal, () => by);
  }, source);
}

/** The steps, each on top of the ones before it (the class files stay cut to the bare class). */
const STEPS: { what: string; apply: () => void }[] = [
  { what: 'the Bloom filter\'s module for the xxh64 family alone: poly and bytesum in a class of their own', apply: () => replaceIn('wasm/bloom-bytes.generated.js', bloomBytes(xxh64Only)) },
  {
    what: 'no shared memory: the `shared` option, share() and attach() in a class of their own',
    apply: () => replaceIn('filter/filter.js', (source) => source.replace("import { SharedEngine } from '../wasm/shared-engine.js';", 'class SharedEngine {}')),
  },
  { what: 'an arena without batches: addMany and hasMany as functions', apply: () => replaceIn('wasm/arena.js', (source) => source.replace("import { Batches } from './batch.js';", 'class Batches {}')) },
  { what: 'the Bloom filter\'s module with its single calls alone: batches, set algebra, digests and positions in other modules', apply: () => replaceIn('wasm/bloom-bytes.generated.js', bloomBytes(singlesOnly)) },
];
const steps: string[] = [];
// The class files of the bare class again: the loop above left the last variant's.
for (const [file, source] of SOURCES) writeFileSync(join(WORK, 'dist', file), cut(source, Object.values(GROUPS).flat(), file));
for (const step of STEPS) {
  step.apply();
  const result = await build({ entryPoints: [join(WORK, 'entry.js')], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'error' });
  steps.push(`| ${step.what} | ${gzip(result.outputFiles[0].text).toLocaleString('en-US')} |`);
}
rmSync(WORK, { recursive: true, force: true });

const core = gzip(readFileSync(join(ROOT, 'build/bloom.wasm')));
const bloom = gzip(readFileSync(join(ROOT, 'build/bloom-bloom.wasm')));
const bloomXxh64 = gzip(readFileSync(xxh64Only));

const body = [
  '## What BloomFilter\'s bundle carries (`npm run bench:bundle`)',
  '',
  `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. A bundle that imports \`BloomFilter\` from \`bloomwasm\` and calls new, forCapacity, add, has and dispose, as test/class-bundles.test.ts bundles it (esbuild \`--bundle --minify --format=esm --platform=browser\`, gzip level 9): ${whole.toLocaleString('en-US')} bytes with the whole class, ${bare.toLocaleString('en-US')} with every group below cut out of it (constructor, forCapacity, add, has, dispose, bitsSet and size kept). A class's methods stay in a bundle whether they are called or not. "Alone": what the group adds to the bare class; "last out": what taking it alone off the whole class saves. The code is \`bench/bundle-parts.ts\`.`,
  '',
  '| methods | alone | last out |',
  '|---|---:|---:|',
  ...rows,
  '',
  '| wasm module, gzipped alone | bytes |',
  '|---|---:|',
  `| the core (heap, records, staging, digests, checksums) | ${core.toLocaleString('en-US')} |`,
  `| the Bloom filter's, every scheme | ${bloom.toLocaleString('en-US')} |`,
  `| the Bloom filter's, the xxh64 family alone (no poly, no bytesum) | ${bloomXxh64.toLocaleString('en-US')} |`,
  `| the Bloom filter's, the xxh64 family's add and has alone | ${gzip(readFileSync(singlesOnly)).toLocaleString('en-US')} |`,
  '',
  `Below the bare class (${bare.toLocaleString('en-US')} bytes): what it would weigh with parts of the engine it still reaches left out too, each step on top of the ones above it. Each is a change to the public surface; the figures are of bundles measured, not run.`,
  '',
  '| and then | bytes |',
  '|---|---:|',
  ...steps,
].join('\n');
console.log(body);
writeSection(documentPath(process.env.BENCH_QUICK !== undefined), 'bundle', body);
