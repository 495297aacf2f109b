// The entry for Cloudflare Workers (the `workerd` export condition in
// package.json). Workers refuse to compile WebAssembly from bytes at run
// time ("Wasm code generation disallowed by embedder"): the platform
// compiles the .wasm files a worker imports as modules, ahead of time. So
// this entry imports the filter build's .wasm file and those of the family
// modules (src/wasm/family-module.ts) and hands the modules to the boundary
// before anything else can compile; the API is the package's own. Workers have no threads and no shared memory, so `{ shared: true }`,
// share() and attach() are not for them, and the shared-memory build is not
// provided here: loadSharedMemory() compiles it from bytes, which Workers
// refuse (docs/RUNTIMES.md). The command line's build never reaches a
// worker.

import filterModule from './wasm/bloom.wasm';
import bloomWasm from './wasm/bloom-bloom.wasm';
import chainWasm from './wasm/bloom-chain.wasm';
import countingWasm from './wasm/bloom-counting.wasm';
import cuckooWasm from './wasm/bloom-cuckoo.wasm';
import fuseWasm from './wasm/bloom-fuse.wasm';
import slidingWasm from './wasm/bloom-sliding.wasm';
import bitmapWasm from './wasm/bloom-bitmap.wasm';
import { provideModules } from './wasm/module.js';
import { bloomModule } from './wasm/bloom-module.js';
import { chainModule } from './wasm/chain-walk.js';
import { countingModule } from './wasm/counting.js';
import { cuckooModule } from './wasm/cuckoo.js';
import { fuseModule } from './wasm/binary-fuse.js';
import { slidingModule } from './wasm/sliding.js';
import { bitmapModule } from './wasm/bitmap.js';

provideModules(filterModule);
bloomModule.provide(bloomWasm);
chainModule.provide(chainWasm);
countingModule.provide(countingWasm);
cuckooModule.provide(cuckooWasm);
fuseModule.provide(fuseWasm);
slidingModule.provide(slidingWasm);
bitmapModule.provide(bitmapWasm);

export * from './index.js';
