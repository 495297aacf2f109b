// The modules: the embedded bytes of assembly/ (src/wasm/bytes.generated.ts,
// written by src/build/embed-wasm.mjs), compiled once, synchronously. An
// instance holds many filters (src/wasm/arena.ts).
//
// The shared build (assembly/shared.ts) is the exception: its instances
// import one shared memory, one instance per thread (src/wasm/shared-memory.ts).

import type { Exports, SharedExports } from './abi.js';
import { WASM_BASE64, WASM_SHARED_BASE64 } from './bytes.generated.js';

let compiled: WebAssembly.Module | undefined;
let compiledShared: WebAssembly.Module | undefined;

/**
 * Modules compiled by the platform, for runtimes that refuse to compile
 * wasm from bytes at run time (Cloudflare Workers: src/workerd.ts imports
 * the .wasm files as modules and hands them over here before any filter is
 * made). Elsewhere the embedded bytes are compiled on first use.
 */
export function provideModules(filter: WebAssembly.Module, shared?: WebAssembly.Module): void {
  compiled = filter;
  if (shared !== undefined) compiledShared = shared;
}

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The compiled module, compiled from the embedded bytes on first use. */
export function compiledModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(decode(WASM_BASE64));
  return compiled;
}

/** The compiled shared-memory build (threads), compiled on first use. */
export function compiledSharedModule(): WebAssembly.Module {
  compiledShared ??= new WebAssembly.Module(decode(WASM_SHARED_BASE64));
  return compiledShared;
}

/** A new instance (src/wasm/arena.ts reports the engine's RangeError as a BloomAllocationError). */
export function instantiate(): Exports {
  return new WebAssembly.Instance(compiledModule(), {}).exports as unknown as Exports;
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
