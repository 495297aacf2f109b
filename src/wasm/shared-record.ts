// The record of the filter a shared memory holds, in its header: what
// attach checks a handle against. Declared at the boundary, where the
// shared memory is made (src/wasm/shared-memory.ts); the reference twin
// (src/reference/shared.ts) keeps the same record in its buffer.

import { BloomTypeError } from '../errors.js';
import { SCHEMES, type FilterParams } from './inputs.js';

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
