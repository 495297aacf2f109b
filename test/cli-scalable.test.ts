// `bloom dedupe` without --capacity keeps its lines in a ScalableBloomFilter,
// and `bloom info` describes such chains. Real processes, as in cli.test.ts.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { closeSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFileSync } from '../src/node/index.js';
import { ScalableBloomFilter } from '../src/index.js';
import { estimateLines, openInputs } from '../src/cli/io.js';
import { grouped } from '../src/cli/grouped.js';
import { MAX_BITS } from '../src/filter/options.js';
import { capacityParams } from '../src/filter/sizing.js';
import { BIN } from './helpers/bin.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-chain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bloom(args: string[], input: string | Uint8Array = ''): SpawnSyncReturns<Buffer> {
  return spawnSync(process.execPath, [BIN, ...args], { input, maxBuffer: 1 << 27 });
}

describe('bloom dedupe on an unbounded stream (no --capacity)', () => {
  // 1,300,000 distinct lines overflow the chain's first member (1,000,000), so a second one starts.
  const distinct = 1_300_000;
  const lines = Array.from({ length: distinct }, (_, i) => `u${i}`);
  const input = Buffer.from(lines.join('\n') + '\n' + lines.slice(0, 1000).join('\n') + '\n');
  const state = join(dir, 'chain.blmc');

  it('grows a chain, keeps the rate bound, and saves a chain state that answers has(line)', () => {
    const r = bloom(['dedupe', '--state', state, '--stats', '--fpp', '0.001'], input);
    expect(r.status).toBe(0);
    const out = r.stdout.toString('latin1').split('\n');
    out.pop();
    // No line is printed twice, and false positives stay near the 0.1% bound.
    expect(new Set(out).size).toBe(out.length);
    const lost = distinct - out.length;
    expect(lost).toBeGreaterThanOrEqual(0);
    expect(lost).toBeLessThan(0.001 * distinct);
    expect(r.stderr.toString()).toMatch(/bits\s+[\d,]+ \([\d.]+ MiB\) in a chain of 2, sbbf/);

    expect([...readFileSync(state).subarray(0, 4)]).toEqual([0x42, 0x4c, 0x4d, 0x43]);
    const chain = loadFileSync(state, ScalableBloomFilter);
    expect(chain.members.map((f) => f.capacity)).toEqual([1_000_000, 2_000_000]);
    expect(chain.falsePositiveRate).toBe(0.001);
    for (const line of out.slice(0, 5000)) expect(chain.has(line)).toBe(true);
    expect(chain.size).toBe(out.length);
  });

  it('continues from the chain state, and reports that it wins over size flags', () => {
    const r = bloom(['dedupe', '--state', state, '--capacity', '10'], 'u1\nu2\nbrand new\n');
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe('brand new\n');
    expect(r.stderr.toString()).toMatch(/^bloom: --state .* is a scalable chain \(capacity 1000000, rate 0.001\), which wins over --capacity 10 --fpp 0.001\n$/);
    expect(loadFileSync(state, ScalableBloomFilter).has('brand new')).toBe(true);
  });

  it('bloom info describes the chain, as text and as JSON', () => {
    const json = JSON.parse(bloom(['info', '--json', state]).stdout.toString());
    expect(json).toMatchObject({ kind: 'scalable chain', chainVersion: 2, scheme: 'sbbf', capacity: 1_000_000, memberCount: 2 });
    expect(json.members).toHaveLength(2);
    expect(json.members[1]).toMatchObject({ capacity: 2_000_000 });
    const text = bloom(['info', state]).stdout.toString();
    expect(text).toMatch(/^kind\s+scalable chain, version 2$/m);
    expect(text).toMatch(/^member 1\s+bits [\d,]+, hashes \d+, capacity 2,000,000 at /m);
  });

  it('a corrupt chain state stops the run with exit code 1 and is left untouched', () => {
    const bytes = readFileSync(state);
    const corrupt = Buffer.from(bytes);
    corrupt[corrupt.length - 1] ^= 0x40;
    const path = join(dir, 'corrupt.blmc');
    writeFileSync(path, corrupt);
    const r = bloom(['dedupe', '--state', path], 'a\n');
    expect(r.status).toBe(1);
    expect(r.stderr.toString()).toMatch(/^bloom: cannot use --state .* \(left untouched\): /);
    expect(readFileSync(path).equals(corrupt)).toBe(true);
    expect(bloom(['info', path]).status).toBe(1);
  });
});

describe('bloom dedupe sizes a new chain for the lines its input files hold', () => {
  // 1,500,000 lines of 9 bytes: more than the 1,000,000 a chain starts with on a pipe.
  const lines = 1_500_000;
  const input = join(dir, 'fixed-width.txt');
  writeFileSync(input, Array.from({ length: lines }, (_, i) => `u${String(i).padStart(7, '0')}\n`).join(''));

  it('estimates the lines from the files sizes and sampled line lengths', () => {
    const inputs = openInputs([input, input]);
    try {
      const estimate = estimateLines(inputs);
      expect(Math.abs(estimate - 2 * lines)).toBeLessThan(0.001 * 2 * lines);
    } finally {
      for (const i of inputs) closeSync(i.fd);
    }
    const empty = join(dir, 'empty.txt');
    const noNewline = join(dir, 'one-line.txt');
    writeFileSync(empty, '');
    writeFileSync(noNewline, 'x'.repeat(100_000));
    for (const [names, expected] of [[[empty], 0], [[noNewline], 0], [[empty, input], 0]] as const) {
      const opened = openInputs([...names]);
      try {
        const estimate = estimateLines(opened);
        if (expected === 0 && names.length === 1) expect(estimate).toBe(0);
        else expect(Math.abs(estimate - lines)).toBeLessThan(0.001 * lines);
      } finally {
        for (const i of opened) closeSync(i.fd);
      }
    }
  });

  it('one member holds a file, and the saved chain is an ordinary chain; a pipe starts at 1,000,000', () => {
    const state = join(dir, 'sized.blmc');
    const r = spawnSync(process.execPath, [BIN, 'dedupe', '--state', state, input], { maxBuffer: 1 << 27 });
    expect(r.status).toBe(0);
    // Every line is distinct: the only ones lost are false positives, within the --fpp bound.
    const printed = r.stdout.length / 9;
    expect(printed).toBeGreaterThan(lines * (1 - 0.001));
    const chain = loadFileSync(state, ScalableBloomFilter);
    expect(chain.members).toHaveLength(1);
    // The file's lines, counted.
    expect(chain.capacity).toBe(lines);
    expect(chain.falsePositiveRate).toBe(0.001);
    // Sized from its file, the first member is expected to hold everything, so it gets 0.75 of the
    // rate; a saved chain may grow on later runs, so the next members still get a fair share.
    expect(chain.tightening).toBe(0.25);
    expect(chain.members[0].falsePositiveRate).toBeCloseTo(0.00075, 12);
    expect(chain.size).toBe(printed);
    expect(chain.has('u0000000') && chain.has(`u${lines - 1}`)).toBe(true);
    // The same lines from a pipe: the size is unknown, so the chain starts at 1,000,000 and grows,
    // with tightening 0.75 (later members are the rule): 0.25 of the rate, then 0.1875.
    const piped = join(dir, 'piped.blmc');
    expect(bloom(['dedupe', '--state', piped], readFileSync(input)).status).toBe(0);
    const grown = loadFileSync(piped, ScalableBloomFilter);
    expect(grown.members.map((f) => f.capacity)).toEqual([1_000_000, 2_000_000]);
    expect(grown.tightening).toBe(0.75);
    expect(grown.members[0].falsePositiveRate).toBeCloseTo(0.00025, 12);
    expect(grown.members[1].falsePositiveRate).toBeCloseTo(0.0001875, 12);
  });

  it('a --fpp too low for the file-sized first member is a usage error naming the smallest it accepts', () => {
    // As many lines, over 1,000 distinct ones: the member is sized from the
    // counted lines alike (close to MAX_BITS, 4 GiB), but the run that
    // builds it sets few of its blocks, where 1,500,000 distinct lines
    // would fault in most of its pages.
    const repeats = join(dir, 'fixed-width-repeats.txt');
    writeFileSync(repeats, Array.from({ length: lines }, (_, i) => `u${String(i % 1000).padStart(7, '0')}\n`).join(''));
    const r = spawnSync(process.execPath, [BIN, 'dedupe', '--fpp', '1e-20', repeats]);
    const stderr = r.stderr.toString();
    expect(r.status, stderr).toBe(2);
    const m = /^bloom: --fpp 1e-20 is too low without --capacity: the growing filter's first member \((\d+) lines\) .* the smallest --fpp it accepts under sbbf is (\S+)\n$/.exec(stderr);
    expect(m, stderr).not.toBeNull();
    expect(Number(m![1])).toBe(lines);
    // The smallest, to the 3 digits shown, at which this first member (the lines, at 0.99 of the rate) fits MAX_BITS.
    const smallest = Number(m![2]);
    const fits = (fpp: number): boolean => capacityParams(lines, fpp * 0.99, 2 ** 60, 'sbbf').bits <= MAX_BITS;
    expect(fits(smallest)).toBe(true);
    expect(fits(smallest * 0.99)).toBe(false);
    // A one-shot run (no --state) gives that first member 0.99 of the rate, so the smallest --fpp it accepts builds it.
    const ok = spawnSync(process.execPath, [BIN, 'dedupe', '--stats', '--fpp', String(smallest), repeats], { maxBuffer: 1 << 27 });
    expect(ok.status, ok.stderr.toString()).toBe(0);
    expect(ok.stderr.toString()).toMatch(/^bits\s+[\d,]+ \([\d.]+ MiB\) in a chain of 1, sbbf$/m);
  });

  it('a one-shot run over counted files gives its first member exactly their lines and 0.99 of the rate', () => {
    // The same lines from two files, the second without its last \n: 2 * lines lines in all.
    const cut = join(dir, 'no-last-newline.txt');
    writeFileSync(cut, readFileSync(input).subarray(0, -1));
    const r = spawnSync(process.execPath, [BIN, 'dedupe', '--stats', input, cut], { maxBuffer: 1 << 27 });
    expect(r.status, r.stderr.toString()).toBe(0);
    const { bits } = capacityParams(2 * lines, 0.001 * 0.99, MAX_BITS, 'sbbf');
    const stats = r.stderr.toString();
    expect(stats).toMatch(new RegExp(`^bits\\s+${grouped(bits)} \\([\\d.]+ MiB\\) in a chain of 1, sbbf$`, 'm'));
    expect(stats).toMatch(/^lines read\s+3,000,000$/m);
    // Every line of the second file repeats one of the first: only the first file's lines are printed, less false positives.
    expect(r.stdout.length / 9).toBeGreaterThan(lines * (1 - 0.001));
    expect(r.stdout.length / 9).toBeLessThanOrEqual(lines);
  });
});
