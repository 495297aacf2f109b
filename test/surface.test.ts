// The two entry points promise the same surface: bloomwasm (wasm) and
// bloomwasm/reference (plain TypeScript). This holds them to it: the same
// exported names, the same constants, and for every class and function the
// same parameter counts, down to each method, getter and static member.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';

type Callable = (...args: never[]) => unknown;

/**
 * The public members of each exported class of `entry`, as the type checker
 * sees them: name -> signature text. Private members (TypeScript `private`
 * is only a compile-time mark, so the runtime cannot tell them apart) and
 * protected ones are left out. Static members are listed with a `static `
 * prefix, the constructor as `new`.
 */
function publicSurface(program: ts.Program, entry: string): Record<string, Record<string, string>> {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry)!;
  const surface: Record<string, Record<string, string>> = {};
  const hidden = (symbol: ts.Symbol): boolean =>
    (symbol.valueDeclaration !== undefined &&
      (ts.getCombinedModifierFlags(symbol.valueDeclaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0) ||
    symbol.getName().startsWith('#') ||
    // Symbol-keyed members (`[WALK_HANDLE]`) are hooks between the package's modules, not API.
    symbol.getName().startsWith('__@') ||
    symbol.getName() === 'prototype';
  const text = (symbol: ts.Symbol, node: ts.Node): string => {
    const type = checker.getTypeOfSymbolAtLocation(symbol, node);
    const calls = type.getCallSignatures();
    const kind = symbol.flags & ts.SymbolFlags.GetAccessor ? 'get ' : '';
    if (calls.length > 0 && symbol.flags & ts.SymbolFlags.Method) return calls.map((c) => checker.signatureToString(c)).join(' | ');
    return kind + checker.typeToString(type);
  };
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(source)!)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(symbol.flags & ts.SymbolFlags.Class)) continue;
    const node = symbol.valueDeclaration!;
    const members: Record<string, string> = {};
    const staticType = checker.getTypeOfSymbolAtLocation(symbol, node);
    members.new = staticType.getConstructSignatures().map((c) => checker.signatureToString(c)).join(' | ');
    for (const member of checker.getPropertiesOfType(staticType)) {
      if (!hidden(member)) members[`static ${member.getName()}`] = text(member, node);
    }
    for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
      if (!hidden(member)) members[member.getName()] = text(member, node);
    }
    surface[exported.getName()] = members;
  }
  return surface;
}

const isClass = (f: unknown): boolean => typeof f === 'function' && /^class\b/.test(Function.prototype.toString.call(f));

describe('the two entry points', () => {
  it('export the same names', () => {
    expect(Object.keys(reference).sort()).toEqual(Object.keys(wasm).sort());
    expect(Object.keys(wasm).length).toBeGreaterThan(20);
  });

  it('export the same constants', () => {
    for (const name of Object.keys(wasm)) {
      const value = (wasm as Record<string, unknown>)[name];
      if (typeof value !== 'function') expect((reference as Record<string, unknown>)[name], name).toEqual(value);
    }
  });

  it('export the same functions, with the same parameter counts', () => {
    const functions = Object.keys(wasm).filter((name) => {
      const value = (wasm as Record<string, unknown>)[name];
      return typeof value === 'function' && !isClass(value);
    });
    expect(functions).toEqual(expect.arrayContaining(['falsePositiveRate', 'optimalBits', 'optimalHashes', 'minimumBits']));
    for (const name of functions) {
      const ours = (wasm as Record<string, unknown>)[name] as Callable;
      const theirs = (reference as Record<string, unknown>)[name] as Callable;
      expect([name, typeof theirs, theirs.length]).toEqual([name, 'function', ours.length]);
    }
  });

  const classes = Object.keys(wasm).filter((name) => isClass((wasm as Record<string, unknown>)[name]));

  it('export the classes the package is about', () => {
    expect(classes).toEqual(expect.arrayContaining(['BloomFilter', 'Bitmap', 'ScalableBloomFilter', 'SeenFilter']));
  });

  describe('classes, as the type checker sees them', () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
    const entries = [join(root, 'src/index.ts'), join(root, 'src/reference/index.ts')];
    const program = ts.createProgram(entries, {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true, skipLibCheck: true, noEmit: true, types: [],
    });
    const ours = publicSurface(program, entries[0]);
    const theirs = publicSurface(program, entries[1]);

    it('are the same classes', () => {
      expect(Object.keys(theirs).sort()).toEqual(Object.keys(ours).sort());
      expect(Object.keys(ours)).toEqual(expect.arrayContaining(classes));
    });

    it.each(classes)('%s has the same public constructor, methods, accessors and static members, with the same signatures', (name) => {
      expect(Object.keys(ours[name]).length).toBeGreaterThan(1);
      expect(theirs[name]).toEqual(ours[name]);
    });

    it('BloomFilter has the members the docs promise', () => {
      expect(ours.BloomFilter).toMatchObject({
        add: '(item: string | Uint8Array<ArrayBufferLike>): boolean',
        addMany: '(items: BatchItems): Uint8Array<ArrayBufferLike>',
        hasMany: '(items: BatchItems): Uint8Array<ArrayBufferLike>',
        size: 'get number',
        currentFalsePositiveRate: '(): number',
        'static forCapacity': '(capacity: number, falsePositiveRate: number, options?: FilterOptions | undefined): BloomFilter',
        'static fromBytes': '(bytes: Uint8Array<ArrayBufferLike>): BloomFilter',
      });
      expect(ours.ScalableBloomFilter).toMatchObject({ capacity: 'number', members: 'get readonly ScalableMember[]' });
    });
  });

  describe.each(classes)('class %s at run time', (name) => {
    const ours = (wasm as Record<string, unknown>)[name] as Callable;
    const theirs = (reference as Record<string, unknown>)[name] as Callable;

    it('takes the same number of constructor parameters', () => {
      expect(isClass(theirs)).toBe(true);
      expect(theirs.length).toBe(ours.length);
    });
  });
});

describe('the published declarations', () => {
  it('leave out what is marked @internal (tsconfig.json sets stripInternal)', () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
    // tsconfig.json is JSON with comments: TypeScript's reader, not JSON.parse.
    const config = ts.parseJsonConfigFileContent(ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, root);
    expect(config.options.stripInternal).toBe(true);
    const declarations = new Map<string, string>();
    const program = ts.createProgram([join(root, 'src/index.ts')], { ...config.options, emitDeclarationOnly: true, sourceMap: false, declarationMap: false });
    program.emit(undefined, (file, text) => declarations.set(file.slice(root.length + 1), text));
    const filter = declarations.get('dist/filter/filter.d.ts') ?? '';
    const base = declarations.get('dist/filter/filter-base.d.ts') ?? '';
    expect(filter).toContain('addDigest(d: Digest): boolean');
    expect(base).toContain('hasDigest(d: Digest): boolean');
    // Hooks and helpers between the package's own modules.
    for (const name of ['WALK_HANDLE', 'engineOf', 'fileHeader']) expect(filter).not.toContain(name);
    expect(base).not.toContain('WALK_HANDLE');
    expect(declarations.get('dist/scalable/scalable-over.d.ts') ?? '').not.toContain('addDigestPairs');
    expect(declarations.get('dist/filter/digest.d.ts') ?? '').not.toContain('digestChecked');
    expect(declarations.get('dist/wasm/arena.d.ts') ?? '').not.toContain('walkArena');
  });
});
