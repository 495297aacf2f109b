// The sliding filter's file, "BLMS" version 1 (docs/FORMAT.md, "Sliding
// filter format"): the layout pinned field by field, each refusal naming
// its field and byte offset, and 6,000 fuzzed variants that are refused
// with a BloomFormatError or load into a filter that writes the very same
// bytes back, wasm and reference alike.
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { checksum } from '../src/reference/checksum.js';
import { checksumOffset, SLIDING_FIELD_OFFSETS as AT, slidingHeaderBytes } from '../src/format/sliding.js';
import { outcome, rng, type Outcome } from './helpers/fuzz.js';

function countFilter(): Uint8Array {
  const f = new reference.SlidingBloomFilter({ window: 21, falsePositiveRate: 0.05 });
  for (let i = 0; i < 40; i++) f.add(`count-${i}`);
  return f.toBytes();
}

function timeFilter(adds: number): Uint8Array {
  let now = 1_000;
  const f = new reference.SlidingBloomFilter({ windowMs: 700, capacity: 14, falsePositiveRate: 0.05, clock: () => now });
  for (let i = 0; i < adds; i++) {
    f.add(`time-${i}`);
    now += 37;
  }
  return f.toBytes();
}

/** Writes the checksum a valid writer would, so that a forged field reaches the checks behind the checksum. */
function resum(bytes: Uint8Array): Uint8Array {
  const g = bytes[AT.generations];
  const at = checksumOffset(g);
  new DataView(bytes.buffer, bytes.byteOffset).setBigUint64(at, checksum(bytes.subarray(0, at), bytes.subarray(at + 8)), true);
  return bytes;
}

function refusal(bytes: Uint8Array): Outcome {
  const w = outcome(() => wasm.SlidingBloomFilter.fromBytes(bytes));
  expect(outcome(() => reference.SlidingBloomFilter.fromBytes(bytes))).toEqual(w);
  return w;
}

describe('the BLMS layout', () => {
  it('a count window: magic, version, mode, G, k, plane, seed, m, n, p, adds, the table, the checksum, then m words', () => {
    const bytes = countFilter();
    const view = new DataView(bytes.buffer);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('BLMS');
    expect(view.getUint16(AT.version, true)).toBe(1);
    expect(bytes[AT.mode]).toBe(0);
    expect(bytes[AT.generations]).toBe(8);
    const f = reference.SlidingBloomFilter.fromBytes(bytes);
    expect(bytes[AT.hashes]).toBe(f.hashes);
    expect(Number(view.getBigUint64(AT.bits, true))).toBe(f.shape.bits);
    expect(Number(view.getBigUint64(AT.window, true))).toBe(21);
    expect(Number(view.getBigUint64(AT.capacity, true))).toBe(21);
    expect(view.getFloat64(AT.falsePositiveRate, true)).toBe(0.05);
    expect(Number(view.getBigUint64(AT.totalAdds, true))).toBe(40);
    expect(bytes.length).toBe(slidingHeaderBytes(8) + f.shape.bits);
    // 40 adds of c = 3: generations of 3 adds, the current one (plane 13 mod 8 = 5) holding 1.
    expect(bytes[AT.current]).toBe(5);
    const counts = Array.from({ length: 8 }, (_, p) => Number(view.getBigUint64(AT.generationTable + 24 * p, true)));
    expect(counts).toEqual([3, 3, 3, 3, 3, 1, 3, 3]);
  });

  it('a time window: 16 generations, u16 words, the times and the clock', () => {
    const bytes = timeFilter(30);
    const view = new DataView(bytes.buffer);
    expect(bytes[AT.mode]).toBe(1);
    expect(bytes[AT.generations]).toBe(16);
    expect(view.getFloat64(AT.windowMs, true)).toBe(700);
    expect(view.getFloat64(AT.lastNow, true)).toBe(1_000 + 29 * 37);
    const f = reference.SlidingBloomFilter.fromBytes(bytes);
    expect(bytes.length).toBe(slidingHeaderBytes(16) + 2 * f.shape.bits);
  });
});

describe('what a reader refuses', () => {
  const cases: Array<[string, (b: Uint8Array) => Uint8Array, string, number]> = [
    ['a plain filter file', () => new reference.BloomFilter(64, 3).toBytes(), 'magic', 0],
    ['version 2', (b) => resum((new DataView(b.buffer).setUint16(AT.version, 2, true), b)), 'version', AT.version],
    ['mode 2', (b) => resum(((b[AT.mode] = 2), b)), 'mode', AT.mode],
    ['16 generations for a count window', (b) => ((b[AT.generations] = 16), b), 'generations', AT.generations],
    ['0 hashes', (b) => resum(((b[AT.hashes] = 0), b)), 'hashes', AT.hashes],
    ['a current plane past G', (b) => resum(((b[AT.current] = 8), b)), 'current', AT.current],
    ['a reserved byte set', (b) => resum(((b[AT.reserved + 3] = 1), b)), 'reserved', AT.reserved + 3],
    ['0 bits', (b) => resum((new DataView(b.buffer).setBigUint64(AT.bits, 0n, true), b)), 'bits', AT.bits],
    ['a window of 0', (b) => resum((new DataView(b.buffer).setBigUint64(AT.window, 0n, true), b)), 'window', AT.window],
    ['a rate of 1', (b) => resum((new DataView(b.buffer).setFloat64(AT.falsePositiveRate, 1, true), b)), 'falsePositiveRate', AT.falsePositiveRate],
    ['a count above c', (b) => resum((new DataView(b.buffer).setBigUint64(AT.generationTable + 24, 4n, true), b)), 'generations[1].count', AT.generationTable + 24],
    ['counts above totalAdds', (b) => resum((new DataView(b.buffer).setBigUint64(AT.totalAdds, 3n, true), b)), 'totalAdds', AT.totalAdds],
    ['a wrong payloadLength', (b) => resum((new DataView(b.buffer).setBigUint64(AT.payloadLength, 5n, true), b)), 'payloadLength', AT.payloadLength],
    ['a flipped word bit', (b) => ((b[b.length - 1] ^= 0x80), b), 'checksum', checksumOffset(8)],
    ['bits in a plane with no adds', (b) => {
      const view = new DataView(b.buffer);
      view.setBigUint64(AT.generationTable + 24 * 6, 0n, true); // plane 6 (3 adds) now says none
      return resum(b);
    }, 'payload', slidingHeaderBytes(8)],
    ['a truncated header', (b) => b.subarray(0, 100), 'generations[0].start', AT.generationTable + 8],
    ['a truncated payload', (b) => b.subarray(0, b.length - 1), 'payload', 0],
    ['a byte past the payload', (b) => new Uint8Array([...b, 0]), 'payload', 0],
  ];
  for (const [what, make, field, offset] of cases) {
    it(`${what}: ${field}`, () => {
      const bytes = make(countFilter());
      const got = refusal(bytes);
      expect(got.ok).toBe(false);
      if (got.ok) return;
      expect(got.field).toBe(field);
      if (field !== 'payload' || offset > 0) expect(got.offset).toBe(offset);
    });
  }

  it('a time window whose generation ends after the clock, or whose clock is not finite', () => {
    const bytes = timeFilter(30);
    const view = new DataView(bytes.buffer);
    const late = bytes.slice();
    new DataView(late.buffer).setFloat64(AT.lastNow, 1_000, true);
    const early = refusal(resum(late));
    expect(early.ok).toBe(false);
    if (!early.ok) expect(early.field).toMatch(/^generations\[\d+\]\.(start|end)$/);
    const nan = bytes.slice();
    new DataView(nan.buffer).setFloat64(AT.lastNow, NaN, true);
    expect(refusal(resum(nan))).toMatchObject({ ok: false, field: 'lastNow', offset: AT.lastNow });
    expect(view.getFloat64(AT.windowMs, true)).toBe(700);
  });

  it('a file of another kind names the right reader, both ways', () => {
    expect(() => wasm.SlidingBloomFilter.fromBytes(new reference.BloomFilter(64, 3).toBytes())).toThrow(/BloomFilter.fromBytes or loadFile/);
    expect(() => wasm.BloomFilter.fromBytes(countFilter())).toThrow(/SlidingBloomFilter.fromBytes or loadFile/);
    expect(() => reference.CountingBloomFilter.fromBytes(countFilter())).toThrow(/SlidingBloomFilter.fromBytes/);
  });

  it('bytes that are not a Uint8Array, and options that are not an object, are type errors', () => {
    expect(() => wasm.SlidingBloomFilter.fromBytes([1, 2] as never)).toThrow(wasm.BloomTypeError);
    expect(() => wasm.SlidingBloomFilter.fromBytes(countFilter(), 5 as never)).toThrow(/options/);
    expect(() => wasm.SlidingBloomFilter.fromBytes(countFilter(), { clock: 5 } as never)).toThrow(/clock/);
  });
});

const U64_FIELDS = [AT.seed, AT.bits, AT.window, AT.capacity, AT.totalAdds, AT.payloadLength, AT.generationTable, AT.generationTable + 24];
const F64_FIELDS = [AT.windowMs, AT.falsePositiveRate, AT.lastNow, AT.generationTable + 8, AT.generationTable + 16];
const EDGES = [0n, 1n, 2n, 3n, 7n, 8n, 64n, 65n, 255n, 1n << 32n, (1n << 53n) - 1n, 1n << 53n, (1n << 64n) - 1n];
const FLOATS = [0, -0, 1, 0.5, 1e9, -1, NaN, Infinity, -Infinity, 700, 5e-324];

function mutate(base: Uint8Array, r: ReturnType<typeof rng>): Uint8Array {
  let bytes = base.slice();
  const kind = r.below(7);
  if (kind === 0) {
    for (let n = 1 + r.below(4); n > 0; n--) bytes[r.below(bytes.length)] ^= 1 << r.below(8);
  } else if (kind === 1) {
    for (let n = 1 + r.below(3); n > 0; n--) bytes[r.below(bytes.length)] = r.below(256);
  } else if (kind === 2) {
    bytes = bytes.subarray(0, r.below(bytes.length));
  } else if (kind === 3) {
    bytes = new Uint8Array([...bytes, ...new Uint8Array(1 + r.below(40)).map(() => r.below(256))]);
  } else if (kind === 4) {
    new DataView(bytes.buffer).setBigUint64(U64_FIELDS[r.below(U64_FIELDS.length)], EDGES[r.below(EDGES.length)], true);
  } else if (kind === 5) {
    new DataView(bytes.buffer).setFloat64(F64_FIELDS[r.below(F64_FIELDS.length)], FLOATS[r.below(FLOATS.length)], true);
  } else {
    const at = [AT.version, AT.mode, AT.generations, AT.hashes, AT.current, AT.reserved][r.below(6)];
    bytes[at] = [0, 1, 2, 7, 8, 15, 16, 64, 65, 255][r.below(10)];
  }
  const g = bytes[AT.generations];
  if ((g === 8 || g === 16) && bytes.length >= slidingHeaderBytes(g) && r.chance(0.5)) resum(bytes);
  return bytes;
}

describe('fuzzed inputs', () => {
  it('refuses or faithfully loads 6,000 variants, wasm and reference alike', () => {
    const r = rng(0x5117);
    const bases = [countFilter(), timeFilter(5), timeFilter(60)];
    const tally = { refused: 0, loaded: 0, fields: new Set<string>() };
    for (let i = 0; i < 6_000; i++) {
      const input = mutate(bases[i % bases.length], r);
      const w = outcome(() => wasm.SlidingBloomFilter.fromBytes(input));
      expect(outcome(() => reference.SlidingBloomFilter.fromBytes(input))).toEqual(w);
      if (w.ok) {
        expect(w.bytes).toEqual(input);
        tally.loaded++;
      } else {
        tally.refused++;
        tally.fields.add(w.field.replace(/\[\d+\]/, '[i]'));
      }
    }
    expect(tally.refused).toBeGreaterThan(4_000);
    for (const field of ['magic', 'version', 'mode', 'generations', 'hashes', 'current', 'reserved', 'bits', 'checksum', 'payload', 'payloadLength', 'generations[i].count', 'lastNow']) {
      expect(tally.fields).toContain(field);
    }
  });
});

describe('sliding filters in files (bloomwasm/node)', () => {
  it('saveFile and loadFile keep every byte, in chunks of any size, sync and async; a bad file is refused naming its field', async () => {
    const { mkdtempSync, rmSync, writeFileSync, readFileSync, readdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const files = await import('../src/node/index.js');
    const { setChunkBytes } = await import('../src/node/io.js');
    const dir = mkdtempSync(join(tmpdir(), 'bloom-sliding-files-'));
    try {
      let now = 50_000;
      const f = new wasm.SlidingBloomFilter({ windowMs: 7_000, capacity: 700, falsePositiveRate: 0.01, clock: () => now });
      for (let i = 0; i < 900; i++) {
        f.add(`file-${i}`);
        now += 9;
      }
      const path = join(dir, 'window.bloom');
      for (const chunk of [3, 64, 8 << 20]) {
        const previous = setChunkBytes(chunk);
        try {
          files.saveFileSync(f, path);
          expect(readFileSync(path)).toEqual(Buffer.from(f.toBytes()));
          expect(files.loadFileSync(path, wasm.SlidingBloomFilter, { clock: () => now }).toBytes()).toEqual(f.toBytes());
          await files.saveFile(f, path);
          const loaded = await files.loadFile(path, wasm.SlidingBloomFilter, { clock: () => now });
          expect(loaded.toBytes()).toEqual(f.toBytes());
          expect(loaded.has('file-899')).toBe(true);
        } finally {
          setChunkBytes(previous);
        }
      }
      expect(readdirSync(dir)).toEqual(['window.bloom']);
      // The reference twin saves through toBytes.
      const twin = reference.SlidingBloomFilter.fromBytes(f.toBytes(), { clock: () => now });
      files.saveFileSync(twin, path);
      expect(files.loadFileSync(path, wasm.SlidingBloomFilter, { clock: () => now }).toBytes()).toEqual(f.toBytes());
      const bad = f.toBytes();
      bad[bad.length - 2] ^= 4;
      writeFileSync(path, bad);
      expect(() => files.loadFileSync(path, wasm.SlidingBloomFilter)).toThrow(/checksum at byte/);
      writeFileSync(path, bad.subarray(0, 50));
      expect(() => files.loadFileSync(path, wasm.SlidingBloomFilter)).toThrow(wasm.BloomFormatError);
      expect(() => files.loadFileSync(path, wasm.SlidingBloomFilter, { clock: 1 } as never)).toThrow(wasm.BloomTypeError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
