// The file checksum and the checks run on bytes that are not yet any
// filter's: XXH64 (seed 0) over a header and then a filter's payload read in
// place (every kind of filter: the counting and sliding handles use
// checksumInPlace too), or over bytes copied through scratch a chunk at a
// time, counting their 1 bits on the way. Its own file because these calls
// serve the file format rather than the filter: fromBytes checks a filter's
// bits in place after its one copy, and `bloom info` streams a file through
// them on an engine of its own.

import type { Arena } from './arena.js';
import type { Engine } from './engine.js';
import { hashingArena } from './placement.js';
import type { Staging } from './staging.js';

/**
 * XXH64 (seed 0) of `header` and then of the payload that `hashPayload`
 * hashes where it lies (bits, counters or words, the filter's record named
 * to the export it calls) in `a`: the file checksum of every kind of filter.
 */
export function checksumInPlace(a: Arena, header: Uint8Array, hashPayload: () => unknown): bigint {
  a.x.checksumStart();
  a.staging.feed(header, undefined, (len) => a.x.checksumScratch(len));
  hashPayload();
  a.x.checksumEnd();
  return scratchDigest(a.staging);
}

/**
 * The file checksum, XXH64 (seed 0) of `header` and then `engine`'s bits,
 * read in place. Runs begin to end synchronously, so no streamed item can
 * interleave with it.
 */
export function fileChecksum(engine: Engine, header: Uint8Array): bigint {
  const a = engine.liveArena();
  return checksumInPlace(a, header, () => engine.checked(a.x.checksumBits(engine.walkRecord(), engine.walkGeneration()), 'checksum'));
}

/**
 * XXH64 (seed 0) of the concatenated `parts`, computed in wasm: bytes that
 * are no filter's (a chain's, a cuckoo filter's or a window's header
 * checksum). Any instance serves (placement.ts's hashingArena): the hash
 * takes no record, and runs begin to end synchronously.
 */
export function bytesChecksum(...parts: Uint8Array[]): bigint {
  const a = hashingArena();
  a.x.checksumStart();
  for (const part of parts) a.staging.feed(part, undefined, (len) => a.x.checksumScratch(len));
  a.x.checksumEnd();
  return scratchDigest(a.staging);
}

/**
 * The checksum of `header` then a payload that arrives in pieces, and
 * the pieces' 1 bits, through scratch (src/node streams a file through it): inspectBegin(engine, header), then inspectChunk(engine,
 * piece) for each piece in order (it returns the piece's 1 bits), then
 * inspectEnd(engine) for the checksum. The XXH64 state lives in the
 * instance, so a run that spans awaits needs an Engine of its own.
 */
export function inspectBegin(engine: Engine, header: Uint8Array): void {
  const a = engine.liveArena();
  a.x.checksumStart();
  a.staging.feed(header, undefined, (len) => a.x.checksumScratch(len));
}

/** The next piece of a streamed inspect; returns its number of 1 bits. */
export function inspectChunk(engine: Engine, piece: Uint8Array): number {
  const a = engine.liveArena();
  let ones = 0;
  a.staging.feed(piece, undefined, (len) => {
    a.x.checksumScratch(len);
    ones += a.x.popcountScratch(len);
  });
  return ones;
}

/** Ends a streamed inspect: the checksum of the header and every piece. */
export function inspectEnd(engine: Engine): bigint {
  const a = engine.liveArena();
  a.x.checksumEnd();
  return scratchDigest(a.staging);
}

/** The little-endian u64 in the first 8 bytes of `staging`'s scratch, where checksumEnd and fusePopulate leave their result. */
export function scratchDigest(staging: Staging): bigint {
  return new DataView(staging.scratch.buffer, staging.scratch.byteOffset, 8).getBigUint64(0, true);
}
