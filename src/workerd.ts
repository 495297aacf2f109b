// The entry for Cloudflare Workers (the `workerd` export condition in
// package.json). Workers refuse to compile WebAssembly from bytes at run
// time ("Wasm code generation disallowed by embedder"): the platform
// compiles the .wasm files a worker imports as modules, ahead of time. So
// this entry imports the filter build's .wasm file and hands the module to
// the boundary before anything else can compile; the API is the package's
// own. Workers have no threads and no shared memory, so `{ shared: true }`,
// share() and attach() are not for them, and the shared-memory build is not
// provided here: loadSharedMemory() compiles it from bytes, which Workers
// refuse (docs/RUNTIMES.md). The command line's build never reaches a
// worker.

import filterModule from './wasm/bloom.wasm';
import { provideModules } from './wasm/module.js';

provideModules(filterModule);

export * from './index.js';
