// Where a filter goes:
// - into the newest shared arena, or an older one with room, or a new one
//   when none has room (an instance's memory stops at 4 GiB);
// - into an arena of its own when its region is DEDICATED_BYTES or more.
//   Wasm memory never shrinks, so a large region freed inside a shared
//   arena would stay resident for the life of the process; an instance of
//   its own gives its memory back with it. An instance's own cost is a
//   rounding error beside such a filter, and the engine's cap on instances
//   times 16 MiB is far beyond any machine's memory, so memory alone limits
//   the count (docs/MEMORY.md has the figures).

import { BloomAllocationError } from '../errors.js';
import { Arena, RECORD_BYTES, type RecordSpec } from './arena.js';

/** Regions of at least this many bytes get an instance of their own (see above). */
export const DEDICATED_BYTES = 16 * 1024 * 1024;

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
 * A new record made by `spec`: in a shared arena, or in an arena
 * of its own when it is large or `dedicated` is asked (an instance whose
 * scratch and hash state nothing else touches, for work that spans
 * awaits). BloomAllocationError when no memory can be had.
 */
export function place(spec: RecordSpec, dedicated = false): Placed {
  // The error names the bytes of the payload, as the file formats count them.
  const payload = spec.payloadBytes;
  const bytes = RECORD_BYTES + payload;
  if (dedicated || bytes >= DEDICATED_BYTES) {
    const arena = openArena(spec.size, payload, true);
    const record = arena.create(spec);
    if (record === 0) throw new BloomAllocationError(spec.size, payload);
    return { arena, record, generation: arena.createdGeneration };
  }
  if (newest !== undefined && !newest.dedicated) {
    const record = newest.create(spec);
    if (record !== 0) return { arena: newest, record, generation: newest.createdGeneration };
  }
  for (const arena of shared) {
    if (arena === newest) continue;
    const record = arena.create(spec);
    if (record !== 0) {
      newest = arena;
      return { arena, record, generation: arena.createdGeneration };
    }
  }
  const arena = openArena(spec.size, payload, false);
  shared.push(arena);
  const record = arena.create(spec);
  if (record === 0) throw new BloomAllocationError(spec.size, payload);
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

/** The shared arenas, for tests and the bench: how many, and their memory. */
export function sharedArenas(): readonly Arena[] {
  return shared;
}
