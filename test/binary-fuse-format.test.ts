// The binary fuse filter's file ("BLMF", docs/FORMAT.md): the golden files
// byte for byte from both implementations, files in Node (saveFile,
// loadFile, bloom info), and 6,000 fuzzed variants that must be
// refused with a BloomFormatError naming the field and its byte offset, or
// (where the mutation changed nothing the format can see) load and write
// the very same bytes back; wasm and twin alike.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { loadFile, loadFileSync, saveFile, saveFileSync } from '../src/node/index.js';
import { inspectFileSync } from '../src/node/inspect.js';
import { checksum } from '../src/reference/checksum.js';
import { cutOrSplice, outcome, rng } from './helpers/fuzz.js';
import { splitmixKeys } from './helpers/fuse-keys.js';

const golden = (name: string) => new Uint8Array(readFileSync(new URL(`./golden/${name}.bin`, import.meta.url)));
const impls = [
  { name: 'wasm', F: wasm.BinaryFuseFilter },
  { name: 'reference', F: reference.BinaryFuseFilter as unknown as typeof wasm.BinaryFuseFilter },
] as const;

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-fuse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(impls)('$name: golden files', ({ F }) => {
  it('binary-fuse-8.bin and binary-fuse-16.bin, byte for byte', () => {
    expect(F.from(['apple', 'banana', 'cherry']).toBytes()).toEqual(golden('binary-fuse-8'));
    expect(F.from(['apple', 'banana', 'cherry', 'date', 'elderberry'], { fingerprintBits: 16 }).toBytes()).toEqual(golden('binary-fuse-16'));
    const f = F.fromBytes(golden('binary-fuse-8'));
    expect([f.has('apple'), f.has('banana'), f.has('cherry')]).toEqual([true, true, true]);
    expect(f.fingerprintBits).toBe(8);
    expect(f.size).toBe(3);
  });

  it('the header is as docs/FORMAT.md lays it out', () => {
    const bytes = golden('binary-fuse-16');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('BLMF');
    expect(view.getUint16(4, true)).toBe(1);
    expect(bytes[6]).toBe(16);
    expect(view.getUint32(16, true)).toBe(5);
    const arrayLength = view.getUint32(32, true);
    expect(view.getBigUint64(40, true)).toBe(BigInt(2 * arrayLength));
    expect(view.getBigUint64(48, true)).toBe(checksum(bytes.subarray(0, 48), bytes.subarray(56)));
    expect(bytes.length).toBe(56 + 2 * arrayLength);
  });
});

describe('files in Node', () => {
  it('saveFile and loadFile round-trip, sync and async, and bloom info describes the file', async () => {
    for (const bits of [8, 16] as const) {
      const f = wasm.BinaryFuseFilter.fromKeys(splitmixKeys(5000, 3n), { fingerprintBits: bits });
      const path = join(dir, `f${bits}.blmf`);
      saveFileSync(f, path);
      expect(new Uint8Array(readFileSync(path))).toEqual(f.toBytes());
      await saveFile(f, path);
      expect(new Uint8Array(readFileSync(path))).toEqual(f.toBytes());
      expect(loadFileSync(path, wasm.BinaryFuseFilter).toBytes()).toEqual(f.toBytes());
      expect((await loadFile(path, wasm.BinaryFuseFilter)).toBytes()).toEqual(f.toBytes());
      const summary = inspectFileSync(path);
      expect(summary.kind).toBe('fuse');
      if (summary.kind === 'fuse') {
        expect(summary.file.shape.size).toBe(5000);
        expect(summary.file.width).toBe(bits / 8);
      }
      // The reference twin's filter saves through toBytes, to the same bytes.
      const r = reference.BinaryFuseFilter.fromKeys(splitmixKeys(5000, 3n), { fingerprintBits: bits });
      saveFileSync(r, path);
      expect(new Uint8Array(readFileSync(path))).toEqual(f.toBytes());
    }
  });

  it('names both kinds when the file holds another kind than the one asked for', () => {
    const path = join(dir, 'wrong.blmf');
    writeFileSync(path, golden('binary-fuse-8'));
    expect(() => loadFileSync(path, wasm.BloomFilter)).toThrow('this holds a BinaryFuseFilter ("BLMF"), not the BloomFilter asked for');
    expect(() => wasm.BloomFilter.fromBytes(golden('binary-fuse-8'))).toThrow(/BinaryFuseFilter.fromBytes or loadFile/);
    const bloom = new wasm.BloomFilter(64, 3);
    writeFileSync(path, bloom.toBytes());
    expect(() => loadFileSync(path, wasm.BinaryFuseFilter)).toThrow('magic at byte 0: this holds a BloomFilter ("BLMW"), not the BinaryFuseFilter asked for');
  });
});

function bases(): Uint8Array[] {
  return [
    golden('binary-fuse-8'),
    golden('binary-fuse-16'),
    reference.BinaryFuseFilter.fromKeys([]).toBytes(),
    reference.BinaryFuseFilter.fromKeys(splitmixKeys(300, 8n)).toBytes(),
    reference.BinaryFuseFilter.fromKeys(splitmixKeys(40, 9n), { fingerprintBits: 16 }).toBytes(),
  ];
}

const EDGES = [0, 1, 2, 3, 4, 7, 8, 12, 16, 24, 255, 256, 262144, 262145, 2 ** 28, 2 ** 31, 2 ** 32 - 1];
const U32_FIELDS = [16, 20, 24, 28, 32, 36];

function mutate(base: Uint8Array, r: ReturnType<typeof rng>): Uint8Array {
  let bytes = base.slice();
  const kind = r.below(6);
  if (kind === 0) {
    for (let n = 1 + r.below(4); n > 0; n--) bytes[r.below(bytes.length)] ^= 1 << r.below(8);
  } else if (kind === 1) {
    bytes = bytes.subarray(0, r.below(bytes.length));
  } else if (kind === 2) {
    const extra = new Uint8Array(1 + r.below(40)).map(() => r.below(256));
    bytes = new Uint8Array([...bytes, ...extra]);
  } else if (kind === 3) {
    new DataView(bytes.buffer).setUint32(U32_FIELDS[r.below(U32_FIELDS.length)], EDGES[r.below(EDGES.length)] >>> 0, true);
  } else if (kind === 4) {
    const at = [4, 5, 6, 7, 40, 44][r.below(6)];
    bytes[at] = [0, 1, 2, 8, 16, 255][r.below(6)];
  } else {
    bytes = cutOrSplice(r, bytes);
  }
  if (bytes.length >= 56 && r.chance(0.5)) {
    new DataView(bytes.buffer, bytes.byteOffset).setBigUint64(48, checksum(bytes.subarray(0, 48), bytes.subarray(56)), true);
  }
  return bytes;
}

describe('fuzzed inputs', () => {
  it('refuses or faithfully loads 6,000 variants, wasm and reference alike', () => {
    const r = rng(0xf05e);
    const all = bases();
    const fields = new Set<string>();
    let refused = 0;
    for (let i = 0; i < 6000; i++) {
      const input = mutate(all[i % all.length], r);
      const w = outcome(() => wasm.BinaryFuseFilter.fromBytes(input));
      const ref = outcome(() => reference.BinaryFuseFilter.fromBytes(input));
      expect(w).toEqual(ref);
      if (w.ok) expect(w.bytes).toEqual(input);
      else {
        refused++;
        fields.add(w.field);
      }
      if (i % 30 === 0) {
        const path = join(dir, 'variant.blmf');
        writeFileSync(path, input);
        expect(outcome(() => loadFileSync(path, wasm.BinaryFuseFilter))).toEqual(w);
      }
      // The reference serialization's reader, on the same bytes from offset 28 of the header on.
      if (i % 10 === 0) {
        const bits = (i % 20 === 0 ? 8 : 16) as 8 | 16;
        const a = outcome(() => ({ toBytes: () => wasm.BinaryFuseFilter.fromReferenceBytes(input.subarray(8), { fingerprintBits: bits }).toReferenceBytes() }));
        const b = outcome(() => ({ toBytes: () => reference.BinaryFuseFilter.fromReferenceBytes(input.subarray(8), { fingerprintBits: bits }).toReferenceBytes() }));
        expect(a).toEqual(b);
        if (a.ok) expect(a.bytes).toEqual(input.subarray(8));
      }
    }
    expect(refused).toBeGreaterThan(5000);
    expect([...fields].sort()).toEqual(
      ['arrayLength', 'checksum', 'fingerprintBits', 'magic', 'payload', 'payloadLength', 'reserved', 'reserved2', 'seed', 'segmentCount', 'segmentCountLength', 'segmentLength', 'size', 'version'].sort(),
    );
  });
});
