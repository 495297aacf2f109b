// The module: the embedded bytes of assembly/ (src/wasm/bytes.generated.ts,
// written by src/build/embed-wasm.mjs), compiled once, synchronously, and
// one new instance per filter or bitmap.
//
// Each filter owns a whole instance (and so its own linear memory): dropping
// the filter drops the instance, and the engine frees the memory with it; no
// dispose() is needed, and one filter may use up to 4 GiB on its own.

import { BloomAllocationError } from '../errors.js';
import type { Exports } from './abi.js';
import { WASM_BASE64 } from './bytes.generated.js';

let compiled: WebAssembly.Module | undefined;

/** The compiled module, compiled from the embedded bytes on first use. */
export function compiledModule(): WebAssembly.Module {
  if (compiled === undefined) {
    const text = atob(WASM_BASE64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    compiled = new WebAssembly.Module(bytes);
  }
  return compiled;
}

/**
 * A new instance for `bits` bits in `bytes` bytes (named in the error). The
 * engine reserves address space for every wasm memory up front and throws a
 * RangeError when it cannot; that is the same failure as an oversized
 * filter, so it is reported as one.
 */
export function instantiate(bits: number, bytes: number): Exports {
  try {
    return new WebAssembly.Instance(compiledModule(), {}).exports as unknown as Exports;
  } catch (error) {
    if (error instanceof RangeError) throw new BloomAllocationError(bits, bytes, error.message);
    throw error;
  }
}
