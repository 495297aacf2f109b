/**
 * bloomwasm for Node (the `node` export condition in package.json): the
 * package's own entry, with the shared-memory build loaded eagerly, so that
 * `new BloomFilter(m, k, { shared: true })` and BloomFilter.attach() work
 * at once in the main thread and in every worker_threads Worker, as they
 * always have. Size does not matter here; elsewhere it loads on first use
 * (loadSharedMemory(), src/wasm/shared-build.ts).
 */
import { WASM_SHARED_DEFLATED, WASM_SHARED_DEFLATED_SIZE } from './wasm/shared-bytes.generated.js';
import { inflateBase64, useSharedSource } from './wasm/module.js';

// Compiled on first use, as the filter build is.
useSharedSource(() => new WebAssembly.Module(inflateBase64(WASM_SHARED_DEFLATED, WASM_SHARED_DEFLATED_SIZE)));

export * from './index.js';
