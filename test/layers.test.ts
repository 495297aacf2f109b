// The source's layers point one way: src/wasm/ (the boundary with the
// WebAssembly instance) imports nothing from the folders above it, only
// its own files and src/errors.ts; no two files of src/ import each other,
// through any chain, type imports included; src/ holds no .ts file of its
// own but the entry points and errors.ts; and no .ts file of src/,
// assembly/ or bench/ runs past 450 lines (one concept per file).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Every .ts file under `dir`, relative to the repository. */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...tsFiles(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The src/ files that `file` imports or re-exports from, types included. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'";]*?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    out.push(normalize(join(dirname(file), m[1].replace(/\.js$/, '.ts'))));
  }
  return out;
}

const src = tsFiles('src');
const graph = new Map(src.map((f) => [f, importsOf(f).filter((t) => src.includes(t))]));

describe('the source layers', () => {
  it('src/wasm/ imports only its own files and src/errors.ts', () => {
    const upward = [...graph].flatMap(([f, to]) => (f.startsWith('src/wasm/') ? to.filter((t) => !t.startsWith('src/wasm/') && t !== 'src/errors.ts').map((t) => `${f} -> ${t}`) : []));
    expect(upward).toEqual([]);
  });

  it('no import cycles among src/ files, type imports included', () => {
    // Depth-first search; a back edge closes a cycle, reported as its files.
    const state = new Map<string, 1 | 2>();
    const cycles: string[] = [];
    const stack: string[] = [];
    const visit = (f: string): void => {
      state.set(f, 1);
      stack.push(f);
      for (const t of graph.get(f) ?? []) {
        if (state.get(t) === 1) cycles.push(stack.slice(stack.indexOf(t)).concat(t).join(' -> '));
        else if (!state.has(t)) visit(t);
      }
      stack.pop();
      state.set(f, 2);
    };
    for (const f of src) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  it('src/ itself holds only the entry points and errors.ts', () => {
    expect(src.filter((f) => dirname(f) === 'src').sort()).toEqual(['src/errors.ts', 'src/index.node.ts', 'src/index.ts', 'src/workerd.ts']);
  });

  it('no .ts file of src/, assembly/ or bench/ is over 450 lines', () => {
    const long = [...src, ...tsFiles('assembly'), ...tsFiles('bench')]
      .map((f) => [relative(root, join(root, f)), readFileSync(join(root, f), 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 450);
    expect(long).toEqual([]);
  });
});
