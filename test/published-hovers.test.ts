// What an editor shows a user of the published types (run `npm run build`
// first): the hover on a method, a constructor or a property, asked of
// TypeScript's language service over a consumer file that imports the
// package by name, as types-anywhere.test.ts does. Hovers name the class a
// user has, never an internal base class, and no constructor offers an
// internal parameter. A BinaryFuseFilter made with `new` from plain
// JavaScript is refused with BloomTypeError.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string };

/** The consumer's source; each `/*@name*\/` marks the identifier a hover is asked of, right after it. */
const consumer = `
import { BloomFilter, CountingBloomFilter, CuckooFilter, ScalableBloomFilter, SlidingBloomFilter, BinaryFuseFilter, Bitmap } from '${pkg.name}';
import * as ref from '${pkg.name}/reference';
import { BloomFilter as CoreFilter } from '${pkg.name}/core';
const bloom = BloomFilter.forCapacity(100, 0.01);
bloom./*@bloomAdd*/add('a');
bloom./*@bloomSize*/size;
const core = CoreFilter.forCapacity(100, 0.01);
core./*@coreHas*/has('a');
const counting = CountingBloomFilter.forCapacity(100, 0.01);
counting./*@countingRemove*/remove('a');
const cuckoo = new /*@cuckooNew*/CuckooFilter(100, 0.01);
cuckoo./*@cuckooAdd*/add('a');
cuckoo./*@cuckooMembers*/members;
const chain = ScalableBloomFilter.forCapacity(100, 0.01);
chain./*@chainAdd*/add('a');
chain./*@chainMembers*/members;
const window = SlidingBloomFilter.forCapacity(100, 0.01);
window./*@slidingHas*/has('a');
const fuse = BinaryFuseFilter.from(['a']);
fuse./*@fuseHas*/has('a');
new Bitmap(8)./*@bitmapDelete*/delete(1);
const refChain = ref.ScalableBloomFilter.forCapacity(100, 0.01);
refChain./*@refChainAdd*/add('a');
new ref./*@refCuckooNew*/CuckooFilter(100, 0.01);
`;

let project: string;
let service: ts.LanguageService;
let file: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'bloomwasm-hovers-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(root, join(project, 'node_modules', pkg.name), 'junction');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  file = join(project, 'consumer.ts');
  writeFileSync(file, consumer);
  const options: ts.CompilerOptions = {
    strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [],
  };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => (ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(name)!) : undefined),
    getCurrentDirectory: () => project,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  };
  service = ts.createLanguageService(host, ts.createDocumentRegistry());
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

/** The hover text (signature and doc comment) at the identifier after the marker. */
function hover(name: string): string {
  const at = consumer.indexOf(`/*@${name}*/`) + `/*@${name}*/`.length;
  const info = service.getQuickInfoAtPosition(file, at);
  if (info === undefined) throw new Error(`no hover at ${name}`);
  return `${ts.displayPartsToString(info.displayParts)}\n${ts.displayPartsToString(info.documentation)}`;
}

/** Names a user never imports, and words for internal code. */
const INTERNAL = /BloomFilterBase|FilterOver|BloomFilterOver|CuckooParts|FuseInit|parts\?|not for users|@internal/;

describe('the published types, as an editor shows them', () => {
  it('compile without errors in the consumer', () => {
    const diagnostics = [...service.getSyntacticDiagnostics(file), ...service.getSemanticDiagnostics(file)];
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  });

  // Types the consumer reaches through `ref` print as ref.Item, ref.CuckooOptions: `(ref\.)?` allows it.
  it.each([
    ['bloomAdd', /^\(method\) BloomFilter\.add\(item: /],
    ['bloomSize', /^\(property\) BloomFilter\.size: number\n/],
    ['coreHas', /^\(method\) BloomFilter\.has\(item: /],
    ['countingRemove', /^\(method\) CountingBloomFilter\.remove\(item: (ref\.)?Item\): boolean\n/],
    ['cuckooNew', /^\(alias\) new CuckooFilter\(capacity: number, falsePositiveRate: number, options\?: (ref\.)?CuckooOptions\): CuckooFilter\n/],
    ['cuckooAdd', /^\(method\) CuckooFilter\.add\(item: /],
    ['cuckooMembers', /^\(property\) CuckooFilter\.members: readonly (ref\.)?CuckooMember\[\]\n/],
    ['chainAdd', /^\(method\) ScalableBloomFilter<BloomFilter>\.add\(item: /],
    ['chainMembers', /^\(property\) ScalableBloomFilter<BloomFilter>\.members: readonly (ref\.)?ScalableMember\[\]\n/],
    ['slidingHas', /^\(method\) SlidingBloomFilter\.has\(item: /],
    ['fuseHas', /^\(method\) BinaryFuseFilter\.has\(item: /],
    ['bitmapDelete', /^\(method\) Bitmap\.delete\(value: number\): boolean\n/],
    ['refChainAdd', /^\(method\) ScalableBloomFilter<BloomFilter>\.add\(item: /],
    ['refCuckooNew', /^\(alias\) new CuckooFilter\(capacity: number, falsePositiveRate: number, options\?: (ref\.)?CuckooOptions\): ref\.CuckooFilter\n/],
  ])('%s: %s', (name, expected) => {
    const text = hover(name);
    expect(text).toMatch(expected);
    expect(text).not.toMatch(INTERNAL);
  });

  it('declare no public constructor parameter that only the library passes', () => {
    for (const path of ['dist/cuckoo/cuckoo.d.ts', 'dist/reference/cuckoo.d.ts']) {
      const text = readFileSync(join(root, path), 'utf8');
      expect(text).not.toMatch(/CuckooParts|parts\?/);
      expect(text).toMatch(/constructor\(capacity: number, falsePositiveRate: number, options\?: CuckooOptions\);/);
    }
  });
});

describe.each([['wasm', wasm], ['reference', reference]] as const)('%s BinaryFuseFilter made with new', (_name, lib) => {
  it('throws BloomTypeError that says to use BinaryFuseFilter.from', () => {
    const Fuse = lib.BinaryFuseFilter as unknown as new (...args: unknown[]) => unknown;
    for (const args of [[], [{ kind: 'x' }], [null]]) {
      expect(() => new Fuse(...args)).toThrow(lib.BloomTypeError);
      expect(() => new Fuse(...args)).toThrow(/^BinaryFuseFilter must be made by BinaryFuseFilter\.from\(items\), fromKeys\(keys\), fromBytes\(bytes\) or fromReferenceBytes\(bytes, options\), not by new; got /);
    }
    expect(lib.BinaryFuseFilter.from(['a', 'b']).has('a')).toBe(true);
  });
});
