// A family module: the wasm of one filter family
// (assembly/bitmap-module.ts, cuckoo-module.ts, fuse-module.ts,
// lines-module.ts, sliding-module.ts), apart from the core module that holds
// the heap and the records (assembly/index.ts), so that a bundle carries a
// family's bytes only when it imports that family. It imports the memory
// of a core instance and the core's createRecord, regionAlloc and
// regionFree, and writes nothing into that memory when instantiated (it has
// no statics: assembly/layout.ts's STATICS_END). Compiled once, on first
// use (or handed over compiled: src/workerd.ts); instantiated once per
// arena, over the arena's memory.

import type { Arena } from './arena.js';
import { compileWithStringBuiltins, moduleImports } from './module.js';

/** The slot of the next family module made (see FamilyModule.slot). */
let nextSlot = 0;

export class FamilyModule<X extends object> {
  private compiled: WebAssembly.Module | undefined;
  /**
   * Where each arena keeps this module's exports over its memory
   * (Arena.families): an engine made looks them up, and an array slot is
   * a load where a WeakMap keyed by the arena was a hash lookup. The
   * arena holds the instance, which lives as long as its memory does.
   */
  private readonly slot = nextSlot++;

  /** A family module whose bytes `bytes` gives (decoded from the embedded text) when it is first compiled. */
  constructor(private readonly bytes: () => Uint8Array<ArrayBuffer>) {}

  /**
   * Hands over the module compiled by the platform, for runtimes that
   * refuse to compile wasm from bytes at run time (src/workerd.ts).
   */
  provide(module: WebAssembly.Module): void {
    this.compiled = module;
  }

  /**
   * The module's exports over arena `a`'s memory, instantiated on first
   * use: the instance's own exports object, which the engines call per
   * item (the memory is the arena's, `a.x.memory`).
   */
  of(a: Arena): X {
    let exports = a.families[this.slot] as X | undefined;
    if (exports === undefined) {
      // With the JS String Builtins where the engine has them, as the core
      // module: a family that reads strings in place (the binary fuse
      // filter's has) takes the path the core's staging chose.
      this.compiled ??= compileWithStringBuiltins(this.bytes());
      const core = a.x;
      const instance = new WebAssembly.Instance(this.compiled, {
        ...moduleImports(this.compiled),
        env: { memory: core.memory },
        core: { createRecord: core.createRecord, regionAlloc: core.regionAlloc, regionFree: core.regionFree },
      });
      exports = instance.exports as unknown as X;
      a.families[this.slot] = exports;
    }
    return exports;
  }
}
