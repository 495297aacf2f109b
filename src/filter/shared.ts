// The handle that share() gives and attach() takes: plain data plus the
// shared WebAssembly.Memory, so it survives structured cloning (postMessage
// to a worker_threads Worker or a browser Web Worker). docs/SHARED.md has
// the memory model.

import { BloomTypeError } from '../errors.js';
import { checkParams, SCHEMES, type FilterParams, type Scheme } from './options.js';

/** The `kind` of a handle from BloomFilter.share(). */
export const SHARED_FILTER_KIND = 'bloomwasm.SharedFilter';

/** The layout version of the shared memory a handle points at. */
export const SHARED_FILTER_VERSION = 1;

/** What BloomFilter.share() returns: structured-cloneable; BloomFilter.attach(handle) opens it in any thread. */
export interface SharedFilterHandle {
  /** Always SHARED_FILTER_KIND. */
  readonly kind: typeof SHARED_FILTER_KIND;
  /** Always SHARED_FILTER_VERSION. */
  readonly version: typeof SHARED_FILTER_VERSION;
  /** The shared memory (header, bits and work areas). */
  readonly memory: WebAssembly.Memory;
  /** m. */
  readonly bits: number;
  /** k. */
  readonly hashes: number;
  /** The hash scheme. */
  readonly scheme: Scheme;
  /** The XXH64 seed. */
  readonly seed: bigint;
}

/** Checks a handle for attach(); throws BloomTypeError or BloomRangeError naming the field at fault. */
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

/**
 * The filter record in a shared memory's header: written once when the
 * memory is made, checked by attach, so that a handle whose fields were
 * changed or whose memory is not a filter's is refused instead of reading
 * bits under other parameters (false negatives) or writing past them.
 * 32 bytes: "BLMS" u32 magic, hashes u32, scheme id u32, 0 u32, bits f64,
 * seed u64, little-endian. Both twins keep it (at their own offsets).
 */
export const FILTER_RECORD_BYTES = 32;

/** The record's magic, "BLMS" read as a little-endian u32. */
const RECORD_MAGIC = 0x534d4c42;

/** Writes the record of `params` into `view` (FILTER_RECORD_BYTES bytes of the header). */
export function writeFilterRecord(view: DataView, params: FilterParams): void {
  view.setUint32(0, RECORD_MAGIC, true);
  view.setUint32(4, params.hashes, true);
  view.setUint32(8, params.schemeId, true);
  view.setUint32(12, 0, true);
  view.setFloat64(16, params.bits, true);
  view.setBigUint64(24, params.seed, true);
}

/**
 * Throws BloomTypeError unless `view` holds the record of a filter with
 * exactly `params`: naming `memoryField` when there is no record, else the
 * first handle field that differs, with the value the memory holds.
 */
export function checkFilterRecord(view: DataView, params: FilterParams, memoryField: string): void {
  if (view.getUint32(0, true) !== RECORD_MAGIC) {
    throw new BloomTypeError(memoryField, 'a memory without a filter record', 'the shared memory of a filter from share() (its header names the filter it holds)');
  }
  const hashes = view.getUint32(4, true);
  const schemeId = view.getUint32(8, true);
  const bits = view.getFloat64(16, true);
  const seed = view.getBigUint64(24, true);
  const held = `the filter that ${memoryField} holds`;
  if (bits !== params.bits) throw new BloomTypeError('handle.bits', params.bits, `${bits}, the bits of ${held}`);
  if (hashes !== params.hashes) throw new BloomTypeError('handle.hashes', params.hashes, `${hashes}, the hashes of ${held}`);
  if (schemeId !== params.schemeId) {
    throw new BloomTypeError('handle.scheme', params.scheme, `${JSON.stringify(SCHEMES[schemeId] ?? `scheme id ${schemeId}`)}, the scheme of ${held}`);
  }
  if (seed !== params.seed) throw new BloomTypeError('handle.seed', params.seed, `${seed}n, the seed of ${held}`);
}
