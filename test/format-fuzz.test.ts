// Fuzzed decoding: 12,000 mutated, truncated and extended variants of valid
// files. Each must be refused with a BloomFormatError, or (where the mutation
// changed nothing the format can see) load into a filter that writes the very
// same bytes back. The wasm filter and the reference twin must agree on
// every variant: same outcome, same field, same offset.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import { loadFileSync } from '../src/node/index.js';
import * as reference from '../src/reference/index.js';
import { checksum } from '../src/reference/checksum.js';
import { cutOrSplice, outcome, rng } from './helpers/fuzz.js';

function bases(): Uint8Array[] {
  const out: Uint8Array[] = [];
  const make = (bits: number, hashes: number, scheme: 'xxh64' | 'poly' | 'bytesum', seed: bigint, items: number) => {
    const f = new reference.BloomFilter(bits, hashes, { scheme, seed });
    for (let i = 0; i < items; i++) f.add(`fuzz-${i}`);
    out.push(f.toBytes());
  };
  make(64, 3, 'xxh64', 0x0123456789abcdefn, 3);
  make(16, 3, 'poly', 0n, 3);
  make(100, 3, 'bytesum', 0n, 2);
  make(10, 1, 'xxh64', 0n, 0);
  make(1, 1, 'xxh64', 0n, 1);
  make(257, 7, 'xxh64', 42n, 30);
  make(123, 64, 'poly', 0n, 5);
  return out;
}

/** Values that sit on the edges of the header's ranges. */
const EDGES = [0n, 1n, 2n, 7n, 8n, 63n, 64n, 65n, 255n, 256n, 1n << 31n, 1n << 32n, 1n << 34n, 34358689792n, 34358689793n, (1n << 53n) - 1n, 1n << 53n, (1n << 64n) - 1n];
const U64_FIELDS = [8, 16, 24, 32, 40, 48];

function mutate(base: Uint8Array, r: ReturnType<typeof rng>): Uint8Array {
  let bytes = base.slice();
  const kind = r.below(7);
  if (kind === 0) {
    // Flip one to four bits anywhere.
    for (let n = 1 + r.below(4); n > 0; n--) bytes[r.below(bytes.length)] ^= 1 << r.below(8);
  } else if (kind === 1) {
    // Overwrite one to three bytes.
    for (let n = 1 + r.below(3); n > 0; n--) bytes[r.below(bytes.length)] = r.below(256);
  } else if (kind === 2) {
    // Truncate anywhere, including to nothing.
    bytes = bytes.subarray(0, r.below(bytes.length));
  } else if (kind === 3) {
    // Extend by 1 to 40 random bytes.
    const extra = new Uint8Array(1 + r.below(40)).map(() => r.below(256));
    bytes = new Uint8Array([...bytes, ...extra]);
  } else if (kind === 4) {
    // An edge value in a u64 field.
    new DataView(bytes.buffer).setBigUint64(U64_FIELDS[r.below(U64_FIELDS.length)], EDGES[r.below(EDGES.length)], true);
  } else if (kind === 5) {
    // An edge value in a one- or two-byte field (version, scheme, hashes).
    const at = [4, 5, 6, 7][r.below(4)];
    bytes[at] = [0, 1, 2, 3, 63, 64, 65, 255][r.below(8)];
  } else {
    // Cut and splice: drop or duplicate a run of bytes.
    bytes = cutOrSplice(r, bytes);
  }
  // Half the time, repair the checksum, so the variant reaches the checks behind it.
  if (bytes.length >= 56 && r.chance(0.5)) {
    new DataView(bytes.buffer, bytes.byteOffset).setBigUint64(48, checksum(bytes.subarray(0, 48), bytes.subarray(56)), true);
  }
  return bytes;
}

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fuzzed inputs', () => {
  it('refuses or faithfully loads 12,000 variants, wasm and reference alike, with no other error and no big allocation', () => {
    const r = rng(0xb10077);
    const all = bases();
    const before = process.memoryUsage();
    const tally = { refused: 0, loaded: 0, fields: new Map<string, number>() };
    for (let i = 0; i < 12_000; i++) {
      const input = mutate(all[i % all.length], r);
      const w = outcome(() => wasm.BloomFilter.fromBytes(input));
      const ref = outcome(() => reference.BloomFilter.fromBytes(input));
      expect(w).toEqual(ref);
      if (w.ok) {
        // Undetectable only when nothing changed: the load writes the input back exactly.
        expect(w.bytes).toEqual(input);
        tally.loaded++;
      } else {
        tally.refused++;
        tally.fields.set(w.field, (tally.fields.get(w.field) ?? 0) + 1);
      }
      // Every 20th variant also goes through the file loader.
      if (i % 20 === 0) {
        const path = join(dir, 'variant.bin');
        writeFileSync(path, input);
        expect(outcome(() => loadFileSync(path, wasm.BloomFilter))).toEqual(w);
      }
    }
    const after = process.memoryUsage();
    expect(tally.refused + tally.loaded).toBe(12_000);
    // Most mutations break something; the rest (a forged addedCount or seed, a byte overwritten by itself) are valid files.
    expect(tally.refused).toBeGreaterThan(10_000);
    // Every rule was reached by some variant.
    expect([...tally.fields.keys()].sort()).toEqual(
      ['addedCount', 'bits', 'bitsSet', 'checksum', 'hashes', 'magic', 'payload', 'payloadLength', 'scheme', 'seed', 'version'].sort(),
    );
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024);
  });
});
