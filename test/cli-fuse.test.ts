// `bloom build` and `bloom check` run as real processes (node
// dist/cli/bloom.cjs; run `npm run build` before running this file alone),
// and `bloom info` on what build wrote.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BinaryFuseFilter } from '../src/index.js';
import { loadFileSync } from '../src/node/index.js';
import { BIN } from './helpers/bin.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-fuse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bloom(args: string[], input: string | Buffer = ''): SpawnSyncReturns<Buffer> {
  return spawnSync(process.execPath, [BIN, ...args], { input, maxBuffer: 1 << 26 });
}

const urls = (from: number, to: number): string => Array.from({ length: to - from }, (_, i) => `https://example.com/page/${from + i}\n`).join('');

describe('bloom build and bloom check', () => {
  const keys = join(dir, 'keys.txt');
  const file = join(dir, 'keys.blmf');
  writeFileSync(keys, urls(0, 20000) + 'crlf\r\nlast-without-newline');

  it('build writes the filter that BinaryFuseFilter.from builds from the lines', () => {
    const r = bloom(['build', keys, '-o', file]);
    expect(r.stderr.toString()).toBe('');
    expect(r.status).toBe(0);
    const lines = [...urls(0, 20000).trim().split('\n'), 'crlf', 'last-without-newline'];
    expect(loadFileSync(file, BinaryFuseFilter).toBytes()).toEqual(BinaryFuseFilter.from(lines).toBytes());
    expect(readdirSync(dir).sort()).toEqual(['keys.blmf', 'keys.txt']);
  });

  it('build draws its progress and a summary on a terminal, and writes the same file', () => {
    // util-linux script(1) runs the command under a real pseudo-terminal: stdin, stdout and stderr are its TTY.
    const out = join(dir, 'tty.blmf');
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const r = spawnSync('script', ['-qec', [process.execPath, BIN, 'build', keys, '-o', out].map(quote).join(' '), '/dev/null'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\r\[[#.]{30}\] \d+\.\d% \d+\.\d \/ \d+\.\d MB, [\d,]+ lines\x1b\[K/);
    expect(r.stdout).toMatch(/\r\x1b\[K20,002 lines, [\d,]+ bytes \(\d+\.\d\d bits a line\), built in \d+\.\d\d s: /);
    expect(loadFileSync(out, BinaryFuseFilter).toBytes()).toEqual(loadFileSync(file, BinaryFuseFilter).toBytes());
    rmSync(out);
  });

  it('build reads stdin as -, with 16-bit fingerprints', () => {
    const out = join(dir, 'stdin.blmf');
    const r = bloom(['build', '--fingerprint-bits', '16', '-', '-o', out], urls(0, 1000));
    expect(r.status).toBe(0);
    const f = loadFileSync(out, BinaryFuseFilter);
    expect(f.fingerprintBits).toBe(16);
    expect(f.toBytes()).toEqual(BinaryFuseFilter.from(urls(0, 1000).trim().split('\n'), { fingerprintBits: 16 }).toBytes());
    rmSync(out);
  });

  it('check prints the lines the filter may hold, as read, and --invert the others', () => {
    const input = 'https://example.com/page/5\r\nnot-a-key\nhttps://example.com/page/19999';
    const r = bloom(['check', file], input);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe('https://example.com/page/5\r\nhttps://example.com/page/19999\n');
    const inv = bloom(['check', '--invert', file], input);
    expect(inv.stdout.toString()).toBe('not-a-key\n');
  });

  it('every key is found, and absent lines pass at about 1/256', () => {
    const hits = bloom(['check', file], urls(0, 20000));
    expect(hits.stdout.toString()).toBe(urls(0, 20000));
    const absent = bloom(['check', file], urls(100000, 200000));
    const n = absent.stdout.toString().split('\n').length - 1;
    // 100,000 absent lines at 1/256: mean 390.6, sd 19.7; five sd either side.
    expect(n).toBeGreaterThan(292);
    expect(n).toBeLessThan(490);
  });

  it('bloom info describes the file', () => {
    const r = bloom(['info', '--json', file]);
    expect(r.status).toBe(0);
    const info = JSON.parse(r.stdout.toString());
    expect(info).toMatchObject({ kind: 'binary fuse', fingerprintBits: 8, keys: 20002, falsePositiveRate: 1 / 256 });
    expect(bloom(['info', file]).stdout.toString()).toContain('binary fuse filter (static)');
  });

  it('usage errors exit 2, runtime errors exit 1, and neither writes a file', () => {
    expect(bloom(['build', keys]).status).toBe(2);
    expect(bloom(['build', keys, '-o', join(dir, 'x'), '--fingerprint-bits', '12']).stderr.toString()).toContain('--fingerprint-bits must be 8 or 16');
    expect(bloom(['build', keys, '-o', join(dir, 'x'), '--fingerprint-bits', '12']).status).toBe(2);
    expect(bloom(['build', join(dir, 'missing.txt'), '-o', join(dir, 'x')]).status).toBe(1);
    expect(bloom(['check']).status).toBe(2);
    const bad = join(dir, 'bad.blmf');
    writeFileSync(bad, 'BLMF not really');
    const r = bloom(['check', bad], 'a\n');
    expect(r.status).toBe(1);
    expect(r.stderr.toString()).toMatch(/bloom: cannot read .*bad.blmf: invalid bloomwasm filter data/);
    rmSync(bad);
    expect(readdirSync(dir).sort()).toEqual(['keys.blmf', 'keys.txt']);
  });

  it('build names -o, its path and the system\'s reason when the path cannot be saved', () => {
    // sysfs refuses new files even to root.
    const r = bloom(['build', keys, '-o', '/sys/keys.blmf']);
    expect(r.status).toBe(1);
    expect(r.stderr.toString()).toBe('bloom: cannot save -o /sys/keys.blmf: its directory /sys is not writable: permission denied (EACCES)\n');
    const nested = bloom(['build', keys, '-o', join(dir, 'no-such-dir', 'x.blmf')]);
    expect(nested.stderr.toString()).toBe(`bloom: cannot save -o ${join(dir, 'no-such-dir', 'x.blmf')}: its directory ${join(dir, 'no-such-dir')} does not exist\n`);
    const directory = bloom(['build', keys, '-o', dir]);
    expect(directory.stderr.toString()).toBe(`bloom: cannot save -o ${dir}: it is a directory\n`);
    expect(readdirSync(dir).sort()).toEqual(['keys.blmf', 'keys.txt']);
  });

  it('check exits 141 when its output is closed early (EPIPE), as bloom dedupe does', async () => {
    const child = spawn(process.execPath, [BIN, 'check', file], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.once('data', () => child.stdout.destroy());
    child.stdin.on('error', () => {});
    const big = urls(0, 20000);
    for (let i = 0; i < 20; i++) child.stdin.write(big);
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(141);
  });
});
