// The cuckoo filter over its tables: the members, growth, counting and
// removal across members, and the file. The tables are wasm records
// (src/wasm/cuckoo.ts, for CuckooFilter in src/cuckoo/cuckoo.ts) or plain
// TypeScript (the reference twin, src/reference/cuckoo.ts); this file is
// the same code over both, so only the table can differ, and the parity
// tests compare tables slot for slot.
//
// Adds go to the newest member. When it refuses an item (the item found no
// slot after the most kicks, and every kick was undone), a fixed filter
// throws BloomFullError and a growing one starts the next member
// (src/cuckoo/shape.ts) and stores the item there. has asks every member,
// count sums them, remove takes one copy from the newest member that
// matches (docs/CUCKOO.md says what that means for an item never added).

import { checkBytes } from '../wasm/typed-arrays.js';
import { BloomFullError } from '../errors.js';
import { batchItem, sliceBatch, type BatchItems, type Item } from '../filter/items.js';
import { checkItem } from '../filter/options.js';
import { checkBatchOf, markDisposed } from '../filter/dispose.js';
import { checkShape, memberShape, type BucketSize, type CuckooOptions, type CuckooShape, type MemberShape } from './shape.js';
import {
  checkMemberHeld, checkMemberPayload, cuckooHeaderBytes, encodeCuckooHeader, membersOf, parseCuckooHeader, type CuckooFile, type MemberState,
} from '../format/cuckoo.js';

/** The operations of a table's run(). */
export const OP_ADD = 0;
export const OP_HAS = 1;
export const OP_REMOVE = 2;
export const OP_COUNT = 3;

export { TableFull, type CuckooTable } from '../wasm/cuckoo-table.js';
import { TableFull, type CuckooTable } from '../wasm/cuckoo-table.js';
import { INSPECT, inspectLine, percent } from '../filter/describe.js';
import { toJSONOf, type FilterJSON } from '../format/json.js';

/** How a kind of filter makes its tables and hashes its headers. */
export interface CuckooKind {
  /** The class name, for BloomDisposedError. */
  readonly name: string;
  table(member: MemberShape, bucketSize: BucketSize, seed: bigint): CuckooTable;
  /** XXH64 (seed 0) of `bytes`. */
  xxh64(bytes: Uint8Array): bigint;
}

/** A snapshot of one member, as the `members` property lists it. */
export interface CuckooMember {
  /** The items it was sized for. */
  readonly capacity: number;
  readonly buckets: number;
  readonly fingerprintBits: number;
  /** Its bound on the false-positive rate, 2b / 2^f. */
  readonly falsePositiveRate: number;
  /** Fingerprints it holds (its size). */
  readonly size: number;
}

/** The members a restore hands over to the constructor (files and clone(); not for users). */
export interface CuckooParts {
  shape: CuckooShape;
  tables: CuckooTable[];
  members: MemberShape[];
}

const RESTORED = Symbol('restored cuckoo filter');

/** Set by CuckooFilter's static block. */
let tablesOf: (f: CuckooFilter) => CuckooTable[];

/** A cuckoo filter over tables of `kind`. */
class CuckooFilter {
  /** n: the items the first member holds (a fixed filter: all it holds). */
  readonly capacity: number;
  /** The bound on the false-positive rate, over all members. */
  readonly falsePositiveRate: number;
  /** b: fingerprints a bucket. */
  readonly bucketSize: BucketSize;
  /** s, or 0 for a fixed filter. */
  readonly growth: number;
  readonly seed: bigint;
  /** The first member's fingerprint bits. */
  readonly fingerprintBits: number;
  private readonly shape: CuckooShape;
  private readonly kind: CuckooKind;
  /** #private: its tables' views are live wasm memory (this module reaches them through tablesOf). */
  #tables: CuckooTable[];

  static {
    tablesOf = (f) => f.#tables;
  }
  private memberShapes: MemberShape[];

  /** Checks the arguments (BloomRangeError, BloomTypeError) and makes the first member. */
  constructor(capacity: number, falsePositiveRate: number, options: CuckooOptions | undefined, kind: CuckooKind, parts?: CuckooParts) {
    const shape = (options as unknown) === RESTORED && parts !== undefined ? parts.shape : checkShape(capacity, falsePositiveRate, options);
    this.shape = shape;
    this.kind = kind;
    this.capacity = shape.capacity;
    this.falsePositiveRate = shape.falsePositiveRate;
    this.bucketSize = shape.bucketSize;
    this.growth = shape.growth;
    this.seed = shape.seed;
    if (parts !== undefined && (options as unknown) === RESTORED) {
      this.#tables = parts.tables;
      this.memberShapes = parts.members;
    } else {
      const first = memberShape(shape, 0)!;
      this.memberShapes = [first];
      this.#tables = [kind.table(first, shape.bucketSize, shape.seed)];
    }
    this.fingerprintBits = this.memberShapes[0].fingerprintBits;
  }

  /** Gives every member's memory back at once; any later call throws BloomDisposedError naming it. Calling it again does nothing. */
  dispose(): void {
    for (const table of this.#tables) table.release();
    markDisposed(this, this.kind.name);
  }

  /** dispose(), for `using` (TC39 explicit resource management). */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** One line for util.inspect and console.log: `CuckooFilter { capacity: 1000, members: 1, held: 300, load: 29.3% }` (load: fingerprints over slots, every member). */
  [INSPECT](): string {
    return inspectLine(this, this.kind.name, () => {
      let slots = 0;
      for (const m of this.memberShapes) slots += m.buckets * this.bucketSize;
      const held = this.size;
      return { capacity: this.capacity, members: this.memberShapes.length, held, load: percent(held, slots) };
    });
  }

  /** The newest member, which takes the adds. */
  get #newest(): CuckooTable {
    return this.#tables[this.#tables.length - 1];
  }

  /** Starts the next member; BloomFullError (for `item`, at `index` in a batch) when the filter is fixed or cannot grow further. */
  #grow(item: unknown, index?: number): CuckooTable {
    if (this.growth === 0) {
      throw new BloomFullError(item, this.capacity, `no slot after the most kicks, at ${this.size} fingerprints in ${this.memberShapes[0].buckets * this.bucketSize} slots; make it with { growth } to let it grow`, index);
    }
    const next = memberShape(this.shape, this.#tables.length);
    if (next === undefined) {
      throw new BloomFullError(item, this.capacity, `its ${this.#tables.length} members are full and a next one would need fingerprints over 32 bits or more memory than a table can have`, index);
    }
    const table = this.kind.table(next, this.bucketSize, this.seed);
    this.#tables.push(table);
    this.memberShapes.push(next);
    return table;
  }

  /**
   * Stores one more copy of the item (as RedisBloom's CF.ADD) and returns
   * true. Unlike BloomFilter.add, true does not mean the item was new: an
   * item added twice is held twice (count() says 2). A full fixed filter
   * throws BloomFullError and changes nothing; a growing one starts a member.
   */
  add(item: Item): boolean {
    checkItem(item);
    if (this.#newest.run(item, OP_ADD) !== 0) return true;
    // An empty table always has room for one fingerprint.
    this.#grow(item).run(item, OP_ADD);
    return true;
  }

  /** Adds the item unless it may be present (CF.ADDNX): false, changing nothing, when has(item) is true. */
  addIfAbsent(item: Item): boolean {
    if (this.has(item)) return false;
    return this.add(item);
  }

  /** False when the item is certainly not in the filter; true when it may be. Never false for an item added and not removed. */
  has(item: Item): boolean {
    checkItem(item);
    const tables = this.#tables;
    if (tables.length === 1) return tables[0].run(item, OP_HAS) !== 0;
    for (let j = tables.length - 1; j >= 0; j--) if (tables[j].run(item, OP_HAS) !== 0) return true;
    return false;
  }

  /**
   * An upper bound on the copies held (CF.COUNT): the matching fingerprints
   * in the item's buckets, over all members. At least the adds less removes
   * of this item; more when other items' fingerprints collide with it.
   */
  count(item: Item): number {
    checkItem(item);
    let n = 0;
    for (const table of this.#tables) n += table.run(item, OP_COUNT);
    return n;
  }

  /**
   * Removes one copy (CF.DEL) from the newest member holding a matching
   * fingerprint, and returns true. Returns false, changing nothing, when no
   * member matches: the item is certainly absent (as
   * CountingBloomFilter.remove does). Removing an item that was never
   * added can take another item's fingerprint: see docs/CUCKOO.md.
   */
  remove(item: Item): boolean {
    checkItem(item);
    const tables = this.#tables;
    for (let j = tables.length - 1; j >= 0; j--) if (tables[j].run(item, OP_REMOVE) !== 0) return true;
    return false;
  }

  /**
   * add() of each item in order; every flag is 1 (add returns true). A bad
   * batch throws before any add. On a full fixed filter the items before
   * the refused one stay stored, and BloomFullError names the refused one
   * and gives its index in the batch (`index`).
   */
  addMany(items: BatchItems): Uint8Array {
    const batch = checkBatchOf(this, `${this.kind.name}.addMany`, items);
    // `rest` is the batch from item `first` on.
    let rest = batch;
    let first = 0;
    for (;;) {
      try {
        this.#newest.addBatch(rest);
        break;
      } catch (error) {
        if (!(error instanceof TableFull)) throw error;
        const item = batchItem(rest, error.index);
        const index = first + error.index;
        this.#grow(item, index).run(item, OP_ADD);
        rest = sliceBatch(rest, error.index + 1, rest.count - error.index - 1);
        first = index + 1;
      }
    }
    return new Uint8Array(batch.count).fill(1);
  }

  /** has() of each item; flag i is 1 when item i may be present. One wasm call per chunk and member. */
  hasMany(items: BatchItems): Uint8Array {
    const batch = checkBatchOf(this, `${this.kind.name}.hasMany`, items);
    const tables = this.#tables;
    const flags = tables[tables.length - 1].hasBatch(batch);
    for (let j = tables.length - 2; j >= 0; j--) {
      const more = tables[j].hasBatch(batch);
      for (let i = 0; i < flags.length; i++) flags[i] |= more[i];
    }
    return flags;
  }

  /** The items held, as Set.prototype.size counts them: fingerprints over all members, adds less removes. */
  get size(): number {
    let n = 0;
    for (const table of this.#tables) n += table.held();
    return n;
  }

  /** The members, oldest first. */
  get members(): readonly CuckooMember[] {
    return this.memberShapes.map((m, j) => ({
      capacity: m.capacity, buckets: m.buckets, fingerprintBits: m.fingerprintBits, falsePositiveRate: m.falsePositiveRate, size: this.#tables[j].held(),
    }));
  }

  /** Empties the filter: back to one empty member. */
  clear(): void {
    for (const table of this.#tables.splice(1)) table.release();
    this.memberShapes.length = 1;
    this.#tables[0].clear();
  }

  /** An independent copy: the same members, fingerprints, tallies and kick generators. */
  clone(): this {
    const tables = this.#tables.map((t, j) => {
      const copy = this.kind.table(this.memberShapes[j], this.bucketSize, this.seed);
      copy.slots.set(t.slots);
      copy.restore();
      copy.setRandomState(t.randomState());
      return copy;
    });
    return this.restored({ shape: this.shape, tables, members: this.memberShapes.slice() });
  }

  /** A filter of this class over restored parts. */
  private restored(parts: CuckooParts): this {
    const Class = this.constructor as new (c: number, p: number, o: unknown, parts: CuckooParts) => this;
    return new Class(0, 0, RESTORED, parts);
  }

  /** The header of the file as the filter is now. @internal */
  fileHeader(): Uint8Array {
    const states: MemberState[] = this.#tables.map((t) => ({ held: t.held(), randomState: t.randomState(), payloadChecksum: t.payloadChecksum() }));
    return encodeCuckooHeader(this.shape, this.memberShapes, states, (b) => this.kind.xxh64(b));
  }


  /** The filter in the cuckoo file format (docs/FORMAT.md): the "BLMK" header, then each member's packed fingerprints. */
  toBytes(): Uint8Array {
    const header = this.fileHeader();
    const payloads = cuckooPayloads(this);
    const out = new Uint8Array(header.length + payloads.reduce((n, p) => n + p.length, 0));
    out.set(header);
    let at = header.length;
    for (const p of payloads) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  /** The JSON form (docs/FORMAT.md, "JSON form, version 1"): `{ type: "bloomwasm/CuckooFilter", version: 1, bytes: "<base64 of toBytes()>" }`, so that JSON.stringify works. */
  toJSON(): FilterJSON {
    return toJSONOf(this.kind.name, this.toBytes());
  }
}

/** The parts a restore from a checked file needs, with empty tables for a reader to fill. @internal */
export function emptyPartsFor(file: CuckooFile, kind: CuckooKind): CuckooParts {
  const tables: CuckooTable[] = [];
  try {
    for (const m of file.members) tables.push(kind.table(m, file.shape.bucketSize, file.shape.seed));
  } catch (error) {
    for (const t of tables) t.release();
    throw error;
  }
  return { shape: file.shape, tables, members: file.members.slice() };
}

/**
 * After a reader filled the tables of `parts` with a checked file's
 * payloads: recounts each, checks the count against the file's tally and
 * sets the kick generators. Releases the tables and throws BloomFormatError
 * on a mismatch. @internal
 */
export function finishParts(file: CuckooFile, parts: CuckooParts): void {
  try {
    parts.tables.forEach((t, j) => {
      checkMemberHeld(file, j, t.restore());
      t.setRandomState(file.states[j].randomState);
    });
  } catch (error) {
    for (const t of parts.tables) t.release();
    throw error;
  }
}

/**
 * After a reader filled the tables of `parts` straight from a file:
 * each member's payload checks (checksum, padding), then finishParts.
 * Throws BloomFormatError on any fault; the reader gives the tables back
 * (src/node/io.ts's owning). @internal
 */
export function finishStreamedParts(file: CuckooFile, parts: CuckooParts): void {
  parts.tables.forEach((t, j) => {
    const slots = t.slots;
    checkMemberPayload(file, j, t.payloadChecksum(), slots[slots.length - 1]);
  });
  finishParts(file, parts);
}

/** A filter of `Class` over parts. @internal */
export function adoptParts<T extends CuckooFilter>(Class: new (c: number, p: number, o: CuckooOptions | undefined, parts?: CuckooParts) => T, parts: CuckooParts): T {
  return new Class(0, 0, RESTORED as unknown as CuckooOptions, parts);
}

/**
 * Reads a filter written by toBytes (here or by the twin): the header and
 * every member's checksum and padding are checked before any table is
 * allocated, each member's fingerprints against its tally after. Faults
 * throw BloomFormatError naming the field and its byte offset.
 */
export function restoreCuckoo<T extends CuckooFilter>(
  bytes: Uint8Array, kind: CuckooKind, Class: new (c: number, p: number, o: CuckooOptions | undefined, parts?: CuckooParts) => T,
): T {
  bytes = checkBytes(bytes);
  const file = parseCuckooHeader(bytes.subarray(0, cuckooHeaderBytes(membersOf(bytes))), bytes.length, (b) => kind.xxh64(b));
  file.payloads.forEach(({ start, length }, j) => {
    const payload = bytes.subarray(start, start + length);
    checkMemberPayload(file, j, kind.xxh64(payload), payload[length - 1]);
  });
  const parts = emptyPartsFor(file, kind);
  parts.tables.forEach((t, j) => t.slots.set(bytes.subarray(file.payloads[j].start, file.payloads[j].start + file.payloads[j].length)));
  finishParts(file, parts);
  return adoptParts(Class, parts);
}

/**
 * Each member's packed fingerprints, live, oldest first: for the file
 * writers, which copy them out before anything else runs. A function of
 * the module and not a method, so that no caller of the class is handed a
 * view of wasm memory to keep past dispose().
 */
export function cuckooPayloads(filter: CuckooFilter): Uint8Array[] {
  return tablesOf(filter).map((t) => t.slots);
}

// Declared under the public class's name, so that an editor's hover on an
// inherited member names the class a user has (`CuckooFilter.add`), and
// exported under the name the implementations extend.
export { CuckooFilter as CuckooFilterOver };
