// The lean build (assembly/core.ts: the Bloom filter's exports alone),
// offered as the module of new instances unless the full build
// (src/wasm/full-build.ts) was offered too. Imported by `bloomwasm/core`
// (src/core.ts) only. Listed in package.json's sideEffects.

import { WASM_CORE_DEFLATED, WASM_CORE_DEFLATED_SIZE } from './core-bytes.generated.js';
import { compileWithStringBuiltins, inflateBase64, offerModuleSource } from './module.js';

offerModuleSource(1, () => compileWithStringBuiltins(inflateBase64(WASM_CORE_DEFLATED, WASM_CORE_DEFLATED_SIZE)));
