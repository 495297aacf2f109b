// The skeleton of docs/BENCHMARKS.md: the names of its generated sections,
// the markers around each, the document's fixed head, and the replacement
// of one section's text between its markers. Pure (bench/document.ts reads
// and writes the file), so test/bench-report.test.ts pins it.

/** The sections of docs/BENCHMARKS.md: `npm run bench`, `bench:cli`, `bench:redis` and `bench:where` write one each. */
export type SectionName = 'bench' | 'cli' | 'redis' | 'where' | 'many' | 'sliding' | 'runtimes' | 'cuckoo' | 'fuse' | 'singles' | 'engine' | 'bundle';

const start = (name: SectionName) => `<!-- generated:${name}:start -->`;
const end = (name: SectionName) => `<!-- generated:${name}:end -->`;

/** The document's fixed head, and the empty sections in their order. */
export const DOCUMENT_TEMPLATE = [
  '# Benchmarks',
  '',
  'This file is written by `npm run bench` (the library against its reference twin and the npm peers `bloomfilter` and `bloom-filters`), `npm run bench:cli` (`bloom dedupe` against awk and sort) and `npm run bench:redis` (`RedisBloomFilter` against GETBIT and SETBIT). Each command replaces only its own section, so they may be run at different times: each section names its own run, its machine and its method. The code is in `bench/`.',
  '',
  start('bench'),
  end('bench'),
  '',
  start('cli'),
  end('cli'),
  '',
  start('redis'),
  end('redis'),
  '',
].join('\n');

/**
 * Replaces the text between the markers of section `name` with `body`. An
 * empty document starts from the template; a document without this
 * section's markers gets them appended. Text outside the section is kept.
 */
export function replaceSection(document: string, name: SectionName, body: string): string {
  let doc = document.trim() === '' ? DOCUMENT_TEMPLATE : document;
  if (!doc.includes(start(name)) || !doc.includes(end(name))) doc = `${doc.trimEnd()}\n\n${start(name)}\n${end(name)}\n`;
  const from = doc.indexOf(start(name)) + start(name).length;
  const to = doc.indexOf(end(name));
  doc = `${doc.slice(0, from)}\n${body.trimEnd()}\n${doc.slice(to)}`;
  return doc;
}
