// Loading the shared-memory build (assembly/shared.ts) on first use. Its
// bytes (src/wasm/shared-bytes.generated.ts) come in through a dynamic
// import, which bundlers (esbuild, Vite, Rollup, webpack) and the
// single-file browser build (src/build/browser.mjs) split into a chunk of
// its own: an application that never shares a filter never downloads it.
// The chunk imports nothing, so no code of the core moves into a chunk
// that both would import. The Node entry (src/index.node.ts) loads it
// eagerly instead, where size does not matter.

import { textBytes } from './embedded.js';
import { sharedBuildLoaded, useSharedSource } from './module.js';

let loading: Promise<void> | undefined;

/**
 * Loads and compiles the shared-memory build, once per thread; after it,
 * `new BloomFilter(m, k, { shared: true })`, share() and
 * BloomFilter.attach() work (they throw BloomNotLoadedError before). Call it
 * in every thread that makes, shares or attaches a shared filter: a worker
 * has a module graph of its own. In Node (the package's `node` entry) it is
 * loaded already, and this resolves at once.
 */
export function loadSharedMemory(): Promise<void> {
  if (sharedBuildLoaded()) return Promise.resolve();
  loading ??= (async () => {
    const { WASM_SHARED_TEXT, WASM_SHARED_TEXT_FREQUENT } = await import('./shared-bytes.generated.js');
    // Compiled off the main thread where the engine can (browsers cap a
    // synchronous compile there), then handed over compiled.
    const module = await WebAssembly.compile(textBytes(WASM_SHARED_TEXT, WASM_SHARED_TEXT_FREQUENT));
    useSharedSource(() => module);
  })();
  // A failed load may be tried again.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
