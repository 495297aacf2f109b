// Types for runtimes.mjs, which stays plain JavaScript so that npm runs it without a build.

/** One runtime from the npm registry, installed under build/runtimes/. */
export interface Runtime {
  /** As the tests name it: `Node 22`, `Bun 1.4`. */
  name: string;
  /** Its folder, from the package root. */
  dir: string;
  /** The package and version npm installs. */
  spec: string;
  /** Its binary, from its folder. */
  binary: string;
  /** Whether test/runtimes.test.ts runs the portable suites under it. */
  portable: boolean;
}

/** The runtimes `npm run runtimes` installs. */
export const RUNTIMES: readonly Runtime[];
