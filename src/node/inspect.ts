// Verifies a file of any kind (filter, chain, counting, sliding, cuckoo or binary fuse) without loading it, for `bloom info`:
// every header is checked, and every payload is streamed through a small
// buffer for its checksum, padding bits and count of 1 bits. Nothing the
// headers ask for is allocated, so a file whose header claims 4 GiB costs
// one chunk of memory, whether it is sound or a sparse file of zeros.

import { closeSync } from 'node:fs';
import { inMember } from '../format/chain.js';
import { kindOfMagic, MAGIC_BYTES } from '../format/kinds.js';
import { COUNTING_KIND } from '../format/counting.js';
import { checkPayload, CHECKSUMMED_HEADER_BYTES, HEADER_BYTES, parseHeader, type FileHeader } from '../format/filter.js';
import type { ScalablePlan } from '../scalable/plan.js';
import { Engine } from '../wasm/engine.js';
import { inspectBegin, inspectChunk, inspectEnd } from '../wasm/checksum.js';
import { checkSlidingPayload, checksumOffset, planesInUse, type SlidingFile } from '../format/sliding.js';
import { chainLayout, cuckooHeader, slidingHeader } from './decoders.js';
import { checkMemberPayload, type CuckooFile } from '../format/cuckoo.js';
import { chunkBytes, decodeSync, openRegularSync, type Decoder } from './io.js';
import { verifyFuse, type FuseFileSummary } from './fuse-file.js';

export type { FuseFileSummary };

/** A verified single-filter file. */
export interface FilterFileSummary {
  kind: 'filter';
  /** Bytes on disk. */
  size: number;
  header: FileHeader;
}

/** A verified chain file: its plan and each member's header and planned capacity. */
export interface ChainFileSummary {
  kind: 'chain';
  size: number;
  plan: ScalablePlan;
  members: Array<{ header: FileHeader; capacity: number }>;
}

/** A verified counting filter file: its header, and its counters at 15 (which the header does not hold). */
export interface CountingFileSummary {
  kind: 'counting';
  size: number;
  header: FileHeader;
  /** Counters at 15, counted over the payload. */
  saturated: number;
}

/** A verified sliding filter file: its header's fields. */
export interface SlidingFileSummary {
  kind: 'sliding';
  size: number;
  file: SlidingFile;
}

/** A verified cuckoo filter file: its header's fields and member table. */
export interface CuckooFileSummary {
  kind: 'cuckoo';
  size: number;
  file: CuckooFile;
}

/** Reads the file's first bytes into `into`. */
function* readInto(into: Uint8Array): Decoder<void> {
  yield { into, position: 0 };
}

/** Streams the payload that follows the header at `start` through `engine`, then runs the payload checks. */
function* verifyPayload(engine: Engine, buffer: Uint8Array, header: FileHeader, headerBytes: Uint8Array, start: number): Decoder<void> {
  inspectBegin(engine, headerBytes.subarray(0, CHECKSUMMED_HEADER_BYTES));
  let ones = 0;
  let last = 0;
  for (let at = 0; at < header.payloadLength; ) {
    const piece = buffer.subarray(0, Math.min(buffer.length, header.payloadLength - at));
    yield { into: piece, position: start + HEADER_BYTES + at };
    ones += inspectChunk(engine, piece);
    last = piece[piece.length - 1];
    at += piece.length;
  }
  checkPayload(header, inspectEnd(engine), last, ones);
}

function* verifyFilter(size: number, engine: Engine): Decoder<FilterFileSummary> {
  const headerBytes = new Uint8Array(Math.min(HEADER_BYTES, size));
  yield { into: headerBytes, position: 0 };
  const header = parseHeader(headerBytes, size);
  yield* verifyPayload(engine, new Uint8Array(Math.min(chunkBytes(), header.payloadLength)), header, headerBytes, 0);
  return { kind: 'filter', size, header };
}

function* verifyChain(size: number, engine: Engine): Decoder<ChainFileSummary> {
  const { plan, spans, headers } = yield* chainLayout(size);
  const buffer = new Uint8Array(Math.min(chunkBytes(), Math.max(...spans.map((s) => s.header.payloadLength))));
  for (let i = 0; i < spans.length; i++) {
    try {
      yield* verifyPayload(engine, buffer, spans[i].header, headers[i], spans[i].start);
    } catch (error) {
      throw inMember(error, i, spans[i].start);
    }
  }
  return { kind: 'chain', size, plan, members: spans.map((s) => ({ header: s.header, capacity: s.capacity })) };
}

/**
 * Counters above 0 and at 15 among the 8 nibbles of each of `words` words:
 * each nibble is folded onto its lowest bit (OR for above 0, AND for 15),
 * and the multiply by 0x11111111 sums the 8 flags into the top nibble
 * (at most 8, so no carry crosses a nibble). About twice the speed of a
 * byte-at-a-time count.
 */
function countNibbles(w: Uint32Array, words: number): { nonzero: number; saturated: number } {
  let nonzero = 0;
  let saturated = 0;
  for (let i = 0; i < words; i++) {
    const x = w[i];
    nonzero += Math.imul((x | (x >>> 1) | (x >>> 2) | (x >>> 3)) & 0x11111111, 0x11111111) >>> 28;
    saturated += Math.imul(x & (x >>> 1) & (x >>> 2) & (x >>> 3) & 0x11111111, 0x11111111) >>> 28;
  }
  return { nonzero, saturated };
}

/**
 * Streams a counting file's counters through one buffer of at most a chunk:
 * the checksum in wasm, the counters above 0 and at 15 a 32-bit word at a
 * time. The padding nibble past an odd m is counted too, harmlessly:
 * checkPayload refuses a nonzero one before it compares the counts.
 */
function* verifyCounting(size: number, engine: Engine): Decoder<CountingFileSummary> {
  const headerBytes = new Uint8Array(Math.min(HEADER_BYTES, size));
  yield { into: headerBytes, position: 0 };
  const header = parseHeader(headerBytes, size, COUNTING_KIND);
  const chunk = Math.min(chunkBytes(), header.payloadLength);
  const buffer = new Uint8Array(Math.ceil(chunk / 4) * 4);
  const words = new Uint32Array(buffer.buffer);
  inspectBegin(engine, headerBytes.subarray(0, CHECKSUMMED_HEADER_BYTES));
  let nonzero = 0;
  let saturated = 0;
  let last = 0;
  for (let at = 0; at < header.payloadLength; ) {
    const piece = buffer.subarray(0, Math.min(chunk, header.payloadLength - at));
    yield { into: piece, position: HEADER_BYTES + at };
    inspectChunk(engine, piece);
    // Zeros past a short piece, up to its last word, are counters at 0: neither above 0 nor at 15.
    buffer.fill(0, piece.length);
    const counted = countNibbles(words, Math.ceil(piece.length / 4));
    nonzero += counted.nonzero;
    saturated += counted.saturated;
    last = piece[piece.length - 1];
    at += piece.length;
  }
  checkPayload(header, inspectEnd(engine), last, nonzero, COUNTING_KIND);
  return { kind: 'counting', size, header, saturated };
}

/**
 * Streams a sliding file's words through one buffer of at most a chunk (an
 * even number of bytes, so that a u16 word never straddles two pieces): the
 * checksum in wasm, and the OR of the words, for the empty-plane check.
 */
function* verifySliding(size: number, engine: Engine): Decoder<SlidingFileSummary> {
  const { file, header } = yield* slidingHeader(size);
  const chunk = Math.max(2, Math.min(chunkBytes(), file.payloadLength));
  const buffer = new Uint8Array(chunk - (chunk % 2));
  inspectBegin(engine, header.subarray(0, checksumOffset(file.shape.generations)));
  let used = 0;
  for (let at = 0; at < file.payloadLength; ) {
    const piece = buffer.subarray(0, Math.min(buffer.length, file.payloadLength - at));
    yield { into: piece, position: file.headerBytes + at };
    inspectChunk(engine, piece);
    used |= planesInUse(piece, file.shape.generations);
    at += piece.length;
  }
  checkSlidingPayload(file, inspectEnd(engine), used);
  return { kind: 'sliding', size, file };
}

/**
 * Streams each member's fingerprints of a cuckoo file through one buffer
 * of at most a chunk, for its checksum in wasm and its padding bits. (The
 * count of fingerprints against each member's tally needs the slots read
 * at their width: loadFile checks it, in wasm, once they are loaded.)
 */
function* verifyCuckoo(size: number, engine: Engine): Decoder<CuckooFileSummary> {
  const file = yield* cuckooHeader(size);
  const buffer = new Uint8Array(Math.max(1, Math.min(chunkBytes(), Math.max(...file.payloads.map((p) => p.length)))));
  for (let j = 0; j < file.payloads.length; j++) {
    const { start, length } = file.payloads[j];
    inspectBegin(engine, new Uint8Array(0));
    let last = 0;
    for (let at = 0; at < length; ) {
      const piece = buffer.subarray(0, Math.min(buffer.length, length - at));
      yield { into: piece, position: start + at };
      inspectChunk(engine, piece);
      last = piece[piece.length - 1];
      at += piece.length;
    }
    checkMemberPayload(file, j, inspectEnd(engine), last);
  }
  return { kind: 'cuckoo', size, file };
}

/**
 * Checks the file at `path` of any kind (filter, chain, counting, sliding,
 * cuckoo or binary fuse) as loadFileSync would, in memory bounded by one read chunk, and
 * describes it; the kind is told by the magic, and a file of none is
 * refused on `magic`. Faults throw BloomFormatError naming the field and offset.
 */
export function inspectFileSync(path: string): FilterFileSummary | ChainFileSummary | CountingFileSummary | SlidingFileSummary | CuckooFileSummary | FuseFileSummary {
  const { fd, size } = openRegularSync(path);
  try {
    const magic = new Uint8Array(Math.min(MAGIC_BYTES, size));
    decodeSync(fd, readInto(magic));
    const kind = kindOfMagic(magic, size);
    // An instance of its own: the checksum state must not be shared with other work.
    const engine = new Engine({ bits: 8, hashes: 1, scheme: 'xxh64', schemeId: 0, seed: 0n }, false, true);
    if (kind === 'ScalableBloomFilter') return decodeSync(fd, verifyChain(size, engine));
    if (kind === 'CountingBloomFilter') return decodeSync(fd, verifyCounting(size, engine));
    if (kind === 'SlidingBloomFilter') return decodeSync(fd, verifySliding(size, engine));
    if (kind === 'CuckooFilter') return decodeSync(fd, verifyCuckoo(size, engine));
    if (kind === 'BinaryFuseFilter') return decodeSync(fd, verifyFuse(size, engine));
    return decodeSync(fd, verifyFilter(size, engine));
  } finally {
    closeSync(fd);
  }
}
