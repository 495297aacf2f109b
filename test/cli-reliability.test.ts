// `bloom dedupe` and `bloom shell` under hostile conditions, as real
// processes: a reader that goes away, lines of 100 MB, \r at line ends, an
// unwritable --state, and a BLOOM-BITS of 600,000,000 bits. Peak memory is
// the child's own ru_maxrss, printed by test/helpers/max-rss.cjs.
// Run `npm run build` before running this file alone.

import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers/bin.js';

const MAX_RSS = join(import.meta.dirname, 'helpers', 'max-rss.cjs');
const dir = mkdtempSync(join(tmpdir(), 'bloom-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bloom(args: string[], input: string | Uint8Array = ''): SpawnSyncReturns<Buffer> {
  return spawnSync(process.execPath, [BIN, ...args], { input, maxBuffer: 1 << 26 });
}

/** Runs bloom with stdout to `outPath`; returns its status, stderr (without the maxRSS line) and peak RSS in bytes. */
function measured(args: string[], outPath: string, input?: string): { status: number | null; stderr: string; peak: number } {
  const out = openSync(outPath, 'w');
  try {
    const r = spawnSync(process.execPath, ['-r', MAX_RSS, BIN, ...args], {
      input,
      stdio: [input === undefined ? 'ignore' : 'pipe', out, 'pipe'],
      maxBuffer: 1 << 20,
    });
    const stderr = r.stderr.toString();
    const match = /\nmaxRSS=(\d+)\n$/.exec(stderr);
    expect(match, stderr).not.toBeNull();
    return { status: r.status, stderr: stderr.slice(0, match!.index), peak: Number(match![1]) * 1024 };
  } finally {
    closeSync(out);
  }
}

const MODES: [string, string[]][] = [
  ['chain', []],
  ['fixed filter', ['--capacity', '1000000']],
  // A window's generations are each sized for the rate at their own capacity, so 200,000 lines
  // would meet about 10 false positives at 0.001: a rate of 1e-7 keeps the count below exact.
  ['window of lines', ['--window', '1000000', '--fpp', '1e-7']],
  ['window of time', ['--window', '30d', '--capacity', '1000000', '--fpp', '1e-7']],
];

const numbers = join(dir, 'n.txt');
writeFileSync(numbers, Array.from({ length: 200_000 }, (_, i) => `${i + 1}\n`).join(''));

/**
 * Runs dedupe with its stdout piped to this process, reads the first chunk,
 * then closes the pipe: bloom's next write fails with EPIPE.
 */
function closedEarly(args: string[]): Promise<{ status: number | null; stderr: string; first: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let first = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', (d: Buffer) => {
      first = d.toString().split('\n')[0];
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr, first }));
  });
}

describe('dedupe: a reader that goes away (EPIPE)', () => {
  for (const [mode, size] of MODES) {
    it(`leaves --state exactly as it was, exits 141, and says so on one line (${mode})`, async () => {
      const state = join(dir, `epipe-${mode}.blm`);
      // A first run without a state file: none may be created.
      const fresh = await closedEarly(['dedupe', ...size, '--state', state, numbers]);
      expect(fresh.first).toBe('1');
      expect(fresh.status).toBe(141);
      expect(fresh.stderr).toMatch(/^bloom: output closed before the end \(EPIPE\); --state .* left as it was before this run\n$/);
      expect(existsSync(state)).toBe(false);

      // A state holding 1..10; the early-closed run must not change one byte of it.
      expect(bloom(['dedupe', ...size, '--state', state], Array.from({ length: 10 }, (_, i) => `${i + 1}\n`).join('')).status).toBe(0);
      const before = readFileSync(state);
      const cut = await closedEarly(['dedupe', '--state', state, '--checkpoint', '0.001', numbers]);
      expect(cut.first).toBe('11');
      expect(cut.status).toBe(141);
      expect(cut.stderr.split('\n')).toHaveLength(2);
      expect(readFileSync(state).equals(before)).toBe(true);
      expect(readdirSync(dir).filter((name) => name.includes('before'))).toEqual([]);

      // So a second run prints every line the first one may not have delivered.
      const second = bloom(['dedupe', '--state', state, numbers]);
      expect(second.status).toBe(0);
      expect(second.stdout.toString().split('\n').length - 1).toBe(200_000 - 10);
    });
  }

  it('without --state it exits 141 quietly', async () => {
    const r = await closedEarly(['dedupe', numbers]);
    expect([r.first, r.status, r.stderr]).toEqual(['1', 141, '']);
  });
});

describe('dedupe: \\r right before the end of a line is not part of the item', () => {
  for (const [mode, size] of MODES) {
    it(`with or without a \\n after it (${mode})`, () => {
      const cases: [string, string][] = [
        ['a\r\na\r', 'a\r\n'],
        ['a\ra\r', 'a\ra\r\n'],
        ['b\r', 'b\r\n'],
        ['b\nb\r', 'b\n'],
        ['\n\r', '\n'],
        ['\r\r\n\r', '\r\r\n\r\n'],
        ['x\r\r', 'x\r\r\n'],
        ['x\r\nx\r\r\nx\r\r', 'x\r\nx\r\r\n'],
      ];
      for (const [input, output] of cases) {
        const r = bloom(['dedupe', ...size], input);
        expect(r.status).toBe(0);
        expect(r.stdout.toString('latin1'), JSON.stringify(input)).toBe(output);
      }
    });
  }
});

describe('dedupe: an unwritable --state is refused before any input is read', () => {
  it('exits 1 with a message naming --state, while stdin is still open', async () => {
    for (const state of ['/nonexistent/d/s.blm', join(dir, 'n.txt', 's.blm'), dir]) {
      const child = spawn(process.execPath, [BIN, 'dedupe', '--state', state], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.stdout.on('data', (d) => (stdout += d));
      // stdin stays open: a run that read its input first would never end.
      child.stdin.write('a\n');
      const status = await new Promise((resolve) => child.on('close', resolve));
      expect(status).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(new RegExp(`^bloom: cannot (save|use) --state ${state.replace(/[/.]/g, '\\$&')}: .+\n$`));
      expect(stderr).not.toMatch(/tmp-|\.bloom-write-check/);
    }
  });

  it('a directory that refuses new files is refused with the system reason and its errno', () => {
    // sysfs refuses new files even to root; a 0555 directory refuses everyone else.
    const cases: [string, string][] = [['/sys/s.blm', 'bloom: cannot save --state /sys/s.blm: its directory /sys is not writable: permission denied (EACCES)\n']];
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked');
      mkdirSync(locked, { mode: 0o555 });
      cases.push([join(locked, 's.blm'), `bloom: cannot save --state ${join(locked, 's.blm')}: its directory ${locked} is not writable: permission denied (EACCES)\n`]);
    }
    for (const [state, message] of cases) {
      const r = bloom(['dedupe', '--state', state], 'a\n');
      expect(r.status).toBe(1);
      expect(r.stdout.length).toBe(0);
      expect(r.stderr.toString()).toBe(message);
    }
  });
});

describe('dedupe: long lines in bounded memory', () => {
  const long = join(dir, 'long.txt');
  const LINE = 100 * 2 ** 20;
  const fd = openSync(long, 'w');
  writeSync(fd, 'first\n');
  const block = Buffer.alloc(1 << 20, 'a');
  for (let i = 0; i < LINE / block.length; i++) writeSync(fd, block);
  writeSync(fd, '\nlast\nfirst\n');
  closeSync(fd);

  for (const [mode, size] of MODES) {
    it(`a 100 MB line works, within the filter + 3 x the line + 64 MB of peak RSS (${mode})`, () => {
      const out = join(dir, 'long-out.txt');
      const r = measured(['dedupe', ...size, '--stats', long], out);
      expect(r.status, r.stderr).toBe(0);
      const printed = readFileSync(out);
      expect(printed.length).toBe(6 + LINE + 1 + 5);
      expect(printed.subarray(0, 6).toString()).toBe('first\n');
      expect(printed.subarray(printed.length - 6).toString()).toBe('\nlast\n');
      // The filter: 1,000,000 lines at 0.001 is 1.8 MB (either mode's first member or the fixed filter).
      const filterBytes = Math.ceil((1_000_000 * -Math.log(0.001)) / Math.LN2 ** 2 / 8);
      expect(r.peak).toBeLessThanOrEqual(filterBytes + 3 * LINE + 64 * 2 ** 20);
    });
  }
});

describe('dedupe reads a pipe through one buffer', () => {
  it('160 MB through a pipe on stdin: peak RSS within 16 MB of the same run on an empty pipe, every line read', () => {
    // 16,000,000 lines of 10 bytes, 1,000 distinct. A Node stream would hand
    // over a fresh 64 KiB Buffer per read, which V8 frees only after some
    // 64 MB of them. `cat` feeds the pipe from a file, so that the child is
    // not forked from a parent holding the input (ru_maxrss survives exec).
    const piped = join(dir, 'piped.txt');
    const fd = openSync(piped, 'w');
    const block = Buffer.alloc(10 * 1000);
    for (let i = 0; i < 1000; i++) block.write(`u${String(i).padStart(8, '0')}\n`, 10 * i, 'latin1');
    for (let i = 0; i < 16_000; i++) writeSync(fd, block);
    closeSync(fd);
    const out = join(dir, 'piped-out.txt');
    const empty = join(dir, 'piped-empty.txt');
    writeFileSync(empty, '');
    const run = (input: string) => {
      const r = spawnSync('/bin/sh', ['-c', `cat "$0" | "$1" -r "$2" "$3" dedupe --capacity 1000 --stats > "$4"`, input, process.execPath, MAX_RSS, BIN, out]);
      const stderr = r.stderr.toString();
      expect(r.status, stderr).toBe(0);
      return { stderr, peak: Number(/\nmaxRSS=(\d+)\n$/.exec(stderr)![1]) * 1024 };
    };
    // The runtime's own footprint differs between versions and runs, so an
    // empty run measures it and the bound is over that.
    const baseline = run(empty).peak;
    const { stderr, peak } = run(piped);
    expect(readFileSync(out).equals(block)).toBe(true);
    expect(stderr).toMatch(/^lines read\s+16,000,000$/m);
    // Reads reuse one buffer; fresh buffers per read would pile up until V8 frees them (above).
    expect(peak - baseline).toBeLessThanOrEqual(16 * 2 ** 20);
  });
});

describe('dedupe reads a pipe that is sometimes empty', () => {
  for (const [mode, size] of MODES) {
    it(`bursts with pauses between them, lines cut across bursts: every first occurrence, in order (${mode})`, async () => {
      // Each burst is read straight from the descriptor until the pipe is
      // empty; then the read waits on the socket (EAGAIN) for the next one.
      const child = spawn(process.execPath, [BIN, 'dedupe', ...size], { stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d) => (stderr += d));
      const lines = Array.from({ length: 30_000 }, (_, i) => `https://example.org/${i % 9_000}/${'x'.repeat(i % 50)}`);
      const text = lines.join('\n') + '\n';
      for (let at = 0, burst = 0; at < text.length; burst++) {
        // 1 byte to 200 KB: a burst may end inside a line or hold many chunks.
        const burstBytes = [1, 7, 4093, 65_536, 200_000][burst % 5];
        child.stdin.write(text.slice(at, at + burstBytes));
        at += burstBytes;
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      child.stdin.end();
      const status = await new Promise((resolve) => child.on('close', resolve));
      expect(status, stderr).toBe(0);
      expect(Buffer.concat(out).toString()).toBe([...new Set(lines)].join('\n') + '\n');
    });
  }
});

describe('shell: BLOOM-BITS of a large filter', () => {
  it('streams 600,000,000 bits in chunks, then answers BLOOM-COUNT, in bounded memory', () => {
    const out = join(dir, 'bits.txt');
    const r = measured(['shell'], out, 'BLOOM-NEW 600000000 3\nBLOOM-ADD apple\nBLOOM-BITS\nBLOOM-COUNT\nBLOOM-CHECK apple\n');
    expect(r.status, r.stderr).toBe(0);
    const text = readFileSync(out);
    expect(text.length).toBe(600_000_001 + 2 + 6);
    expect(text.subarray(600_000_000).toString()).toBe('\n3\nMAYBE\n');
    let ones = 0;
    for (let i = text.indexOf(0x31); i >= 0 && i < 600_000_000; i = text.indexOf(0x31, i + 1)) ones++;
    expect(ones).toBe(3);
    // The filter is 75 MB; the text is 600 MB and is never held whole. The
    // bound is over what the same session costs with a filter of 1,000 bits,
    // since the runtime's own footprint differs between versions (and Node
    // 24's collector lets more of the spent chunks wait).
    const small = measured(['shell'], join(dir, 'bits-small.txt'), 'BLOOM-NEW 1000 3\nBLOOM-ADD apple\nBLOOM-BITS\nBLOOM-COUNT\n');
    expect(small.status, small.stderr).toBe(0);
    expect(r.peak - small.peak).toBeLessThan(75e6 + 100 * 2 ** 20);
  });
});

describe('dedupe --scheme', () => {
  it('sbbf by default, xxh64 on request, in both modes; a bad name is a usage error', () => {
    const cases: [string[], string, RegExp][] = [
      [['--capacity', '1000'], 'sbbf', /hashes 8, sbbf$/m],
      [[], 'sbbf', /in a chain of 1, sbbf$/m],
      [['--capacity', '1000', '--scheme', 'xxh64'], 'xxh64', /hashes 10, xxh64$/m],
      [['--scheme', 'xxh64'], 'xxh64', /in a chain of 1, xxh64$/m],
    ];
    for (const [args, scheme, stats] of cases) {
      const state = join(dir, `scheme-${scheme}-${args.length}.blm`);
      const r = bloom(['dedupe', ...args, '--stats', '--state', state], 'a\nb\na\n');
      expect(r.stdout.toString()).toBe('a\nb\n');
      expect(r.stderr.toString()).toMatch(stats);
      const info = JSON.parse(bloom(['info', '--json', state]).stdout.toString());
      expect(info.scheme, args.join(' ')).toBe(scheme);
    }
    const bad = bloom(['dedupe', '--scheme', 'poly'], 'a\n');
    expect([bad.status, bad.stderr.toString()]).toEqual([2, "bloom: --scheme must be one of sbbf, xxh64; got 'poly'\n"]);
  });

  it('a saved state of either scheme loads and wins over --scheme, which is reported', () => {
    for (const [saved, asked] of [['xxh64', 'sbbf'], ['sbbf', 'xxh64']]) {
      for (const size of [['--capacity', '1000'], []]) {
        const state = join(dir, `wins-${saved}-${size.length}.blm`);
        expect(bloom(['dedupe', ...size, '--scheme', saved, '--state', state], 'a\nb\n').status).toBe(0);
        const quiet = bloom(['dedupe', '--state', state], 'a\nc\n');
        expect([quiet.stdout.toString(), quiet.stderr.toString()]).toEqual(['c\n', '']);
        const told = bloom(['dedupe', '--scheme', asked, '--state', state], 'b\nd\n');
        expect(told.stdout.toString()).toBe('d\n');
        expect(told.stderr.toString()).toBe(`bloom: --state ${state} uses scheme ${saved}, which wins over --scheme ${asked}\n`);
        expect(JSON.parse(bloom(['info', '--json', state]).stdout.toString()).scheme).toBe(saved);
      }
    }
  });
});
