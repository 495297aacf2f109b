// Many filters, one instance. An arena is one instance of the module and
// its linear memory; each filter, counting filter or Bitmap in it is a
// record followed by its bits, a region of the instance's heap
// (assembly/heap.ts, assembly/record.ts). Objects hold a handle (their
// arena and the record's address) and never a view of their own that could
// outlive a growth: see `epoch`.
//
// Where a filter goes:
// - into the newest shared arena, or an older one with room, or a new one
//   when none has room (an instance's memory stops at 4 GiB);
// - into an arena of its own when its region is DEDICATED_BYTES or more.
//   Wasm memory never shrinks, so a large region freed inside a shared
//   arena would stay resident for the life of the process; an instance of
//   its own gives its memory back with it. Its cost (about 30 KB and
//   0.1-0.8 ms) is a rounding error beside such a filter, and the engine's
//   cap on instances (12,615 on Node 20) times 16 MiB is far beyond any
//   machine's memory, so memory alone limits the count (docs/MEMORY.md).
//
// Release: dispose() frees a region at once; a filter dropped without it is
// freed when the garbage collector reports it (FinalizationRegistry).
// Where FinalizationRegistry does not exist, only dispose() frees.

import { BloomAllocationError } from '../errors.js';
import type { Exports } from './abi.js';
import { Batches } from './batch.js';
import { instantiate } from './module.js';
import { Staging, viewEpoch } from './staging.js';

/** What a record holds (assembly/record.ts's KIND_*). */
export const Kind = { Filter: 0, Hashing: 1, Counting: 2, Bitmap: 3, Sliding: 4, Fuse: 5 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** Bytes of a record before its bits (assembly/record.ts's RECORD_BYTES). */
export const RECORD_BYTES = 64;

/** Regions of at least this many bytes get an instance of their own (see above). */
export const DEDICATED_BYTES = 16 * 1024 * 1024;

/**
 * Bytes after the record for a record of `kind` holding m = `bits`, with
 * `wordBytes` bytes a word for a sliding filter (assembly/record.ts's
 * payloadBytes).
 */
export function payloadBytes(kind: Kind, bits: number, wordBytes = 0): number {
  if (kind === Kind.Filter) return Math.ceil(bits / 8);
  if (kind === Kind.Counting) return Math.ceil(bits / 2);
  if (kind === Kind.Bitmap) return Math.ceil(bits / 64) * 8;
  if (kind === Kind.Sliding || kind === Kind.Fuse) return bits * wordBytes;
  return 0;
}

/** What a record is made of: m, k, the scheme's id and the seed, and a sliding filter's bytes per word. */
export interface RecordParams {
  readonly bits: number;
  readonly hashes: number;
  readonly schemeId: number;
  readonly seed: bigint;
  readonly wordBytes?: number;
}

/** The poly scheme's id (src/filter/options.ts's SCHEMES order): strings as UTF-16 code units. */
const POLY_ID = 1;

let nextId = 1;

// What the garbage collector frees. A registration's held value is a slot
// of this table (a small integer: no allocation), which names the arena and
// the record to free when the registered object is collected. dispose()
// frees the record at once and empties the slot, so the report, when it
// comes, only gives the slot back. A slot can also be given a new record:
// an Engine taken from the pool (src/wasm/engine.ts) keeps its
// registration and its slot.
//
// Registering with an unregister token instead would cost 750 ns a filter
// against 180 (a million registrations, Node 20): a third of what making a
// small filter costs.

/** Per slot: the arena, and the record to free there (0: nothing). */
const slotArenas: (Arena | undefined)[] = [];
const slotRecords: number[] = [];
/** Slots given back, to be used again. */
const freeSlots: number[] = [];

/** Frees the regions of dropped handles; absent on runtimes without FinalizationRegistry. */
const registry: FinalizationRegistry<number> | undefined =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((slot: number) => {
        const arena = slotArenas[slot];
        const record = slotRecords[slot];
        slotArenas[slot] = undefined;
        slotRecords[slot] = 0;
        freeSlots.push(slot);
        if (arena !== undefined && record > 0) {
          arena.release(record);
          arena.collected++;
        }
      })
    : undefined;

/** One instance, its scratch and views, and the records in its memory. */
export class Arena {
  /** The instance's exports: private to src/wasm/. */
  readonly x: Exports;
  /** The scratch region and the views into memory. */
  readonly staging: Staging;
  /** addMany/hasMany, chunked. */
  readonly batches: Batches;
  /** A number that names it: regions are told apart by arena and address. */
  readonly id: number;
  /** Whether it holds one record of its own (a large filter, or hashing whose state nothing else may touch). */
  readonly dedicated: boolean;
  /** The record selected in the instance (0: none). */
  current = 0;
  /** Records alive in it. */
  live = 0;
  /**
   * Records made, and records the garbage collector freed, both halved at
   * each growth so that they tell of the recent past (see create()).
   */
  made = 0;
  collected = 0;
  /** The growth step set in the instance (assembly/heap.ts's heapGrowth). */
  private growthShift = 3;
  /**
   * Bumped each time memory grew. A view of a region (bits, counters) is
   * good while the epoch it was made in is the arena's epoch; after a
   * growth it is detached and must be made again.
   */
  epoch = 0;

  /**
   * An arena over a new instance of the module, or over `x`, an instance
   * of the shared build, which holds one filter and no records.
   */
  constructor(dedicated: boolean, x: Exports = instantiate()) {
    this.x = x;
    this.staging = new Staging(this.x);
    this.batches = new Batches(this.x, this.staging);
    this.dedicated = dedicated;
    this.id = nextId++;
  }

  /**
   * Selects record `r` in the instance, unless it is selected already;
   * `units` is whether its strings are hashed as UTF-16 code units (poly).
   */
  select(r: number, units: boolean): void {
    if (this.current !== r) {
      this.x.select(r);
      this.current = r;
      this.staging.unitsForStrings = units;
    }
  }

  /**
   * A new record (zeroed bits, selected), or 0 when this instance's memory
   * cannot hold it. Views are refreshed if memory grew.
   */
  create(params: RecordParams, kind: Kind): number {
    // While the collector frees most of the records made (filters made and
    // dropped), memory grows in steps of 1/128: each growth prompts the
    // engine to collect, which frees the dropped regions, so memory stays
    // near what is alive. Otherwise (filters kept) it grows by an eighth,
    // and each of the fewer growths costs a full collection over every
    // live filter. Measured on 3 x 10^6 dropped filters of 1 KiB: peak RSS
    // 562 MB with eighths; and on 10^6 kept ones, 55 us a filter with small
    // steps against 3.7.
    this.made++;
    const shift = 2 * this.collected > this.made ? 7 : 3;
    if (shift !== this.growthShift) {
      this.x.heapGrowth(shift);
      this.growthShift = shift;
    }
    const seedLo = Number(params.seed & 0xffffffffn);
    const seedHi = Number(params.seed >> 32n);
    const r = this.x.create(params.bits, params.hashes, params.schemeId, seedLo, seedHi, kind, params.wordBytes ?? 0) >>> 0;
    // Memory may have grown even when the record did not fit after all.
    this.grew();
    if (r === 0) return 0;
    this.current = r;
    this.staging.unitsForStrings = params.schemeId === POLY_ID;
    this.live++;
    return r;
  }

  /** Refreshes every view when memory grew (memory.grow detaches the old buffer). */
  grew(): void {
    if (this.staging.scratch.buffer !== this.x.memory.buffer) {
      this.staging.refresh();
      this.epoch++;
      this.made >>= 1;
      this.collected >>= 1;
    }
  }

  /** Gives record `r`'s region back. A dedicated arena is dropped with its record. */
  release(r: number): void {
    this.x.release(r);
    if (this.current === r) this.current = 0;
    this.live--;
    // probeAll's cached plans may hold a view of the region: they are made again.
    viewEpoch.count++;
  }

  /** Bytes of wasm memory the instance holds. */
  get memoryBytes(): number {
    return this.x.memory.buffer.byteLength;
  }
}

/** The shared arenas, oldest first; new records go to the newest that has room. */
const shared: Arena[] = [];
/** The arena that took the last record. */
let newest: Arena | undefined;

/** Where a record lies: its arena's id, and its heap block (header included), for tests and the bench. @internal */
export interface Region {
  readonly arena: number;
  readonly start: number;
  readonly bytes: number;
}

/** The heap block of `record` in `arena`. @internal */
export function regionOf(arena: Arena, record: number): Region {
  return { arena: arena.id, start: record - BLOCK_HEADER, bytes: arena.x.heapBlockSize(record) >>> 0 };
}

/** Bytes of a heap block's header (assembly/heap.ts's HEADER). */
const BLOCK_HEADER = 16;

/** A record and the arena it lives in. */
export interface Placed {
  readonly arena: Arena;
  readonly record: number;
}

/**
 * A new record of `kind` for `params`: in a shared arena, or in an arena
 * of its own when it is large or `dedicated` is asked (an instance whose
 * scratch and hash state nothing else touches, for work that spans
 * awaits). BloomAllocationError when no memory can be had.
 */
export function place(params: RecordParams, kind: Kind, dedicated = false): Placed {
  // The error names the bytes of the bits, as the file formats count them.
  const payload = payloadBytes(kind, params.bits, params.wordBytes);
  const bytes = RECORD_BYTES + payload;
  if (dedicated || bytes >= DEDICATED_BYTES) {
    const arena = openArena(params.bits, payload, true);
    const record = arena.create(params, kind);
    if (record === 0) throw new BloomAllocationError(params.bits, payload);
    return { arena, record };
  }
  if (newest !== undefined && !newest.dedicated) {
    const record = newest.create(params, kind);
    if (record !== 0) return { arena: newest, record };
  }
  for (const arena of shared) {
    if (arena === newest) continue;
    const record = arena.create(params, kind);
    if (record !== 0) {
      newest = arena;
      return { arena, record };
    }
  }
  const arena = openArena(params.bits, payload, false);
  shared.push(arena);
  const record = arena.create(params, kind);
  if (record === 0) throw new BloomAllocationError(params.bits, payload);
  newest = arena;
  return { arena, record };
}

/**
 * A new arena; BloomAllocationError (for a region of `bytes`) when the
 * engine refuses another instance: it reserves address space for every
 * wasm memory up front and throws a RangeError when it cannot.
 */
function openArena(bits: number, bytes: number, dedicated: boolean): Arena {
  try {
    return new Arena(dedicated);
  } catch (error) {
    if (error instanceof RangeError) throw new BloomAllocationError(bits, bytes, error.message);
    throw error;
  }
}

/**
 * Has the garbage collector free `record` of `arena` once `owner` is
 * unreachable (where FinalizationRegistry exists). Returns the slot that
 * names the record, or -1.
 */
export function releaseWhenDropped(owner: object, arena: Arena, record: number): number {
  if (registry === undefined) return -1;
  const slot = freeSlots.length > 0 ? freeSlots.pop()! : slotRecords.length;
  slotArenas[slot] = arena;
  slotRecords[slot] = record;
  registry.register(owner, slot);
  return slot;
}

/** Frees `record` of `arena` now; the slot's report, when it comes, frees nothing. */
export function releaseNow(slot: number, arena: Arena, record: number): void {
  if (slot >= 0) {
    slotArenas[slot] = undefined;
    slotRecords[slot] = 0;
  }
  arena.release(record);
}

/** Points `slot` (whose owner is alive and registered) at a new record: the owner is used again. */
export function reassignSlot(slot: number, arena: Arena, record: number): void {
  if (slot < 0) return;
  slotArenas[slot] = arena;
  slotRecords[slot] = record;
}

/**
 * What the handles of src/wasm/ (Engine, CountingEngine, BitmapEngine)
 * share: a record in an arena, selected before each call, and given back
 * by dispose() or by the garbage collector through its slot.
 */
export abstract class RecordHandle {
  /** The instance the record lives in. */
  protected arena!: Arena;
  /** The record (0 for a shared filter, whose instance holds only it; -1 once released). */
  protected record = -1;
  /** Its slot in the garbage collector's table, or -1. */
  protected slot = -1;
  /** Whether strings are hashed as UTF-16 code units (poly). */
  protected units = false;

  /** The view of the region after the record, and the arena epoch it was made in (regionView). */
  private region: Uint8Array | undefined;
  private regionEpoch = -1;

  /** Places a new record of `kind` for `params` (place()), freed when this handle is dropped. */
  protected placeRecord(params: RecordParams, kind: Kind): void {
    const { arena, record } = place(params, kind);
    this.arena = arena;
    this.record = record;
    this.slot = releaseWhenDropped(this, arena, record);
  }

  /** A view of the `length` bytes after the record, live: made again when memory grew since it was made. */
  protected regionView(length: number): Uint8Array {
    if (this.region === undefined || this.regionEpoch !== this.arena.epoch) {
      this.region = new Uint8Array(this.arena.x.memory.buffer, this.record + RECORD_BYTES, length);
      this.regionEpoch = this.arena.epoch;
    }
    return this.region;
  }

  /** Where the region lies (a shared filter's: undefined). @internal */
  placement(): Region | undefined {
    return this.record > 0 ? regionOf(this.arena, this.record) : undefined;
  }

  /** Selects this record in its instance and returns the instance. */
  protected enter(): Arena {
    const a = this.arena;
    if (a.current !== this.record) a.select(this.record, this.units);
    return a;
  }

  /** Gives the region back now; false when there was none (released already, or a shared filter). */
  protected releaseRecord(): boolean {
    if (this.record <= 0) return false;
    releaseNow(this.slot, this.arena, this.record);
    this.record = -1;
    return true;
  }
}

/** Whether dropped filters are freed by the garbage collector here (false: dispose() alone frees). */
export const collectsDropped = registry !== undefined;

/** The shared arenas, for tests and the bench: how many, and their memory. */
export function sharedArenas(): readonly Arena[] {
  return shared;
}
