// A handle whose class reads its record's region from JS (a counting
// filter's counters, a sliding filter's words, a cuckoo table's slots, a
// binary fuse filter's fingerprints) through a view kept until memory
// grows. A Bloom filter's bits are read by wasm alone, so the lean class's
// handle (RecordHandle, src/wasm/core-engine.ts) carries none of this.

import { RECORD_BYTES } from './arena.js';
import { RecordHandle } from './record-handle.js';

export abstract class RegionHandle extends RecordHandle {
  /** The view of the region after the record, and the arena epoch it was made in (regionView). */
  private region: Uint8Array | undefined;
  private regionEpoch = -1;

  /** A view of the `length` bytes after the record, live: made again when memory grew since it was made. */
  protected regionView(length: number, call: string): Uint8Array {
    const a = this.enter(call);
    if (this.region === undefined || this.regionEpoch !== a.epoch) {
      this.region = new Uint8Array(a.x.memory.buffer, this.record + RECORD_BYTES, length);
      this.regionEpoch = a.epoch;
    }
    return this.region;
  }

  /** As RecordHandle's, and the view goes with the record. */
  protected override releaseRecord(): boolean {
    this.region = undefined;
    return super.releaseRecord();
  }
}
