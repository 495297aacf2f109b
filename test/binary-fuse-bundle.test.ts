// Pay for what you import: a bundle of BloomFilter alone carries none of
// the binary fuse filter's code (its class, construction, formats), and a
// bundle of BinaryFuseFilter does (esbuild, tree-shaking, from the sources).
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

function bundle(code: string): string {
  const out = buildSync({
    stdin: { contents: code, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
    bundle: true, write: false, format: 'esm', platform: 'neutral', logLevel: 'error', minifySyntax: true,
  });
  return out.outputFiles[0].text;
}

// Not the magic "BLMF": every reader knows every kind's magic, to name the right reader
// when handed another kind's file (src/format/filter.ts's table).
const MARKERS = ['class BinaryFuseFilter', 'FuseEngine', 'parseReferenceHeader', 'fuseWasm', 'fusePopulate'];

describe('the core bundle', () => {
  it('BloomFilter alone carries no binary fuse code', () => {
    const text = bundle(`import { BloomFilter } from ${JSON.stringify(entry)}; console.log(new BloomFilter(64, 3).has('a'));`);
    for (const marker of MARKERS) expect(text.includes(marker), marker).toBe(false);
  });

  it('BinaryFuseFilter carries it', () => {
    const text = bundle(`import { BinaryFuseFilter } from ${JSON.stringify(entry)}; console.log(BinaryFuseFilter.from(['a']).has('a'));`);
    expect(text).toContain('FuseEngine');
    expect(text).toContain('fusePopulate');
  });
});
