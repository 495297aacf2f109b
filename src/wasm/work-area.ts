// The regions of an instance's work area that JS reads and writes
// (assembly/layout.ts places them): the scratch an item is staged in
// (src/wasm/staging.ts), the positions out, a batch's offsets and flags,
// and a chain's records, each as a typed-array view.
//
// memory.grow detaches the ArrayBuffer behind every view made before it,
// and a detached view reads as empty, so after any growth the arena calls
// refresh(), which builds every view again over the new buffer; views are
// never rebuilt inside a hot loop, and are kept so that a single add/has
// makes none.

import type { Exports } from './abi.js';

/** The largest k (assembly/layout.ts's MAX_HASHES): the length of positionsOut. */
export const MAX_HASHES = 64;

/** The most members of a chain walked in one call (assembly/layout.ts's CHAIN_MAX). */
export const CHAIN_MAX = 256;

/** The views of one instance's work area. */
export class WorkArea {
  /** Whole-scratch byte view at scratchPtr: UTF-8 and byte items go here. */
  scratch!: Uint8Array;
  /** The same region as UTF-16 code units, for the poly scheme's strings. */
  scratchUnits!: Uint16Array;
  /** f64[MAX_HASHES] at positionsPtr: positions() writes the first k. */
  positionsOut!: Float64Array;
  /** u32[batchMax + 1] at batchOffsetsPtr: byte offsets of a batch chunk's items in scratch. */
  batchOffsets!: Uint32Array;
  /** u8[batchMax] at batchFlagsPtr: the 0/1 results of a batch chunk. */
  batchFlags!: Uint8Array;
  /** u32[2] at positionsPtr: where digestItem and probeRecords leave a digest (lo, hi). */
  digestOut!: Uint32Array;
  /** u32[2 * CHAIN_MAX] at chainRecordsPtr: a chain's members as (record, generation) pairs (assembly/chain.ts); empty in the shared build. */
  chainRecords!: Uint32Array;
  /** Byte length of the scratch region. */
  readonly scratchSize: number;
  /** The most items per batch chunk. */
  readonly batchMax: number;
  /** The instance's exports. */
  readonly x: Exports;

  /** The views of `x`'s work area. */
  constructor(x: Exports) {
    this.x = x;
    this.scratchSize = x.scratchSize();
    this.batchMax = x.batchMax();
    this.refresh();
  }

  /** Builds every view again over the current buffer: call after memory grew. */
  refresh(): void {
    const x = this.x;
    const buffer = x.memory.buffer;
    const ptr = x.scratchPtr();
    this.scratch = new Uint8Array(buffer, ptr, this.scratchSize);
    this.scratchUnits = new Uint16Array(buffer, ptr, this.scratchSize >> 1);
    this.positionsOut = new Float64Array(buffer, x.positionsPtr(), MAX_HASHES);
    this.batchOffsets = new Uint32Array(buffer, x.batchOffsetsPtr(), this.batchMax + 1);
    this.batchFlags = new Uint8Array(buffer, x.batchFlagsPtr(), this.batchMax);
    this.digestOut = new Uint32Array(buffer, x.positionsPtr(), 2);
    this.chainRecords = typeof x.chainRecordsPtr === 'function' ? new Uint32Array(buffer, x.chainRecordsPtr(), 2 * CHAIN_MAX) : new Uint32Array(0);
  }
}
