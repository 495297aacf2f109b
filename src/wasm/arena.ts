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
// A record is named by its address and its generation (assembly/record.ts):
// the instance refuses a pair that is not live, and a handle compares
// generations, never addresses, to know it is selected (RecordHandle).
//
// Release: dispose() frees a region at once; a filter dropped without it is
// freed when the garbage collector reports it (FinalizationRegistry, through
// the handle's ticket), which the arena prompts when reports lag
// (Arena.checkCollector). Where FinalizationRegistry does not exist, only
// dispose() frees.

import { BloomAllocationError, BloomDisposedError } from '../errors.js';
import type { Exports } from './abi.js';
import { Batches } from './batch.js';
import { instantiate, moduleEpoch } from './module.js';
import { Staging } from './staging.js';

/** What a record holds (assembly/record.ts's KIND_*). */
export const Kind = { Filter: 0, Hashing: 1, Counting: 2, Bitmap: 3, Sliding: 4, Cuckoo: 5, Fuse: 6 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** Bytes of a record before its bits (assembly/record.ts's RECORD_BYTES). */
export const RECORD_BYTES = 64;

/** Bytes of records made between two looks at the collector (Arena.checkCollector). */
const CHECK_BYTES = 1024 * 1024;

/** Records made without a report from the collector before it is prompted (Arena.checkCollector). */
const PROMPT_BYTES = 32 * 1024 * 1024;

/** Regions of at least this many bytes get an instance of their own (see above). */
export const DEDICATED_BYTES = 16 * 1024 * 1024;

/**
 * Bytes after the record for a record of `kind` holding m = `bits`, with
 * `wordBytes` bytes a word for a sliding filter, or b | (f << 8) for a
 * cuckoo table (assembly/record.ts's payloadBytes).
 */
export function payloadBytes(kind: Kind, bits: number, wordBytes = 0): number {
  if (kind === Kind.Filter) return Math.ceil(bits / 8);
  if (kind === Kind.Counting) return Math.ceil(bits / 2);
  if (kind === Kind.Bitmap) return Math.ceil(bits / 64) * 8;
  if (kind === Kind.Sliding || kind === Kind.Fuse) return bits * wordBytes;
  // A cuckoo table: m buckets, wordBytes = b | (f << 8) (assembly/cuckoo.ts), and 8 bytes of slack.
  if (kind === Kind.Cuckoo) return Math.ceil((bits * (wordBytes & 0xff) * (wordBytes >> 8)) / 8) + 8;
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

// What the garbage collector frees. A handle holds a ticket, a small
// object registered with the collector, whose held value is a slot of this
// table (a small integer: no allocation) naming the arena, the record and
// its generation. When the handle is dropped, its ticket goes with it and
// the report frees the record. dispose() frees the record at once, empties
// the slot and puts the ticket, still registered, in a pool, from which the
// next handle made takes it: a filter made and disposed in a loop
// registers nothing, and its handle, registered with nobody, dies young.
// The ticket rather than the handle is what goes around: a handle object
// is never used again once released, so no code that kept one can reach
// another filter through it.
//
// Registering with an unregister token instead would cost 750 ns a filter
// against 180 (a million registrations, Node 20): a third of what making a
// small filter costs.

/** Per slot: the arena, and the record to free there with its generation (record 0: nothing). */
const slotArenas: (Arena | undefined)[] = [];
const slotRecords: number[] = [];
const slotGenerations: number[] = [];
/** Slots given back, to be used again. */
const freeSlots: number[] = [];

/** What a handle holds to have its record freed when it is dropped: registered once, used again after dispose(). */
class Ticket {
  constructor(readonly slot: number) {}
}
/** Tickets of disposed handles, registered and idle; TICKETS_MAX bounds what an idle pool holds. */
const tickets: Ticket[] = [];
const TICKETS_MAX = 1024;

/** Frees the regions of dropped handles; absent on runtimes without FinalizationRegistry. */
const registry: FinalizationRegistry<number> | undefined =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((slot: number) => {
        const arena = slotArenas[slot];
        const record = slotRecords[slot];
        const generation = slotGenerations[slot];
        slotArenas[slot] = undefined;
        slotRecords[slot] = 0;
        freeSlots.push(slot);
        if (arena !== undefined && record > 0) {
          arena.release(record, generation);
          arena.reported = true;
        }
      })
    : undefined;

/** Pages of the prompter when it is made: 128 MiB of address space, which nothing touches, so it costs no resident memory. */
const PROMPTER_PAGES = 2048;
/** The memory whose growth prompts a full collection (Arena.checkCollector); made again when it doubled. */
let prompter: WebAssembly.Memory | undefined;

/**
 * Grows the prompter by one page, which V8 answers with a full collection
 * (it counts a memory's bytes as external memory). Where no such memory
 * can be had, nothing is prompted: the collector runs when it would have.
 */
function promptCollection(): void {
  try {
    if (prompter === undefined || prompter.buffer.byteLength >= 2 * PROMPTER_PAGES * 65536) {
      prompter = new WebAssembly.Memory({ initial: PROMPTER_PAGES, maximum: 2 * PROMPTER_PAGES });
    }
    prompter.grow(1);
  } catch {
    prompter = undefined;
  }
}

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
  /**
   * The generation of the record selected in the instance (0: none). Each
   * record's generation is its own in the instance (assembly/record.ts), so
   * a handle compares its own with this one to know it is selected: an
   * address alone could be a freed record's, reused.
   */
  current = 0;
  /** The generation of the record create() made last. */
  createdGeneration = 0;
  /** Records alive in it. */
  live = 0;
  /** Set when the garbage collector freed one of its records (see checkCollector()). */
  reported = false;
  /** Bytes of the records made since checkCollector() last ran. */
  private madeBytes = 0;
  /** The heap's bytes in use when the collector last reported or was prompted (checkCollector()). */
  private baseline = 0;
  /**
   * Bumped each time memory grew. A view of a region (bits, counters) is
   * good while the epoch it was made in is the arena's epoch; after a
   * growth it is detached and must be made again.
   */
  epoch = 0;

  /** The module source this arena's instance came from (module.ts's moduleEpoch): an older build takes no new records. */
  readonly build: number;

  /**
   * An arena over a new instance of the module, or over `x`, an instance
   * of the shared build, which holds one filter and no records.
   */
  constructor(dedicated: boolean, x: Exports = instantiate()) {
    this.x = x;
    this.build = moduleEpoch;
    this.staging = new Staging(this.x);
    this.batches = new Batches(this.x, this.staging);
    this.dedicated = dedicated;
    this.id = nextId++;
  }

  /**
   * Selects record `r` of `generation` in the instance, unless it is
   * selected already; `units` is whether its strings are hashed as UTF-16
   * code units (poly). False, selecting nothing, when the instance refuses
   * the pair: the record is not live.
   */
  select(r: number, generation: number, units: boolean): boolean {
    if (this.current !== generation) {
      if (this.x.select(r, generation) !== 0) return false;
      this.current = generation;
      this.staging.unitsForStrings = units;
    }
    return true;
  }

  /**
   * A new record (zeroed bits, selected), or 0 when this instance's memory
   * cannot hold it; its generation is then createdGeneration. Views are
   * refreshed if memory grew.
   */
  create(params: RecordParams, kind: Kind): number {
    const seedLo = Number(params.seed & 0xffffffffn);
    const seedHi = Number(params.seed >> 32n);
    const r = this.x.create(params.bits, params.hashes, params.schemeId, seedLo, seedHi, kind, params.wordBytes ?? 0) >>> 0;
    // Memory may have grown even when the record did not fit after all.
    this.grew();
    if (r === 0) return 0;
    this.createdGeneration = this.x.createdGeneration() >>> 0;
    this.current = this.createdGeneration;
    this.staging.unitsForStrings = params.schemeId === POLY_ID;
    this.live++;
    this.madeBytes += RECORD_BYTES + payloadBytes(kind, params.bits, params.wordBytes);
    if (this.madeBytes >= CHECK_BYTES && !this.dedicated) this.checkCollector();
    return r;
  }

  /**
   * Prompts a full collection when the records made since the collector
   * last reported (or was last prompted) reach PROMPT_BYTES, or half of
   * what was in use then. V8 reports a dropped object to
   * FinalizationRegistry only after a full collection, which it runs when
   * its own heap asks for one: a dropped filter leaves some 100 bytes of JS
   * heap for a kilobyte of bits, and as V8 raises its heap limit the
   * collections come further apart, so dropped regions pile up (with
   * BloomFilter(8192, 5) made and dropped, 100,000 to 650,000 of them, and
   * memory still growing after minutes). What V8 does react to is the
   * growth of a large wasm memory: it counts the memory as external bytes,
   * and over its limit it finishes a full collection at once. So the
   * prompter, a memory no one reads or writes, grows by a page
   * (promptCollection): the collection that follows finds the dropped
   * handles, and their regions come back when the reports run, at the next
   * turn of the event loop. Filters kept alive prompt at most one
   * collection per half again of what was in use: a few over a million
   * filters.
   */
  private checkCollector(): void {
    this.madeBytes = 0;
    const used = this.x.heapUsedBytes();
    // After reports the heap holds what is alive and what was dropped since
    // the collection: the least seen then is the measure of what is alive.
    if (this.reported) {
      this.reported = false;
      this.baseline = Math.min(this.baseline, used);
      return;
    }
    if (used < this.baseline + Math.max(PROMPT_BYTES, this.baseline / 2)) return;
    this.baseline = used;
    promptCollection();
  }

  /** Refreshes every view when memory grew (memory.grow detaches the old buffer). */
  grew(): void {
    if (this.staging.scratch.buffer !== this.x.memory.buffer) {
      this.staging.refresh();
      this.epoch++;
    }
  }

  /**
   * Gives record `r` of `generation` back; nothing when it is not live (the
   * instance refuses it). A dedicated arena is dropped with its record.
   */
  release(r: number, generation: number): void {
    if (this.x.release(r, generation) !== 0) return;
    if (this.current === generation) this.current = 0;
    this.live--;
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

/** A record, its generation, and the arena it lives in. */
export interface Placed {
  readonly arena: Arena;
  readonly record: number;
  readonly generation: number;
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
    return { arena, record, generation: arena.createdGeneration };
  }
  if (newest !== undefined && !newest.dedicated && newest.build === moduleEpoch) {
    const record = newest.create(params, kind);
    if (record !== 0) return { arena: newest, record, generation: newest.createdGeneration };
  }
  for (const arena of shared) {
    if (arena === newest || arena.build !== moduleEpoch) continue;
    const record = arena.create(params, kind);
    if (record !== 0) {
      newest = arena;
      return { arena, record, generation: arena.createdGeneration };
    }
  }
  const arena = openArena(params.bits, payload, false);
  shared.push(arena);
  const record = arena.create(params, kind);
  if (record === 0) throw new BloomAllocationError(params.bits, payload);
  newest = arena;
  return { arena, record, generation: arena.createdGeneration };
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
 * An arena to hash in (digest(), a chain member in an arena of its own):
 * the newest shared one, opened if there is none yet. Hashing takes the
 * seed as an argument and touches no record, so any instance serves.
 */
export function hashingArena(): Arena {
  if (newest !== undefined && !newest.dedicated) return newest;
  if (shared.length > 0) return shared[shared.length - 1];
  const arena = openArena(0, 0, false);
  shared.push(arena);
  newest = arena;
  return arena;
}

/**
 * A ticket that has the garbage collector free `record` of `generation` in
 * `arena` once the handle holding it is unreachable (where
 * FinalizationRegistry exists): an idle one from the pool, or a new one,
 * registered. Undefined where nothing is collected.
 */
function ticketFor(arena: Arena, record: number, generation: number): Ticket | undefined {
  if (registry === undefined) return undefined;
  let ticket = tickets.pop();
  if (ticket === undefined) {
    ticket = new Ticket(freeSlots.length > 0 ? freeSlots.pop()! : slotRecords.length);
    registry.register(ticket, ticket.slot);
  }
  slotArenas[ticket.slot] = arena;
  slotRecords[ticket.slot] = record;
  slotGenerations[ticket.slot] = generation;
  return ticket;
}

/** Empties the slot of `ticket` (its record was freed by hand) and keeps the ticket for the next handle. */
function ticketDone(ticket: Ticket): void {
  slotArenas[ticket.slot] = undefined;
  slotRecords[ticket.slot] = 0;
  if (tickets.length < TICKETS_MAX) tickets.push(ticket);
}

/**
 * What a released handle points at in place of its arena: no instance, no
 * memory (a large filter's dedicated instance is freed even while the
 * disposed object is referenced), and a selected generation (0) that no
 * handle's (-1 once released) equals, so every call takes the slow path,
 * which refuses it.
 */
const NO_ARENA = Object.freeze({ current: 0 }) as unknown as Arena;

/**
 * What the handles of src/wasm/ (Engine, CountingEngine, BitmapEngine,
 * SlidingEngine) share: a record and its generation in an arena, selected
 * before each call, and given back by dispose() or by the garbage
 * collector through its ticket. A released handle is never used again: it
 * drops its arena and views, and every call on it throws
 * BloomDisposedError naming the owner's class and the call.
 */
export abstract class RecordHandle {
  /** The instance the record lives in (NO_ARENA once released). */
  protected arena: Arena = NO_ARENA;
  /** The record's address (0 for a shared filter, whose instance holds only it; -1 once released). */
  protected record = -1;
  /** The record's generation: what names it, with its address, to the instance (-1 once released). */
  protected generation = -1;
  /** Its registration with the garbage collector, or undefined. */
  private ticket: Ticket | undefined = undefined;
  /** Whether strings are hashed as UTF-16 code units (poly). */
  protected units = false;
  /** The class whose handle this is, for BloomDisposedError: `BloomFilter`, `Bitmap`, ... */
  protected abstract readonly owner: string;

  /** The view of the region after the record, and the arena epoch it was made in (regionView). */
  private region: Uint8Array | undefined;
  private regionEpoch = -1;

  /** Places a new record of `kind` for `params` (place()), freed when this handle is dropped. */
  protected placeRecord(params: RecordParams, kind: Kind, dedicated = false): void {
    const { arena, record, generation } = place(params, kind, dedicated);
    this.arena = arena;
    this.record = record;
    this.generation = generation;
    this.ticket = ticketFor(arena, record, generation);
  }

  /** Takes on an instance that holds only this handle's filter (the shared build): nothing to select or free. */
  protected ownInstance(arena: Arena): void {
    this.arena = arena;
    this.record = 0;
    this.generation = 1;
    arena.current = 1;
  }

  /** Whether the handle still has its record. */
  get live(): boolean {
    return this.generation >= 0;
  }

  /** A view of the `length` bytes after the record, live: made again when memory grew since it was made. */
  protected regionView(length: number, call: string): Uint8Array {
    const a = this.enter(call);
    if (this.region === undefined || this.regionEpoch !== a.epoch) {
      this.region = new Uint8Array(a.x.memory.buffer, this.record + RECORD_BYTES, length);
      this.regionEpoch = a.epoch;
    }
    return this.region;
  }

  /** The arena of a live record, for walks over many records in one call (probeAll, a chain); undefined otherwise. @internal */
  walkArena(): Arena | undefined {
    return this.record > 0 ? this.arena : undefined;
  }

  /** The record, for those walks (0 when there is none). @internal */
  walkRecord(): number {
    return this.record > 0 ? this.record : 0;
  }

  /** The record's generation, which names it with its address to the walks (assembly/record.ts's isLive). @internal */
  walkGeneration(): number {
    return this.generation;
  }

  /** Where the region lies (a shared filter's: undefined). @internal */
  placement(): Region | undefined {
    return this.record > 0 ? regionOf(this.arena, this.record) : undefined;
  }

  /**
   * Selects this record in its instance and returns the instance; throws
   * BloomDisposedError naming `owner.call` when the handle was released (or
   * the instance refuses its record).
   */
  protected enter(call: string): Arena {
    const a = this.arena;
    if (a.current !== this.generation) this.reselect(call);
    return a;
  }

  /** The slow side of enter(): selects, or throws. */
  protected reselect(call: string): void {
    if (this.generation < 0 || !this.arena.select(this.record, this.generation, this.units)) throw this.disposed(call);
  }

  /** The error for a call on a released handle (a chain's walk names a released member with it). @internal */
  disposed(call: string): BloomDisposedError {
    return new BloomDisposedError(`${this.owner}.${call}`);
  }

  /**
   * Gives the region back now and lets go of the instance and every view
   * of its memory; false when there was none (released already, or a
   * shared filter's, which has no record in a heap).
   */
  protected releaseRecord(): boolean {
    const had = this.record > 0 && this.generation >= 0;
    if (had) this.arena.release(this.record, this.generation);
    if (this.ticket !== undefined) ticketDone(this.ticket);
    this.ticket = undefined;
    this.arena = NO_ARENA;
    this.record = -1;
    this.generation = -1;
    this.region = undefined;
    return had;
  }
}

/** Whether dropped filters are freed by the garbage collector here (false: dispose() alone frees). */
export const collectsDropped = registry !== undefined;

/** The shared arenas, for tests and the bench: how many, and their memory. */
export function sharedArenas(): readonly Arena[] {
  return shared;
}
