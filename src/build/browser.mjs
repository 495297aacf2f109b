// Builds the browser artefacts with esbuild, after tsc and embed-wasm.mjs:
// - dist/browser/bloomwasm.js: the whole library as one minified ES module,
//   the filter's wasm embedded (no .wasm file to resolve or serve), and
//   next to it dist/browser/bloomwasm-shared-<hash>.js, the shared-memory
//   build, which bloomwasm.js imports only when loadSharedMemory() is
//   called (src/wasm/shared-build.ts). That chunk imports nothing, so
//   bloomwasm.js stays one file: serve the folder, import bloomwasm.js;
// - dist/playground/: the playground page (index.html, playground.css and
//   one bundled playground.js), which `bloom serve` serves.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { wasmText } from './wasm-text.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The wasm modules bloomwasm.js carries (src/wasm/<module>.generated.ts, as
 * src/build/embed-wasm.mjs lists them in build/embedded.json): the core and
 * every family's, but the shared build (a chunk of its own) and the CLI's
 * line dedupe.
 */
const PACKED = JSON.parse(readFileSync(root + 'build/embedded.json', 'utf8'))
  .filter((entry) => entry.bytesOf !== undefined && entry.module !== 'lines-bytes');

/**
 * One literal for all of PACKED in bloomwasm.js, where a bundler's build of
 * the package has one per module, so that it carries only the modules it
 * imports. The modules share code (XXH64, the record check, the batch
 * staging), which gzip then finds across them. The literal is the
 * modules' bytes as text (src/build/wasm-text.mjs), as each module's own
 * is, so the file carries no inflater. Each generated module's bytesOf
 * function becomes a slice of the bytes, decoded once, at the first
 * module's first use.
 */
function packedWasm() {
  const parts = PACKED.map((entry) => ({ name: entry.module, bytesOf: entry.bytesOf, bytes: readFileSync(root + entry.wasm) }));
  const all = Buffer.concat(parts.map((part) => part.bytes));
  const { text, frequent } = wasmText(all);
  let offset = 0;
  const slices = new Map(parts.map((part) => {
    const slice = [part.name, `import { packed } from 'wasm-pack';\nexport const ${part.bytesOf} = () => packed(${offset}, ${part.bytes.length});\n`];
    offset += part.bytes.length;
    return slice;
  }));
  const generated = new RegExp(`[\\\\/]src[\\\\/]wasm[\\\\/](${parts.map((part) => part.name).join('|')})\\.generated\\.ts$`);
  return {
    name: 'wasm-pack',
    setup(b) {
      b.onResolve({ filter: /^wasm-pack$/ }, () => ({ path: 'wasm-pack', namespace: 'wasm-pack' }));
      b.onLoad({ filter: /.*/, namespace: 'wasm-pack' }, () => ({
        contents: `import { textBytes } from './embedded.ts';
let bytes;
export function packed(offset, length) {
  bytes ??= textBytes('${text}', '${frequent}');
  return bytes.slice(offset, offset + length);
}
`,
        loader: 'js',
        resolveDir: root + 'src/wasm',
      }));
      b.onLoad({ filter: generated }, (args) => ({ contents: slices.get(args.path.match(generated)[1]), loader: 'js' }));
    },
  };
}

// ES2022, as tsc's output (dist/) is: the engines that run the filter's
// wasm (SIMD: Chrome 91, Firefox 89, Safari 16.4) all have it. Lowering
// class fields to ES2020 would add esbuild's __publicField helper, which
// the code splitting would put in a chunk of its own that bloomwasm.js
// imports.
const common = { bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, logLevel: 'warning' };

// The chunk's name carries a hash of its content: a stale one must not linger.
rmSync(root + 'dist/browser', { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { bloomwasm: root + 'src/index.ts' },
  outdir: root + 'dist/browser',
  splitting: true,
  chunkNames: 'bloomwasm-shared-[hash]',
  legalComments: 'none',
  plugins: [packedWasm()],
});
const files = readdirSync(root + 'dist/browser');
if (files.length !== 2) throw new Error(`dist/browser: expected bloomwasm.js and one chunk, got ${files.join(', ')}`);

mkdirSync(root + 'dist/playground', { recursive: true });
await build({
  ...common,
  entryPoints: [root + 'src/playground/playground.ts'],
  outfile: root + 'dist/playground/playground.js',
});
for (const file of ['index.html', 'playground.css']) {
  copyFileSync(root + 'src/playground/' + file, root + 'dist/playground/' + file);
}
