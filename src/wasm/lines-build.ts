// The command line's build (assembly/cli.ts): the filter's exports plus
// line-by-line dedupe, which only `bloom dedupe` uses. The library's module
// (assembly/index.ts) leaves the line splitter out, so that no bundle of the
// library carries it; `bloom` calls useCliBuild() first thing, and every
// instance made after that is of this build (src/wasm/lines.ts calls it
// too, for whoever imports the splitter directly). The hot path is the same
// code in both builds.

import { WASM_CLI_DEFLATED, WASM_CLI_DEFLATED_SIZE } from './cli-bytes.generated.js';
import { compileWithStringBuiltins, inflateBase64, useModuleSource } from './module.js';

let used = false;

/** Makes the command line's build the module of every instance made from now on (once; later calls do nothing). */
export function useCliBuild(): void {
  if (used) return;
  used = true;
  useModuleSource(() => compileWithStringBuiltins(inflateBase64(WASM_CLI_DEFLATED, WASM_CLI_DEFLATED_SIZE)));
}
