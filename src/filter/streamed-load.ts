// A load streamed straight into a filter's memory, for src/node: the empty
// filter a checked header asks for, then, once a reader has written the
// payload into its bits, the payload checks in place. Its own file because
// fromBytes, which has the whole input in hand, checks it before the filter
// exists, and only a streaming reader needs these two steps.

import { checkPayload, CHECKSUMMED_HEADER_BYTES, type FileHeader } from '../format/filter.js';
import { fileChecksum } from '../wasm/checksum.js';
import { BloomFilter, engineOf } from './filter.js';

/** An empty filter with the parameters of a checked header. @internal */
export function emptyFilterFor(header: FileHeader): BloomFilter {
  return new BloomFilter(header.bits, header.hashes, { scheme: header.scheme, seed: header.seed });
}

/**
 * Finishes a load whose payload was written straight into the filter's
 * memory: checks the checksum, padding and bitsSet, then sets the counters.
 * @internal
 */
export function finishLoad(filter: BloomFilter, header: FileHeader, headerBytes: Uint8Array): void {
  const engine = engineOf(filter);
  const checksum = fileChecksum(engine, headerBytes.subarray(0, CHECKSUMMED_HEADER_BYTES));
  const bits = engine.bitsView();
  checkPayload(header, checksum, bits[bits.length - 1], engine.recountBits());
  engine.setCounters(header.bitsSet, header.addedCount);
}
