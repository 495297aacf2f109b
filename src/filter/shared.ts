// The handle that share() gives and attach() takes: plain data plus the
// shared WebAssembly.Memory, so it survives structured cloning (postMessage
// to a worker_threads Worker or a browser Web Worker). docs/SHARED.md has
// the memory model.

import { BloomTypeError } from '../errors.js';
import { checkParams, type FilterParams, type Scheme } from './options.js';

/** The `kind` of a handle from BloomFilter.share(). */
export const SHARED_FILTER_KIND = 'bloomwasm.SharedFilter';

/** The layout version of the shared memory a handle points at. */
export const SHARED_FILTER_VERSION = 1;

/**
 * The members of the shared WebAssembly.Memory in a handle that a caller
 * may use. The handle declares this rather than WebAssembly.Memory so that
 * the published types compile without the DOM lib: @types/node has no
 * WebAssembly namespace.
 */
export interface SharedWasmMemory {
  /** The memory's bytes: a SharedArrayBuffer, as the memory is shared. */
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  /** Grows the memory by `delta` 64 KiB pages; returns its previous size in pages. */
  grow(delta: number): number;
}

/** What BloomFilter.share() returns: structured-cloneable; BloomFilter.attach(handle) opens it in any thread. */
export interface SharedFilterHandle {
  /** Always SHARED_FILTER_KIND. */
  readonly kind: typeof SHARED_FILTER_KIND;
  /** Always SHARED_FILTER_VERSION. */
  readonly version: typeof SHARED_FILTER_VERSION;
  /** The shared WebAssembly.Memory (header, bits and work areas). */
  readonly memory: SharedWasmMemory;
  /** m. */
  readonly bits: number;
  /** k. */
  readonly hashes: number;
  /** The hash scheme. */
  readonly scheme: Scheme;
  /** The XXH64 seed. */
  readonly seed: bigint;
}

/** Checks a handle for attach(); throws BloomTypeError or BloomRangeError naming the field at fault. @internal */
export function checkHandle(handle: unknown): { params: FilterParams; memory: WebAssembly.Memory } {
  if (typeof handle !== 'object' || handle === null) {
    throw new BloomTypeError('handle', handle, 'a handle from BloomFilter.share()');
  }
  const h = handle as Partial<SharedFilterHandle>;
  if (h.kind !== SHARED_FILTER_KIND) {
    throw new BloomTypeError('handle.kind', h.kind, `"${SHARED_FILTER_KIND}" (a handle from BloomFilter.share() of bloomwasm)`);
  }
  if (h.version !== SHARED_FILTER_VERSION) {
    throw new BloomTypeError('handle.version', h.version, `${SHARED_FILTER_VERSION} (from the same bloomwasm version)`);
  }
  const memory = h.memory;
  if (!(memory instanceof WebAssembly.Memory) || !isShared(memory)) {
    throw new BloomTypeError('handle.memory', memory, 'a shared WebAssembly.Memory');
  }
  const params = checkParams(h.bits, h.hashes, { scheme: h.scheme, seed: h.seed });
  return { params, memory };
}

/** True when the memory is shared (its buffer is a SharedArrayBuffer). */
function isShared(memory: WebAssembly.Memory): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
}
