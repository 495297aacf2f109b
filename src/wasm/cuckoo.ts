// The cuckoo filter's side of the boundary: one table, a record of the
// cuckoo kind (assembly/cuckoo-record.ts, assembly/cuckoo.ts) in an arena
// (src/wasm/arena.ts), and the view of its fingerprints. src/cuckoo/ holds
// the logic (members, growth, the file); this file holds every pointer.

import type { CheckedBatch, Item } from './inputs.js';
import { Kind } from './arena.js';
import { RegionHandle } from './region-handle.js';
import { checksumInPlace } from './checksum.js';
import { TableFull, type CuckooTable } from './cuckoo-table.js';
import type { CuckooExports } from './abi.js';
import { FamilyModule } from './family-module.js';
import { cuckooWasm } from './cuckoo-bytes.generated.js';
import { high32, low32 } from './inputs.js';

/** The cuckoo filter's module (assembly/cuckoo-module.ts), instantiated over each arena that holds a table. */
export const cuckooModule = /* @__PURE__ */ new FamilyModule<CuckooExports>(cuckooWasm);

/** What a released engine holds in place of its arena's module: nothing to call. */
const RELEASED = Object.freeze({}) as CuckooExports;

/** What a cuckoo table is made of. */
export interface CuckooTableParams {
  /** B: buckets. */
  readonly buckets: number;
  /** b: slots a bucket (2, 4 or 8). */
  readonly bucketSize: number;
  /** f: bits a fingerprint (1 to 32). */
  readonly fingerprintBits: number;
  /** The XXH64 seed. */
  readonly seed: bigint;
}

/** The calls of op 0 to 3, as a disposed table's error names them. */
const OP_NAMES = ['add', 'has', 'remove', 'count'];

/** No header: a member's payload checksum covers its fingerprints alone. */
const EMPTY = new Uint8Array(0);

/** One cuckoo table's handle and the view of its fingerprints. */
export class CuckooEngine extends RegionHandle implements CuckooTable {
  protected readonly owner = 'CuckooFilter';
  /** Bytes of the packed fingerprints: ceil(B * b * f / 8) (the 8 bytes of slack after them excluded). */
  readonly slotsLength: number;
  /** The cuckoo module over the record's arena (RELEASED once released). */
  private fx: CuckooExports;

  /** A record for an empty table; BloomAllocationError when memory cannot be had. */
  constructor(params: CuckooTableParams) {
    super();
    this.slotsLength = Math.ceil((params.buckets * params.bucketSize * params.fingerprintBits) / 8);
    // assembly/cuckoo-record.ts's CuckooRecord, empty, its generator at its start for the seed; the slots and 8 bytes of slack.
    const { buckets, bucketSize, fingerprintBits, seed } = params;
    const seedLo = low32(seed);
    const seedHi = high32(seed);
    this.placeRecord({
      kind: Kind.Cuckoo,
      payloadBytes: this.slotsLength + 8,
      size: buckets,
      create: (a) => cuckooModule.of(a).cuckooCreate(buckets, bucketSize, fingerprintBits, seedLo, seedHi),
    });
    this.fx = cuckooModule.of(this.arena);
  }

  /** The packed fingerprints, live: a view made at each use (RegionHandle). */
  get slots(): Uint8Array {
    return this.regionView(this.slotsLength, 'slots');
  }

  /** Gives the table's region back at once (dispose()); the engine must not be used again. */
  release(): void {
    this.releaseRecord();
    this.fx = RELEASED;
  }

  /** Runs op (0 add, 1 has, 2 remove, 3 count) on the item; see assembly/cuckoo.ts for the answers. */
  run(item: Item, op: number): number {
    const a = this.enter(OP_NAMES[op]);
    const r = this.record;
    const g = this.generation;
    const len = a.staging.stage(item, r, g, undefined);
    return this.checked(len >= 0 ? this.fx.cuckooItem(r, g, len, op) : this.fx.cuckooStream(r, g, op), OP_NAMES[op]);
  }

  /** has() of each item of a checked batch, a chunk of staged items per wasm call (src/wasm/batch.ts). */
  hasBatch(batch: CheckedBatch): Uint8Array {
    const a = this.enter('hasMany');
    const chunk = (n: number) => (this.checked(this.fx.cuckooBatch(this.record, this.generation, n, 1), 'hasMany'), n);
    return a.batches.run(batch, { chunk, one: (item) => this.run(item, 1), wide: false, units: undefined });
  }

  /**
   * add() of each item of a checked batch, in order. Throws TableFull at
   * the first item refused; the items before it are stored, it and those
   * after are not.
   */
  addBatch(batch: CheckedBatch): void {
    const a = this.enter('addMany');
    // A chunk's add stops at its first refusal and returns that index: the batch ends there.
    a.batches.run(batch, {
      chunk: (n) => this.checked(this.fx.cuckooBatch(this.record, this.generation, n, 0), 'addMany'),
      one: (item) => (this.run(item, 0) === 0 ? -1 : 1),
      wide: false,
      units: undefined,
    });
    if (a.batches.stopped < batch.count) throw new TableFull(a.batches.stopped);
  }

  /** Fingerprints held. */
  held(): number {
    this.enter('addedCount');
    return this.checked(this.fx.cuckooHeld(this.record, this.generation), 'addedCount');
  }

  /** The kick generator's state. */
  randomState(): bigint {
    this.enter('randomState');
    const x = this.fx;
    const high = this.checked(x.cuckooRandomState(this.record, this.generation, 1), 'randomState');
    const low = this.checked(x.cuckooRandomState(this.record, this.generation, 0), 'randomState');
    return (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
  }

  /** Sets the kick generator's state (nonzero). */
  setRandomState(state: bigint): void {
    this.enter('setRandomState');
    const x = this.fx;
    this.checked(x.cuckooSetRandomState(this.record, this.generation, low32(state), high32(state)), 'setRandomState');
  }

  /** Empties every slot. */
  clear(): void {
    this.enter('clear');
    this.checked(this.fx.cuckooClear(this.record, this.generation), 'clear');
  }

  /** After fingerprints were written into `slots`: recounts the non-empty slots, sets the tally, returns it. */
  restore(): number {
    this.enter('restore');
    return this.checked(this.fx.cuckooRestore(this.record, this.generation), 'restore');
  }

  /** XXH64 (seed 0) of the packed fingerprints, read in place (the file's payload checksum). */
  payloadChecksum(): bigint {
    const a = this.enter('checksum');
    return checksumInPlace(a, EMPTY, () => this.checked(this.fx.cuckooChecksumSlots(this.record, this.generation), 'checksum'));
  }
}
