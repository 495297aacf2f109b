// What the fuzzed-decoder tests share (format-fuzz, scalable-format, binary-fuse-format,
// sliding-format): a seeded generator, so every run fuzzes the same
// variants, and the outcome of loading one variant, so that the wasm filter
// and the reference twin can be compared field for field.
import { expect } from 'vitest';
import { BloomFormatError } from '../../src/index.js';

/** xorshift32: a fixed sequence, so every run fuzzes the same variants. */
export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  return { next, below: (n: number) => next() % n, chance: (p: number) => next() / 2 ** 32 < p };
}

/** Cuts a run of 1 to 16 bytes out of `bytes` at a random place, or duplicates it there. */
export function cutOrSplice(r: ReturnType<typeof rng>, bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const at = r.below(bytes.length);
  const len = 1 + r.below(16);
  return r.chance(0.5)
    ? new Uint8Array([...bytes.subarray(0, at), ...bytes.subarray(at + len)])
    : new Uint8Array([...bytes.subarray(0, at + len), ...bytes.subarray(at)]);
}

/** A variant loaded, and written back; or refused, naming its field and byte offset. */
export type Outcome = { ok: true; bytes: Uint8Array } | { ok: false; field: string; offset: number };

/** Loads a variant; any error but a BloomFormatError (whose message names the field at its byte) fails the test. */
export function outcome(load: () => { toBytes(): Uint8Array }): Outcome {
  try {
    return { ok: true, bytes: load().toBytes() };
  } catch (error) {
    if (!(error instanceof BloomFormatError)) throw error;
    expect(error.message).toContain(`${error.field} at byte ${error.offset}`);
    return { ok: false, field: error.field, offset: error.offset };
  }
}
