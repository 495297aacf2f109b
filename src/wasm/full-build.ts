// The core module (assembly/index.ts: the heap and records every family
// module's filters live in, and the Bloom filter under the xxh64 family),
// offered as the module of new instances as soon as this file is imported.
// Every filter family and entry point imports it; `bloomwasm/core` does
// not, so a bundle of the lean BloomFilter alone carries only the lean
// build (src/wasm/core-build.ts). Listed in package.json's sideEffects.

import { filterWasm } from './bytes.generated.js';
import { compileWithStringBuiltins, offerModuleSource } from './module.js';

offerModuleSource(2, () => compileWithStringBuiltins(filterWasm()));
