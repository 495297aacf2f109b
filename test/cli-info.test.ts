// `bloom info` verifies a file in a streaming pass and loads nothing: a
// sparse file whose header claims 1 GiB of bits is described, or refused
// by its checksum, in a real process whose peak resident size stays small.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeChainHeader } from '../src/format/chain.js';
import { xxh64 } from '../src/reference/hash.js';
import { COUNTING_KIND } from '../src/format/counting.js';
import { encodeHeader, setChecksum } from '../src/format/filter.js';
import { checksum } from '../src/reference/checksum.js';
import { checkScalableOptions, memberPlan } from '../src/scalable/plan.js';
import { inspectBegin, inspectChunk, inspectEnd } from '../src/wasm/checksum.js';
import { Engine } from '../src/wasm/engine.js';
import { BIN } from './helpers/bin.js';

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-info-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GIB = 2 ** 30;
/** Reports the process's peak resident size on stderr as it exits. */
const REPORT_RSS = 'data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss "+process.resourceUsage().maxRSS*1024+"\\n"))';

function info(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', REPORT_RSS, BIN, 'info', ...args], { encoding: 'utf8' });
  const maxRss = Number(/maxrss (\d+)/.exec(run.stderr)?.[1]);
  return { status: run.status, stdout: run.stdout, stderr: run.stderr.replace(/maxrss \d+\n/, ''), maxRss };
}

/** XXH64 of the header's first 48 bytes and `zeros` zero bytes, streamed through wasm 8 MiB at a time. */
function checksumOfZeros(header: Uint8Array, zeros: number): bigint {
  const engine = new Engine({ bits: 8, hashes: 1, scheme: 'xxh64', schemeId: 0, seed: 0n });
  const chunk = new Uint8Array(8 * 2 ** 20);
  inspectBegin(engine, header.subarray(0, 48));
  for (let at = 0; at < zeros; at += chunk.length) inspectChunk(engine, chunk.subarray(0, Math.min(chunk.length, zeros - at)));
  return inspectEnd(engine);
}

/** A sparse file: `head`, then holes up to `size` bytes (no disk blocks, reads as zeros). */
function sparse(name: string, head: Uint8Array, size: number): string {
  const path = join(dir, name);
  writeFileSync(path, head);
  truncateSync(path, size);
  return path;
}

describe('bloom info on a sparse file whose header claims 1 GiB', () => {
  const bits = 8 * GIB;
  const header = encodeHeader({ scheme: 'xxh64', schemeId: 0, hashes: 7, seed: 0n, bits, bitsSet: 0, addedCount: 0 });

  it('refuses a wrong checksum without allocating the bits', () => {
    setChecksum(header, 0x0123456789abcdefn);
    const path = sparse('wrong.bin', header, 56 + GIB);
    const run = info(path);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^bloom: cannot read .*wrong\.bin: invalid bloomwasm filter data: checksum at byte 48: XXH64 of the header and payload is 0x[0-9a-f]{16}, but the file says 0x0123456789abcdef/);
    expect(run.maxRss).toBeLessThan(160 * 2 ** 20);
  });

  it('describes a sound one (every bit 0) in the same small memory', () => {
    setChecksum(header, checksumOfZeros(header, GIB));
    const path = sparse('zeros.bin', header, 56 + GIB);
    const run = info('--json', path);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ bits, hashes: 7, bitsSet: 0, addedCount: 0, sizeOnDisk: 56 + GIB, fillRatio: 0, estimatedCount: 0, currentFalsePositiveRate: 0 });
    expect(run.maxRss).toBeLessThan(160 * 2 ** 20);
  });

  it('refuses a chain whose sparse member fails its checksum, naming the member', () => {
    // Member 0 of this plan: 800 million items at 0.5%, about 1 GiB of bits.
    const plan = checkScalableOptions({ capacity: 800_000_000, falsePositiveRate: 0.01 });
    const member = memberPlan(plan, 0);
    expect(member.bits).toBeGreaterThan(8 * GIB * 0.9);
    const chainHeader = encodeChainHeader(plan, 1, (b) => xxh64(b, 0n));
    const memberHeader = encodeHeader({ scheme: 'xxh64', schemeId: 0, hashes: member.hashes, seed: 0n, bits: member.bits, bitsSet: 0, addedCount: 0 });
    setChecksum(memberHeader, 42n);
    const path = sparse('chain.blmc', Buffer.concat([chainHeader, memberHeader]), 64 + 56 + Math.ceil(member.bits / 8));
    const run = info(path);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('invalid bloomwasm filter data: members[0].checksum at byte 112: XXH64 of the header and payload is');
    expect(run.maxRss).toBeLessThan(160 * 2 ** 20);
  });
});

describe('bloom info on a counting filter file', () => {
  const GOLDEN = join(import.meta.dirname, 'golden');

  it('describes the poly golden file: counters, counters in use, saturated counters and the fill', () => {
    const run = info(join(GOLDEN, 'counting-poly.bin'));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      [
        `file                 ${join(GOLDEN, 'counting-poly.bin')}`,
        'kind                 counting filter (4-bit counters), version 1',
        'scheme               poly',
        'hashes (k)           3',
        'seed                 0',
        'bits (m)             17 counters',
        'counters in use      8 (above 0)',
        'saturated counters   3 (at 15: never lowered again)',
        'added count          18 (adds minus removes)',
        'size on disk         65 bytes',
        'fill ratio           0.470588',
        'estimated count      4',
        'false-positive rate  1.0421e-1',
        '',
      ].join('\n'),
    );
  });

  it('prints the xxh64 golden file as JSON, with the figures of the filter it holds', () => {
    const run = info('--json', join(GOLDEN, 'counting-xxh64.bin'));
    expect(run.status).toBe(0);
    // 64 counters, k = 3: apple twice, banana, cherry added and removed (golden/README.md).
    expect(JSON.parse(run.stdout)).toEqual({
      file: join(GOLDEN, 'counting-xxh64.bin'), kind: 'counting filter', version: 1, scheme: 'xxh64', hashes: 3,
      seed: String(0x0123456789abcdefn), bits: 64, countersInUse: 6, saturatedCounters: 0, addedCount: 3, sizeOnDisk: 88,
      fillRatio: 6 / 64, estimatedCount: -(64 / 3) * Math.log(1 - 6 / 64), currentFalsePositiveRate: (6 / 64) ** 3,
    });
  });

  it('refuses a corrupt counting file naming the field and offset', () => {
    const good = new Uint8Array(readFileSync(join(GOLDEN, 'counting-poly.bin')));
    const flipped = good.map((b, i) => (i === 60 ? b ^ 1 : b));
    const padded = good.slice();
    padded[64] |= 0x10; // the padding nibble past counter 16
    new DataView(padded.buffer).setBigUint64(48, checksum(padded.subarray(0, 48), padded.subarray(56)), true);
    const cases: Array<[string, Uint8Array, RegExp]> = [
      ['flipped.blm4', flipped, /invalid bloomwasm filter data: checksum at byte 48: /],
      ['padded.blm4', padded, /invalid bloomwasm filter data: payload at byte 64: the 4 padding bits past counter 16 must be 0; got byte 0x10/],
      ['short.blm4', good.subarray(0, 60), /payload at byte 60: truncated: 9 payload bytes must end at byte 65/],
    ];
    for (const [name, bytes, message] of cases) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const run = info(path);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(message);
    }
  });

  it('describes a sparse file of 2^31 counters (1 GiB of zeros) in small memory', () => {
    const bits = 2 * GIB;
    const header = encodeHeader({ scheme: 'xxh64', schemeId: 0, hashes: 7, seed: 0n, bits, bitsSet: 0, addedCount: 0 }, COUNTING_KIND);
    setChecksum(header, checksumOfZeros(header, GIB));
    const path = sparse('zeros.blm4', header, 56 + GIB);
    const run = info('--json', path);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ kind: 'counting filter', bits, countersInUse: 0, saturatedCounters: 0, sizeOnDisk: 56 + GIB, fillRatio: 0 });
    expect(run.maxRss).toBeLessThan(160 * 2 ** 20);
  });
});
