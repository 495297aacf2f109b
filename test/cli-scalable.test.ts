// `bloom dedupe` without --capacity keeps its lines in a ScalableBloomFilter,
// and `bloom info` describes such chains. Real processes, as in cli.test.ts.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScalableFileSync } from '../src/node/index.js';

const BIN = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
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
    const chain = loadScalableFileSync(state);
    expect(chain.filters.map((f) => f.capacity)).toEqual([1_000_000, 2_000_000]);
    expect(chain.falsePositiveRate).toBe(0.001);
    for (const line of out.slice(0, 5000)) expect(chain.has(line)).toBe(true);
    expect(chain.addedCount()).toBe(out.length);
  });

  it('continues from the chain state, and reports that it wins over size flags', () => {
    const r = bloom(['dedupe', '--state', state, '--capacity', '10'], 'u1\nu2\nbrand new\n');
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe('brand new\n');
    expect(r.stderr.toString()).toMatch(/^bloom: --state .* is a scalable chain \(capacity 1000000, rate 0.001\), which wins over --capacity 10 --fpp 0.001\n$/);
    expect(loadScalableFileSync(state).has('brand new')).toBe(true);
  });

  it('bloom info describes the chain, as text and as JSON', () => {
    const json = JSON.parse(bloom(['info', '--json', state]).stdout.toString());
    expect(json).toMatchObject({ kind: 'scalable chain', chainVersion: 1, scheme: 'sbbf', capacity: 1_000_000, filterCount: 2 });
    expect(json.filters).toHaveLength(2);
    expect(json.filters[1]).toMatchObject({ capacity: 2_000_000 });
    const text = bloom(['info', state]).stdout.toString();
    expect(text).toMatch(/^kind\s+scalable chain, version 1$/m);
    expect(text).toMatch(/^filter 1\s+bits [\d,]+, hashes \d+, capacity 2,000,000 at /m);
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
