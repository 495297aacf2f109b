// What a cuckoo filter (src/cuckoo/cuckoo-over.ts) asks of each member's
// table: the wasm engine (src/wasm/cuckoo.ts) and the reference twin
// (src/reference/cuckoo.ts) both provide it. Declared at the boundary, so
// that src/wasm/ imports nothing from above it.

import type { CheckedBatch, Item } from './inputs.js';

/** Thrown by a table's addBatch at the first item it refused; `index` is its place in the batch. */
export class TableFull {
  constructor(readonly index: number) {}
}

/** One member's table: what the wasm engine and the reference twin both provide. */
export interface CuckooTable {
  /** Runs op on the item: add 1 stored / 0 refused (unchanged), has 1 / 0, remove 1 / 0 (no match), count the matches. */
  run(item: Item, op: number): number;
  /** has of each item. */
  hasBatch(batch: CheckedBatch): Uint8Array;
  /** add of each item in order; throws TableFull at the first refused. */
  addBatch(batch: CheckedBatch): void;
  /** Fingerprints held. */
  held(): number;
  randomState(): bigint;
  setRandomState(state: bigint): void;
  clear(): void;
  /** The packed fingerprints (live). */
  readonly slots: Uint8Array;
  /** After `slots` was written: recounts and sets the tally; returns it. */
  restore(): number;
  /** XXH64 (seed 0) of the packed fingerprints. */
  payloadChecksum(): bigint;
  /** Gives the table's memory back. */
  release(): void;
}
