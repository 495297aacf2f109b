// Many filters, one instance. An arena is one instance of the module and
// its linear memory; each filter, counting filter or Bitmap in it is a
// record followed by its bits, a region of the instance's heap
// (assembly/heap.ts, assembly/record.ts). Objects hold a handle
// (src/wasm/record-handle.ts: their arena and the record's address) and
// make a view of their region where they use it (a Bitmap keeps the view
// of its bits, src/wasm/bitmap.ts says why): memory.grow detaches every
// view made before it.
//
// A record is named by its address and its generation (assembly/record.ts),
// which every call that acts on it passes: the instance refuses a pair that
// is not live.
//
// Which arena a record goes to is src/wasm/placement.ts's; how records of
// dropped handles come back is src/wasm/collection.ts's, which an arena
// prompts when the collector's reports lag (Arena.checkCollector).

import type { Exports } from './abi.js';
import { Batches } from './batch.js';
import { promptCollection } from './collection.js';
import { instantiate } from './module.js';
import { Staging } from './staging.js';
import { high32, low32 } from './inputs.js';

/** What a record holds (assembly/record.ts's KIND_*). */
export const Kind = { Filter: 0, Hashing: 1, Counting: 2, Bitmap: 3, Sliding: 4, Cuckoo: 5, Fuse: 6 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/**
 * Bytes of a record before its payload (assembly/record.ts's RECORD_BYTES).
 * JS reads no field of a record: each family's fields are declared once,
 * in its assembly record class, and reached through its exports; JS only
 * views the payload, which starts here.
 */
export const RECORD_BYTES = 64;

/** What an export that acts on a filter returns when the record and generation it was given name no live record (assembly/record.ts's REFUSED). */
export const REFUSED = -2;

/** Bytes of records made between two looks at the collector (Arena.checkCollector). */
const CHECK_BYTES = 1024 * 1024;

/** Records made without a report from the collector before it is prompted (Arena.checkCollector). */
const PROMPT_BYTES = 32 * 1024 * 1024;

/**
 * A record to make: its kind, its payload's bytes (as the family's create
 * export computes them), and that export's call. Each family builds its
 * own (schemeRecord below; the Bitmap, sliding, cuckoo and binary fuse
 * engines), with its own fields.
 */
export interface RecordSpec {
  readonly kind: Kind;
  /** Bytes after the record. */
  readonly payloadBytes: number;
  /** What BloomAllocationError names as `bits`: m, the size, the buckets or the fingerprints. */
  readonly size: number;
  /** Calls the family's create export in arena `a` (the core's, or its family module's over it): the record's address, or 0 when the instance's memory cannot hold it. */
  create(a: Arena): number;
}

/** The parameters of a scheme family's record (assembly/record.ts's SchemeRecord): m, k, the scheme's id and the seed. */
export interface SchemeParams {
  readonly bits: number;
  readonly hashes: number;
  readonly schemeId: number;
  readonly seed: bigint;
}

/**
 * The record of a scheme family made by the core's create export (`kind`:
 * a Bloom filter or the hashing kind); its payload is
 * assembly/record-life.ts's schemePayloadBytes. The counting and sliding
 * filters' are made by their own modules (src/wasm/counting.ts,
 * sliding.ts).
 */
export function schemeRecord(params: SchemeParams, kind: Kind): RecordSpec {
  const { bits, hashes, schemeId, seed } = params;
  const payloadBytes = kind === Kind.Filter ? Math.ceil(bits / 8) : 0;
  const seedLo = low32(seed);
  const seedHi = high32(seed);
  return { kind, payloadBytes, size: bits, create: (a) => a.x.create(bits, hashes, schemeId, seedLo, seedHi, kind) };
}

let nextId = 1;
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
  /** The generation of the record create() made last. */
  createdGeneration = 0;
  /** Records alive in it. */
  live = 0;
  /** Set when the garbage collector freed one of its records (see checkCollector()). */
  reported = false;
  /** The family modules' exports over its memory, each at its FamilyModule's slot (src/wasm/family-module.ts). */
  readonly families: unknown[] = [];
  /** Bytes of the records made since checkCollector() last ran. */
  private madeBytes = 0;
  /** The heap's bytes in use when the collector last reported or was prompted (checkCollector()). */
  private baseline = 0;

  /**
   * An arena over a new instance of the module, or over `x`, an instance
   * of the shared build, which holds one filter and no records.
   */
  constructor(dedicated: boolean, x: Exports = instantiate()) {
    this.x = x;
    this.staging = new Staging(this.x);
    this.batches = new Batches(this.staging);
    this.dedicated = dedicated;
    this.id = nextId++;
  }

  /**
   * A new record (zeroed bits), or 0 when this instance's memory
   * cannot hold it; its generation is then createdGeneration. The work
   * area's views are made again if memory grew.
   */
  create(spec: RecordSpec): number {
    const r = spec.create(this) >>> 0;
    // Memory may have grown even when the record did not fit after all.
    this.grew();
    if (r === 0) return 0;
    this.createdGeneration = this.x.createdGeneration() >>> 0;
    this.live++;
    this.madeBytes += RECORD_BYTES + spec.payloadBytes;
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

  /** Makes the work area's views again when memory grew (memory.grow detaches the old buffer). */
  grew(): void {
    if (this.staging.scratch.buffer !== this.x.memory.buffer) this.staging.refresh();
  }

  /**
   * Gives record `r` of `generation` back; nothing when it is not live (the
   * instance refuses it). A dedicated arena is dropped with its record.
   */
  release(r: number, generation: number): void {
    if (this.x.release(r, generation) !== 0) return;
    this.live--;
  }

  /** Bytes of wasm memory the instance holds. */
  get memoryBytes(): number {
    return this.x.memory.buffer.byteLength;
  }
}
