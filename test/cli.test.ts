// The `bloom` command, run as a real process: node dist/cli/bloom.cjs (the package's bin).
// `npm test` builds first; run `npm run build` before running this file alone.
// Over 300 lines on purpose: every subcommand shares the process runner
// and temporary-file helpers below.

import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFile, loadFileSync } from '../src/node/index.js';
import { BloomFilter, sbbfFalsePositiveRate } from '../src/index.js';
import { BIN } from './helpers/bin.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bloom(args: string[], input: string | Uint8Array = ''): SpawnSyncReturns<Buffer> {
  return spawnSync(process.execPath, [BIN, ...args], { input, maxBuffer: 1 << 26 });
}

const text = (r: SpawnSyncReturns<Buffer>): string => r.stdout.toString('latin1');

/** The spec of dedupe: the first occurrence of each item, in order (items keyed by their bytes). */
function firstOccurrences(bytes: Buffer): Buffer {
  const lines = bytes.toString('latin1').split('\n');
  const last = lines.pop()!;
  const seen = new Set<string>();
  let out = '';
  const take = (line: string, item: string) => {
    if (!seen.has(item)) out += line + '\n';
    seen.add(item);
  };
  for (const line of lines) take(line, line.endsWith('\r') ? line.slice(0, -1) : line);
  if (last !== '') take(last, last.endsWith('\r') ? last.slice(0, -1) : last);
  return Buffer.from(out, 'latin1');
}

describe('bloom shell: the SSTable command protocol', () => {
  it('apple and banana are disjoint: {30, 24, 18} and {9, 51, 93}', () => {
    const r = bloom(['shell'], 'BLOOM-NEW\nBLOOM-ADD apple\nBLOOM-CHECK apple\nBLOOM-CHECK banana\nBLOOM-BITS\nBLOOM-COUNT\n');
    const [apple, banana, bits, count] = text(r).split('\n');
    expect([apple, banana, count]).toEqual(['MAYBE', 'NO', '3']);
    expect([...bits].flatMap((c, i) => (c === '1' ? [i] : []))).toEqual([18, 24, 30]);
    expect(r.status).toBe(0);
    expect(r.stderr.length).toBe(0);
  });

  it('BLOOM-NEW resets: add apple, BLOOM-NEW, check apple gives NO', () => {
    expect(text(bloom(['shell'], 'BLOOM-ADD apple\nBLOOM-NEW\nBLOOM-CHECK apple\n'))).toBe('NO\n');
  });

  it('an empty filter answers NO and its BITS line is one hundred 0s (a default filter exists before BLOOM-NEW)', () => {
    expect(text(bloom(['shell'], 'BLOOM-CHECK anything\nBLOOM-BITS\n'))).toBe('NO\n' + '0'.repeat(100) + '\n');
    expect(text(bloom(['shell'], 'BLOOM-NEW\nBLOOM-BITS\n'))).toBe('0'.repeat(100) + '\n');
  });

  it('after foo, bar and baz, qux is still NO (all k bits must be set)', () => {
    const r = bloom(['shell'], 'BLOOM-NEW\nBLOOM-ADD foo\nBLOOM-ADD bar\nBLOOM-ADD baz\nBLOOM-CHECK qux\nBLOOM-CHECK foo\n');
    expect(text(r)).toBe('NO\nMAYBE\n');
  });

  it('bad commands print one ERR line each and the shell keeps going; CRLF input works', () => {
    const r = bloom(['shell'], 'HELLO\r\nBLOOM-ADD\r\nBLOOM-CHECK\nBLOOM-NEW 0 3\nBLOOM-NEW 7\nBLOOM-ADD x\r\nBLOOM-CHECK x\r\n');
    const lines = text(r).split('\n');
    expect(lines.slice(0, 5).every((l) => l.startsWith('ERR '))).toBe(true);
    expect(lines.slice(5)).toEqual(['MAYBE', '']);
    expect(r.status).toBe(0);
  });

  it('BLOOM-NEW m k scheme sets the parameters', () => {
    expect(text(bloom(['shell'], 'BLOOM-NEW 10 2 xxh64\nBLOOM-BITS\nBLOOM-ADD a\nBLOOM-COUNT\n'))).toBe('0000000000\n2\n');
  });
});

/** Both seen-sets of dedupe: the scalable chain (no --capacity, lines split in TS) and a fixed filter (wasm lines). */
const MODES: [string, string[]][] = [
  ['chain', []],
  ['fixed filter', ['--capacity', '100000']],
];

describe('bloom dedupe', () => {
  it('prints the first occurrence of each line, in order', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `https://example.com/${(i * 7919) % 1000}`);
    const input = Buffer.from(words.join('\n') + '\n');
    const r = bloom(['dedupe', '--capacity', '10000'], input);
    expect(r.status).toBe(0);
    expect(r.stdout.equals(firstOccurrences(input))).toBe(true);
    expect(text(r).split('\n').length - 1).toBe(1000);
  });

  it('handles CRLF, empty lines, a last line without a newline, and invalid UTF-8 (passed through)', () => {
    const input = Buffer.concat([
      Buffer.from('a\r\nb\n\n'),
      Buffer.from([0xff, 0xfe, 0x0a]),
      Buffer.from('a\nb\r\n\r\n'),
      Buffer.from([0xff, 0xfe, 0x0a, 0xc3, 0x28]),
    ]);
    for (const [, size] of MODES) {
      const r = bloom(['dedupe', ...size], input);
      expect(r.stdout.equals(Buffer.concat([Buffer.from('a\r\nb\n\n'), Buffer.from([0xff, 0xfe, 0x0a, 0xc3, 0x28, 0x0a])]))).toBe(true);
      expect(bloom(['dedupe', '--invert', ...size], input).stdout.toString('latin1')).toBe('a\nb\r\n\r\n\xff\xfe\n');
    }
  });

  it('a line of 10 MB works, from a file and from stdin', () => {
    const big = Buffer.alloc(10 * 2 ** 20, 0x71);
    const input = Buffer.concat([Buffer.from('x\n'), big, Buffer.from('\nx\n'), big, Buffer.from('\r\ny')]);
    const path = join(dir, 'big.txt');
    writeFileSync(path, input);
    const expected = Buffer.concat([Buffer.from('x\n'), big, Buffer.from('\ny\n')]);
    for (const [, size] of MODES) {
      expect(bloom(['dedupe', ...size, path]).stdout.equals(expected)).toBe(true);
      expect(bloom(['dedupe', ...size, '-'], input).stdout.equals(expected)).toBe(true);
    }
  });

  it('reads several files in turn, as one stream of lines', () => {
    const a = join(dir, 'a.txt');
    const b = join(dir, 'b.txt');
    writeFileSync(a, 'one\ntwo\n');
    writeFileSync(b, 'two\nthree');
    expect(text(bloom(['dedupe', a, b]))).toBe('one\ntwo\nthree\n');
  });

  it('saves a state file that loadFile reads and that answers has(line) for every printed line', async () => {
    const state = join(dir, 'interop.blmw');
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i % 300} é`);
    const r = bloom(['dedupe', '--state', state, '--capacity', '1000', '--fpp', '0.001'], lines.join('\n'));
    expect(r.status).toBe(0);
    const filter = await loadFile(state, BloomFilter);
    for (const line of text(r).split('\n').slice(0, -1)) expect(filter.has(Buffer.from(line, 'latin1'))).toBe(true);
    expect(filter.has('line 299 é')).toBe(true);
    expect(filter.size).toBe(300);
    // A second run resumes: everything is already seen. Its conflicting size flags are reported, not used.
    const again = bloom(['dedupe', '--state', state, '--capacity', '5'], lines.join('\n') + '\nnew line\n');
    expect(text(again)).toBe('new line\n');
    expect(again.stderr.toString()).toMatch(/--state .* has bits=\d+ hashes=\d+, which win over --capacity 5/);
    expect((await loadFile(state, BloomFilter)).size).toBe(301);
  });

  it('a corrupt or incompatible state file stops the run with exit code 1 and is left untouched', () => {
    for (const [name, bytes] of [
      ['garbage', Buffer.from('not a filter at all')],
      ['flipped', (() => {
        const good = join(dir, 'good.blmw');
        bloom(['dedupe', '--state', good, '--capacity', '100'], 'a\nb\n');
        const b = readFileSync(good);
        b[b.length - 1] ^= 0x01;
        return b;
      })()],
    ] as const) {
      const state = join(dir, `${name}.blmw`);
      writeFileSync(state, bytes);
      const r = bloom(['dedupe', '--state', state], 'a\n');
      expect(r.status).toBe(1);
      expect(r.stdout.length).toBe(0);
      const err = r.stderr.toString();
      expect(err.split('\n')).toHaveLength(2);
      expect(err).toMatch(/^bloom: cannot use --state .* \(left untouched\): /);
      expect(readFileSync(state).equals(bytes)).toBe(true);
    }
  });

  it('usage errors exit with code 2 and one line on stderr', () => {
    for (const args of [
      ['dedupe', '--bogus'],
      ['dedupe', '--capacity', 'many'],
      ['dedupe', '--fpp', '1.5'],
      ['dedupe', '--checkpoint', '5'],
      ['dedupe', '--capacity', '1e15', '--fpp', '1e-9'],
      ['shell', 'extra'],
      ['demo', '--pages', '0'],
      ['info'],
      ['frobnicate'],
      ['--bogus', 'dedupe'],
      [],
    ]) {
      const r = bloom(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.toString().trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('a missing input file is a runtime error (exit 1), before any output', () => {
    const r = bloom(['dedupe', join(dir, 'absent.txt')], 'a\n');
    expect(r.status).toBe(1);
    expect(r.stderr.toString()).toMatch(/^bloom: cannot open .*absent\.txt/);
  });

  for (const [signal, status] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`${signal} saves the state before exiting (status ${status})`, async () => {
      const state = join(dir, `${signal}.blmw`);
      const child = spawn(process.execPath, [BIN, 'dedupe', '--state', state, '--capacity', '1000'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      // stdin stays open: the process is waiting for more input when the signal comes.
      child.stdin.write('alpha\nbeta\nalpha\n');
      await until(() => out === 'alpha\nbeta\n');
      const code = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      child.kill(signal);
      expect(await code).toBe(status);
      const filter = loadFileSync(state, BloomFilter);
      expect(filter.has('alpha') && filter.has('beta')).toBe(true);
      expect(filter.size).toBe(2);
    });
  }

  it('SIGKILL in the middle of a run leaves a state file that loads', async () => {
    const state = join(dir, 'sigkill.blmw');
    const child = spawn(process.execPath, [BIN, 'dedupe', '--state', state, '--checkpoint', '0.02', '--capacity', '2000000'], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let i = 0;
    const feed = setInterval(() => {
      let chunk = '';
      for (let j = 0; j < 2000; j++) chunk += `https://example.org/${i++}\n`;
      child.stdin.write(chunk);
    }, 2);
    child.stdin.on('error', () => {});
    await until(() => existsSync(state));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    clearInterval(feed);
    await exited;
    const filter = loadFileSync(state, BloomFilter);
    expect(filter.size).toBeGreaterThan(0);
    expect(filter.has('https://example.org/0')).toBe(true);
  });
});

describe('bloom info', () => {
  it('prints the header fields, size on disk and the fill figures, also as JSON', () => {
    const state = join(dir, 'info.blmw');
    bloom(['dedupe', '--scheme', 'xxh64', '--state', state, '--capacity', '1000', '--fpp', '0.01'], 'a\nb\nc\na\n');
    const r = bloom(['info', '--json', state]);
    expect(r.status).toBe(0);
    const info = JSON.parse(text(r));
    expect(info).toMatchObject({ version: 1, scheme: 'xxh64', hashes: 7, seed: '0', bits: 9586, addedCount: 3, sizeOnDisk: 56 + 1199 });
    expect(info.bitsSet).toBe(21);
    expect(info.fillRatio).toBeCloseTo(21 / 9586, 12);
    expect(Math.round(info.estimatedCount)).toBe(3);
    expect(info.currentFalsePositiveRate).toBeCloseTo((21 / 9586) ** 7, 20);
    const plain = text(bloom(['info', state]));
    expect(plain).toMatch(/^file +.*info\.blmw$/m);
    expect(plain).toMatch(/^bits \(m\) +9,586$/m);
    expect(plain).toMatch(/^size on disk +1,255 bytes$/m);
  });

  it('describes an sbbf filter: its blocks, Parquet compatibility and the blocked rate', () => {
    const path = join(dir, 'sbbf.blmw');
    const f = BloomFilter.forCapacity(1_000, 0.01, { scheme: 'sbbf' });
    for (let i = 0; i < 1_000; i++) f.add(`line ${i}`);
    writeFileSync(path, f.toBytes());
    const info = JSON.parse(text(bloom(['info', '--json', path])));
    expect(info).toMatchObject({ scheme: 'sbbf', hashes: 8, bits: f.bits, blocks: f.bits / 256, parquetCompatible: true });
    expect(info.currentFalsePositiveRate).toBe(f.currentFalsePositiveRate());
    expect(info.currentFalsePositiveRate).toBeCloseTo(sbbfFalsePositiveRate(f.bits, 1_000), 3);
    expect(text(bloom(['info', path]))).toMatch(new RegExp(`^blocks +${(f.bits / 256).toLocaleString('en-US')} of 256 bits, the Parquet bitset as it stands \\(seed 0\\)$`, 'm'));
    const seeded = new BloomFilter(512, 8, { scheme: 'sbbf', seed: 9 });
    writeFileSync(path, seeded.toBytes());
    expect(JSON.parse(text(bloom(['info', '--json', path])))).toMatchObject({ blocks: 2, parquetCompatible: false, seed: '9' });
  });

  it('a file that is not a filter is a runtime error', () => {
    const path = join(dir, 'junk.bin');
    writeFileSync(path, 'junk');
    const r = bloom(['info', path]);
    expect(r.status).toBe(1);
    expect(r.stderr.toString()).toMatch(/^bloom: cannot read .*junk\.bin: .*magic/);
  });
});

describe('bloom demo', () => {
  it('crawls a small web and reports false positives consistent with the prediction', () => {
    const r = bloom(['demo', '--pages', '20000', '--fpp', '0.05', '--seed', '7']);
    expect(r.status).toBe(0);
    const out = text(r);
    const field = (name: string) => new RegExp(`^  ${name} +([\\d,]+)`, 'm').exec(out)![1].replaceAll(',', '');
    const discovered = Number(field('pages discovered'));
    const fetched = Number(field('pages fetched'));
    const wrong = /pages wrongly skipped +([\d,]+) \(false positives; predicted ([\d.]+)\)/.exec(out)!;
    const [observed, predicted] = [Number(wrong[1]), Number(wrong[2])];
    expect(discovered).toBeLessThanOrEqual(20000);
    expect(fetched + observed).toBe(discovered);
    expect(Number(field('duplicate links skipped'))).toBeGreaterThan(discovered);
    // Poisson-like count: within 4 standard deviations of the prediction.
    expect(predicted).toBeGreaterThan(20);
    expect(Math.abs(observed - predicted)).toBeLessThan(4 * Math.sqrt(predicted) + 2);
    expect(out).toMatch(/filter memory .*Set memory \(measured\)/s);
    // The web is a pure function of its seed: the crawl's counts repeat exactly (memory and time need not).
    const counts = (report: string) => report.slice(0, report.indexOf('filter memory'));
    expect(counts(text(bloom(['demo', '--pages', '20000', '--fpp', '0.05', '--seed', '7'])))).toBe(counts(out));
  });
});

describe('help', () => {
  it('every subcommand has --help (exit 0), and the top level lists serve', () => {
    for (const name of ['dedupe', 'shell', 'info', 'demo']) {
      const r = bloom([name, '--help']);
      expect(r.status).toBe(0);
      expect(text(r)).toMatch(new RegExp(`^Usage: bloom ${name}`));
    }
    const top = bloom(['--help']);
    expect(top.status).toBe(0);
    expect(text(top)).toMatch(/^ {2}serve /m);
  });
});

async function until(condition: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
