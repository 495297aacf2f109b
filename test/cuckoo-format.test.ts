// The cuckoo filter's file, "BLMK" version 1 (docs/FORMAT.md, "Cuckoo
// filter format"): golden bytes from both implementations, every fault
// named by field and byte offset, a fuzzed loader (wasm and reference
// alike), files through bloomwasm/node, and `bloom info`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { CUCKOO_FIELD_OFFSETS as AT, cuckooChecksumOffset, cuckooHeaderBytes, MEMBER_ENTRY_BYTES, MEMBER_FIELD_OFFSETS as M } from '../src/format/cuckoo.js';
import { xxh64 } from '../src/reference/hash.js';
import { BIN } from './helpers/bin.js';
import { outcome, rng } from './helpers/fuzz.js';
import { twins } from './helpers/twins.js';

const golden = (name: string) => new Uint8Array(readFileSync(new URL(`./golden/${name}.bin`, import.meta.url)));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

// Each recipe's file in test/golden was written with the earlier sizing
// (src/cuckoo/shape.ts's earlierMemberShape), and still loads; the same
// recipe now makes the larger members of today's sizing, spelled out in `now`.
const recipes = {
  cuckoo: {
    make(F: typeof wasm.CuckooFilter) {
      const f = F.forCapacity(10, 0.01, { seed: 0x0123456789abcdefn });
      for (const x of ['apple', 'banana', 'apple', 'cherry']) f.add(x);
      f.remove('banana');
      return f;
    },
    hex:
      '424c4d4b01000401efcdab8967452301' + '0a000000000000007b14ae47e17a843f' + '00000000000000000300000000000000' +
      '0a000000000000000300000000000000' + '39ce3d3f3280398ecea4416746c52b09' + '801139bf8cc9a8d700000000009e03e0' + 'f99c0000000000',
    now:
      '424c4d4b01000401efcdab8967452301' + '0a000000000000007b14ae47e17a843f' + '00000000000000000800000000000000' +
      '0a000000000000000300000000000000' + '39ce3d3f3280398ef0774cd46a6be3a4' + '66810f5d6907411d0000000000000000' +
      '0000730200000000000000009e03e039' + '00000000000000000000000000000000',
  },
  'cuckoo-growth': {
    make(F: typeof wasm.CuckooFilter) {
      const f = F.forCapacity(3, 0.1, { bucketSize: 2, growth: 2 });
      for (let i = 0; i < 8; i++) f.add(`item ${i}`);
      return f;
    },
    hex:
      '424c4d4b010002020000000000000000' + '03000000000000009a9999999999b93f' + '00000000000000400200000000000000' +
      '07000000000000000400000000000000' + '8864afad8231bb5453c90094621cf7f6' + '04000000000000000800000000000000' +
      '0400000000000000afcd1d7b39a820e2' + '73368324ffccd6697084dcc4208965dc' + '5ea1a90f000000005640a45a',
    // Today's member 0 holds these 8 items, so the recipe grows after 24: 9 buckets of 8 bits, then 13 of 8.
    now:
      '424c4d4b010002020000000000000000' + '03000000000000009a9999999999b93f' + '00000000000000400900000000000000' +
      '08000000000000001200000000000000' + '110d1139145c11b29d303f97cebbb423' + '0d000000000000000800000000000000' +
      '0600000000000000afcd1d7b39a820e2' + '77274eb7414015e9604273ba540c0d5d' + 'db40c2db80dabc4756affba402e4f585' +
      '4c5ad3600000f3000000000000000000' + '00001d00b60c000000000000',
    adds: 24,
  },
} as const;

describe('golden files', () => {
  for (const [name, recipe] of Object.entries(recipes)) {
    it(`${name}.bin, written with the earlier sizing, holds exactly the bytes spelled out, and both implementations read it and write it back unchanged`, () => {
      const bytes = golden(name);
      expect(hex(bytes)).toBe(recipe.hex);
      for (const { CuckooFilter } of twins) expect(hex(CuckooFilter.fromBytes(bytes).toBytes())).toBe(recipe.hex);
    });

    it(`the ${name} recipe now writes the bytes spelled out (today's sizing), and both implementations read them back`, () => {
      for (const { CuckooFilter } of twins) {
        const f = recipe.make(CuckooFilter);
        for (let i = 8; i < ('adds' in recipe ? recipe.adds : 0); i++) f.add(`item ${i}`);
        expect(hex(f.toBytes())).toBe(recipe.now);
        expect(hex(CuckooFilter.fromBytes(Buffer.from(recipe.now, 'hex')).toBytes())).toBe(recipe.now);
      }
    });
  }

  it('cuckoo.bin holds apple twice and cherry once, and not banana', () => {
    const f = wasm.CuckooFilter.fromBytes(golden('cuckoo'));
    expect([f.count('apple'), f.count('cherry'), f.has('banana'), f.size]).toEqual([2, 1, false, 3]);
    expect([f.capacity, f.falsePositiveRate, f.bucketSize, f.growth, f.seed, f.fingerprintBits]).toEqual([10, 0.01, 4, 0, 0x0123456789abcdefn, 10]);
    const g = reference.CuckooFilter.fromBytes(golden('cuckoo-growth'));
    expect(g.members.map((m) => [m.buckets, m.fingerprintBits, m.size])).toEqual([[2, 7, 4], [4, 8, 4]]);
    for (let i = 0; i < 8; i++) expect(g.has(`item ${i}`)).toBe(true);
    // A loaded filter of the earlier sizing keeps its members, and grows with today's.
    for (let i = 8; i < 40; i++) g.add(`item ${i}`);
    expect(g.members.slice(0, 2).map((m) => [m.buckets, m.fingerprintBits])).toEqual([[2, 7], [4, 8]]);
    expect(g.members[2]).toMatchObject({ capacity: 12, fingerprintBits: 9, buckets: Math.ceil((12 + 4 * Math.sqrt(12) + 4) / 1.6) });
    const again = wasm.CuckooFilter.fromBytes(g.toBytes());
    expect(again.toBytes()).toEqual(g.toBytes());
  });
});

/** Sets the header checksum (and, with `payloads`, every member's payload checksum) right again after an edit. */
function resum(bytes: Uint8Array, payloads = false): void {
  const members = bytes[AT.members];
  if (!(members >= 1) || bytes.length < cuckooHeaderBytes(members)) return;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (payloads) {
    let at = cuckooHeaderBytes(members);
    const b = bytes[AT.bucketSize];
    for (let j = 0; j < members; j++) {
      const entry = AT.memberTable + MEMBER_ENTRY_BYTES * j;
      const length = Math.ceil((Number(view.getBigUint64(entry + M.buckets, true)) * b * bytes[entry + M.fingerprintBits]) / 8);
      if (!(length >= 0 && at + length <= bytes.length)) return;
      view.setBigUint64(entry + M.payloadChecksum, xxh64(bytes.subarray(at, at + length), 0n), true);
      at += length;
    }
  }
  const sumAt = cuckooChecksumOffset(members);
  view.setBigUint64(sumAt, xxh64(bytes.subarray(0, sumAt), 0n), true);
}

/** Loads with both implementations; they must agree, and a refusal must name its field at its byte. */
function load(bytes: Uint8Array) {
  const w = outcome(() => wasm.CuckooFilter.fromBytes(bytes));
  expect(outcome(() => reference.CuckooFilter.fromBytes(bytes))).toEqual(w);
  return w;
}

describe('every fault is named by its field and byte offset', () => {
  const base = () => golden('cuckoo-growth').slice();
  const entry1 = AT.memberTable + MEMBER_ENTRY_BYTES;
  const cases: Array<[string, (b: Uint8Array, v: DataView) => void, string, number]> = [
    ['another magic', (b) => (b[3] = 0x58), 'magic', 0],
    ['a newer version', (b) => (b[AT.version] = 2), 'version', AT.version],
    ['a bucket size of 3', (b) => (b[AT.bucketSize] = 3), 'bucketSize', AT.bucketSize],
    ['no members', (b) => (b[AT.members] = 0), 'members', AT.members],
    ['a rate of 1', (b, v) => v.setFloat64(AT.falsePositiveRate, 1, true), 'falsePositiveRate', AT.falsePositiveRate],
    ['a growth of 0.5', (b, v) => v.setFloat64(AT.growth, 0.5, true), 'growth', AT.growth],
    ['more buckets than the shape gives', (b, v) => v.setBigUint64(entry1 + M.buckets, 5n, true), 'members[1].buckets', entry1 + M.buckets],
    ['a wider fingerprint', (b) => (b[entry1 + M.fingerprintBits] = 9), 'members[1].fingerprintBits', entry1 + M.fingerprintBits],
    ['a reserved byte set', (b) => (b[entry1 + M.reserved + 2] = 1), 'members[1].reserved', entry1 + M.reserved + 2],
    ['more held than slots', (b, v) => v.setBigUint64(entry1 + M.held, 17n, true), 'members[1].held', entry1 + M.held],
    ['a kick generator at 0', (b, v) => v.setBigUint64(entry1 + M.randomState, 0n, true), 'members[1].randomState', entry1 + M.randomState],
  ];
  for (const [what, edit, field, offset] of cases) {
    it(`${what}: ${field} at byte ${offset}`, () => {
      const bytes = base();
      edit(bytes, new DataView(bytes.buffer));
      resum(bytes);
      expect(load(bytes)).toEqual({ ok: false, field, offset });
    });
  }

  it('a flipped header bit: checksum; a flipped payload bit: that member\'s payloadChecksum; a wrong tally: held', () => {
    const headerFlip = base();
    headerFlip[AT.seed] ^= 4;
    expect(load(headerFlip)).toEqual({ ok: false, field: 'checksum', offset: cuckooChecksumOffset(2) });
    const payloadFlip = base();
    payloadFlip[payloadFlip.length - 1] ^= 1;
    expect(load(payloadFlip)).toEqual({ ok: false, field: 'members[1].payloadChecksum', offset: entry1 + M.payloadChecksum });
    const tally = base();
    new DataView(tally.buffer).setBigUint64(entry1 + M.held, 3n, true);
    resum(tally);
    expect(load(tally)).toEqual({ ok: false, field: 'members[1].held', offset: entry1 + M.held });
  });

  it('padding bits past the last slot must be 0', () => {
    // Member 0: 2 buckets of 2 slots of 7 bits = 28 bits, so its 4th byte has 4 padding bits.
    const bytes = base();
    const at = cuckooHeaderBytes(2) + 3;
    bytes[at] |= 0x80;
    resum(bytes, true);
    expect(load(bytes)).toEqual({ ok: false, field: 'payload', offset: at });
  });

  it('every truncation, and bytes past the end, are refused', () => {
    const bytes = base();
    for (let n = 0; n < bytes.length; n++) {
      const result = load(bytes.subarray(0, n));
      expect(result.ok).toBe(false);
    }
    expect(load(new Uint8Array([...bytes, 0]))).toEqual({ ok: false, field: 'payload', offset: bytes.length });
  });

  it('another kind of file names its reader, and a wrong type is a BloomTypeError', () => {
    expect(() => wasm.CuckooFilter.fromBytes(new reference.BloomFilter(64, 3).toBytes())).toThrow(/BloomFilter.fromBytes or loadFile/);
    expect(() => wasm.BloomFilter.fromBytes(golden('cuckoo'))).toThrow(/CuckooFilter.fromBytes or loadFile/);
    expect(() => wasm.CuckooFilter.fromBytes([1, 2] as never)).toThrow(wasm.BloomTypeError);
  });
});

describe('fuzzed inputs', () => {
  it('refuses or faithfully loads 4,000 variants, wasm and reference alike', () => {
    const r = rng(0xc0c0);
    const bigger = reference.CuckooFilter.forCapacity(40, 0.01, { growth: 2, bucketSize: 8, seed: 77n });
    for (let i = 0; i < 120; i++) bigger.add(`k${i}`);
    const bases = [golden('cuckoo'), golden('cuckoo-growth'), bigger.toBytes()];
    const U64 = [AT.seed, AT.capacity, AT.memberTable + M.buckets, AT.memberTable + M.held, AT.memberTable + M.randomState];
    const F64 = [AT.falsePositiveRate, AT.growth];
    const EDGES = [0n, 1n, 2n, 3n, 7n, 8n, 64n, 255n, 1n << 32n, (1n << 53n) - 1n, (1n << 64n) - 1n];
    const FLOATS = [0, -0, 1, 0.5, 2, 1e-12, NaN, Infinity, 0.01, 1024, 1025];
    const tally = { refused: 0, loaded: 0, fields: new Set<string>() };
    for (let i = 0; i < 4_000; i++) {
      let bytes = bases[i % bases.length].slice();
      const kind = r.below(6);
      const view = new DataView(bytes.buffer);
      if (kind === 0) for (let n = 1 + r.below(3); n > 0; n--) bytes[r.below(bytes.length)] ^= 1 << r.below(8);
      else if (kind === 1) bytes = bytes.subarray(0, r.below(bytes.length));
      else if (kind === 2) bytes = new Uint8Array([...bytes, ...new Uint8Array(1 + r.below(20)).map(() => r.below(256))]);
      else if (kind === 3) view.setBigUint64(U64[r.below(U64.length)], EDGES[r.below(EDGES.length)], true);
      else if (kind === 4) view.setFloat64(F64[r.below(F64.length)], FLOATS[r.below(FLOATS.length)], true);
      else bytes[[AT.version, AT.bucketSize, AT.members, AT.memberTable + M.fingerprintBits, AT.memberTable + M.reserved][r.below(5)]] = [0, 1, 2, 4, 8, 9, 32, 33, 255][r.below(9)];
      if (r.chance(0.7)) resum(bytes, r.chance(0.5));
      const w = load(bytes);
      if (w.ok) {
        expect(w.bytes).toEqual(bytes);
        tally.loaded++;
      } else {
        tally.refused++;
        tally.fields.add(w.field.replace(/\[\d+\]/, '[i]'));
      }
    }
    expect(tally.refused).toBeGreaterThan(2_500);
    expect(tally.loaded).toBeGreaterThan(10);
    for (const field of ['magic', 'version', 'bucketSize', 'members', 'capacity', 'falsePositiveRate', 'growth', 'checksum', 'payload', 'members[i].buckets', 'members[i].fingerprintBits', 'members[i].held', 'members[i].payloadChecksum']) {
      expect(tally.fields).toContain(field);
    }
  });
});

describe('cuckoo filters in files (bloomwasm/node) and bloom info', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bloom-cuckoo-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('saveFile and loadFile keep every byte, in chunks of any size, sync and async; a bad file is refused naming its field', async () => {
    const files = await import('../src/node/index.js');
    const { setChunkBytes } = await import('../src/node/io.js');
    const f = wasm.CuckooFilter.forCapacity(3000, 0.001, { growth: 2, seed: 4n });
    for (let i = 0; i < 10_000; i++) f.add(`url ${i}`);
    const bytes = f.toBytes();
    const path = join(dir, 'grown.cuckoo');
    for (const chunk of [7, 4096, 1 << 20]) {
      const previous = setChunkBytes(chunk);
      try {
        files.saveFileSync(f, path);
        expect(new Uint8Array(readFileSync(path))).toEqual(bytes);
        expect(files.loadFileSync(path, wasm.CuckooFilter).toBytes()).toEqual(bytes);
        await files.saveFile(f, path);
        const loaded = await files.loadFile(path, wasm.CuckooFilter);
        expect(loaded.toBytes()).toEqual(bytes);
        expect(loaded.has('url 9999')).toBe(true);
      } finally {
        setChunkBytes(previous);
      }
    }
    files.saveFileSync(reference.CuckooFilter.fromBytes(bytes), path);
    expect(new Uint8Array(readFileSync(path))).toEqual(bytes);
    const bad = bytes.slice();
    bad[bad.length - 2] ^= 0x10;
    writeFileSync(path, bad);
    expect(() => files.loadFileSync(path, wasm.CuckooFilter)).toThrow(/members\[1\]\.payloadChecksum at byte/);
    await expect(files.loadFile(path, wasm.CuckooFilter)).rejects.toThrow(wasm.BloomFormatError);
  });

  it('saveFile of a grown filter, then clear() or more growth before it settles, rejects with BloomConcurrencyError and leaves the old file', async () => {
    const files = await import('../src/node/index.js');
    const changes: [string, (f: wasm.CuckooFilter) => void][] = [
      // clear() gives back every member but the first, which the save was still to write.
      ['clear()', (f) => f.clear()],
      ['clear() and growth again', (f) => {
        f.clear();
        for (let i = 0; i < 10_000; i++) f.add(`other ${i}`);
      }],
      ['a new member', (f) => {
        for (let i = 10_000; i < 20_000; i++) f.add(`url ${i}`);
      }],
    ];
    for (const [what, change] of changes) {
      const f = wasm.CuckooFilter.forCapacity(3000, 0.001, { growth: 2, seed: 4n });
      for (let i = 0; i < 10_000; i++) f.add(`url ${i}`);
      const path = join(dir, 'changing.cuckoo');
      writeFileSync(path, 'old');
      const saving = files.saveFile(f, path);
      change(f);
      const error = await saving.then(() => undefined, (e: unknown) => e);
      expect(error, what).toBeInstanceOf(wasm.BloomConcurrencyError);
      expect((error as Error).message, what).toMatch(/changed during saveFile/);
      expect(readFileSync(path, 'utf8'), what).toBe('old');
      f.dispose();
    }
  });

  it('bloom info describes a cuckoo file as text and JSON, and refuses a corrupt one', () => {
    const path = join(dir, 'golden.cuckoo');
    writeFileSync(path, golden('cuckoo-growth'));
    const text = spawnSync(process.execPath, [BIN, 'info', path], { encoding: 'utf8' });
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('cuckoo filter, version 1');
    expect(text.stdout).toMatch(/member 1\s+4 buckets of 8-bit fingerprints, 4 held/);
    const json = spawnSync(process.execPath, [BIN, 'info', '--json', path], { encoding: 'utf8' });
    const info = JSON.parse(json.stdout);
    expect([info.kind, info.capacity, info.bucketSize, info.growth, info.memberCount, info.addedCount, info.sizeOnDisk]).toEqual(['cuckoo filter', 3, 2, 2, 2, 8, 140]);
    const bad = golden('cuckoo-growth');
    bad[bad.length - 1] ^= 1;
    writeFileSync(path, bad);
    const refused = spawnSync(process.execPath, [BIN, 'info', path], { encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/members\[1\]\.payloadChecksum at byte/);
  });
});
