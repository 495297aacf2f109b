// Types for string-property.js, which stays plain JavaScript so that every runtime runs it.
import type fc from 'fast-check';

/** Arbitrary strings of 0 to 10,000 code units: lone surrogates, astral characters, combining marks. */
export const strings: fc.Arbitrary<string>;

/** Strings at the edges, always checked first. */
export const edges: readonly string[];

/** The modules of one build that the property compares. */
export interface StringParityModules {
  lib: unknown;
  ref: unknown;
  refStrings: { encodeUtf8(s: string): Uint8Array };
  wasm: unknown;
  staging: unknown;
  filterBase: unknown;
}

/** fast-check's verdict on the string parity property; the counterexample as code-point lists. */
export function checkStringParity(
  modules: StringParityModules,
  options?: { runs?: number; seed?: number },
): { runs: number; failed: boolean; counterexample: number[][] | null };
