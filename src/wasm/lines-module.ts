// The line dedupe module (assembly/lines-module.ts), which only `bloom
// dedupe` uses: a module of its own over the memory of the core instance
// that holds the filter, so that the library's bundles never carry it.
// Instantiated once per core instance, on first use; its imports are that
// instance's memory and its regionAlloc and regionFree, through which the
// module takes its lines region from the core's heap.

import type { Arena } from './arena.js';
import type { LinesExports } from './abi.js';
import { WASM_LINES_DEFLATED, WASM_LINES_DEFLATED_SIZE } from './lines-bytes.generated.js';
import { inflateBase64 } from './module.js';

let compiled: WebAssembly.Module | undefined;
const instances = new WeakMap<Arena, LinesExports>();

/** The line dedupe module's exports over arena `a`'s memory, instantiated on first use, with that memory as `memory`. */
export function linesModuleOf(a: Arena): LinesExports {
  let lines = instances.get(a);
  if (lines === undefined) {
    compiled ??= new WebAssembly.Module(inflateBase64(WASM_LINES_DEFLATED, WASM_LINES_DEFLATED_SIZE));
    const core = a.x;
    const instance = new WebAssembly.Instance(compiled, {
      env: { memory: core.memory },
      core: { regionAlloc: core.regionAlloc, regionFree: core.regionFree },
    });
    lines = Object.freeze({ ...(instance.exports as unknown as Omit<LinesExports, 'memory'>), memory: core.memory });
    instances.set(a, lines);
  }
  return lines;
}
