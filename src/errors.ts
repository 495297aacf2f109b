// One error class per failure family. Each message names the parameter, the
// value it got, and what was allowed.

// The classes' [Symbol.dispose]() needs Symbol.dispose in the types. It is
// declared here, where every entry point's types import from, so that a
// project whose lib predates it (ES2022, no @types/node) type-checks
// against this package; the declaration is the one TypeScript's
// ESNext.Disposable lib and @types/node make, and merges with theirs.
declare global {
  interface SymbolConstructor {
    /** The TC39 explicit-resource-management symbol that `using` calls. */
    readonly dispose: unique symbol;
  }
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (typeof value === 'object') {
    // A class instance's tag is a bare [object Object]: name its class instead (a ScalableBloomFilter, not an object).
    const tag = Object.prototype.toString.call(value);
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return tag === '[object Object]' && typeof name === 'string' && name !== '' && name !== 'Object' ? `a ${name}` : tag;
  }
  // A function's String() is its whole source: name it instead.
  if (typeof value === 'function') {
    const kind = /^class\b/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
    return value.name ? `${kind} ${value.name}` : kind;
  }
  return String(value);
}

/** A numeric argument out of its allowed range (including NaN and Infinity). */
export class BloomRangeError extends RangeError {
  readonly parameter: string;
  /** When one element of a batch was refused (`items[3]`, `keys[3]`, `values[3]`): its index, 3; otherwise undefined. */
  readonly index: number | undefined;
  constructor(parameter: string, value: unknown, allowed: string, index?: number) {
    super(`${parameter} must be ${allowed}; got ${show(value)}`);
    this.name = 'BloomRangeError';
    this.parameter = parameter;
    this.index = index;
  }
}

/** An argument of the wrong type. */
export class BloomTypeError extends TypeError {
  readonly parameter: string;
  /** When one element of a batch was refused (`items[3]`, `keys[3]`, `values[3]`): its index, 3; otherwise undefined. */
  readonly index: number | undefined;
  constructor(parameter: string, value: unknown, allowed: string, index?: number) {
    super(`${parameter} must be ${allowed}; got ${show(value)}`);
    this.name = 'BloomTypeError';
    this.parameter = parameter;
    this.index = index;
  }
}

/** A filter whose bits the engine could not allocate. */
export class BloomAllocationError extends RangeError {
  constructor(bits: number, bytes: number, cause?: string) {
    super(
      `bits = ${bits} needs ${bytes} bytes of WebAssembly memory, which the engine refused to allocate` +
        (cause ? ` (${cause})` : ''),
    );
    this.name = 'BloomAllocationError';
  }
}

/**
 * A binary fuse filter's construction that gave up: every one of the
 * seeds tried (100, as the reference C implementation tries) left keys that
 * could not be peeled. Nothing was allocated for the filter.
 */
export class BloomBuildError extends Error {
  /** Keys the construction was given. */
  readonly keys: number;
  /** Seeds tried. */
  readonly attempts: number;
  constructor(keys: number, attempts: number) {
    super(`binary fuse construction failed: ${attempts} seeds tried for ${keys} keys, and none let every key be peeled`);
    this.name = 'BloomBuildError';
    this.keys = keys;
    this.attempts = attempts;
  }
}

/**
 * Serialized filter bytes (or a file) that are not a valid filter. `field`
 * names the header field or region at fault and `offset` its byte offset.
 */
export class BloomFormatError extends Error {
  /** The header field (or `payload`) at fault. */
  readonly field: string;
  /** The byte offset of that field, or where the input ended. */
  readonly offset: number;
  constructor(field: string, offset: number, problem: string) {
    super(`invalid bloomwasm filter data: ${field} at byte ${offset}: ${problem}`);
    this.name = 'BloomFormatError';
    this.field = field;
    this.offset = offset;
  }
}

/**
 * Two filters that cannot be combined because their bits, hashes, scheme or
 * seed differ; `parameters` lists which, and the message gives both values.
 */
export class BloomMismatchError extends Error {
  /** The parameters that differ, in the order bits, hashes, scheme, seed. */
  readonly parameters: string[];
  constructor(operation: string, differences: Array<[parameter: string, mine: unknown, theirs: unknown]>) {
    const list = differences.map(([p, a, b]) => `${p} ${show(a)} vs ${show(b)}`).join(', ');
    super(`cannot ${operation} filters that differ in ${list} (bits, hashes, scheme and seed must all be equal)`);
    this.name = 'BloomMismatchError';
    this.parameters = differences.map(([p]) => p);
  }
}

/** A filter that changed, or was disposed, while an asynchronous save was writing it; the save was abandoned. */
export class BloomConcurrencyError extends Error {
  constructor(operation: string, disposed = false) {
    super(
      disposed
        ? `the filter was disposed during ${operation}; nothing was written to the destination (await the save before dispose(), or before a \`using\` block ends)`
        : `the filter changed during ${operation}; nothing was written to the destination (do not add to a filter until its save settles)`,
    );
    this.name = 'BloomConcurrencyError';
  }
}

/**
 * A digest used where it cannot serve: the filter's scheme has no digest
 * (poly and bytesum hash with m inside), or the digest's seed is not the
 * filter's. `reason` says which.
 */
export class BloomDigestError extends Error {
  /** `scheme` (the filter's scheme has no digest) or `seed` (the seeds differ). */
  readonly reason: 'scheme' | 'seed';
  constructor(operation: string, reason: 'scheme' | 'seed', detail: string) {
    super(`${operation}: ${detail}`);
    this.name = 'BloomDigestError';
    this.reason = reason;
  }
}

/**
 * A remove of an item that cannot be present. No call of this package
 * throws it: `remove` returns false for a certainly-absent item instead.
 * It stays exported so that code catching it still compiles.
 */
export class BloomRemoveError extends Error {
  constructor(item: unknown, hashes: number, why = `one of its ${hashes} counters is 0`) {
    super(`cannot remove ${show(item)}: ${why}, so it is not in the filter (never added, or already removed); nothing was changed`);
    this.name = 'BloomRemoveError';
  }
}

/**
 * An add that a full filter of fixed size refused (a cuckoo filter whose
 * item found no slot after the most kicks). Nothing was changed: every
 * item stored before stays stored. `capacity` is the items it was sized
 * for; in a batch, `index` is the refused item's place in it.
 */
export class BloomFullError extends RangeError {
  /** The items the filter was sized for. */
  readonly capacity: number;
  /** The refused item's index in the batch (addMany); undefined for a single add. */
  readonly index: number | undefined;
  constructor(item: unknown, capacity: number, detail: string, index?: number) {
    const what = index === undefined ? show(item) : `items[${index}] (${show(item)})`;
    super(`cannot add ${what}: the filter of capacity ${capacity} is full (${detail}); the item was refused and nothing was changed`);
    this.name = 'BloomFullError';
    this.capacity = capacity;
    this.index = index;
  }
}

/**
 * A call on a filter, counting filter, chain or Bitmap after its dispose():
 * its memory was given back. `call` names the call, as `BloomFilter.has`.
 */
export class BloomDisposedError extends TypeError {
  /** The call that was refused, `Class.method`. */
  readonly call: string;
  constructor(call: string, subject = 'this object') {
    super(`${call}: ${subject} was disposed (dispose() gave its memory back); create a new one to go on`);
    this.name = 'BloomDisposedError';
    this.call = call;
  }
}

/**
 * A call that needs a part of the package that loads only when asked for
 * (the shared-memory build: loadSharedMemory()), before it was loaded in
 * this thread. The message names what to call.
 */
export class BloomNotLoadedError extends Error {
  /** The call that loads the part, as the message names it. */
  readonly load: string;
  constructor(operation: string, part: string, load: string) {
    super(`${operation} needs ${part}, which is loaded only on demand: first call ${load}`);
    this.name = 'BloomNotLoadedError';
    this.load = load;
  }
}
