// The full build (assembly/index.ts: every filter family), offered as the
// module of new instances as soon as this file is imported. Every filter
// family and entry point imports it; `bloomwasm/core` does not, so a bundle
// of the lean BloomFilter alone carries only the lean build
// (src/wasm/core-build.ts). Listed in package.json's sideEffects.

import { filterWasm } from './bytes.generated.js';
import { compileWithStringBuiltins, offerModuleSource } from './module.js';
import { useUnitsStaging } from './staging.js';
import { unitsStaging } from './units.js';

offerModuleSource(2, () => compileWithStringBuiltins(filterWasm()));
// Only this build hashes poly, whose strings are staged as code units.
useUnitsStaging(unitsStaging);
