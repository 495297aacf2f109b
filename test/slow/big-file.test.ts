// A filter above 2^32 bits (544 MiB) through the file helpers: saved, then
// loaded in a child process whose peak memory shows the load reads straight
// into wasm memory (one filter's worth, not two).
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
      expected = { bitsSet: f.bitsSet(), addedCount: f.addedCount(), high };
      saveFileSync(f, pathSync);
      await saveFile(f, pathAsync);
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
  }, 600_000); // Touching 544 MiB of fresh pages three times, and two fsyncs of it, take a while on a loaded machine.
});
