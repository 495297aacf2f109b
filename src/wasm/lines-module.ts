// The line dedupe module (assembly/lines-module.ts), which only `bloom
// dedupe` uses: a family module (src/wasm/family-module.ts) over the
// memory of the core instance that holds the filter, so that the library's
// bundles never carry it. It takes its lines region from the core's heap.

import type { LinesExports } from './abi.js';
import { FamilyModule } from './family-module.js';
import { linesWasm } from './lines-bytes.generated.js';
import type { Arena } from './arena.js';

const linesModule = new FamilyModule<Omit<LinesExports, 'memory'>>(linesWasm);

const withMemory = new WeakMap<Arena, LinesExports>();

/** The line dedupe module's exports over arena `a`'s memory, instantiated on first use, with that memory as `memory`. */
export function linesModuleOf(a: Arena): LinesExports {
  let lines = withMemory.get(a);
  if (lines === undefined) {
    lines = Object.freeze({ ...linesModule.of(a), memory: a.x.memory });
    withMemory.set(a, lines);
  }
  return lines;
}
