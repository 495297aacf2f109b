// saveFile's options, read once (src/filter/read-options.ts says why).

import { BloomTypeError } from '../errors.js';
import { readOptions } from '../filter/read-options.js';

/** Options of saveFile and saveFileSync. */
export interface SaveOptions {
  /**
   * true (the default): fsync the file and its directory, so that a saved
   * file survives a power loss. false: skip both, for bulk writes that can
   * be redone after a crash; the replacement stays atomic either way.
   */
  durable?: boolean;
}

/** Whether the save is durable: `options.durable`, read once; BloomTypeError naming `durable` for a value that is not a boolean. */
export function readDurable(options: unknown): boolean {
  const { durable } = readOptions(options, ['durable'], 'an object { durable?: boolean }');
  if (durable === undefined) return true;
  if (typeof durable !== 'boolean') throw new BloomTypeError('durable', durable, 'a boolean (false skips the fsyncs)');
  return durable;
}
