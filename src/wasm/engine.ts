// The Engine: one filter's WebAssembly instance behind named methods. This
// folder is the one marshalling boundary: nothing outside src/wasm/ touches
// wasm memory or the exports. The exports are listed in abi.ts, compiled and
// instantiated in module.ts; items are copied in by staging.ts and batches
// chunked by batch.ts.

import { BloomAllocationError, BloomTypeError } from '../errors.js';
import type { CheckedBatch, Item } from '../filter/items.js';
import type { FilterParams } from '../filter/options.js';
import type { Exports, LinesExports } from './abi.js';
import { Batches, type BatchOp } from './batch.js';
import { instantiate, instantiateShared } from './module.js';
import { claimWorkArea, createSharedMemory, releaseWhenCollected, sharedBitsBytes } from './shared-memory.js';
import { Staging } from './staging.js';

/** One filter's wasm instance, with the item-copying logic in front of it. */
export class Engine {
  /** The instance's exports: private to the boundary. */
  private readonly x: Exports;
  /** The scratch region and the views into memory. */
  private readonly staging: Staging;
  /** addMany/hasMany, chunked. */
  private readonly batches: Batches;
  /** Offset of the packed bits. */
  private readonly bitsPtr: number;
  /** digests()'s answers, reused from call to call (it only grows). */
  private digestFlags = new Uint8Array(0);
  /** u32 view of scratch that digests() copies pairs into (rebuilt if memory grew). */
  private digestWords: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  /** Bytes of the packed bits, ceil(bits / 8). */
  readonly byteLength: number;
  /** The shared memory the bits live in, for an engine of the shared build; undefined otherwise. */
  readonly sharedMemory: WebAssembly.Memory | undefined;

  /**
   * With `hashOnly`, the instance reserves no memory for the bits: it only
   * computes positions and shards for bits kept elsewhere (bloomwasm/redis),
   * and add, has, clear and bitsView must not be called.
   *
   * With `shared`, the engine is an instance of the shared build
   * (assembly/shared.ts) over that shared memory, or over a new one when
   * `shared` is true; it takes a work area of its own there
   * (src/wasm/shared-memory.ts) and gives it back when collected.
   */
  constructor(params: FilterParams, hashOnly = false, shared?: WebAssembly.Memory | true) {
    this.byteLength = Math.ceil(params.bits / 8);
    let x: Exports;
    if (shared === undefined) {
      x = instantiate(params.bits, this.byteLength);
      this.sharedMemory = undefined;
    } else {
      const memory = shared === true ? createSharedMemory(params, sharedBitsBytes(params.bits)) : shared;
      const workArea = claimWorkArea(memory, params.bits);
      // The shared build's exports are the filter's minus line dedupe and
      // the Bitmap (SHARED_ABI), which reserveLines refuses to reach.
      x = instantiateShared(memory, workArea) as unknown as Exports;
      releaseWhenCollected(this, memory, workArea);
      this.sharedMemory = memory;
    }
    this.x = x;
    const seedLo = Number(params.seed & 0xffffffffn);
    const seedHi = Number(params.seed >> 32n);
    const status = hashOnly
      ? x.configureHashing(params.bits, params.hashes, params.schemeId, seedLo, seedHi)
      : x.configure(params.bits, params.hashes, params.schemeId, seedLo, seedHi);
    if (status !== 0) throw new BloomAllocationError(params.bits, hashOnly ? 0 : this.byteLength);
    // Made after configure grew memory: see staging.ts on refreshing views.
    this.staging = new Staging(x, params.hashes, params.scheme === 'poly');
    this.batches = new Batches(x, this.staging);
    this.bitsPtr = x.bitsPtr();
  }

  /** Adds the item; true when a bit went from 0 to 1. */
  add(item: Item): boolean {
    const len = this.staging.stage(item);
    return (len >= 0 ? this.x.add(len, this.staging.wide) : this.x.streamAdd()) !== 0;
  }

  /** Tests the item. */
  has(item: Item): boolean {
    const len = this.staging.stage(item);
    return (len >= 0 ? this.x.has(len, this.staging.wide) : this.x.streamHas()) !== 0;
  }

  /** Tests the item whose 64-bit digest is hi:lo (the caller checked the scheme and seed). */
  hasDigest(lo: number, hi: number): boolean {
    return this.x.hasDigest(lo, hi) !== 0;
  }

  /** Adds the item whose digest is hi:lo; true when a bit went from 0 to 1. */
  addDigest(lo: number, hi: number): boolean {
    return this.x.addDigest(lo, hi) !== 0;
  }

  /**
   * Tests (op 1) or adds (op 0, in order) the items whose digests are
   * `pairs` (lo, hi for each): they are copied into scratch, up to batchMax
   * per call. Flag i is item i's answer, as hasDigest or addDigest gives it,
   * in a buffer that the next call reuses: a chain asks its members a
   * batch per chunk of `bloom dedupe`, and a fresh array each time would be
   * memory that V8 frees only after tens of MB of such allocations.
   */
  digests(pairs: Uint32Array, op: BatchOp): Uint8Array {
    const count = pairs.length >> 1;
    if (this.digestFlags.length < count) this.digestFlags = new Uint8Array(Math.max(count, 2 * this.digestFlags.length));
    const flags = this.digestFlags.subarray(0, count);
    const { scratch, batchFlags, batchMax } = this.staging;
    if (this.digestWords.buffer !== scratch.buffer) this.digestWords = new Uint32Array(scratch.buffer, scratch.byteOffset, batchMax * 2);
    for (let first = 0; first < count; first += batchMax) {
      const n = Math.min(batchMax, count - first);
      this.digestWords.set(count <= batchMax ? pairs : pairs.subarray(2 * first, 2 * (first + n)));
      if (op === 0) this.x.addDigestBatch(n);
      else this.x.hasDigestBatch(n);
      for (let i = 0; i < n; i++) flags[first + i] = batchFlags[i];
    }
    return flags;
  }

  /** The item's positions in probe order. */
  positions(item: Item): number[] {
    const len = this.staging.stage(item);
    if (len >= 0) this.x.positions(len, this.staging.wide);
    else this.x.streamPositions();
    return Array.from(this.staging.positionsOut);
  }

  /**
   * The item's shard in [0, shards); its positions are left in `probed`
   * until the next call (read them before staging another item).
   */
  shardPositions(item: Item, shards: number): number {
    const len = this.staging.stage(item);
    return len >= 0 ? this.x.shardPositions(len, this.staging.wide, shards) : this.x.streamShardPositions(shards);
  }

  /** f64[k]: the positions written by the last positions or shardPositions call. */
  get probed(): Float64Array {
    return this.staging.positionsOut;
  }

  /** Adds (op 0) or tests (op 1) a checked batch, crossing into wasm once per chunk. */
  batch(batch: CheckedBatch, op: BatchOp): Uint8Array {
    return this.batches.run(batch, op);
  }

  /** How many bits are 1 (a counter raised on each 0-to-1 transition). */
  bitsSet(): number {
    return this.x.bitsSet();
  }

  /** How many adds set at least one bit. */
  addedCount(): number {
    return this.x.addedCount();
  }

  /** Sets both counters, e.g. after bits were copied in (both below 2^53). */
  setCounters(bitsSet: number, addedCount: number): void {
    this.x.setCounters(bitsSet, addedCount);
  }

  /** Recounts the 1 bits exactly (popcnt over the whole array), stores and returns the count. */
  recountBits(): number {
    return this.x.recountBits();
  }

  /** Zeroes every bit and both counters. */
  clear(): void {
    this.x.clear();
  }

  /** A live view of the packed bits (valid until memory grows: take a fresh one per use). */
  bitsView(): Uint8Array {
    return new Uint8Array(this.x.memory.buffer, this.bitsPtr, this.byteLength);
  }

  /**
   * The file checksum, XXH64 (seed 0) of `header` and then this filter's
   * bits, read in place. Runs begin to end synchronously, so no streamed
   * item can interleave with it.
   */
  checksum(header: Uint8Array): bigint {
    this.x.checksumStart();
    this.staging.eachChunk(header, (len) => this.x.checksumScratch(len));
    this.x.checksumBits();
    this.x.checksumEnd();
    return this.staging.digest();
  }

  /** XXH64 (seed 0) of the concatenated `parts`, computed in wasm. */
  xxh64(...parts: Uint8Array[]): bigint {
    this.x.checksumStart();
    for (const part of parts) this.staging.eachChunk(part, (len) => this.x.checksumScratch(len));
    this.x.checksumEnd();
    return this.staging.digest();
  }

  /**
   * The checksum of `header` then `payload`, and the number of 1 bits in
   * `payload`, in one pass through scratch: what fromBytes needs to know
   * about bytes that are not yet any filter's.
   */
  inspect(header: Uint8Array, payload: Uint8Array): { checksum: bigint; ones: number } {
    let ones = 0;
    this.x.checksumStart();
    this.staging.eachChunk(header, (len) => this.x.checksumScratch(len));
    this.staging.eachChunk(payload, (len) => {
      this.x.checksumScratch(len);
      ones += this.x.popcountScratch(len);
    });
    this.x.checksumEnd();
    return { checksum: this.staging.digest(), ones };
  }

  /**
   * inspect() over a payload that arrives in pieces (src/node streams a file
   * through it): inspectBegin(header), then inspectChunk(piece) for each
   * piece in order (it returns the piece's 1 bits), then inspectEnd() for the
   * checksum. The XXH64 state lives in the instance, so a run that spans
   * awaits needs an Engine of its own.
   */
  inspectBegin(header: Uint8Array): void {
    this.x.checksumStart();
    this.staging.eachChunk(header, (len) => this.x.checksumScratch(len));
  }

  /** The next piece of a streamed inspect; returns its number of 1 bits. */
  inspectChunk(piece: Uint8Array): number {
    let ones = 0;
    this.staging.eachChunk(piece, (len) => {
      this.x.checksumScratch(len);
      ones += this.x.popcountScratch(len);
    });
    return ones;
  }

  /** Ends a streamed inspect: the checksum of the header and every piece. */
  inspectEnd(): bigint {
    this.x.checksumEnd();
    return this.staging.digest();
  }

  /**
   * ORs (union) or ANDs (intersect) another instance's bits into this one's:
   * they live in another linear memory, so they come over through scratch a
   * chunk at a time and the word-wise loop runs here. Then bitsSet is
   * recounted exactly with popcnt.
   */
  combine(other: Engine, operation: 'union' | 'intersect'): void {
    const step = operation === 'union' ? this.x.unionScratch : this.x.intersectScratch;
    let at = 0;
    this.staging.eachChunk(other.bitsView(), (len) => {
      step(at, len);
      at += len;
    });
    this.x.recountBits();
  }

  /**
   * Reserves the lines region of assembly/lines.ts (input and output areas
   * of `size` bytes each) and refreshes the views that the growth detached.
   * False when memory cannot grow that far.
   */
  reserveLines(size: number, printSeen: boolean): boolean {
    if (this.sharedMemory !== undefined) {
      throw new BloomTypeError('filter', 'a shared filter', 'a filter that is not shared (line dedupe grows its own memory)');
    }
    if (this.x.linesConfigure(size, printSeen ? 1 : 0) !== 0) return false;
    this.staging.refresh();
    return true;
  }

  /** The line splitter's exports, for src/wasm/lines.ts (after reserveLines). */
  linesExports(): LinesExports {
    return this.x;
  }
}

let checker: Engine | undefined;

/**
 * A shared 8-bit instance for inspect() and xxh64(): fromBytes validates a
 * whole input with it before the filter the header asks for is allocated.
 */
export function checkerEngine(): Engine {
  checker ??= new Engine({ bits: 8, hashes: 1, scheme: 'xxh64', schemeId: 0, seed: 0n });
  return checker;
}
