// The exercise module (assembly/exercise-module.ts): a family module
// (src/wasm/family-module.ts) with the core's calls on an item and a batch,
// by the same names, for filters of the exercise schemes poly and bytesum,
// whose hashing the core module leaves out. The full BloomFilter's engine
// asks callsFor which module to call, so a bundle of that class carries
// the module's bytes; the counting filter's module hashes every scheme
// itself.

import type { BloomCalls } from './abi.js';
import type { Arena } from './arena.js';
import { FamilyModule } from './family-module.js';
import { exerciseWasm } from './exercise-bytes.generated.js';

/** The exercise module, instantiated over each arena that holds a filter of poly or bytesum. */
export const exerciseModule = /* @__PURE__ */ new FamilyModule<BloomCalls>(exerciseWasm);

/** The scheme ids (src/filter/options.ts's SCHEMES) whose hashing is the exercise module's: poly and bytesum. */
const EXERCISE_SCHEME_IDS = [1, 2];

/** The calls on an item of a filter of scheme `schemeId` in arena `a`: the exercise module's for poly and bytesum, else the core's. */
export function callsFor(a: Arena, schemeId: number): BloomCalls {
  return EXERCISE_SCHEME_IDS.includes(schemeId) ? exerciseModule.of(a) : a.x;
}
