// `bloom dedupe --window` run as a real process (node dist/cli/bloom.cjs;
// run `npm run build` before running this file alone): a daily crawl job
// with a state file and the clock moved a day at a time through
// BLOOM_NOW_MS, a window of lines, `bloom info` on the state, and the
// usage errors that name --window. EPIPE with a window is in
// test/cli-reliability.test.ts.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFileSync } from '../src/node/index.js';
import { SlidingBloomFilter } from '../src/index.js';
import { BIN } from './helpers/bin.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-window-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

function bloom(args: string[], input = '', now?: number): SpawnSyncReturns<Buffer> {
  const env = { ...process.env };
  if (now === undefined) delete env.BLOOM_NOW_MS;
  else env.BLOOM_NOW_MS = String(now);
  return spawnSync(process.execPath, [BIN, ...args], { input, env, maxBuffer: 1 << 26 });
}

const lines = (r: SpawnSyncReturns<Buffer>): string[] => r.stdout.toString().split('\n').filter((l) => l !== '');
const urls = (from: number, to: number): string => Array.from({ length: to - from }, (_, i) => `https://example.com/page/${from + i}\n`).join('');

describe('bloom dedupe --window 30d --state: a daily crawl job', () => {
  const state = join(dir, 'seen.bloom');

  it('day 1 prints every new URL once and saves the window with the state', () => {
    const r = bloom(['dedupe', '--window', '30d', '--state', state], urls(0, 500) + urls(0, 100), START);
    expect(r.status).toBe(0);
    expect(lines(r)).toHaveLength(500);
    const filter = loadFileSync(state, SlidingBloomFilter, { clock: () => START });
    expect(filter.windowMs).toBe(30 * DAY);
    expect(filter.capacity).toBe(1_000_000);
    expect(filter.has('https://example.com/page/7')).toBe(true);
    expect(readdirSync(dir)).toEqual(['seen.bloom']);
  });

  it('a week later prints only the URLs not seen in the last 30 days', () => {
    const r = bloom(['dedupe', '--window', '30d', '--state', state], urls(400, 700), START + 7 * DAY);
    expect(r.status).toBe(0);
    expect(lines(r)).toEqual(urls(500, 700).trim().split('\n'));
  });

  it('a month later, day 1 URLs not seen since are new again; those seen in week 2 are still in the window', () => {
    // Day 1's generation ended with its last add at START; 31 days on it is out of the window.
    // (A generation lasts at most 30/7 days, so adds a week apart are in generations of their own.)
    const r = bloom(['dedupe', '--state', state], urls(0, 700), START + 31 * DAY);
    expect(r.status).toBe(0);
    expect(lines(r)).toEqual(urls(0, 400).trim().split('\n'));
  });

  it('bloom info describes the state: a time window, its generations and the clock it last read', () => {
    const r = bloom(['info', '--json', state]);
    expect(r.status).toBe(0);
    const info = JSON.parse(r.stdout.toString());
    expect(info).toMatchObject({ kind: 'sliding filter', mode: 'time', windowMs: 30 * DAY, capacity: 1_000_000, generations: 16, lastClockMs: START + 31 * DAY });
    expect(info.addedCount).toBe(600 + 300 + 700);
    expect(info.currentFalsePositiveRate).toBeLessThan(0.001);
    const text = bloom(['info', state]).stdout.toString();
    expect(text).toMatch(/kind\s+sliding filter \(time window\), version 1/);
    expect(text).toMatch(/last clock\s+2026-02-01T00:00:00.000Z/);
  });

  it('bloom info refuses a corrupt state, naming the field (exit 1)', () => {
    const bytes = readFileSync(state);
    bytes[bytes.length - 1] ^= 1;
    const corrupt = join(dir, 'corrupt.bloom');
    writeFileSync(corrupt, bytes);
    const r = bloom(['info', corrupt]);
    expect(r.status).toBe(1);
    expect(r.stderr.toString()).toMatch(/checksum at byte \d+/);
    rmSync(corrupt);
  });
});

describe('bloom dedupe --window N: a window of lines', () => {
  it('a line comes back once it is older than the window (and its slack)', () => {
    // n = 700: generations of 100 lines, forgotten after at most 800 lines.
    const input = urls(0, 50) + urls(1000, 1800) + urls(0, 50);
    const r = bloom(['dedupe', '--window', '700', '--fpp', '0.0001'], input);
    expect(r.status).toBe(0);
    expect(lines(r)).toHaveLength(50 + 800 + 50);
    const again = bloom(['dedupe', '--window', '700', '--fpp', '0.0001'], urls(0, 50) + urls(1000, 1600) + urls(0, 50));
    expect(lines(again)).toHaveLength(50 + 600);
  });

  it('--stats describes the window', () => {
    const r = bloom(['dedupe', '--window', '1000', '--stats'], urls(0, 10));
    expect(r.stderr.toString()).toMatch(/a window of the last 1,000 lines in 8 generations/);
  });
});

describe('bloom dedupe --window: usage errors exit 2 naming the option', () => {
  for (const value of ['0', '30x', 'd', '1.5', '', '-3d', '0s', '1e400d']) {
    it(`--window '${value}'`, () => {
      const r = bloom(['dedupe', `--window=${value}`], 'a\n');
      expect(r.status).toBe(2);
      expect(r.stderr.toString()).toMatch(/^bloom: --window must be a number of lines .* got '/);
    });
  }

  it('--capacity with a window of lines, --scheme with any window, a window too large', () => {
    expect(bloom(['dedupe', '--window', '10', '--capacity', '5'], 'a\n').stderr.toString()).toMatch(/--capacity applies to a time --window only/);
    expect(bloom(['dedupe', '--window', '10', '--scheme', 'sbbf'], 'a\n').status).toBe(2);
    const huge = bloom(['dedupe', '--window', '9007199254740991'], 'a\n');
    expect(huge.status).toBe(2);
    expect(huge.stderr.toString()).toMatch(/^bloom: --window: window must be/);
  });

  it('a plain filter --state cannot take --window; a bad BLOOM_NOW_MS is a usage error', () => {
    const plain = join(dir, 'plain.blmw');
    expect(bloom(['dedupe', '--capacity', '100', '--state', plain], 'a\n').status).toBe(0);
    const r = bloom(['dedupe', '--window', '1d', '--state', plain], 'a\n');
    expect(r.status).toBe(2);
    expect(r.stderr.toString()).toMatch(/--window needs a sliding --state/);
    const clock = spawnSync(process.execPath, [BIN, 'dedupe', '--window', '1d'], { input: 'a\n', env: { ...process.env, BLOOM_NOW_MS: 'soon' } });
    expect(clock.status).toBe(2);
    expect(clock.stderr.toString()).toMatch(/BLOOM_NOW_MS must be a number/);
  });

  it('a sliding --state wins over a different --window, and says so', () => {
    const state = join(dir, 'wins.bloom');
    expect(bloom(['dedupe', '--window', '100', '--state', state], 'a\n').status).toBe(0);
    const r = bloom(['dedupe', '--window', '5d', '--state', state], 'a\nb\n');
    expect(lines(r)).toEqual(['b']);
    expect(r.stderr.toString()).toMatch(/is a sliding window of 100 lines at rate 0.001, which wins/);
  });
});
