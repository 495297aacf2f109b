// The lean build (assembly/core.ts: the Bloom filter's exports alone),
// offered as the module of new instances unless the full build
// (src/wasm/full-build.ts) was offered too. Imported by the lean class
// (src/filter/core-filter.ts) only. Listed in package.json's sideEffects.

// Its bytes are text, not a DEFLATE stream, so that the lean bundle
// carries no inflater (src/build/embed-wasm.mjs).

import { WASM_CORE_TEXT, WASM_CORE_TEXT_FREQUENT } from './core-bytes.generated.js';
import { compileWithStringBuiltins, offerModuleSource, textBytes } from './module.js';

offerModuleSource(1, () => compileWithStringBuiltins(textBytes(WASM_CORE_TEXT, WASM_CORE_TEXT_FREQUENT)));
