// The documentation holds: every relative link in README.md and docs/*.md
// points at a file that exists and, with a #fragment, at a heading in it;
// every repository path they cite exists; the README stays short, with
// "Which filter" right after its first example; and the README's usage
// example runs and prints what its comments say.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text outside fenced code blocks, where links and headings are real. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every link target in a document's prose: [text](target), without a title. */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

describe('documentation links', () => {
  it('finds the documents and their links', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/FORMAT.md', 'docs/SCHEMES.md', 'docs/CLI.md', 'docs/REDIS.md', 'docs/BENCHMARKS.md']));
    expect(links(readFileSync(join(root, 'README.md'), 'utf8')).length).toBeGreaterThan(10);
  });

  it('computes anchors as GitHub does', () => {
    const md = '# The `bloom` command\n## Redis: one filter for many workers\n```\n# not a heading\n```\n## Method\n## Method\n### sbbf (split-block, Parquet)\n';
    expect([...anchors(md)]).toEqual(['the-bloom-command', 'redis-one-filter-for-many-workers', 'method', 'method-1', 'sbbf-split-block-parquet']);
  });

  it.each(documents)('every relative link in %s resolves', (document) => {
    const text = readFileSync(join(root, document), 'utf8');
    const broken: string[] = [];
    for (const target of links(text)) {
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [path, fragment] = target.split('#');
      const file = path === '' ? join(root, document) : join(root, dirname(document), decodeURIComponent(path));
      if (!existsSync(file)) {
        broken.push(`${target}: no file ${relative(root, file)}`);
        continue;
      }
      if (fragment !== undefined && !anchors(readFileSync(file, 'utf8')).has(fragment)) {
        broken.push(`${target}: no heading #${fragment} in ${relative(root, file)}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** Repository paths a document cites in its text or code: src/, test/, assembly/, docs/ or bench/ and what follows, up to the last word character. */
export function citedPaths(markdown: string): string[] {
  return [...markdown.matchAll(/(?<![\w./-])((?:src|test|assembly|docs|bench)\/[\w./-]*\w)/g)].map((m) => m[1]);
}

describe('cited repository paths', () => {
  it('are found in prose, code and tables, without trailing punctuation or fragments', () => {
    const md = 'See `src/wasm/arena.ts`, test/docs.test.ts. [x](docs/FORMAT.md#layout) | assembly/ | ../src/no.ts bench/run.ts\'s\n```\nbench/data.ts\n```\n';
    expect(citedPaths(md)).toEqual(['src/wasm/arena.ts', 'test/docs.test.ts', 'docs/FORMAT.md', 'bench/run.ts', 'bench/data.ts']);
  });

  it.each(documents)('every path cited in %s exists', (document) => {
    const missing = citedPaths(readFileSync(join(root, document), 'utf8')).filter((path) => !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });
});

describe('the README', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('is at most 350 lines', () => {
    expect(readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0)).toBeLessThanOrEqual(350);
  });

  it('opens with install and the first example, then Which filter', () => {
    const headings = [...prose(readme).matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings.slice(0, 3)).toEqual(['Install', 'Usage', 'Which filter']);
    expect(headings.at(-1)).toBe('Develop');
    expect(readme).toContain('npm install bloomwasm');
  });
});

describe('the README usage example', () => {
  it('runs and prints what its comments say', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const usage = readme.slice(readme.indexOf('## Usage'));
    const code = /```ts\n([\s\S]*?)```/.exec(usage)![1];
    expect(code.split('\n').filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(5);
    const expected = [...code.matchAll(/console\.log\(.*\); \/\/ (\w+)/g)].map((m) => m[1]);
    expect(expected.length).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'bloom-readme-'));
    try {
      const script = join(dir, 'usage.mjs');
      writeFileSync(script, code.replace(`from 'bloomwasm'`, `from '${pathToFileURL(join(root, 'dist/index.js')).href}'`));
      const output = execFileSync(process.execPath, [script], { encoding: 'utf8' });
      expect(output.trim().split('\n')).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
