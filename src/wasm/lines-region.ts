// A filter's side of `bloom dedupe`'s line splitter (assembly/lines.ts):
// reserving the lines region in the instance that holds the filter. Its own
// file because only the
// command line's build has the splitter, and no filter method needs it:
// src/wasm/lines.ts and the tests that grow a filter's memory call it.

import { BloomNotLoadedError, BloomTypeError } from '../errors.js';
import type { CliExports } from './abi.js';
import type { Engine } from './engine.js';

/**
 * Reserves the lines region of assembly/lines.ts (input and output areas
 * of `size` bytes each) in `engine`'s instance and refreshes the views that
 * the growth detached. False when memory cannot grow that far.
 */
export function reserveLines(engine: Engine, size: number, printSeen: boolean): boolean {
  if (engine.sharedMemory !== undefined) {
    throw new BloomTypeError('filter', 'a shared filter', 'a filter that is not shared (line dedupe grows the memory that holds it)');
  }
  const a = engine.liveArena();
  // Only an instance of the command line's build has the line splitter
  // (src/wasm/lines-build.ts): a filter made before useCliBuild() lives in
  // one of the filter build.
  const x = a.x as unknown as Partial<CliExports>;
  if (x.linesConfigure === undefined) {
    throw new BloomNotLoadedError('Line dedupe of this filter', "the command line's build", 'useCliBuild() (src/wasm/lines-build.ts) before the filter is made');
  }
  if (engine.checked(x.linesConfigure(engine.walkRecord(), engine.walkGeneration(), size, printSeen ? 1 : 0), 'dedupe') !== 0) return false;
  a.grew();
  return true;
}
