// A 256 MiB binary fuse filter file, loaded in a child process whose peak
// resident memory shows the fingerprints are read straight into the
// filter's wasm memory: the load grows it by the filter, never by the file
// on top of it (at most 1.35 x the file), through loadFile,
// loadFileSync and `bloom check`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BinaryFuseFilter } from '../../src/index.js';
import { REFERENCE_FIELD_OFFSETS as AT, REFERENCE_HEADER_BYTES } from '../../src/format/binary-fuse.js';
import { saveFileSync } from '../../src/node/index.js';
import { BIN } from '../helpers/bin.js';
import { bundleChild } from './bundle.js';

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-fuse-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The largest segment, and enough of them for 256 MiB of 8-bit fingerprints: ArrayLength = (SegmentCount + 2) * SegmentLength. */
const SEGMENT_LENGTH = 262_144;
const SEGMENT_COUNT = 1022;
const ARRAY_LENGTH = (SEGMENT_COUNT + 2) * SEGMENT_LENGTH;

/**
 * Writes a "BLMF" file of ARRAY_LENGTH fingerprints, patterned so that every
 * page a load writes is resident: the reference's serialization, read by
 * fromReferenceBytes (no checksum to forge) and saved, which computes it.
 */
function writeFile(path: string): void {
  const bytes = new Uint8Array(REFERENCE_HEADER_BYTES + ARRAY_LENGTH);
  const view = new DataView(bytes.buffer);
  view.setBigUint64(AT.seed, 0x1234_5678_9abc_def0n, true);
  view.setUint32(AT.size, 29_000_000, true);
  view.setUint32(AT.segmentLength, SEGMENT_LENGTH, true);
  view.setUint32(AT.segmentCount, SEGMENT_COUNT, true);
  view.setUint32(AT.segmentCountLength, SEGMENT_COUNT * SEGMENT_LENGTH, true);
  view.setUint32(AT.arrayLength, ARRAY_LENGTH, true);
  for (let i = REFERENCE_HEADER_BYTES, x = 1; i < bytes.length; i++, x = (x * 197 + 11) & 0xff) bytes[i] = x;
  const filter = BinaryFuseFilter.fromReferenceBytes(bytes, { fingerprintBits: 8 });
  saveFileSync(filter, path);
  filter.dispose();
}

/**
 * The peak resident bytes of `bloom args...` with `input` on stdin, reported
 * by a preload as it exits: VmHWM, its own memory map's high-water mark (a
 * child's resourceUsage().maxRSS starts at its parent's peak on Linux).
 */
function bloomMaxRss(args: string[], input: string): number {
  const REPORT_RSS = 'data:text/javascript,import{readFileSync}from"node:fs";process.on("exit",()=>process.stderr.write("maxrss "+Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status","utf8"))[1])*1024+"\\n"))';
  const run = spawnSync(process.execPath, ['--import', REPORT_RSS, BIN, ...args], { input, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return Number(/maxrss (\d+)/.exec(run.stderr)?.[1]);
}

describe('a 256 MiB binary fuse filter file', () => {
  const path = join(dir, 'big.blmf');
  writeFile(path);
  const size = statSync(path).size;
  const header = readFileSync(path).subarray(0, 56).toString('hex');

  it.each(['sync', 'async'])('loads (%s) at the filter of peak memory, not the file on top of it', (mode) => {
    expect(size).toBe(56 + ARRAY_LENGTH);
    const report = JSON.parse(execFileSync(process.execPath, [bundleChild('fuse-load', dir), path, mode], { encoding: 'utf8', maxBuffer: 1 << 20 }));
    expect(report).toMatchObject({ arrayLength: ARRAY_LENGTH, fingerprintBits: 8, header });
    const grown = report.maxRssAfter - report.maxRssBefore;
    console.log(`load${mode === 'sync' ? 'BinaryFuseFileSync' : 'BinaryFuseFile'}: peak grew ${(grown / 2 ** 20).toFixed(0)} MiB for a ${(size / 2 ** 20).toFixed(0)} MiB file (${(grown / size).toFixed(2)}x)`);
    // Reading the file into a buffer and then copying it into the filter peaks near 2x.
    expect(grown).toBeLessThanOrEqual(1.35 * size);
    expect(grown).toBeGreaterThan(0.9 * size);
  }, 600_000);

  it('bloom check loads it at the filter of peak memory too', () => {
    const small = join(dir, 'small.blmf');
    const keys = BinaryFuseFilter.from(['a', 'b']);
    saveFileSync(keys, small);
    keys.dispose();
    const baseline = bloomMaxRss(['check', small], 'a\n');
    const loaded = bloomMaxRss(['check', path], 'a\n');
    const grown = loaded - baseline;
    console.log(`bloom check: peak ${(loaded / 2 ** 20).toFixed(0)} MiB, ${(grown / 2 ** 20).toFixed(0)} MiB above a 2-key filter's, for a ${(size / 2 ** 20).toFixed(0)} MiB file (${(grown / size).toFixed(2)}x)`);
    expect(grown).toBeLessThanOrEqual(1.35 * size);
  }, 600_000);
});
