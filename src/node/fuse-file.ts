// The binary fuse filter's files in Node: saveFile's job (the header, then
// the fingerprints straight from wasm memory), the loader's decoder, and
// the streaming check behind `bloom info` ("BLMF", docs/FORMAT.md).

import { BloomFormatError } from '../errors.js';
import { FUSE_HEADER_BYTES, parseFuseHeader, type FuseFile } from '../format/binary-fuse.js';
import { emptyFuseFilterFor, type BinaryFuseFilter } from '../fuse/binary-fuse.js';
import { fuseFingerprintView } from '../fuse/binary-fuse-over.js';
import type { Engine } from '../wasm/engine.js';
import { inspectBegin, inspectChunk, inspectEnd } from '../wasm/checksum.js';
import type { SaveJob } from './decoders.js';
import { chunkBytes, dispose, owning, type Decoder } from './io.js';

/** A verified binary fuse filter file: its header's fields. */
export interface FuseFileSummary {
  kind: 'fuse';
  /** Bytes on disk. */
  size: number;
  file: FuseFile;
}

/** saveFile's pieces: the header and the live fingerprints. A static filter never changes under a save. */
export function fuseJob(filter: BinaryFuseFilter): SaveJob {
  const header = filter.fileHeader();
  return {
    *pieces() {
      yield header;
      yield () => fuseFingerprintView(filter);
    },
    unchanged: () => true,
  };
}

/**
 * Loads a "BLMF" file: the header is checked against the file's size, the
 * filter allocated, and the fingerprints read in chunks straight into its
 * wasm memory and checked there (the checksum). The peak is the filter,
 * never the file on top of it. A failed read or check disposes the filter.
 */
export function* fuseDecoder(size: number): Decoder<BinaryFuseFilter> {
  const headerBytes = new Uint8Array(Math.min(FUSE_HEADER_BYTES, size));
  yield { into: headerBytes, position: 0 };
  const file = parseFuseHeader(headerBytes, size);
  const filter = emptyFuseFilterFor(file);
  return yield* owning(filter, dispose, function* () {
    yield { into: () => fuseFingerprintView(filter), position: FUSE_HEADER_BYTES };
    filter.checkFile(headerBytes, file.checksum);
    return filter;
  });
}

/** Streams a "BLMF" file's fingerprints through `engine`'s checksum in pieces of at most a chunk, loading nothing. */
export function* verifyFuse(size: number, engine: Engine): Decoder<FuseFileSummary> {
  const headerBytes = new Uint8Array(Math.min(FUSE_HEADER_BYTES, size));
  yield { into: headerBytes, position: 0 };
  const file = parseFuseHeader(headerBytes, size);
  const payload = size - FUSE_HEADER_BYTES;
  const buffer = new Uint8Array(Math.min(chunkBytes(), payload));
  inspectBegin(engine, headerBytes.subarray(0, 48));
  for (let at = 0; at < payload; ) {
    const piece = buffer.subarray(0, Math.min(buffer.length, payload - at));
    yield { into: piece, position: FUSE_HEADER_BYTES + at };
    inspectChunk(engine, piece);
    at += piece.length;
  }
  const actual = inspectEnd(engine);
  if (actual !== file.checksum) {
    throw new BloomFormatError('checksum', 48, `the header and fingerprints hash to 0x${actual.toString(16).padStart(16, '0')}, but the file records 0x${file.checksum.toString(16).padStart(16, '0')}: the file is corrupt`);
  }
  return { kind: 'fuse', size, file };
}
