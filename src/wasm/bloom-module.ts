// The Bloom filter's module (assembly/bloom-module.ts): a family module
// (src/wasm/family-module.ts) with the calls of filters of the xxh64 family
// on an item and a batch, a digest's test and add, and the set algebra of
// every Bloom filter. Apart from the core, so that a bundle of another
// family does not carry the Bloom filter's hashing and probing.

import type { BloomExports } from './abi.js';
import { FamilyModule } from './family-module.js';
import { bloomWasm } from './bloom-bytes.generated.js';

/** The Bloom filter's module, instantiated over each arena that holds a Bloom filter. */
export const bloomModule = /* @__PURE__ */ new FamilyModule<BloomExports>(bloomWasm);
