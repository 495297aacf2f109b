// Imports run one way: the reference twin (src/reference/) is the oracle the
// tests hold the wasm path against, so no production file may depend on it.
// A production file that reached it could pass parity by using the oracle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const reference = join(src, 'reference');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(name) ? [path] : [];
  });
}

/** The relative module specifiers of `text`: static imports, re-exports and dynamic imports. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found.filter((s) => s.startsWith('.'));
}

/** The production files under src/ (everything but the reference twin itself). */
const production = sourceFiles(src).filter((file) => !file.startsWith(reference + '/'));

describe('imports', () => {
  it('finds the production files and their imports', () => {
    expect(production.length).toBeGreaterThan(30);
    const filter = readFileSync(join(src, 'filter/filter.ts'), 'utf8');
    expect(specifiers(filter)).toContain('../wasm/engine.js');
  });

  it('no production file under src/ imports src/reference/', () => {
    const offenders: string[] = [];
    for (const file of production) {
      const name = relative(root, file);
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const target = resolve(dirname(file), spec);
        if (target === reference || target.startsWith(reference + '/')) offenders.push(`${name} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
