// The core module: the embedded bytes of assembly/index.ts (written by
// src/build/embed-wasm.mjs), compiled once, synchronously, on first use. An
// instance holds many filters (src/wasm/arena.ts); each family's module is
// instantiated over an instance's memory (src/wasm/family-module.ts).
//
// Not embedded here, so that a bundle carries it only where it is used:
// the shared build (assembly/shared.ts), whose instances import one shared
// memory, one instance per thread (src/wasm/shared-memory.ts), which comes
// in through loadSharedMemory() (src/wasm/shared-build.ts), a dynamic
// import that bundlers split into a chunk of its own, or eagerly in the
// Node entry (src/index.node.ts).

import { BloomNotLoadedError } from '../errors.js';
import type { Exports, SharedExports } from './abi.js';
import { filterWasm } from './bytes.generated.js';

let compiled: WebAssembly.Module | undefined;
/** Whether `compiled` has the engine's JS String Builtins (set with it). */
let builtins = false;
let compiledShared: WebAssembly.Module | undefined;
/** Where the shared build comes from on first use, once it is loaded (useSharedSource). */
let sharedSource: (() => WebAssembly.Module) | undefined;

/**
 * Modules compiled by the platform, for runtimes that refuse to compile
 * wasm from bytes at run time (Cloudflare Workers: src/workerd.ts imports
 * the .wasm files as modules and hands them over here before any filter is
 * made). Elsewhere the embedded bytes are compiled on first use.
 */
export function provideModules(filter: WebAssembly.Module, shared?: WebAssembly.Module): void {
  compiled = filter;
  builtins = hasStringBuiltins(filter);
  if (shared !== undefined) compiledShared = shared;
}

/** Makes `compile` the source of the shared build, compiled on first use (loadSharedMemory, the Node entry). */
export function useSharedSource(compile: () => WebAssembly.Module): void {
  sharedSource ??= compile;
}

/** True once the shared build can be had: loaded, or provided. */
export function sharedBuildLoaded(): boolean {
  return compiledShared !== undefined || sharedSource !== undefined;
}

/**
 * Throws BloomNotLoadedError naming `operation` unless the shared build is
 * loaded (BloomFilter's `{ shared: true }`, share() and attach() call it
 * before anything else).
 */
export function requireSharedBuild(operation: string): void {
  if (!sharedBuildLoaded()) throw new BloomNotLoadedError(operation, 'the shared-memory build', "`await loadSharedMemory()` (from 'bloomwasm') once in this thread");
}

/**
 * The compile option that asks for the JS String Builtins
 * (https://github.com/WebAssembly/js-string-builtins): with it, an engine
 * that has them supplies the "wasm:js-string" imports itself and inlines
 * them, and assembly/js-string.ts reads strings in place. Engines without
 * them ignore the option (the JS API ignores unknown members).
 */
const STRING_BUILTINS = { builtins: ['js-string'] };

/**
 * JavaScriptCore (Bun, Safari) has the builtins but does not inline them:
 * reading a URL in place measured 6x slower there than encodeInto (bench/
 * where-time-goes.ts, docs/RUNTIMES.md). Its Error objects carry their own
 * `line` and `sourceURL`, which no other engine gives them: a feature test
 * of the engine, not a timing.
 */
const javaScriptCore = ((error: object) => 'line' in error && 'sourceURL' in error)(new Error());

/**
 * SpiderMonkey (Firefox), whose Error objects carry `lineNumber` and
 * `fileName`: it reads in place at a higher cost a code unit than V8, so
 * its strings cross over to the copy sooner (src/wasm/staging.ts).
 */
export const spiderMonkey = ((error: object) => 'lineNumber' in error && 'fileName' in error)(new Error());

/**
 * The major version of V8 where the runtime reports it (Node's
 * `process.versions.v8`, Deno's `Deno.version.v8`); undefined in browsers and
 * elsewhere. From V8 15 on, reading a code unit in place costs about three
 * times what it did before, so there the copy is cheaper up to 24 units and
 * about even at 32. Browsers do not report it, and Chromium keeps the
 * in-place read, since its encodeInto costs several times more. The counts
 * are in docs/RUNTIMES.md.
 */
export function reportedV8Major(): number | undefined {
  const g = globalThis as { process?: { versions?: { v8?: unknown } }; Deno?: { version?: { v8?: unknown } } };
  const version = g.Deno?.version?.v8 ?? g.process?.versions?.v8;
  return typeof version === 'string' ? Number.parseInt(version, 10) : undefined;
}

/** The first V8 whose in-place read loses to the copy (reportedV8Major). */
export const V8_COPIES_FROM = 15;

/**
 * True when the engine supplied the builtins to `module`: it then lists no
 * "wasm:js-string" import, which it would list were the imports ordinary
 * ones. Feature detection, once per module, never a timing.
 */
function hasStringBuiltins(module: WebAssembly.Module): boolean {
  return WebAssembly.Module.imports(module).every((entry) => entry.module !== 'wasm:js-string');
}

/**
 * The "wasm:js-string" imports for an engine without the builtins: plain
 * functions, so that the module instantiates. Nothing calls the exports
 * that use them there (src/wasm/staging.ts copies strings instead).
 */
const stringImports = {
  'wasm:js-string': {
    length: (s: string): number => s.length,
    charCodeAt: (s: string, i: number): number => s.charCodeAt(i),
  },
};

/** `bytes` compiled with the JS String Builtins where the engine has them (bench/ compiles other builds with it). */
export function compileWithStringBuiltins(bytes: BufferSource): WebAssembly.Module {
  // The lib's type of the constructor predates the options argument.
  const ctor = WebAssembly.Module as unknown as new (bytes: BufferSource, options: object) => WebAssembly.Module;
  return new ctor(bytes, STRING_BUILTINS);
}

/** The compiled module, compiled from its source on first use. */
export function compiledModule(): WebAssembly.Module {
  if (compiled === undefined) {
    compiled = compileWithStringBuiltins(filterWasm());
    builtins = hasStringBuiltins(compiled);
  }
  return compiled;
}

/**
 * Whether strings are read in place by wasm (assembly/js-string.ts) rather
 * than copied in with TextEncoder.encodeInto: where the engine has the JS
 * String Builtins, is not JavaScriptCore, and is not a V8 that reports a
 * version of V8_COPIES_FROM or later. docs/RUNTIMES.md lists the path each
 * runtime takes, and why.
 */
export function stringsReadInPlace(): boolean {
  compiledModule();
  const v8 = reportedV8Major();
  return builtins && !javaScriptCore && !(v8 !== undefined && v8 >= V8_COPIES_FROM);
}

/** The imports an instance of `module` needs: none where the engine supplied the string builtins. */
export function moduleImports(module: WebAssembly.Module): WebAssembly.Imports {
  return hasStringBuiltins(module) ? {} : stringImports;
}

/** The compiled shared-memory build (threads), compiled on first use; BloomNotLoadedError before loadSharedMemory(). */
export function compiledSharedModule(): WebAssembly.Module {
  if (compiledShared === undefined) {
    requireSharedBuild('A shared filter');
    compiledShared = sharedSource!();
  }
  return compiledShared;
}

/** A new instance (src/wasm/placement.ts reports the engine's RangeError as a BloomAllocationError). */
export function instantiate(): Exports {
  const module = compiledModule();
  return new WebAssembly.Instance(module, builtins ? {} : stringImports).exports as unknown as Exports;
}

/**
 * What an instance of the shared build imports: the shared memory, the byte
 * offset of its work area, and the clock its stripe locks read
 * (assembly/stripe.ts).
 */
export function sharedImports(memory: WebAssembly.Memory, workArea: number): WebAssembly.Imports {
  // An i32 global: an address past 2 GiB goes in as its two's-complement value, which wasm reads as u32.
  return { env: { memory, workArea: new WebAssembly.Global({ value: 'i32', mutable: false }, workArea | 0), now: () => performance.now() } };
}

/**
 * A new instance of the shared build over `memory`, whose scratch and other
 * per-item regions are the work area at byte `workArea` (which this
 * instance must own alone). Its exports are those of the filter build minus
 * line dedupe and the Bitmap (SHARED_ABI in abi.ts).
 */
export function instantiateShared(memory: WebAssembly.Memory, workArea: number): SharedExports {
  const exports = new WebAssembly.Instance(compiledSharedModule(), sharedImports(memory, workArea)).exports;
  // The other way round, an address past 2 GiB comes back from wasm as a
  // negative i32, which a typed-array view refuses: the pointer exports
  // (the work area's regions lie after the bits, so past 2 GiB in a filter
  // of more than 2^34 bits) are read as u32. They are called only when
  // views are made, never per item.
  const unsigned: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(exports)) {
    unsigned[name] = typeof value === 'function' && name.endsWith('Ptr') ? () => (value as () => number)() >>> 0 : value;
  }
  return unsigned as unknown as SharedExports;
}
