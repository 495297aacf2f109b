// A filter above 2^32 bits (544 MiB), and a chain above 2 GiB (2.42 GB),
// through the file helpers: saved, then loaded in a child process whose peak
// memory shows the load reads straight into wasm memory (one filter's or one
// chain's worth, not two), and no read or write call passes Node's 2 GiB.
// The saves here are not durable: what an fsync does does not depend on the
// file's size, test/node-files-durable.test.ts asserts both fsyncs, and
// flushing gigabytes to the disk would cost this file more than its writes.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BloomFilter } from '../../src/index.js';
import { fileHeader } from '../../src/filter/filter.js';
import { saveFile, saveFileSync } from '../../src/node/index.js';
import { bundleChild } from './bundle.js';

const BITS = 2 ** 32 + 2 ** 28 + 3; // 4,563,402,755 bits: above 2^32, and not a whole number of bytes
const BYTES = Math.ceil(BITS / 8);
const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-big-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sameFiles(a: string, b: string): boolean {
  const [fa, fb] = [openSync(a, 'r'), openSync(b, 'r')];
  try {
    const [ba, bb] = [Buffer.alloc(1 << 22), Buffer.alloc(1 << 22)];
    for (let at = 0; ; at += ba.length) {
      const na = readSync(fa, ba, 0, ba.length, at);
      const nb = readSync(fb, bb, 0, bb.length, at);
      if (na !== nb || !ba.subarray(0, na).equals(bb.subarray(0, nb))) return false;
      if (na === 0) return true;
    }
  } finally {
    closeSync(fa);
    closeSync(fb);
  }
}

describe('a filter above 2^32 bits', () => {
  it('round-trips through saveFile/saveFileSync and loadFile/loadFileSync, loading at one filter of peak memory', async () => {
    const items = Array.from({ length: 2000 }, (_, i) => `https://example.com/big/${i}`);
    const itemsPath = join(dir, 'items.json');
    writeFileSync(itemsPath, JSON.stringify(items));
    const pathSync = join(dir, 'big-sync.bin');
    const pathAsync = join(dir, 'big-async.bin');
    let header: string;
    let expected: { bitsSet: number; addedCount: number; high: number };
    {
      const f = new BloomFilter(BITS, 5, { seed: 2026n });
      for (const item of items) f.add(item);
      // About 1 position in 17 lies above 2^32 (some 590 of 10,000): the 64-bit index math is exercised.
      const high = items.flatMap((item) => f.positions(item)).filter((p) => p >= 2 ** 32).length;
      expect(high).toBeGreaterThan(400);
      expected = { bitsSet: f.bitsSet(), addedCount: f.size, high };
      saveFileSync(f, pathSync, { durable: false });
      await saveFile(f, pathAsync, { durable: false });
      header = Buffer.from(fileHeader(f)).toString('hex');
    }
    expect(statSync(pathSync).size).toBe(56 + BYTES);
    expect(sameFiles(pathSync, pathAsync)).toBe(true);

    const child = bundleChild('load-report', dir);
    for (const [mode, path] of [['sync', pathSync], ['async', pathAsync]]) {
      const report = JSON.parse(execFileSync(process.execPath, [child, path, mode, itemsPath], { encoding: 'utf8', maxBuffer: 1 << 20 }));
      expect(report).toMatchObject({ bits: BITS, hashes: 5, bitsSet: expected.bitsSet, addedCount: expected.addedCount, header, found: items.length });
      // Reading the file into a buffer and then copying it would peak near 2 x 544 MiB.
      expect(report.maxRssAfter - report.maxRssBefore).toBeLessThan(1.25 * BYTES);
      expect(report.maxRssAfter - report.maxRssBefore).toBeGreaterThan(0.9 * BYTES);
    }
  }, 600_000); // Touching 544 MiB of fresh pages three times takes a while on a loaded machine.
});

describe('a chain above 2 GiB', () => {
  it('saves member by member (saveFileSync, saveFile) and loads member by member (loadFile, loadFileSync), at one chain of peak memory', () => {
    const a = join(dir, 'chain-a.blmc');
    const b = join(dir, 'chain-b.blmc');
    const run = (child: string, ...args: string[]) =>
      JSON.parse(execFileSync(process.execPath, [bundleChild(child, dir), ...args], { encoding: 'utf8', maxBuffer: 1 << 20 }));
    // Built and saved in a child of its own, so that no two 2.3 GB chains share a process.
    const built = run('chain-build', a);
    const size = statSync(a).size;
    expect(size).toBeGreaterThan(2 ** 31);
    expect(size).toBe(64 + built.members.reduce((sum: number, f: { bits: number }) => sum + 56 + Math.ceil(f.bits / 8), 0));
    expect(built.members.map((f: { bits: number }) => f.bits)).toEqual([17_894_670, 579_093_333, 18_740_082_561]);

    // Loaded asynchronously and saved again asynchronously: the same bytes.
    const first = run('chain-load', a, 'async', String(built.items), b);
    expect(sameFiles(a, b)).toBe(true);
    // Loaded synchronously from the second file.
    const second = run('chain-load', b, 'sync', String(built.items), '-');
    for (const report of [first, second]) {
      expect(report.members).toEqual(built.members);
      expect(report.addedCount).toBe(built.addedCount);
      expect(report.found).toBe(report.sampled);
      // Reading the file into a buffer first would need the file and the chain: about twice the size.
      expect(report.maxRssAfter - report.maxRssBefore).toBeLessThan(1.25 * size);
      expect(report.maxRssAfter - report.maxRssBefore).toBeGreaterThan(0.9 * size);
    }
  }, 900_000);
});
