// The shared memory of a shared filter (assembly/shared.ts), seen from JS:
// how big to make it, and which work area each thread's instance gets.
//
//   [statics][shared header 18 KiB][bits][work area][work area]...
//
// The header holds the two u64 counters (+0 bitsSet, +8 addedCount; the
// wasm side changes them with atomic adds) and from +64 a table of
// MAX_WORK_AREAS u32 page numbers of work areas given back: room for every
// area the memory can ever hold, so none is lost; from +2048 the stripe
// lock words that only the wasm side touches (assembly/stripe.ts).
// A work area is where one instance stages items (its scratch, batch tables and probe
// positions); an instance must own its area alone. attach() takes one from
// the table with a compare-exchange, or else grows the memory by one area:
// memory.grow is atomic and returns the old size, so two threads that grow
// at once get different areas. An area goes back to the table when the
// filter that held it is garbage-collected (a FinalizationRegistry); a
// thread that ends first keeps its area, and the memory is that much
// bigger (workAreaPages pages) until every thread drops the memory.

import { BloomAllocationError, BloomTypeError } from '../errors.js';
import { checkFilterRecord, FILTER_RECORD_BYTES, writeFilterRecord } from './shared-record.js';
import type { FilterParams } from './inputs.js';
import { compiledSharedModule, sharedImports } from './module.js';
import { encoder, type Staging } from './staging.js';

/** Bytes in a wasm page. */
const PAGE = 65536;


/** Work areas a shared memory may hold at once (its maximum is sized for them), and entries in the free table. */
export const MAX_WORK_AREAS = 256;

/** Byte offset, from the header, of the free work-area table. */
const FREE_TABLE = 64;

/** Byte offset, from the header, of the filter record (src/filter/shared.ts), between the counters and the table. */
const FILTER_RECORD = 16;

/** Where the shared build puts things: read once from an instance over a scrap memory. */
interface SharedLayout {
  /** Offset of the shared header. */
  headerPtr: number;
  /** Offset of the bits. */
  bitsPtr: number;
  /** Pages of one work area. */
  workAreaPages: number;
}

let layout: SharedLayout | undefined;

/**
 * The layout constants of the shared build. Its start function only sets
 * globals, so an instance over a one-page scrap memory can report them
 * without writing anything.
 */
export function sharedLayout(): SharedLayout {
  if (layout === undefined) {
    const scrap = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    const x = new WebAssembly.Instance(compiledSharedModule(), sharedImports(scrap, 0)).exports as {
      sharedHeaderPtr(): number;
      bitsPtr(): number;
      workAreaSize(): number;
    };
    layout = { headerPtr: x.sharedHeaderPtr(), bitsPtr: x.bitsPtr(), workAreaPages: Math.ceil(x.workAreaSize() / PAGE) };
  }
  return layout;
}

/**
 * Bytes the bits of an m-bit filter take in shared memory: whole 32-bit
 * words, since the shared build sets bits with an atomic OR on a word.
 */
export function sharedBitsBytes(bits: number): number {
  return Math.ceil(bits / 32) * 4;
}

/** Pages from address 0 to the end of the bits: where the first work area may start. */
function bitsPages(bits: number): number {
  return Math.ceil((sharedLayout().bitsPtr + sharedBitsBytes(bits)) / PAGE);
}


/**
 * A new zeroed shared memory for an m-bit filter, with room to grow by
 * MAX_WORK_AREAS work areas (capped at the 4 GiB of wasm32). Throws
 * BloomAllocationError when the engine refuses it.
 */
export function createSharedMemory(params: FilterParams, bytes: number): WebAssembly.Memory {
  const { bits } = params;
  const initial = bitsPages(bits);
  const maximum = Math.min(65536, initial + MAX_WORK_AREAS * sharedLayout().workAreaPages);
  if (initial + sharedLayout().workAreaPages > maximum) {
    throw new BloomAllocationError(bits, bytes, 'no room is left in the 4 GiB of wasm32 for a work area next to the bits');
  }
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial, maximum, shared: true });
  } catch (error) {
    if (error instanceof RangeError) throw new BloomAllocationError(bits, bytes, error.message);
    throw error;
  }
  writeFilterRecord(recordView(memory), params);
  return memory;
}

/** The filter record's bytes in `memory`'s header. */
function recordView(memory: WebAssembly.Memory): DataView {
  return new DataView(memory.buffer, sharedLayout().headerPtr + FILTER_RECORD, FILTER_RECORD_BYTES);
}

/** Throws BloomTypeError unless `memory` holds the filter that `params` describe (attach checks a handle with it). */
export function checkHeldFilter(memory: WebAssembly.Memory, params: FilterParams): void {
  checkFilterRecord(recordView(memory), params, 'handle.memory');
}

/** True when `memory` is big enough for the bits of an m-bit filter (attach checks a handle with it). */
export function holdsBits(memory: WebAssembly.Memory, bits: number): boolean {
  return memory.buffer.byteLength >= bitsPages(bits) * PAGE;
}

/** The free work-area table of `memory`'s header, as Int32 for Atomics. */
function freeTable(memory: WebAssembly.Memory): Int32Array {
  return new Int32Array(memory.buffer, sharedLayout().headerPtr + FREE_TABLE, MAX_WORK_AREAS);
}

/**
 * A work area of `memory` for one instance, as a byte offset: one given
 * back earlier, or else a new one at the end. Throws BloomAllocationError
 * when the memory has reached its maximum.
 */
export function claimWorkArea(memory: WebAssembly.Memory, bits: number): number {
  const table = freeTable(memory);
  for (let i = 0; i < MAX_WORK_AREAS; i++) {
    const page = Atomics.load(table, i);
    if (page === 0) continue;
    // Only a memory that was not made by share() can hold anything else; an
    // area taken from it would overlap the bits or lie past the memory's end.
    if (!isWorkArea(memory, bits, page)) {
      throw new BloomTypeError('handle.memory', `a free work-area table entry of page ${page}`, `a shared memory from BloomFilter.share() (its free work areas lie after the bits, within the memory)`);
    }
    if (Atomics.compareExchange(table, i, page, 0) === page) return page * PAGE;
  }
  const pages = sharedLayout().workAreaPages;
  try {
    return memory.grow(pages) * PAGE;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new BloomAllocationError(bits, pages * PAGE, `the shared memory is at its maximum of work areas (${MAX_WORK_AREAS} threads attached at once)`);
  }
}

/** Whether `page` starts a work area of `memory`: areas follow the bits back to back, each whole within the memory. */
function isWorkArea(memory: WebAssembly.Memory, bits: number, page: number): boolean {
  const first = bitsPages(bits);
  const size = sharedLayout().workAreaPages;
  return page >= first && (page - first) % size === 0 && (page + size) * PAGE <= memory.buffer.byteLength;
}

/** Gives a work area back for a later claimWorkArea (the table has an entry for every area there can be). */
function releaseWorkArea(memory: WebAssembly.Memory, workArea: number): void {
  const table = freeTable(memory);
  const page = workArea / PAGE;
  for (let i = 0; i < MAX_WORK_AREAS; i++) {
    if (Atomics.compareExchange(table, i, 0, page) === 0) return;
  }
}

/** Absent where the runtime has no FinalizationRegistry: work areas then go back on dispose() alone. */
const areas =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<{ memory: WebAssembly.Memory; workArea: number }>(({ memory, workArea }) => releaseWorkArea(memory, workArea))
    : undefined;

/** Gives `workArea` back when `owner` (the engine using it) is garbage-collected. */
export function releaseWhenCollected(owner: object, memory: WebAssembly.Memory, workArea: number): void {
  areas?.register(owner, { memory, workArea }, owner);
}

/** Gives `workArea` back now (the engine's dispose()), and forgets `owner`'s registration. */
export function releaseWorkAreaNow(owner: object, memory: WebAssembly.Memory, workArea: number): void {
  areas?.unregister(owner);
  releaseWorkArea(memory, workArea);
}

/**
 * Browsers refuse TextEncoder.encodeInto into a view of shared memory, Node
 * allows it. Where it is refused, `staging`'s strings are encoded into a
 * private buffer of the scratch's size and copied over: one more copy per
 * string (Staging.bounceVia).
 */
export function bounceWhereRefused(staging: Staging): void {
  try {
    encoder.encodeInto('', new Uint8Array(staging.x.memory.buffer, staging.x.scratchPtr(), 1));
    return;
  } catch {
    // Refused: bounce.
  }
  const bounce = new Uint8Array(staging.scratchSize);
  staging.bounceVia((text, at) => {
    const written = encoder.encodeInto(text, bounce.subarray(0, staging.scratchSize - at)).written;
    staging.scratch.set(bounce.subarray(0, written), at);
    return written;
  });
}
