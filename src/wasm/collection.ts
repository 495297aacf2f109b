// Release: dispose() frees a region at once; a filter dropped without it is
// freed when the garbage collector reports it (FinalizationRegistry, through
// the handle's ticket), which the arena prompts when reports lag
// (Arena.checkCollector, promptCollection here). Where FinalizationRegistry
// does not exist, only dispose() frees.

/** What a ticket gives a dropped record back to: its arena (src/wasm/arena.ts), named by what this file calls. */
interface Holder {
  release(record: number, generation: number): void;
  reported: boolean;
}

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
// Registering with an unregister token instead would cost about four times
// as much a filter, a third of what making a small filter costs
// (docs/MEMORY.md).

/** Per slot: the arena, and the record to free there with its generation (record 0: nothing). */
const slotArenas: (Holder | undefined)[] = [];
const slotRecords: number[] = [];
const slotGenerations: number[] = [];
/** Slots given back, to be used again. */
const freeSlots: number[] = [];

/** What a handle holds to have its record freed when it is dropped: registered once, used again after dispose(). */
export class Ticket {
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
export function promptCollection(): void {
  try {
    if (prompter === undefined || prompter.buffer.byteLength >= 2 * PROMPTER_PAGES * 65536) {
      prompter = new WebAssembly.Memory({ initial: PROMPTER_PAGES, maximum: 2 * PROMPTER_PAGES });
    }
    prompter.grow(1);
  } catch {
    prompter = undefined;
  }
}

/**
 * A ticket that has the garbage collector free `record` of `generation` in
 * `arena` once the handle holding it is unreachable (where
 * FinalizationRegistry exists): an idle one from the pool, or a new one,
 * registered. Undefined where nothing is collected.
 */
export function ticketFor(arena: Holder, record: number, generation: number): Ticket | undefined {
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
export function ticketDone(ticket: Ticket): void {
  slotArenas[ticket.slot] = undefined;
  slotRecords[ticket.slot] = 0;
  if (tickets.length < TICKETS_MAX) tickets.push(ticket);
}

/** Whether dropped filters are freed by the garbage collector here (false: dispose() alone frees). */
export const collectsDropped = registry !== undefined;
