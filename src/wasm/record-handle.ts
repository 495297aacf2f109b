// A handle: what an object of the API holds of its record (an arena, the
// record's address and its generation), and the one way in to it (enter).

import { BloomDisposedError } from '../errors.js';
import { type Arena, type RecordSpec, REFUSED } from './arena.js';
import { type Ticket, ticketDone, ticketFor } from './collection.js';
import { place, regionOf, type Region } from './placement.js';
import type { UnitsStaging } from './staging.js';

/**
 * What a released handle points at in place of its arena: no instance, no
 * memory (a large filter's dedicated instance is freed even while the
 * disposed object is referenced).
 */
const NO_ARENA = Object.freeze({}) as unknown as Arena;


/**
 * What the handles of src/wasm/ (CoreEngine and Engine, BitmapEngine, and
 * through RegionHandle the counting, sliding, cuckoo and binary fuse
 * engines) share: a record and its generation in an arena, passed to
 * every export that acts on the filter (which refuses a pair that is not
 * live), and given back by dispose() or by the garbage collector through
 * its ticket. A released handle is never used again: it drops its arena
 * and views, and every call on it throws BloomDisposedError naming the
 * owner's class and the call.
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
  /** How strings are staged as UTF-16 code units where the scheme hashes them so (poly: src/wasm/units.ts), else undefined. */
  protected units: UnitsStaging | undefined = undefined;
  /** The class whose handle this is, for BloomDisposedError: `BloomFilter`, `Bitmap`, ... */
  protected abstract readonly owner: string;

  /** Places a new record made by `spec` (place()), freed when this handle is dropped. */
  protected placeRecord(spec: RecordSpec, dedicated = false): void {
    const { arena, record, generation } = place(spec, dedicated);
    this.arena = arena;
    this.record = record;
    this.generation = generation;
    this.ticket = ticketFor(arena, record, generation);
  }

  /** Whether the handle still has its record. */
  get live(): boolean {
    return this.generation >= 0;
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

  /**
   * The instance of a live handle; throws BloomDisposedError naming
   * `owner.call` when the handle was released. The calls then name the
   * record (this.record, this.generation) to every export.
   */
  protected enter(call: string): Arena {
    if (this.generation < 0) throw this.disposed(call);
    return this.arena;
  }

  /** An export's answer `v`, or BloomDisposedError naming `owner.call` when the instance refused the record (REFUSED). @internal */
  checked(v: number, call: string): number {
    if (v === REFUSED) throw this.disposed(call);
    return v;
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
    return had;
  }
}

/** Where `handle`'s region lies; undefined for a shared filter's, which has no record in a heap. For the heap's tests. @internal */
export function placementOf(handle: RecordHandle): Region | undefined {
  const arena = handle.walkArena();
  return arena === undefined ? undefined : regionOf(arena, handle.walkRecord());
}
