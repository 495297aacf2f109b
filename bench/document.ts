// Writes one generated section into the benchmark document, replacing only
// that section (bench/report.ts and the other report files render it;
// bench/document-sections.ts replaces it). Full runs write
// docs/BENCHMARKS.md; a quick smoke run writes build/bench/BENCHMARKS.md, so
// its meaningless figures never overwrite the committed ones. BENCH_REPORT
// names another file.

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { replaceSection, type SectionName } from './document-sections.js';

/** The document a run writes: BENCH_REPORT, else by mode. Paths are relative to the package root (npm's working directory). */
export function documentPath(quick: boolean, env: NodeJS.ProcessEnv = process.env): string {
  return env.BENCH_REPORT ?? join(process.cwd(), quick ? 'build/bench/BENCHMARKS.md' : 'docs/BENCHMARKS.md');
}

/** Replaces section `name` of the document at `path` with `body` (temporary file, then rename). */
export function writeSection(path: string, name: SectionName, body: string): void {
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, replaceSection(before, name, body));
  renameSync(temporary, path);
}
