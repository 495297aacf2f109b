// The ABI is listed once, in src/wasm/abi.ts. These tests hold that list
// against the built module, and the scheme ids of the two sides together.
import { describe, expect, it } from 'vitest';
import { SCHEMES } from '../src/index.js';
import { ABI } from '../src/wasm/abi.js';
import { compiledModule, moduleImports } from '../src/wasm/module.js';

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

describe('src/wasm/abi.ts', () => {
  it('lists exactly the exports of the built module, with their kinds', () => {
    const listed = Object.entries(ABI).map(([name, entry]) => ({ name, kind: entry.kind }));
    const built = WebAssembly.Module.exports(compiledModule()).map(({ name, kind }) => ({ name, kind }));
    expect(listed.sort(byName)).toEqual(built.sort(byName));
  });

  it("gives each function its parameter count", () => {
    const exports = new WebAssembly.Instance(compiledModule(), moduleImports(compiledModule())).exports;
    const listed: Record<string, number> = {};
    const built: Record<string, number> = {};
    for (const [name, entry] of Object.entries(ABI)) {
      if (entry.kind !== 'function') continue;
      listed[name] = entry.params;
      built[name] = (exports[name] as (...args: number[]) => unknown).length;
    }
    expect(Object.keys(listed).length).toBeGreaterThan(40);
    expect(listed).toEqual(built);
  });

  it('imports only the JS String Builtins, which the engine supplies where it has them', () => {
    const imports = WebAssembly.Module.imports(compiledModule());
    // Either none (the engine supplied them) or exactly these two.
    for (const entry of imports) expect(entry.module).toBe('wasm:js-string');
    expect(imports.map((entry) => entry.name).sort()).toEqual(imports.length === 0 ? [] : ['charCodeAt', 'length']);
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
