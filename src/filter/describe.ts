// One short line for Node's util.inspect (and so console.log): the kind,
// its size and its fill, rather than every internal field. The key is
// Symbol.for's, the one Node looks up, so that no node: import enters a
// browser bundle; elsewhere the method is never called.

import { isDisposed } from './dispose.js';

/** The key util.inspect calls for an object's own view (`Symbol.for('nodejs.util.inspect.custom')`). */
export const INSPECT: unique symbol = Symbol.for('nodejs.util.inspect.custom');

/** A field's value as printed: a number, or text such as `50.1%`. */
export type Shown = number | string;

/**
 * `Name { a: 1, b: 2 }` for `target`, whose fields `fields` reads; `Name {
 * disposed }` once it was disposed, without reading any (a disposed
 * object's methods throw).
 */
export function inspectLine(target: object, name: string, fields: () => Record<string, Shown>): string {
  if (isDisposed(target)) return `${name} { disposed }`;
  const shown = Object.entries(fields()).map(([key, value]) => `${key}: ${value}`);
  return `${name} { ${shown.join(', ')} }`;
}

/** What a Bloom or counting filter shows of itself (either twin). */
interface PositionedFilter {
  readonly bits: number;
  readonly hashes: number;
  readonly scheme: string;
  readonly size: number;
  bitsSet(): number;
}

/**
 * The fields of a Bloom or counting filter's line: its positions (named
 * `positions`: bits or counters), hashes, the scheme when not xxh64, the
 * adds, and the share of positions above 0.
 */
export function positionFields(f: PositionedFilter, positions: 'bits' | 'counters'): Record<string, Shown> {
  return {
    [positions]: f.bits,
    hashes: f.hashes,
    ...(f.scheme === 'xxh64' ? {} : { scheme: f.scheme }),
    added: f.size,
    fill: percent(f.bitsSet(), f.bits),
  };
}

/** `part` of `whole` as a percentage with one decimal: `50.1%` (`0.0%` of nothing). */
export function percent(part: number, whole: number): string {
  return `${(whole === 0 ? 0 : (100 * part) / whole).toFixed(1)}%`;
}
