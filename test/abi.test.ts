// The ABI is listed once, in src/wasm/abi.ts. These tests hold that list
// against the built module, and the scheme ids of the two sides together.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMES } from '../src/index.js';
import { ABI, BITMAP_ABI, BLOOM_ABI, CHAIN_ABI, COUNTING_ABI, CUCKOO_ABI, FUSE_ABI, LINES_ABI, SLIDING_ABI } from '../src/wasm/abi.js';
import { bloomWasm } from '../src/wasm/bloom-bytes.generated.js';
import { chainWasm } from '../src/wasm/chain-bytes.generated.js';
import { linesWasm } from '../src/wasm/lines-bytes.generated.js';
import { countingWasm } from '../src/wasm/counting-bytes.generated.js';
import { cuckooWasm } from '../src/wasm/cuckoo-bytes.generated.js';
import { fuseWasm } from '../src/wasm/fuse-bytes.generated.js';
import { slidingWasm } from '../src/wasm/sliding-bytes.generated.js';
import { bitmapWasm } from '../src/wasm/bitmap-bytes.generated.js';
import { WASM_TEXT, WASM_TEXT_FREQUENT } from '../src/wasm/bytes.generated.js';
import { textBytes } from '../src/wasm/embedded.js';
import { compiledModule, compileWithStringBuiltins, moduleImports } from '../src/wasm/module.js';

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The family modules' bytes, as embedded (src/wasm/family-module.ts instantiates them over a core instance's memory). */
const familyBytes = {
  lines: linesWasm(),
  bloom: bloomWasm(),
  chain: chainWasm(),
  counting: countingWasm(),
  cuckoo: cuckooWasm(),
  fuse: fuseWasm(),
  sliding: slidingWasm(),
  bitmap: bitmapWasm(),
};
const familyModules = new Map(Object.entries(familyBytes).map(([name, bytes]) => [name, compileWithStringBuiltins(bytes)]));
const linesModule = familyModules.get('lines')!;
const bloomModule = familyModules.get('bloom')!;
const chainModule = familyModules.get('chain')!;
const countingModule = familyModules.get('counting')!;
const cuckooModule = familyModules.get('cuckoo')!;
const fuseModule = familyModules.get('fuse')!;
const slidingModule = familyModules.get('sliding')!;
const bitmapModule = familyModules.get('bitmap')!;

/** A new instance of the filter build. */
const coreInstance = () => new WebAssembly.Instance(compiledModule(), moduleImports(compiledModule()));

/** What a family module imports from the core instance `core`, as src/wasm/family-module.ts passes it. */
function familyImports(module: WebAssembly.Module, core: WebAssembly.Exports): WebAssembly.Imports {
  return { ...moduleImports(module), env: { memory: core.memory }, core: { createRecord: core.createRecord, regionAlloc: core.regionAlloc, regionFree: core.regionFree } };
}

/** A new instance of `module`: a family module over a new core instance's memory. */
function instanceOf(module: WebAssembly.Module): WebAssembly.Instance {
  if (![...familyModules.values()].includes(module)) return new WebAssembly.Instance(module, moduleImports(module));
  return new WebAssembly.Instance(module, familyImports(module, coreInstance().exports));
}

/** The ids of the sections of wasm `bytes`, in order. */
function sectionIds(bytes: Uint8Array): number[] {
  const ids: number[] = [];
  for (let at = 8; at < bytes.length; ) {
    ids.push(bytes[at++]);
    let size = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[at++];
      size += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
    }
    at += size;
  }
  return ids;
}

describe.each([
  ['ABI', 'the filter build (assembly/index.ts)', ABI, compiledModule()],
  ['LINES_ABI', 'the line dedupe module (assembly/lines-module.ts)', LINES_ABI, linesModule],
  ['BLOOM_ABI', "the Bloom filter's module (assembly/bloom-module.ts)", BLOOM_ABI, bloomModule],
  ['CHAIN_ABI', "the chain's module (assembly/chain-module.ts)", CHAIN_ABI, chainModule],
  ['COUNTING_ABI', "the counting filter's module (assembly/counting-module.ts)", COUNTING_ABI, countingModule],
  ['CUCKOO_ABI', "the cuckoo filter's module (assembly/cuckoo-module.ts)", CUCKOO_ABI, cuckooModule],
  ['FUSE_ABI', "the binary fuse filter's module (assembly/fuse-module.ts)", FUSE_ABI, fuseModule],
  ['SLIDING_ABI', "the sliding-window filter's module (assembly/sliding-module.ts)", SLIDING_ABI, slidingModule],
  ['BITMAP_ABI', "the Bitmap's module (assembly/bitmap-module.ts)", BITMAP_ABI, bitmapModule],
] as const)('src/wasm/abi.ts: %s', (_, built, abi, module) => {
  it(`lists exactly the exports of ${built}, with their kinds`, () => {
    const listed = Object.entries(abi).map(([name, entry]) => ({ name, kind: entry.kind }));
    const exported = WebAssembly.Module.exports(module).map(({ name, kind }) => ({ name, kind }));
    expect(listed.sort(byName)).toEqual(exported.sort(byName));
  });

  it("gives each function its parameter count", () => {
    const exports = instanceOf(module).exports;
    const listed: Record<string, number> = {};
    const counted: Record<string, number> = {};
    for (const [name, entry] of Object.entries(abi)) {
      if (entry.kind !== 'function') continue;
      listed[name] = entry.params;
      counted[name] = (exports[name] as (...args: number[]) => unknown).length;
    }
    expect(Object.keys(listed).length).toBeGreaterThan(1);
    expect(listed).toEqual(counted);
  });
});

describe('the filter build', () => {
  it('imports only the JS String Builtins, which the engine supplies where it has them', () => {
    const imports = WebAssembly.Module.imports(compiledModule());
    // Either none (the engine supplied them) or exactly these two.
    for (const entry of imports) expect(entry.module).toBe('wasm:js-string');
    expect(imports.map((entry) => entry.name).sort()).toEqual(imports.length === 0 ? [] : ['charCodeAt', 'length']);
  });
});

describe.each([
  ['the line dedupe module (assembly/lines-module.ts)', 'lines', /^lines/, ['core.regionAlloc function', 'core.regionFree function']],
  // The Bloom filter's calls keep their short names (add, has, ...), beside the digests' and the set algebra's.
  ["the Bloom filter's module (assembly/bloom-module.ts)", 'bloom', /^/, []],
  // The chain's module walks probeAll's filters too.
  ["the chain's module (assembly/chain-module.ts)", 'chain', /^(chain|probeRecords$)/, []],
  ["the counting filter's module (assembly/counting-module.ts)", 'counting', /^counting/, ['core.createRecord function']],
  ["the cuckoo filter's module (assembly/cuckoo-module.ts)", 'cuckoo', /^cuckoo/, ['core.createRecord function']],
  ["the binary fuse filter's module (assembly/fuse-module.ts)", 'fuse', /^fuse/, ['core.createRecord function', 'core.regionAlloc function', 'core.regionFree function']],
  ["the sliding-window filter's module (assembly/sliding-module.ts)", 'sliding', /^sliding/, ['core.createRecord function']],
  ["the Bitmap's module (assembly/bitmap-module.ts)", 'bitmap', /^bitmap/, ['core.createRecord function']],
] as const)('%s', (_, name, family, coreImports) => {
  const module = familyModules.get(name)!;

  it("imports the core instance's memory and what it calls there, and exports its family's calls alone", () => {
    // The JS String Builtins, which the engine supplies where it has them, are not the core's.
    const imports = WebAssembly.Module.imports(module).filter((entry) => entry.module !== 'wasm:js-string');
    expect(imports.map(({ module, name, kind }) => `${module}.${name} ${kind}`).sort()).toEqual([...coreImports, 'env.memory memory']);
    expect(WebAssembly.Module.exports(module).filter(({ name }) => !family.test(name))).toEqual([]);
  });

  it("has no data and no start function: instantiating it writes nothing into the core's memory", () => {
    const bytes = familyBytes[name];
    expect(sectionIds(bytes)).not.toContain(11); // data
    expect(sectionIds(bytes)).not.toContain(8); // start
    const core = coreInstance().exports;
    const memory = core.memory as WebAssembly.Memory;
    const before = new Uint8Array(memory.buffer).slice();
    new WebAssembly.Instance(module, familyImports(module, core));
    expect(Buffer.from(new Uint8Array(memory.buffer)).equals(Buffer.from(before))).toBe(true);
  });
});

describe('the embedded builds', () => {
  it('are text that decodes to the build, byte for byte', () => {
    const built = readFileSync(new URL('../build/bloom.wasm', import.meta.url));
    // Printable ASCII but for the quotes, the backslash and the dollar sign: a bundler writes it as it is.
    expect(WASM_TEXT).toMatch(/^[\x20-\x7e]*$/);
    expect(WASM_TEXT).not.toMatch(/["$'\\`]/);
    // 88 byte values a character each, the other 168 two.
    expect(WASM_TEXT_FREQUENT).toMatch(/^[0-9a-f]{64}$/);
    expect([...WASM_TEXT_FREQUENT].reduce((n, d) => n + [...parseInt(d, 16).toString(2)].filter((b) => b === '1').length, 0)).toBe(88);
    expect(WASM_TEXT.length).toBeGreaterThan(built.length);
    expect(WASM_TEXT.length).toBeLessThan(1.5 * built.length);
    expect(Buffer.from(textBytes(WASM_TEXT, WASM_TEXT_FREQUENT)).equals(built)).toBe(true);
    for (const [name, bytes] of Object.entries(familyBytes)) {
      expect(Buffer.from(bytes).equals(readFileSync(new URL(`../build/bloom-${name}.wasm`, import.meta.url))), name).toBe(true);
    }
  });
});

describe('scheme ids', () => {
  const globals = new WebAssembly.Instance(compiledModule(), moduleImports(compiledModule())).exports as Record<string, WebAssembly.Global>;

  it('are the same on the TypeScript side (SCHEMES) and the assembly side (SCHEME_* globals)', () => {
    const assemblySide = Object.fromEntries(
      Object.keys(globals)
        .filter((name) => name.startsWith('SCHEME_'))
        .map((name) => [name.slice('SCHEME_'.length).toLowerCase(), globals[name].value as number]),
    );
    const typeScriptSide = Object.fromEntries(SCHEMES.map((scheme, id) => [scheme, id]));
    expect(assemblySide).toEqual(typeScriptSide);
  });

  it('keep the ids the file format has always used', () => {
    expect(SCHEMES.slice(0, 4)).toEqual(['xxh64', 'poly', 'bytesum', 'sbbf']);
  });
});
