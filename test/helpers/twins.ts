// The two implementations under test, side by side, so every suite can run
// the same cases against both.
import * as wasm from '../../src/index.js';
import * as reference from '../../src/reference/index.js';

/**
 * One implementation as the suites see it: the wasm module's types. The two
 * modules' public members are the same (test/surface.test.ts checks names,
 * parameter counts and signatures), but TypeScript compares classes with
 * private fields by declaration, so under a union `a.union(b)` would demand a
 * filter of both classes at once. A suite only ever combines filters of its
 * own implementation (the cross-implementation refusal is tested explicitly),
 * so the reference module is presented under the wasm module's types.
 */
export type Twin = typeof wasm & { name: 'wasm' | 'reference' };

/** The wasm build and the pure-TypeScript reference, in that order. */
export const twins: readonly Twin[] = [
  { name: 'wasm', ...wasm },
  { name: 'reference', ...(reference as unknown as typeof wasm) },
];
