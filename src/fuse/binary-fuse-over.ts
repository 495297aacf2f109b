// The binary fuse filter's surface, shared by the wasm class
// (src/fuse/binary-fuse.ts) and its reference twin
// (src/reference/binary-fuse.ts): the checks of the inputs, the shape, the
// two serializations, and dispose. Where the fingerprints live and how a
// query reads them is the kind's (FuseKind): a wasm record, or plain bytes.

import { BloomFormatError, BloomRangeError, BloomTypeError } from '../errors.js';
import { checkBatchOf, markDisposed } from '../filter/dispose.js';
import { checkBatch, type BatchItems, type CheckedBatch, type Item } from '../filter/items.js';
import { checkBytes, bigUint64sView, isBigUint64s } from '../wasm/typed-arrays.js';
import { checkItem } from '../filter/options.js';
import {
  encodeFuseHeader, encodeReferenceHeader, FUSE_HEADER_BYTES, parseFuseHeader, parseReferenceHeader, REFERENCE_HEADER_BYTES,
  setFuseChecksum, type FuseFile,
} from '../format/binary-fuse.js';
import { fingerprintWidth, type FuseOptions } from './options.js';
import { fuseShape, MAX_FUSE_KEYS, type FuseShape } from './shape.js';
import { INSPECT, inspectLine } from '../filter/describe.js';
import { toJSONOf, type FilterJSON } from '../format/json.js';

/** Where a filter's fingerprints live, and the queries over them. */
export interface FuseStore {
  /** The fingerprints' bytes, live (ArrayLength bytes, or 2 * ArrayLength little-endian under 16 bits). */
  readonly fingerprints: Uint8Array;
  /** binary_fuse*_contain of a checked u64 key. */
  hasKey(key: bigint): boolean;
  /** hasKey of a checked item's XXH64 key. */
  has(item: Item): boolean;
  /** has() of each item of a checked batch, as 0/1 flags. */
  hasMany(batch: CheckedBatch): Uint8Array;
  /** XXH64 (seed 0) of `header` and then the fingerprints. */
  checksum(header: Uint8Array): bigint;
  /** Gives the fingerprints' memory back (nothing for the twin's plain bytes). */
  release(): void;
}

/** Where a construction's keys come from. */
export type FuseSource = { readonly keys: BigUint64Array } | { readonly items: CheckedBatch };

/** How one implementation builds and restores filters. */
export interface FuseKind {
  /** The class name, for messages. */
  readonly name: string;
  /** Builds from the keys (repeats allowed); throws BloomBuildError or BloomAllocationError, leaving nothing allocated. */
  build(source: FuseSource, shape: FuseShape, width: 1 | 2): { seed: bigint; store: FuseStore };
  /** A filter holding a copy of `fingerprints` (checked). */
  restore(shape: FuseShape, width: 1 | 2, seed: bigint, fingerprints: Uint8Array): FuseStore;
  /** A filter whose fingerprints are left for a reader to write in place, into `fingerprints`. */
  allocate(shape: FuseShape, width: 1 | 2, seed: bigint): FuseStore;
}

/** What a constructed filter is made of. */
export interface FuseInit {
  readonly kind: FuseKind;
  readonly shape: FuseShape;
  readonly width: 1 | 2;
  readonly seed: bigint;
  readonly store: FuseStore;
}

const TWO_64 = 1n << 64n;

/** The keys as a BigUint64Array (a BigUint64Array is used as it is); BloomTypeError or BloomRangeError naming keys[i]. */
function checkKeys(given: unknown): BigUint64Array {
  if (isBigUint64s(given)) {
    // A plain view (src/wasm/typed-arrays.ts): a subclass's length getter is not believed.
    const keys = bigUint64sView(given);
    if (keys.length > MAX_FUSE_KEYS) throw new BloomRangeError('keys.length', keys.length, `at most ${MAX_FUSE_KEYS} (shard larger sets: docs/SCHEMES.md)`);
    return keys;
  }
  if (!Array.isArray(given)) throw new BloomTypeError('keys', given, 'a BigUint64Array or an array of bigints in [0, 2^64)');
  // Read once, into a copy: a Proxy's traps are the caller's code.
  const keys = Array.prototype.slice.call(given) as unknown[];
  if (keys.length > MAX_FUSE_KEYS) throw new BloomRangeError('keys.length', keys.length, `at most ${MAX_FUSE_KEYS} (shard larger sets: docs/SCHEMES.md)`);
  const out = new BigUint64Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key: unknown = keys[i];
    if (typeof key !== 'bigint') throw new BloomTypeError(`keys[${i}]`, key, 'a bigint in [0, 2^64)', i);
    if (key < 0n || key >= TWO_64) throw new BloomRangeError(`keys[${i}]`, key, 'a bigint in [0, 2^64)', i);
    out[i] = key;
  }
  return out;
}

/**
 * Checks a "BLMF" file's checksum: XXH64 of its header's first 48 bytes
 * (`headerBytes`, checksum field zeroed) and then the fingerprints now in
 * `store`. BloomFormatError at byte 48 when it is not `expected`.
 */
function checkFileChecksum(store: FuseStore, headerBytes: Uint8Array, expected: bigint): void {
  const header = headerBytes.slice(0, FUSE_HEADER_BYTES);
  setFuseChecksum(header, 0n);
  const actual = store.checksum(header.subarray(0, 48));
  if (actual !== expected) {
    throw new BloomFormatError('checksum', 48, `the header and fingerprints hash to 0x${actual.toString(16).padStart(16, '0')}, but the file records 0x${expected.toString(16).padStart(16, '0')}: the file is corrupt`);
  }
}

/** The store of a filter (set by BinaryFuseFilter's static block), for tests and this module. @internal */
export let fuseStoreOf: (f: BinaryFuseFilter) => FuseStore;

/** The inits this module made: the constructor takes no other. */
const MADE = new WeakSet<object>();

/** Marks `init` as made here. */
function made(init: FuseInit): FuseInit {
  MADE.add(init);
  return init;
}

/** A static binary fuse filter (docs/SCHEMES.md, "Binary fuse filters"): built once from a set, then queried. */
class BinaryFuseFilter {
  /** Bits per fingerprint: 8 or 16. */
  readonly fingerprintBits: 8 | 16;
  /** The seed the construction settled on (the reference's Seed). */
  readonly seed: bigint;
  /** Keys the filter was built for, repeats included (the reference's Size). */
  readonly size: number;
  /** The reference's SegmentLength, SegmentCount, SegmentCountLength and ArrayLength. */
  readonly segmentLength: number;
  readonly segmentCount: number;
  readonly segmentCountLength: number;
  readonly arrayLength: number;
  private readonly kind: FuseKind;
  /** #private: its fingerprints are live wasm memory (this module reaches them through fuseStoreOf). */
  readonly #store: FuseStore;

  static {
    fuseStoreOf = (f) => f.#store;
  }
  private readonly shape: FuseShape;
  private readonly width: 1 | 2;

  protected constructor(init: FuseInit) {
    // TypeScript keeps `new` closed, but plain JavaScript can still call it, with no init.
    if (!MADE.has(init)) {
      throw new BloomTypeError('BinaryFuseFilter', init, 'made by BinaryFuseFilter.from(items), fromKeys(keys), fromBytes(bytes) or fromReferenceBytes(bytes, options), not by new');
    }
    this.kind = init.kind;
    this.#store = init.store;
    this.shape = init.shape;
    this.width = init.width;
    this.seed = init.seed;
    this.fingerprintBits = init.width === 1 ? 8 : 16;
    this.size = init.shape.size;
    this.segmentLength = init.shape.segmentLength;
    this.segmentCount = init.shape.segmentCount;
    this.segmentCountLength = init.shape.segmentCountLength;
    this.arrayLength = init.shape.arrayLength;
  }

  /** A filter of `kind` built from 64-bit keys. */
  protected static buildKeys(kind: FuseKind, keys: BigUint64Array | readonly bigint[], options?: FuseOptions): FuseInit {
    const width = fingerprintWidth(options);
    const checked = checkKeys(keys);
    const shape = fuseShape(checked.length);
    return made({ kind, shape, width, ...kind.build({ keys: checked }, shape, width) });
  }

  /** A filter of `kind` built from items, each hashed to its key by XXH64 (seed 0; strings as UTF-8). */
  protected static buildItems(kind: FuseKind, items: BatchItems, options?: FuseOptions): FuseInit {
    const width = fingerprintWidth(options);
    const batch = checkBatch(items);
    if (batch.count > MAX_FUSE_KEYS) throw new BloomRangeError('items.length', batch.count, `at most ${MAX_FUSE_KEYS} (shard larger sets: docs/SCHEMES.md)`);
    const shape = fuseShape(batch.count);
    return made({ kind, shape, width, ...kind.build({ items: batch }, shape, width) });
  }

  /** A filter of `kind` read from the reference's serialization. */
  protected static readReference(kind: FuseKind, bytes: Uint8Array, options: FuseOptions | undefined): FuseInit {
    bytes = checkBytes(bytes);
    const width = fingerprintWidth(options);
    const { shape, seed } = parseReferenceHeader(bytes, width);
    const store = kind.restore(shape, width, seed, bytes.subarray(REFERENCE_HEADER_BYTES));
    return made({ kind, shape, width, seed, store });
  }

  /** A filter of `kind` for a checked "BLMF" header, its fingerprints left for a reader to write in place (fuseFingerprintView()). */
  protected static allocateFile(kind: FuseKind, file: FuseFile): FuseInit {
    return made({ kind, shape: file.shape, width: file.width, seed: file.seed, store: kind.allocate(file.shape, file.width, file.seed) });
  }

  /** A filter of `kind` read from a "BLMF" file; the checksum is checked before the filter is returned. */
  protected static readFile(kind: FuseKind, bytes: Uint8Array): FuseInit {
    bytes = checkBytes(bytes);
    const file = parseFuseHeader(bytes, bytes.length);
    const init = BinaryFuseFilter.allocateFile(kind, file);
    try {
      init.store.fingerprints.set(bytes.subarray(FUSE_HEADER_BYTES));
      checkFileChecksum(init.store, bytes, file.checksum);
    } catch (error) {
      init.store.release();
      throw error;
    }
    return init;
  }

  /**
   * After a reader wrote a "BLMF" file's fingerprints into fuseFingerprintView():
   * checks the file's checksum over them in place (BloomFormatError at byte
   * 48 when they differ; the caller disposes the filter). @internal
   */
  checkFile(headerBytes: Uint8Array, expected: bigint): void {
    checkFileChecksum(this.#store, headerBytes, expected);
  }

  /** As the reference's binary_fuse*_contain: false when the key is certainly not in the set. Takes a bigint in [0, 2^64). */
  hasKey(key: bigint): boolean {
    if (typeof key !== 'bigint') throw new BloomTypeError('key', key, 'a bigint in [0, 2^64)');
    if (key < 0n || key >= TWO_64) throw new BloomRangeError('key', key, 'a bigint in [0, 2^64)');
    return this.#store.hasKey(key);
  }

  /** False when the item (a string, hashed as UTF-8, or bytes) is certainly not in the set; true when it may be. */
  has(item: Item): boolean {
    checkItem(item);
    return this.#store.has(item);
  }

  /** has() of each item; flag i is 1 when item i may be in the set. A bad batch throws before any test. */
  hasMany(items: BatchItems): Uint8Array {
    return this.#store.hasMany(checkBatchOf(this, `${this.kind.name}.hasMany`, items));
  }

  /** The chance that an item not in the set is reported: 2^-fingerprintBits (0 for an empty set, which answers false). */
  get falsePositiveRate(): number {
    return this.size === 0 ? 0 : 2 ** -this.fingerprintBits;
  }

  /** Bytes of toBytes(): the 56-byte header and the fingerprints. */
  get byteLength(): number {
    return FUSE_HEADER_BYTES + this.arrayLength * this.width;
  }

  /** A copy of the fingerprints' bytes (little-endian u16 under 16 bits). */
  fingerprints(): Uint8Array {
    return this.#store.fingerprints.slice();
  }

  /**
   * The reference C implementation's serialization, byte for byte what its
   * binary_fuse8_serialize / binary_fuse16_serialize writes: a 28-byte
   * little-endian header, then the fingerprints.
   */
  toReferenceBytes(): Uint8Array {
    const header = encodeReferenceHeader({ shape: this.shape, seed: this.seed, width: this.width });
    const out = new Uint8Array(REFERENCE_HEADER_BYTES + this.arrayLength * this.width);
    out.set(header);
    out.set(this.#store.fingerprints, REFERENCE_HEADER_BYTES);
    return out;
  }

  /** The header of toBytes(), checksum included. @internal */
  fileHeader(): Uint8Array {
    const header = encodeFuseHeader({ shape: this.shape, seed: this.seed, width: this.width });
    setFuseChecksum(header, this.#store.checksum(header.subarray(0, 48)));
    return header;
  }

  /** The filter in the "BLMF" format (docs/FORMAT.md, "Binary fuse filter format, version 1"). */
  toBytes(): Uint8Array {
    const header = this.fileHeader();
    const out = new Uint8Array(this.byteLength);
    out.set(header);
    out.set(this.#store.fingerprints, FUSE_HEADER_BYTES);
    return out;
  }

  /** The JSON form (docs/FORMAT.md, "JSON form, version 1"): `{ type: "bloomwasm/BinaryFuseFilter", version: 1, bytes: "<base64 of toBytes()>" }`, so that JSON.stringify works. */
  toJSON(): FilterJSON {
    return toJSONOf(this.kind.name, this.toBytes());
  }

  /** Frees the fingerprints now; every later call throws BloomDisposedError. */
  dispose(): void {
    this.#store.release();
    markDisposed(this, this.kind.name);
  }

  /** dispose(), for `using`. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** One line for util.inspect and console.log: `BinaryFuseFilter { keys: 1000, fingerprintBits: 8, bitsPerKey: 9.98 }`. */
  [INSPECT](): string {
    return inspectLine(this, this.kind.name, () => ({
      keys: this.size,
      fingerprintBits: this.fingerprintBits,
      bitsPerKey: this.size === 0 ? 0 : Number(((this.arrayLength * this.fingerprintBits) / this.size).toFixed(2)),
    }));
  }
}

/**
 * The live fingerprints of `filter`, for the file reader and writer, which
 * use them before anything else runs (valid until the next call). A
 * function of the module and not a method, so that no caller of the class
 * is handed a view of wasm memory to keep past dispose().
 */
export function fuseFingerprintView(filter: BinaryFuseFilter): Uint8Array {
  return fuseStoreOf(filter).fingerprints;
}

// Declared under the public class's name, so that an editor's hover on an
// inherited member names the class a user has (`BinaryFuseFilter.add`), and
// exported under the name the implementations extend.
export { BinaryFuseFilter as BinaryFuseFilterOver };
