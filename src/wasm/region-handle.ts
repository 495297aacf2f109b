// A handle whose class reads its record's region from JS (a counting
// filter's counters, a sliding filter's words, a cuckoo table's slots, a
// binary fuse filter's fingerprints): whole-region copies (files, clones),
// never per item, so the view is made at each use and never kept. A Bloom
// filter's bits are read by wasm alone, so its handle (RecordHandle,
// src/wasm/core-engine.ts) carries none of this.

import { RECORD_BYTES } from './arena.js';
import { RecordHandle } from './record-handle.js';

export abstract class RegionHandle extends RecordHandle {
  /** A view of the `length` bytes after the record, over the memory as it is now: use it before anything else may grow the memory. */
  protected regionView(length: number, call: string): Uint8Array {
    const a = this.enter(call);
    return new Uint8Array(a.x.memory.buffer, this.record + RECORD_BYTES, length);
  }
}
