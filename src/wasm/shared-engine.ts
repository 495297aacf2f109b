// A filter whose bits live in shared memory (docs/SHARED.md): an Engine
// over an instance of the shared build (assembly/shared.ts) that holds this
// filter alone, with a work area of its own in that memory
// (src/wasm/shared-memory.ts), given back when the engine is released or
// collected; the bits stay, for the other threads. A class of its own, so
// that the engine of a filter that is never shared carries none of it.

import { BloomAllocationError } from '../errors.js';
import type { FilterParams } from './inputs.js';
import { Arena } from './arena.js';
import { Engine } from './engine.js';
import type { BloomCalls, BloomExports } from './abi.js';
import { instantiateShared } from './module.js';
import { bounceWhereRefused, claimWorkArea, createSharedMemory, releaseWhenCollected, releaseWorkAreaNow, sharedBitsBytes } from './shared-memory.js';

/** A Bloom filter's engine in shared memory. */
export class SharedEngine extends Engine {
  /** The work area in the shared memory (-1 once given back). */
  private workArea = -1;

  /** The engine of a filter over the bits in `shared`, or in a new shared memory when `shared` is true. */
  constructor(params: FilterParams, shared: WebAssembly.Memory | true) {
    super(params, false, false, 'BloomFilter', false);
    const memory = shared === true ? createSharedMemory(params, sharedBitsBytes(params.bits)) : shared;
    const workArea = claimWorkArea(memory, params.bits);
    // The shared build's exports are the filter's minus line dedupe, the
    // Bitmap, the counting filter and the records (SHARED_ABI), which
    // reserveLines refuses to reach.
    const x = instantiateShared(memory, workArea);
    releaseWhenCollected(this, memory, workArea);
    this.workArea = workArea;
    this.sharedMemory = memory;
    if (x.configure(params.bits, params.hashes, params.schemeId, this.seedLo, this.seedHi) !== 0) {
      throw new BloomAllocationError(params.bits, this.byteLength);
    }
    // An instance that holds only this filter: nothing to bind or free (record 0, generation 1; assembly/shared.ts).
    this.arena = new Arena(true, x as unknown as Arena['x']);
    this.record = 0;
    this.generation = 1;
    // The shared build hashes every scheme (assembly/shared.ts); its strings are copied in (bounceWhereRefused).
    this.calls = x as unknown as BloomCalls;
    bounceWhereRefused(this.arena.staging);
    this.bitsPtr = x.bitsPtr();
  }

  /** Engine's release, and the work area given back (the bits stay, for the other threads). */
  override release(): void {
    if (this.workArea >= 0) releaseWorkAreaNow(this, this.sharedMemory!, this.workArea);
    this.workArea = -1;
    this.sharedMemory = undefined;
    super.release();
  }

  /** The shared build's own set algebra. */
  protected override algebraOf(a: Arena): BloomExports {
    return a.x as unknown as BloomExports;
  }
}
