// fromBytes(bytes, kind?) over a table of classes: the wasm classes
// (from-bytes.ts) or the reference twins (src/reference/from-bytes.ts).
// The bytes' magic picks the class (src/format/kinds.ts); given a class,
// the bytes must hold that kind.

import { BloomTypeError } from '../errors.js';
import { checkKind, kindOfClass, kindOfMagic, type FileKindName } from '../format/kinds.js';
import { clockOption } from '../sliding/sliding-over.js';
import { checkBytes } from '../wasm/typed-arrays.js';

/** Options of fromBytes: the clock that a time-window SlidingBloomFilter reads from then on (default Date.now); other kinds read none. */
export interface FromBytesOptions {
  clock?: () => number;
}

/** The class of each kind, each with its fromBytes. */
export type KindClasses = { readonly [K in FileKindName]: { fromBytes(bytes: Uint8Array, options?: FromBytesOptions): unknown } };

/** The bytes, the kind asked for and the clock, from fromBytes' or loadFile's arguments; `where` names the entry (`bloomwasm`). */
export function readKindArguments(
  kindOrOptions: unknown, options: unknown, classes: KindClasses, where: string,
): { wanted: FileKindName | undefined; clock: (() => number) | undefined } {
  const named = typeof kindOrOptions === 'function';
  if (!named && options !== undefined) throw new BloomTypeError('kind', kindOrOptions, `one of ${where}'s filter classes when options follow it`);
  const wanted = named ? kindOfClass(kindOrOptions, classes, where) : undefined;
  return { wanted, clock: clockOption(named ? options : kindOrOptions) };
}

/** The filter `bytes` hold, of the class of `classes` that their magic names (which must be `kindOrOptions`, when that is a class). */
export function readAny(classes: KindClasses, where: string, bytes: unknown, kindOrOptions: unknown, options: unknown): unknown {
  const view = checkBytes(bytes);
  const { wanted, clock } = readKindArguments(kindOrOptions, options, classes, where);
  const kind = checkKind(kindOfMagic(view, view.length), wanted);
  return kind === 'SlidingBloomFilter' ? classes[kind].fromBytes(view, { clock }) : classes[kind].fromBytes(view);
}

