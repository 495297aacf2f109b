// A chain's members walked in one call into their arena (assembly/chain.ts):
// ScalableBloomFilter's has, hasMany and addMany, member by member in wasm,
// with JS only starting new members. The walk is the chain's module
// (assembly/chain-module.ts), a family module over the arena's memory
// (src/wasm/family-module.ts), and this file is beside the Engine rather
// than in it, so that a bundle of one plain filter carries neither.

import type { CheckedBatch, Item } from './inputs.js';
import type { Arena } from './arena.js';
import type { BatchOp, ChunkRunner } from './batch.js';
import type { CoreEngine } from './core-engine.js';
import { CHAIN_MAX } from './work-area.js';
import type { ChainExports } from './abi.js';
import { FamilyModule } from './family-module.js';
import { chainWasm } from './chain-bytes.generated.js';

/** The chain's module (assembly/chain-module.ts), instantiated over each arena whose chains are walked. */
export const chainModule = /* @__PURE__ */ new FamilyModule<ChainExports>(chainWasm);

/**
 * A chain's members' engines, oldest first, under a stamp that no other
 * list has had: a list whose members change is made again, with a new
 * stamp (src/scalable/scalable.ts).
 */
export interface WalkList {
  /** The members' engines, oldest first; only the last one is ever added to. */
  readonly engines: readonly CoreEngine[];
  /** The list's stamp (a GrowingChain's is that of the list its engines were copied from). */
  readonly stamp: number;
}

/**
 * What a chain's walk (chainRun) reads and changes of its chain: the
 * members' engines, oldest first, and how the newest grows.
 */
export interface GrowingChain extends WalkList {
  /** Items the newest member may still take before a new one starts. */
  room(): number;
  /** Counts `n` new items in the newest member. */
  counted(n: number): void;
  /** Appends the next member and returns its engine. */
  startMember(): CoreEngine;
}

/** The stamp of the next WalkList. */
let stamps = 0;

/** A stamp for a new WalkList. */
export function nextStamp(): number {
  return ++stamps;
}

/**
 * The stamp of the members list whose (record, generation) pairs were
 * written last, and the chain records region they went to: a chain asked
 * again writes them again only when another list wrote since, in any
 * arena. Writing them on every call cost a 7-member chain's has 270 to 370
 * more instructions (of 2,500 to 3,000: callgrind, Node 20 and 24), and the
 * instance's generation check cannot stand in for the stamp: another
 * chain's pairs are live too, and would be walked. (Here, not in Staging,
 * so that a bundle without chains does not carry it.) A
 * stamp rather than the list itself: nothing here holds a chain, so a
 * chain dropped without dispose() is collected, and its records freed, as
 * if it had never been asked; and comparing two numbers costs nothing,
 * where a WeakRef's deref() is a call into the engine's C++ that keeps its
 * target for the rest of the job (profiled on Node 24: a tenth of the JS
 * time of a 7-member chain's has).
 */
let written: { readonly stamp: number; readonly records: Uint32Array; readonly walk: ChainExports } | undefined;

/**
 * The arena of a chain whose members (`engines`, oldest first, under
 * `stamp`) can be walked in one call: all in one arena, at most CHAIN_MAX
 * of them; their records are written to its chain records region, and
 * `written.walk` is the chain's module over it. Undefined otherwise (the
 * chain then asks member by member).
 */
function chainArena(engines: readonly CoreEngine[], stamp: number): Arena | undefined {
  const arena = engines[0]?.walkArena();
  // (address, generation) pairs in the chain records region.
  if (arena === undefined || engines.length > CHAIN_MAX || arena.staging.chainRecords.length === 0) return undefined;
  const records = arena.staging.chainRecords;
  // Written by this list last, into this region: its pairs are there still.
  // (A record never moves; a member disposed since is a pair the walk
  // refuses, as it would a new one.)
  if (written !== undefined && written.records === records && written.stamp === stamp) return arena;
  written = undefined;
  for (let i = 0; i < engines.length; i++) {
    const e = engines[i];
    if (e.walkArena() !== arena) return undefined;
    records[2 * i] = e.walkRecord();
    records[2 * i + 1] = e.walkGeneration();
  }
  written = { stamp, records, walk: chainModule.of(arena) };
  return arena;
}

/**
 * The index of the newest member of a chain (`list`'s engines, oldest
 * first) that reports `item`, or -1, in one call into wasm that hashes the item
 * once (assembly/chain.ts); undefined when the members cannot be walked
 * together or the item is too long for scratch (the caller then asks
 * them one by one). The members are of the xxh64 family, with one seed.
 */
export function chainHas(list: WalkList, item: Item): number | undefined {
  const engines = list.engines;
  const a = chainArena(engines, list.stamp);
  if (a === undefined) return undefined;
  const len = a.staging.put(item, undefined);
  if (len < 0) return undefined;
  const hit = written!.walk.chainHas(engines.length, len);
  // A member's record is no longer live: the chain's list is stale.
  if (hit === -2) throw staleMember(engines, 'has');
  return hit;
}

/**
 * A chain's has (op 1) or add (op 0) of a checked batch, or of digests as
 * (lo, hi) pairs, member by member in wasm (assembly/chain.ts's
 * chainBatch): when the newest member is full and an item is new, JS
 * starts the next member and the walk goes on from that item. Answers go
 * to `out`. Returns how many items were answered: all of them, or where
 * the members stopped fitting one walk (0 when they never did), for the
 * caller to go on item by item.
 */
export function chainRun(chain: GrowingChain, source: CheckedBatch | Uint32Array, op: BatchOp, out: Uint8Array): number {
  let engines = chain.engines;
  const a = chainArena(engines, chain.stamp);
  if (a === undefined) return 0;
  let members = engines.length;
  const walk = written!.walk;
  const runner: ChunkRunner = {
    chunk: (count, _wide, first) => {
      let from = 0;
      for (;;) {
        const stop = walk.chainBatch(members, from, count, op === 0 ? Math.max(0, chain.room()) : 0, op, hashed) | 0;
        if (stop < 0) throw staleMember(engines, op === 0 ? 'addMany' : 'hasMany');
        if (op === 0) {
          const flags = a.staging.batchFlags;
          let fresh = 0;
          for (let i = from; i < stop; i++) fresh += flags[i];
          chain.counted(fresh);
        }
        if (stop === count) return count;
        // Item `stop` is new and the newest member is full: the next member takes it.
        const next = chain.startMember();
        engines = chain.engines;
        if (next.walkArena() !== a || members === CHAIN_MAX) return stop;
        written = undefined;
        a.staging.chainRecords[2 * members] = next.walkRecord();
        a.staging.chainRecords[2 * members + 1] = next.walkGeneration();
        members++;
        from = stop;
      }
    },
    one: () => -1,
    wide: false,
    units: undefined,
  };
  let hashed = 0;
  if (!(source instanceof Uint32Array)) {
    // An item too long to share scratch: its digest, walked as a chunk of one.
    const one = (item: Item): number => {
      const e = engines[0];
      a.staging.hashItemInto(item, e.seedLo, e.seedHi, a.staging.scratch.byteOffset);
      hashed = 1;
      const done = runner.chunk(1, 0, 0);
      hashed = 0;
      return done === 1 ? a.staging.batchFlags[0] : -1;
    };
    a.batches.run(source, { ...runner, one }, out);
    return a.batches.stopped;
  }
  // Digests: staged as u64s in scratch, a chunk at a time.
  hashed = 1;
  const count = source.length >> 1;
  const max = a.staging.batchMax;
  for (let first = 0; first < count; first += max) {
    const n = Math.min(max, count - first);
    new Uint32Array(a.x.memory.buffer, a.staging.scratch.byteOffset, 2 * n).set(source.subarray(2 * first, 2 * (first + n)));
    const done = runner.chunk(n, 0, first);
    out.set(a.staging.batchFlags.subarray(0, done), first);
    if (done < n) return first + done;
  }
  return count;
}

/** The error for a walk over members of which one is released. */
function staleMember(engines: readonly CoreEngine[], call: string): Error {
  return (engines.find((e) => !e.live) ?? engines[0]).disposed(call);
}
