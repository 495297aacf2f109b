// The installed package is all a user has, so every pointer it holds must
// resolve inside it: the relative links of README.md and docs/, the docs/
// files that the published declarations and the `bloom` help texts cite,
// the sources that the source maps name, and the sections that the
// declarations cite by name (README, "Section" or docs/FILE.md, "Section").
// What is in the package is what `npm pack` lists, not what is in the
// repository.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The paths `npm pack` puts in the tarball, relative to the package root. */
function packedFiles(): string[] {
  // --ignore-scripts: prepare would rebuild dist/, which `npm test` has just built.
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
}

const packed = packedFiles();
const inPackage = new Set(packed);
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/** The text outside fenced code blocks, where links and headings are real. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** Every link target in a document's prose: [text](target), without a title. */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/** The text of a document's headings, as written after the #s. */
function headings(markdown: string): Set<string> {
  return new Set([...prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((m) => m[1]));
}

/** The docs/ paths a text cites, up to the last word character (so "docs/SLIDING.md." is docs/SLIDING.md). */
function citedDocs(text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])(docs\/[\w./-]*\w)/g)].map((m) => m[1]);
}

/**
 * The sections a declaration cites by name: `(README, "Which filter")`,
 * `(docs/FORMAT.md, "A" and "B")`, possibly across comment lines.
 */
function citedSections(text: string): { document: string; section: string }[] {
  const joined = text.replace(/\n\s*\*\s?/g, ' ');
  const found: { document: string; section: string }[] = [];
  for (const m of joined.matchAll(/\b(README(?:\.md)?|docs\/[\w.-]+\.md),\s+("[^"]+"(?:(?:,\s*|,?\s+and\s+)"[^"]+")*)/g)) {
    const document = m[1].startsWith('README') ? 'README.md' : m[1];
    for (const [, section] of m[2].matchAll(/"([^"]+)"/g)) found.push({ document, section });
  }
  return found;
}

const declarations = packed.filter((f) => f.endsWith('.d.ts'));
const documents = packed.filter((f) => f.endsWith('.md'));

describe('the packed file list', () => {
  it('holds the library, its declarations, the README and docs/', () => {
    expect(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'docs/FORMAT.md'].filter((f) => !inPackage.has(f))).toEqual([]);
    expect(declarations.length).toBeGreaterThan(20);
  });

  it('finds links, cited docs and cited sections', () => {
    expect(links('See [a](docs/A.md#x), [b](https://x.org) and [c](#y "title").\n```\n[d](no.md)\n```\n')).toEqual(['docs/A.md#x', 'https://x.org', '#y']);
    expect(citedDocs('(docs/SCHEMES.md, "x") See docs/SLIDING.md.\\n\\nOptions ../docs/no.md')).toEqual(['docs/SCHEMES.md', 'docs/SLIDING.md']);
    expect(citedSections(' * one (docs/FORMAT.md, "Filter format, version 1" and\n * "Chain format") and (README, "Usage").')).toEqual([
      { document: 'docs/FORMAT.md', section: 'Filter format, version 1' },
      { document: 'docs/FORMAT.md', section: 'Chain format' },
      { document: 'README.md', section: 'Usage' },
    ]);
  });
});

describe('links in the packed README and docs/', () => {
  it('README.md links docs/', () => {
    expect(links(read('README.md')).filter((l) => l.startsWith('docs/')).length).toBeGreaterThan(10);
  });

  it.each(documents)('every relative link in %s names a packed file', (document) => {
    const missing: string[] = [];
    for (const target of links(read(document))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue; // https:, mailto:, same page
      const path = posix.normalize(posix.join(posix.dirname(document), decodeURIComponent(target.split('#')[0])));
      if (!inPackage.has(path)) missing.push(`${target} (${path})`);
    }
    expect(missing).toEqual([]);
  });
});

describe('docs/ files cited where a user reads them', () => {
  it('every docs/ path cited in a packed .d.ts is packed', () => {
    const missing: string[] = [];
    let cited = 0;
    for (const file of declarations) {
      for (const path of citedDocs(read(file))) {
        cited++;
        if (!inPackage.has(path)) missing.push(`${file}: ${path}`);
      }
    }
    expect(cited).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it("every docs/ path cited in the `bloom` command's help texts is packed", () => {
    const pkg = JSON.parse(read('package.json')) as { bin: Record<string, string> };
    const bin = join(root, pkg.bin.bloom);
    const help = (args: string[]): string => execFileSync(process.execPath, [bin, ...args, '--help'], { encoding: 'utf8' });
    const top = help([]);
    // The subcommands as the top-level help lists them: "  name    summary".
    const commands = [...top.slice(top.indexOf('Commands:')).matchAll(/^ {2}(\w+) +\S/gm)].map((m) => m[1]);
    expect(commands).toEqual(expect.arrayContaining(['dedupe', 'shell', 'info', 'build', 'check', 'demo', 'serve']));
    const texts = [top, ...commands.map((c) => help([c]))];
    const cited = texts.flatMap(citedDocs);
    expect(cited).toContain('docs/SLIDING.md');
    expect(cited.filter((path) => !inPackage.has(path))).toEqual([]);
  });
});

describe('source maps', () => {
  const maps = packed.filter((f) => f.endsWith('.map'));
  const scripts = packed.filter((f) => /\.[cm]?js$/.test(f));

  it('every packed map names only packed sources, or carries each source it names', () => {
    const missing: string[] = [];
    for (const file of maps) {
      const map = JSON.parse(read(file)) as { sources: string[]; sourcesContent?: (string | null)[]; sourceRoot?: string };
      map.sources.forEach((source, i) => {
        if (typeof map.sourcesContent?.[i] === 'string') return;
        const path = posix.normalize(posix.join(posix.dirname(file), map.sourceRoot ?? '', source));
        if (!inPackage.has(path)) missing.push(`${file}: ${source}`);
      });
    }
    expect(missing).toEqual([]);
  });

  it('every map a packed script points to is packed', () => {
    const missing: string[] = [];
    for (const file of scripts) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(read(file))?.[1];
      if (url === undefined || url.startsWith('data:')) continue;
      const path = posix.normalize(posix.join(posix.dirname(file), url));
      if (!inPackage.has(path)) missing.push(`${file}: ${url}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('sections the declarations cite by name', () => {
  it('each names a heading of a packed document', () => {
    const wrong: string[] = [];
    const cited = declarations.flatMap((file) => citedSections(read(file)).map((c) => ({ file, ...c })));
    expect(cited.map((c) => c.document)).toEqual(expect.arrayContaining(['docs/FORMAT.md', 'docs/SCHEMES.md']));
    for (const { file, document, section } of cited) {
      if (!inPackage.has(document)) wrong.push(`${file}: ${document} is not packed`);
      else if (!headings(read(document)).has(section)) wrong.push(`${file}: ${document} has no heading "${section}"`);
    }
    expect(wrong).toEqual([]);
  });
});
