/**
 * bloomwasm for Node (the `node` export condition in package.json): the
 * package's own entry, with the shared-memory build loaded eagerly, so that
 * `new BloomFilter(m, k, { shared: true })` and BloomFilter.attach() work
 * at once in the main thread and in every worker_threads Worker, as they
 * always have. Size does not matter here; elsewhere it loads on first use
 * (loadSharedMemory(), src/wasm/shared-build.ts). Batches of strings are
 * written into wasm memory with Buffer#write here, which is faster than
 * TextEncoder.encodeInto on a chunk's joined strings.
 */
import { WASM_SHARED_TEXT, WASM_SHARED_TEXT_FREQUENT } from './wasm/shared-bytes.generated.js';
import { textBytes } from './wasm/embedded.js';
import { useSharedSource } from './wasm/module.js';
import { Buffer } from 'node:buffer';
import { useUtf8Writer } from './wasm/chunk-staging.js';

// Compiled on first use, as the filter build is.
useSharedSource(() => new WebAssembly.Module(textBytes(WASM_SHARED_TEXT, WASM_SHARED_TEXT_FREQUENT)));

// A batch's joined strings are written with Buffer#write (src/wasm/chunk-staging.ts, encodeJoined).
useUtf8Writer((buffer, offset, length) => Buffer.from(buffer, offset, length));

export * from './index.js';
