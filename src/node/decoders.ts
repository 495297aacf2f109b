// The five file formats (filter, chain, counting filter, sliding filter, cuckoo filter), read as streams (see io.ts for the drivers) and
// written as sequences of pieces.
//
// Reading checks every header, and the file's length against them, before
// anything the headers ask for is allocated; then each filter's payload is
// read in chunks straight into its wasm memory and checked there (checksum,
// padding, bitsSet). The peak memory is the filter or the chain, never the
// file on top of it.
//
// Writing yields each header and then the bits as views on wasm memory (no
// copy); the writer cuts them into bounded chunks.

import {
  countingEngineOf, countingFileHeader, CountingBloomFilter, emptyCountingFilterFor, finishCountingLoad,
} from '../counting/counting.js';
import { COUNTING_KIND } from '../format/counting.js';
import { BloomFilter, engineOf, fileHeader } from '../filter/filter.js';
import { emptyFilterFor, finishLoad } from '../filter/streamed-load.js';
import {
  CHAIN_HEADER_BYTES, checkChainEnd, checkMemberHeader, encodeChainHeader, inMember, parseChainHeader, type MemberSpan,
} from '../format/chain.js';
import { HEADER_BYTES, parseHeader, type FileHeader } from '../format/filter.js';
import { adoptChain, chainParts, ScalableBloomFilter, wasmXxh64 } from '../scalable/scalable.js';
import type { ScalablePlan } from '../scalable/plan.js';
import { parseSlidingHeader, SLIDING_FIELD_OFFSETS, slidingHeaderBytes, type SlidingFile } from '../format/sliding.js';
import { SlidingBloomFilter } from '../sliding/sliding.js';
import { finishSlidingLoad, restoredOptions, slidingFileHeader, slidingWordsView } from '../sliding/sliding-over.js';
import { BloomConcurrencyError } from '../errors.js';
import { dispose, owning, type Decoder, type Region } from './io.js';
import { CuckooFilter, WASM_TABLES } from '../cuckoo/cuckoo.js';
import { adoptParts, cuckooPayloads, emptyPartsFor, finishStreamedParts } from '../cuckoo/cuckoo-over.js';
import { CUCKOO_FIELD_OFFSETS, cuckooHeaderBytes, membersOf, parseCuckooHeader, type CuckooFile } from '../format/cuckoo.js';

/** Reads a version-1 filter file of `size` bytes. */
export function* filterDecoder(size: number): Decoder<BloomFilter> {
  const headerBytes = new Uint8Array(Math.min(HEADER_BYTES, size));
  yield { into: headerBytes, position: 0 };
  return yield* payloadInto(parseHeader(headerBytes, size), headerBytes, 0);
}

/** Allocates the filter a checked header describes and reads its payload (at `start` + 56) into it. */
function* payloadInto(header: FileHeader, headerBytes: Uint8Array, start: number): Decoder<BloomFilter> {
  const filter = emptyFilterFor(header);
  return yield* owning(filter, dispose, function* () {
    yield { into: () => engineOf(filter).bitsView(), position: start + HEADER_BYTES };
    finishLoad(filter, header, headerBytes);
    return filter;
  });
}

/** Reads a version-1 counting filter file of `size` bytes: header checked first, then the counters straight into wasm memory. */
export function* countingDecoder(size: number): Decoder<CountingBloomFilter> {
  const headerBytes = new Uint8Array(Math.min(HEADER_BYTES, size));
  yield { into: headerBytes, position: 0 };
  const header = parseHeader(headerBytes, size, COUNTING_KIND);
  const filter = emptyCountingFilterFor(header);
  return yield* owning(filter, dispose, function* () {
    yield { into: () => countingEngineOf(filter).counters, position: HEADER_BYTES };
    finishCountingLoad(filter, header, headerBytes);
    return filter;
  });
}

/**
 * Reads and checks a sliding filter file's header of a file of `size`
 * bytes: the fixed fields, whose generations field gives the length of the
 * rest, then the generation table. Nothing sized by it is allocated.
 */
export function* slidingHeader(size: number): Decoder<{ file: SlidingFile; header: Uint8Array }> {
  const fixed = new Uint8Array(Math.min(SLIDING_FIELD_OFFSETS.generationTable, size));
  yield { into: fixed, position: 0 };
  const g = fixed[SLIDING_FIELD_OFFSETS.generations];
  const header = new Uint8Array(Math.min(size, g === 8 || g === 16 ? slidingHeaderBytes(g) : fixed.length));
  header.set(fixed.subarray(0, header.length));
  if (header.length > fixed.length) yield { into: header.subarray(fixed.length), position: fixed.length };
  return { file: parseSlidingHeader(header, size), header };
}

/**
 * Reads a sliding filter file of `size` bytes: its header checked first,
 * then the words straight into wasm memory. A time window reads `clock`
 * from then on.
 */
export function* slidingDecoder(size: number, clock: (() => number) | undefined): Decoder<SlidingBloomFilter> {
  const { file, header } = yield* slidingHeader(size);
  const filter = new SlidingBloomFilter(restoredOptions(file, clock));
  return yield* owning(filter, dispose, function* () {
    yield { into: () => slidingWordsView(filter), position: file.headerBytes };
    finishSlidingLoad(filter, file, header);
    return filter;
  });
}

/**
 * Reads and checks a cuckoo filter file's header of a file of `size`
 * bytes: the fixed fields, whose members field gives the length of the
 * member table, then the table and the header checksum.
 */
export function* cuckooHeader(size: number): Decoder<CuckooFile> {
  const fixed = new Uint8Array(Math.min(CUCKOO_FIELD_OFFSETS.memberTable, size));
  yield { into: fixed, position: 0 };
  const header = new Uint8Array(Math.min(size, Math.max(fixed.length, cuckooHeaderBytes(membersOf(fixed)))));
  header.set(fixed.subarray(0, header.length));
  if (header.length > fixed.length) yield { into: header.subarray(fixed.length), position: fixed.length };
  return parseCuckooHeader(header, size, WASM_TABLES.xxh64);
}

/** Reads a cuckoo filter file of `size` bytes: its header checked first, then each member's fingerprints straight into wasm memory. */
export function* cuckooDecoder(size: number): Decoder<CuckooFilter> {
  const file = yield* cuckooHeader(size);
  const parts = emptyPartsFor(file, WASM_TABLES);
  const release = () => parts.tables.forEach((table) => table.release());
  return yield* owning(parts, release, function* () {
    for (const [j, table] of parts.tables.entries()) yield { into: () => table.slots, position: file.payloads[j].start };
    finishStreamedParts(file, parts);
    return adoptParts(CuckooFilter, parts);
  });
}

/** A chain's checked headers: the chain's, then each member's span and header bytes. */
export interface ChainLayout {
  plan: ScalablePlan;
  spans: MemberSpan[];
  headers: Uint8Array[];
}

/**
 * Reads and checks the chain header and every member's header of a chain
 * file of `size` bytes, and its length: 56 bytes per member, at most
 * MAX_FILTER_COUNT of them. Nothing sized by the headers is allocated.
 */
export function* chainLayout(size: number): Decoder<ChainLayout> {
  const prefix = new Uint8Array(Math.min(CHAIN_HEADER_BYTES, size));
  yield { into: prefix, position: 0 };
  const chain = parseChainHeader(prefix, size, wasmXxh64);
  const spans: MemberSpan[] = [];
  const headers: Uint8Array[] = [];
  let start = CHAIN_HEADER_BYTES;
  for (let i = 0; i < chain.filterCount; i++) {
    const head = new Uint8Array(Math.max(0, Math.min(HEADER_BYTES, size - start)));
    if (head.length > 0) yield { into: head, position: start };
    const span = checkMemberHeader(chain, i, head, start, size);
    spans.push(span);
    headers.push(head);
    start += span.length;
  }
  checkChainEnd(start, size);
  return { plan: chain.plan, spans, headers };
}

/** Reads a chain file of `size` bytes: its layout first, then each member straight into its record's bits in the shared memory. */
export function* chainDecoder(size: number): Decoder<ScalableBloomFilter> {
  const { plan, spans, headers } = yield* chainLayout(size);
  // A member that fails gives itself back (payloadInto); the ones loaded before it go back here.
  const members: BloomFilter[] = [];
  return yield* owning(members, (loaded) => loaded.forEach(dispose), function* () {
    for (let i = 0; i < spans.length; i++) {
      try {
        members.push(yield* payloadInto(spans[i].header, headers[i], spans[i].start));
      } catch (error) {
        throw inMember(error, i, spans[i].start);
      }
    }
    return adoptChain({ plan, members, counts: members.map((m) => m.size) });
  });
}

/** What a save writes, and how to tell afterwards whether the object changed while it was written. */
export interface SaveJob {
  pieces(): Iterable<Region>;
  /** True when what was written is still the object's state (call after every piece was written). */
  unchanged(): boolean;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The save of a wasm filter as it is now: its header (checksum computed over
 * the bits in place, at once), then its bits.
 */
export function filterJob(filter: BloomFilter): SaveJob {
  const header = fileHeader(filter);
  return {
    *pieces() {
      yield header;
      yield () => engineOf(filter).bitsView();
    },
    // The header's checksum covers the bits as they were when the save began;
    // recomputing it now proves that what was written is that same state.
    unchanged: () => sameBytes(header, fileHeader(filter)),
  };
}

/**
 * The save of a wasm chain as it is now: the chain header, then member by
 * member its header and its bits. Only the newest member ever changes (the
 * older ones are full), so its header is taken at once and the older ones'
 * as they are written; a change shows as other members or a new checksum.
 */
export function chainJob(chain: ScalableBloomFilter): SaveJob {
  const { plan, members } = chainParts(chain);
  const snapshot = members.slice();
  const newest = snapshot[snapshot.length - 1];
  const newestHeader = fileHeader(newest);
  return {
    *pieces() {
      yield encodeChainHeader(plan, snapshot.length, wasmXxh64);
      for (const member of snapshot) {
        yield member === newest ? newestHeader : fileHeader(member);
        yield () => engineOf(member).bitsView();
      }
    },
    unchanged: () => {
      const now = chainParts(chain).members;
      return now.length === snapshot.length && now.every((m, i) => m === snapshot[i]) && sameBytes(newestHeader, fileHeader(newest));
    },
  };
}

/** The save of a wasm counting filter as it is now: its header (checksum over the counters in place), then its counters. */
export function countingJob(filter: CountingBloomFilter): SaveJob {
  const header = countingFileHeader(filter);
  return {
    *pieces() {
      yield header;
      yield () => countingEngineOf(filter).counters;
    },
    unchanged: () => sameBytes(header, countingFileHeader(filter)),
  };
}

/** The save of a wasm sliding filter as it is now: its header (checksum over the words in place), then its words. */
export function slidingJob(filter: SlidingBloomFilter): SaveJob {
  const header = slidingFileHeader(filter);
  return {
    *pieces() {
      yield header;
      yield () => slidingWordsView(filter);
    },
    unchanged: () => sameBytes(header, slidingFileHeader(filter)),
  };
}

/**
 * The save of a wasm cuckoo filter as it is now: its header (payload
 * checksums over the fingerprints in place), then each member's
 * fingerprints. A member that is gone or resized by the time it is written
 * (clear() gives back every member but the first; growth adds new ones)
 * aborts the save with BloomConcurrencyError, as any other change does.
 */
export function cuckooJob(filter: CuckooFilter): SaveJob {
  const header = filter.fileHeader();
  const lengths = cuckooPayloads(filter).map((p) => p.length);
  const member = (j: number): Uint8Array => {
    const view = cuckooPayloads(filter)[j];
    if (view === undefined || view.length !== lengths[j]) throw new BloomConcurrencyError('saveFile');
    return view;
  };
  return {
    *pieces() {
      yield header;
      for (let j = 0; j < lengths.length; j++) yield () => member(j);
    },
    unchanged: () => sameBytes(header, filter.fileHeader()),
  };
}
