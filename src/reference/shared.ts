// The reference twin's shared filter: its bits, counters and stripe locks
// in one SharedArrayBuffer, [bitsSet u64][addedCount u64][next token i32]
// [0 u32][filter record, 32 bytes: src/filter/shared.ts] (64 bytes in all), [STRIPES lock words i32][bits, whole 32-bit words],
// changed with Atomics (the bits: src/reference/bit-array.ts,
// SharedBitArray). The wasm filter's shared memory has the same bits and
// counters in another layout (src/wasm/shared-memory.ts); the lock words
// are src/reference/stripe.ts. docs/SHARED.md has the memory model, which
// is the same for both.

import { BloomTypeError } from '../errors.js';
import { checkParams, type FilterParams, type Scheme } from '../filter/options.js';
import { checkFilterRecord, FILTER_RECORD_BYTES, writeFilterRecord } from '../wasm/shared-record.js';
import { STRIPES } from './stripe.js';

/** The `kind` of a handle from the reference twin's share(). */
export const REFERENCE_SHARED_KIND = 'bloomwasm/reference.SharedFilter';

/** Bytes of the counters and the token counter. */
export const COUNTERS_BYTES = 64;

/** Byte offset of the token counter (i32) among the counters. */
export const TOKEN_OFFSET = 16;

/** Byte offset of the filter record (src/filter/shared.ts) that attach checks a handle against. */
const RECORD_OFFSET = 24;

/** Bytes before the bits: the counters, then the stripe lock words. */
export const BITS_OFFSET = COUNTERS_BYTES + STRIPES * 4;

/** What the reference twin's share() returns: structured-cloneable; its attach(handle) opens it in any thread. */
export interface SharedFilterHandle {
  /** Always REFERENCE_SHARED_KIND. */
  readonly kind: typeof REFERENCE_SHARED_KIND;
  /** The counters and the bits. */
  readonly buffer: SharedArrayBuffer;
  /** m. */
  readonly bits: number;
  /** k. */
  readonly hashes: number;
  /** The hash scheme. */
  readonly scheme: Scheme;
  /** The XXH64 seed. */
  readonly seed: bigint;
}

/** Bytes of the shared buffer of an m-bit filter. */
export function sharedBufferBytes(bits: number): number {
  return BITS_OFFSET + Math.ceil(bits / 32) * 4;
}

/** A zeroed shared buffer for the filter of `params`, with its filter record written. */
export function newSharedBuffer(params: FilterParams): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(sharedBufferBytes(params.bits));
  writeFilterRecord(new DataView(buffer, RECORD_OFFSET, FILTER_RECORD_BYTES), params);
  return buffer;
}

/** The counters of a filter: in fields, or in a shared buffer. */
export interface Counts {
  /** The number of 1 bits. */
  setCount: number;
  /** The number of adds that set a bit. */
  addedCount: number;
  /** Counts an add that set `fresh` bits. */
  count(fresh: number): void;
}

/** Counters in plain fields. */
export class LocalCounts implements Counts {
  /** The number of 1 bits. */
  setCount = 0;
  /** The number of adds that set a bit. */
  addedCount = 0;
  /** Counts an add that set `fresh` bits. */
  count(fresh: number): void {
    this.setCount += fresh;
    if (fresh > 0) this.addedCount++;
  }
}

/** Counters in the first 16 bytes of a shared buffer, changed with Atomics.add. */
export class SharedCounts implements Counts {
  /** [bitsSet, addedCount] as u64 cells. */
  private readonly cells: BigInt64Array;
  /** The counters at the start of `buffer`. */
  constructor(buffer: SharedArrayBuffer) {
    this.cells = new BigInt64Array(buffer, 0, 2);
  }
  /** The number of 1 bits. */
  get setCount(): number {
    return Number(Atomics.load(this.cells, 0));
  }
  set setCount(value: number) {
    Atomics.store(this.cells, 0, BigInt(value));
  }
  /** The number of adds that set a bit. */
  get addedCount(): number {
    return Number(Atomics.load(this.cells, 1));
  }
  set addedCount(value: number) {
    Atomics.store(this.cells, 1, BigInt(value));
  }
  /** Counts an add that set `fresh` bits, with two atomic adds. */
  count(fresh: number): void {
    if (fresh === 0) return;
    Atomics.add(this.cells, 0, BigInt(fresh));
    Atomics.add(this.cells, 1, 1n);
  }
}

/** Checks a handle for the reference twin's attach(). */
export function checkReferenceHandle(handle: unknown): { params: FilterParams; buffer: SharedArrayBuffer } {
  if (typeof handle !== 'object' || handle === null) {
    throw new BloomTypeError('handle', handle, 'a handle from share() of bloomwasm/reference');
  }
  const h = handle as Partial<SharedFilterHandle>;
  if (h.kind !== REFERENCE_SHARED_KIND) {
    throw new BloomTypeError('handle.kind', h.kind, `"${REFERENCE_SHARED_KIND}" (a handle from share() of bloomwasm/reference)`);
  }
  const params = checkParams(h.bits, h.hashes, { scheme: h.scheme, seed: h.seed });
  const buffer = h.buffer;
  if (typeof SharedArrayBuffer === 'undefined' || !(buffer instanceof SharedArrayBuffer)) {
    throw new BloomTypeError('handle.buffer', buffer, 'a SharedArrayBuffer');
  }
  if (buffer.byteLength < sharedBufferBytes(params.bits)) {
    throw new BloomTypeError('handle.buffer', buffer, `a SharedArrayBuffer of at least ${sharedBufferBytes(params.bits)} bytes for ${params.bits} bits`);
  }
  checkFilterRecord(new DataView(buffer, RECORD_OFFSET, FILTER_RECORD_BYTES), params, 'handle.buffer');
  return { params, buffer };
}
