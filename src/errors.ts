// One error class per failure family. Each message names the parameter, the
// value it got, and what was allowed.

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (typeof value === 'object') return Object.prototype.toString.call(value);
  return String(value);
}

/** A numeric argument out of its allowed range (including NaN and Infinity). */
export class BloomRangeError extends RangeError {
  readonly parameter: string;
  constructor(parameter: string, value: unknown, allowed: string) {
    super(`${parameter} must be ${allowed}; got ${show(value)}`);
    this.name = 'BloomRangeError';
    this.parameter = parameter;
  }
}

/** An argument of the wrong type. */
export class BloomTypeError extends TypeError {
  readonly parameter: string;
  constructor(parameter: string, value: unknown, allowed: string) {
    super(`${parameter} must be ${allowed}; got ${show(value)}`);
    this.name = 'BloomTypeError';
    this.parameter = parameter;
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
