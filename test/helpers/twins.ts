// The two implementations under test, side by side, so every suite can run
// the same cases against both.
import * as wasm from '../../src/index.js';
import * as reference from '../../src/reference/index.js';

export const twins = [
  { name: 'wasm', ...wasm },
  { name: 'reference', ...reference },
] as const;
