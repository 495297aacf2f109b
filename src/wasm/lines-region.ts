// A filter's side of `bloom dedupe`'s line splitter (assembly/lines.ts):
// reserving the lines region in the instance that holds the filter, through
// the line dedupe module over its memory (src/wasm/lines-module.ts). Its
// own file because no filter method needs it: src/wasm/lines.ts and the
// tests that grow a filter's memory call it.

import { BloomTypeError } from '../errors.js';
import type { Engine } from './engine.js';
import { linesModuleOf } from './lines-module.js';

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
  const x = linesModuleOf(a);
  if (engine.checked(x.linesConfigure(engine.walkRecord(), engine.walkGeneration(), size, printSeen ? 1 : 0), 'dedupe') !== 0) return false;
  a.grew();
  return true;
}
