// The binary fuse filter's side of the boundary: a record of the fuse kind
// (assembly/record.ts, assembly/binary-fuse.ts) in an arena
// (src/wasm/arena.ts), the construction's temporaries in a wasm heap, and
// the views of the fingerprints. src/fuse/binary-fuse-over.ts holds the
// logic; this file holds every pointer.
//
// Where a filter is built: the construction needs the keys and the
// reference's temporaries, about 33 bytes a key, besides the filter's
// fingerprints (docs/SCHEMES.md, "Memory while building"). Small sets
// are built straight into the record's region, in its arena; larger ones
// in an instance of their own, whose memory the garbage collector takes
// back once the fingerprints are copied into the record (wasm memory never
// shrinks, so temporaries in a shared arena would stay resident).

import { BloomAllocationError, BloomBuildError } from '../errors.js';
import type { CheckedBatch, Item } from './inputs.js';
import { fuseTemporaryBytes, type FuseShape } from './fuse-shape.js';
import { Arena, Kind } from './arena.js';
import { RegionHandle } from './region-handle.js';
import { checksumInPlace, scratchDigest } from './checksum.js';
import type { FuseExports } from './abi.js';
import { FamilyModule } from './family-module.js';
import { fuseWasm } from './fuse-bytes.generated.js';
import { high32, low32 } from './inputs.js';

/** The binary fuse filter's module (assembly/fuse-module.ts), instantiated over each arena that holds or builds one. */
export const fuseModule = /* @__PURE__ */ new FamilyModule<FuseExports>(fuseWasm);

/** What a released engine holds in place of its arena's module: nothing to call. */
const RELEASED = Object.freeze({}) as FuseExports;

/** Temporaries below this many bytes are taken in the record's own arena (see above). */
const IN_PLACE_BYTES = 4 * 1024 * 1024;

// A builder instance of at most SPARE_BYTES is kept for the next build for
// SPARE_MS after a build: the first touch of fresh wasm memory costs a page
// fault per 4 KiB, which costs more than the construction itself
// (docs/BENCHMARKS.md, the binary fuse filter's method), and a program that
// builds one filter per SSTable builds many in a row. Its heap is empty
// between builds; after SPARE_MS it is dropped and the garbage collector
// takes its memory back.
const SPARE_BYTES = 256 * 1024 * 1024;
const SPARE_MS = 2000;
let spare: Arena | undefined;
let spareTimer: ReturnType<typeof setTimeout> | undefined;

/** The spare builder instance, or a new one. */
function takeBuilder(): Arena {
  const a = spare;
  spare = undefined;
  if (spareTimer !== undefined) clearTimeout(spareTimer);
  spareTimer = undefined;
  return a ?? new Arena(true);
}

/** Keeps `a` (its heap empty again) as the spare for SPARE_MS, when it is small enough. */
function keepBuilder(a: Arena): void {
  if (a.memoryBytes > SPARE_BYTES) return;
  spare = a;
  spareTimer = setTimeout(() => {
    spare = undefined;
    spareTimer = undefined;
  }, SPARE_MS);
  // Node: the spare must not keep the process alive.
  (spareTimer as { unref?: () => void }).unref?.();
}

/** fusePopulate's answers (assembly/binary-fuse-construction.ts). */
const POPULATE_NO_MEMORY = 1;
const POPULATE_GAVE_UP = 2;

/** Where the keys of a construction come from: 64-bit keys, or items hashed to their keys in wasm. */
export type FuseKeys = { readonly keys: BigUint64Array } | { readonly items: CheckedBatch };

/**
 * What the last construction in wasm needed: its instance's wasm memory at
 * the end (the peak: memory never shrinks; in a reused builder, the peak of
 * the builds it served), its keys, and where it ran. @internal
 */
export const lastFuseBuild = { keys: 0, memoryBytes: 0, inPlace: false, reused: false };

/** One binary fuse filter's handle and the view of its fingerprints. */
export class FuseEngine extends RegionHandle {
  protected readonly owner = 'BinaryFuseFilter';
  /** Bytes of the fingerprints: ArrayLength * width. */
  readonly fingerprintsLength: number;
  /** The seed the construction settled on (or the restored one). */
  seed = 0n;
  /** The fuse module over the record's arena (RELEASED once released). */
  private fx: FuseExports;

  private constructor(shape: FuseShape, width: 1 | 2) {
    super();
    this.fingerprintsLength = shape.arrayLength * width;
    // assembly/binary-fuse.ts's FuseRecord: ArrayLength fingerprints of `width` bytes; fuseSetShape writes the rest.
    const arrayLength = shape.arrayLength;
    this.placeRecord({
      kind: Kind.Fuse,
      payloadBytes: this.fingerprintsLength,
      size: arrayLength,
      create: (a) => fuseModule.of(a).fuseCreate(arrayLength, width),
    });
    this.fx = fuseModule.of(this.arena);
  }

  /** Writes the shape and the seed into the record. */
  private setShape(shape: FuseShape, seed: bigint): void {
    this.seed = seed;
    this.enter('fromBytes');
    this.checked(this.fx.fuseSetShape(
      this.record, this.generation, low32(seed), high32(seed), shape.size, shape.segmentLength, shape.segmentCount, shape.segmentCountLength,
    ), 'fromBytes');
  }

  /** A filter of `shape` and `seed` holding `fingerprints` (checked by the caller). */
  static restore(shape: FuseShape, width: 1 | 2, seed: bigint, fingerprints: Uint8Array): FuseEngine {
    const engine = new FuseEngine(shape, width);
    engine.fingerprints.set(fingerprints);
    engine.setShape(shape, seed);
    return engine;
  }

  /**
   * Builds a filter of `shape` from the keys, as binary_fuse8_populate
   * (width 1) or binary_fuse16_populate (width 2) does. Throws
   * BloomAllocationError or BloomBuildError; nothing is left allocated then.
   */
  static build(source: FuseKeys, shape: FuseShape, width: 1 | 2): FuseEngine {
    const engine = new FuseEngine(shape, width);
    try {
      const inPlace = fuseTemporaryBytes(shape) + 8 * shape.size < IN_PLACE_BYTES;
      const seed = inPlace ? engine.buildIn(engine.enter('from'), source, shape, width, true) : engine.buildApart(source, shape, width);
      engine.setShape(shape, seed);
      return engine;
    } catch (error) {
      engine.release();
      throw error;
    }
  }

  /** Builds in an instance of its own, then copies the fingerprints into the record. */
  private buildApart(source: FuseKeys, shape: FuseShape, width: 1 | 2): bigint {
    let builder: Arena;
    const reused = spare !== undefined;
    try {
      builder = takeBuilder();
    } catch (error) {
      if (error instanceof RangeError) throw new BloomAllocationError(shape.arrayLength, this.fingerprintsLength, error.message);
      throw error;
    }
    const seed = this.buildIn(builder, source, shape, width, false);
    lastFuseBuild.reused = reused;
    keepBuilder(builder);
    return seed;
  }

  /**
   * Copies or hashes the keys into `a`'s heap and runs fusePopulate there,
   * into the record's region when `inPlace` (a is the record's arena), else
   * into a region of `a` that is then copied into the record.
   */
  private buildIn(a: Arena, source: FuseKeys, shape: FuseShape, width: 1 | 2, inPlace: boolean): bigint {
    const n = shape.size;
    const keysPtr = a.x.regionAlloc(Math.max(8 * n, 8)) >>> 0;
    a.grew();
    if (keysPtr === 0) throw new BloomAllocationError(shape.arrayLength, 8 * n, 'no wasm memory for the keys');
    let outPtr = 0;
    try {
      if ('keys' in source) {
        new BigUint64Array(a.x.memory.buffer, keysPtr, n).set(source.keys);
      } else {
        this.hashItems(a, source.items, keysPtr);
      }
      if (!inPlace) {
        outPtr = a.x.regionAlloc(this.fingerprintsLength) >>> 0;
        a.grew();
        if (outPtr === 0) throw new BloomAllocationError(shape.arrayLength, this.fingerprintsLength, 'no wasm memory for the fingerprints');
      }
      // In place, the record's region is the output: its address is the record's plus 64 (assembly/record.ts).
      const out = inPlace ? this.fingerprintsPtr() : outPtr;
      const status = fuseModule.of(a).fusePopulate(
        keysPtr, n, out, width, shape.segmentLength, shape.segmentCount, shape.segmentCountLength, shape.arrayLength,
      );
      a.grew();
      lastFuseBuild.keys = n;
      lastFuseBuild.memoryBytes = a.memoryBytes;
      lastFuseBuild.inPlace = inPlace;
      lastFuseBuild.reused = false;
      if (status === POPULATE_NO_MEMORY) {
        throw new BloomAllocationError(shape.arrayLength, fuseTemporaryBytes(shape), 'no wasm memory for the construction\'s temporaries');
      }
      if (status === POPULATE_GAVE_UP) throw new BloomBuildError(n, 100);
      const seed = scratchDigest(a.staging);
      if (!inPlace) this.fingerprints.set(new Uint8Array(a.x.memory.buffer, outPtr, this.fingerprintsLength));
      return seed;
    } finally {
      a.x.regionFree(keysPtr);
      if (outPtr !== 0) a.x.regionFree(outPtr);
    }
  }

  /** The address of the fingerprints in the record's arena. */
  private fingerprintsPtr(): number {
    return this.fingerprints.byteOffset;
  }

  /** Hashes the items into keys at keysPtr in `a`, a chunk of staged items at a time (XXH64, seed 0, strings as UTF-8). */
  private hashItems(a: Arena, batch: CheckedBatch, keysPtr: number): void {
    let done = 0;
    const fx = fuseModule.of(a);
    a.batches.run(batch, {
      chunk: (count) => {
        fx.fuseKeyBatch(count, keysPtr + 8 * done);
        done += count;
        return count;
      },
      one: (item: Item) => {
        // A builder instance holds no record: the digest exports hash with seed 0, as a key is made.
        a.staging.hashItemInto(item, 0, 0, keysPtr + 8 * done);
        done++;
        return 0;
      },
      wide: false,
      units: undefined,
    });
    if (done !== batch.count) throw new Error(`hashItems: ${done} keys for ${batch.count} items`);
  }

  /** The fingerprints' bytes (little-endian u16 under 16 bits), live: a view made at each use (RegionHandle). */
  get fingerprints(): Uint8Array {
    return this.regionView(this.fingerprintsLength, 'fingerprints');
  }

  /** Gives the region back at once (dispose()); the engine must not be used again. */
  release(): void {
    this.releaseRecord();
    this.fx = RELEASED;
  }

  /** binary_fuse*_contain of a u64 key (checked by the caller). */
  hasKey(key: bigint): boolean {
    // A wasm i64 parameter takes the bigint as it is (JS BigInt integration): no split into halves.
    this.enter('hasKey');
    const hasKey = this.fx.fuseHasKey as unknown as (r: number, generation: number, key: bigint) => number;
    return this.checked(hasKey(this.record, this.generation, key), 'hasKey') !== 0;
  }

  /** Tests an item (checked by the caller): its key is XXH64(bytes, 0). A short string is passed as it is, any other item put into scratch or streamed (as CoreEngine.has). */
  has(item: Item): boolean {
    const a = this.enter('has');
    const s = a.staging;
    const fx = this.fx;
    if (s.inPlace(item)) return this.checked(fx.fuseHasString(item, this.record, this.generation), 'has') !== 0;
    const len = s.put(item, undefined);
    return this.checked(len >= 0 ? fx.fuseHasItem(this.record, this.generation, len) : this.streamed(item), 'has') !== 0;
  }

  /** has() of an item too long for scratch: streamed into the key's hash, then tested. */
  private streamed(item: Item): number {
    const r = this.record;
    const g = this.generation;
    const s = this.arena.staging;
    // Streamed through the core instance's own calls, as stage() does by default.
    s.stream(item, r, g, undefined, s.x);
    return this.fx.fuseHasStream(r, g);
  }

  /** Tests each item of a checked batch, in order; flag i is 1 when item i may be in the set. */
  hasMany(batch: CheckedBatch): Uint8Array {
    const a = this.enter('hasMany');
    const chunk = (n: number) => (this.checked(this.fx.fuseHasBatch(this.record, this.generation, n), 'hasMany'), n);
    return a.batches.run(batch, { chunk, one: (item) => (this.has(item) ? 1 : 0), wide: false, units: undefined });
  }

  /** The file checksum: XXH64 (seed 0) of `header` and then the fingerprints, read in place. */
  checksum(header: Uint8Array): bigint {
    const a = this.enter('toBytes');
    return checksumInPlace(a, header, () => this.checked(this.fx.fuseChecksumFingerprints(this.record, this.generation), 'toBytes'));
  }
}

/** The instance that hashes items to keys for itemKeysInto, and its key region (made on first use). */
let hasher: { a: Arena; fx: FuseExports; keysPtr: number } | undefined;

/**
 * Writes the keys of a checked batch's items (XXH64, seed 0, strings as
 * UTF-8: what from() builds on) into `out` from index `at`, hashed in wasm
 * a staged chunk at a time. For `bloom build`, which streams its lines and
 * builds with fromKeys.
 */
export function itemKeysInto(batch: CheckedBatch, out: BigUint64Array, at: number): void {
  if (hasher === undefined) {
    const a = new Arena(true);
    const keysPtr = a.x.regionAlloc(8 * a.staging.batchMax) >>> 0;
    a.grew();
    hasher = { a, fx: fuseModule.of(a), keysPtr };
  }
  const { a, fx, keysPtr } = hasher;
  let done = at;
  const copy = (n: number): void => {
    out.set(new BigUint64Array(a.x.memory.buffer, keysPtr, n), done);
    done += n;
  };
  a.batches.run(batch, {
    chunk: (n) => {
      fx.fuseKeyBatch(n, keysPtr);
      copy(n);
      return n;
    },
    one: (item: Item) => {
      a.staging.hashItemInto(item, 0, 0, keysPtr);
      copy(1);
      return 0;
    },
    wide: false,
    units: undefined,
  });
}
