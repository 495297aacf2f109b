// Pay for what you import: an application that imports BloomFilter alone
// from the package carries none of the cuckoo filter's JavaScript (its
// class, shape, format, file reader or boundary), since nothing in
// BloomFilter's import graph reaches them and the package is side-effect
// free; one that imports CuckooFilter carries them.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The source files esbuild keeps in a minified, tree-shaken browser bundle of `contents`. */
async function inputsOf(contents: string): Promise<string[]> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', minify: true,
    splitting: true, outdir: '/out', metafile: true, logLevel: 'silent',
  });
  return Object.values(result.metafile.outputs).flatMap((o) => Object.entries(o.inputs).filter(([, v]) => v.bytesInOutput > 0).map(([k]) => k));
}

describe('the cuckoo filter in bundles', () => {
  it('is left out of a bundle of BloomFilter alone, and in one of CuckooFilter', async () => {
    const lean = await inputsOf("export { BloomFilter } from './src/index.ts';");
    expect(lean).toContain('src/filter/filter.ts');
    expect(lean.filter((f) => /cuckoo/.test(f))).toEqual([]);
    const cuckoo = await inputsOf("export { CuckooFilter } from './src/index.ts';");
    for (const f of ['src/cuckoo/cuckoo.ts', 'src/cuckoo/cuckoo-over.ts', 'src/cuckoo/shape.ts', 'src/format/cuckoo.ts', 'src/wasm/cuckoo.ts']) expect(cuckoo).toContain(f);
  });
});
