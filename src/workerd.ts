// The entry for Cloudflare Workers (the `workerd` export condition in
// package.json). Workers refuse to compile WebAssembly from bytes at run
// time ("Wasm code generation disallowed by embedder"): the platform
// compiles the .wasm files a worker imports as modules, ahead of time. So
// this entry imports the filter build's .wasm file and hands the module to
// the boundary before anything else can compile; the API is the package's
// own. Workers have no threads and no shared memory, so `{ shared: true }`,
// share() and attach() are not for them (docs/RUNTIMES.md).

import filterModule from './wasm/bloom.wasm';
import { provideModules } from './wasm/module.js';

provideModules(filterModule);

export * from './index.js';
