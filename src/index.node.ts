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
import { WASM_SHARED_DEFLATED, WASM_SHARED_DEFLATED_SIZE } from './wasm/shared-bytes.generated.js';
import { inflateBase64, useSharedSource } from './wasm/module.js';
import { Buffer } from 'node:buffer';
import { useUtf8Writer } from './wasm/staging.js';

// Compiled on first use, as the filter build is.
useSharedSource(() => new WebAssembly.Module(inflateBase64(WASM_SHARED_DEFLATED, WASM_SHARED_DEFLATED_SIZE)));

// A batch's joined strings are written with Buffer#write (src/wasm/staging.ts, encodeJoined).
useUtf8Writer((buffer, offset, length) => Buffer.from(buffer, offset, length));

export * from './index.js';
