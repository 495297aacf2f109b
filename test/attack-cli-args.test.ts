// `bloom dedupe` and `bloom info` argument and input edges, as an outside
// user would hit them, run as real processes. Usage mistakes exit 2 and name
// the option and the user's own value; runtime faults exit 1 with one line.
// Run `npm run build` before running this file alone.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_BITS } from '../src/filter/options.js';
import { capacityParams } from '../src/filter/sizing.js';
import { BIN } from './helpers/bin.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-attack-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bloom(args: string[], input: string | Uint8Array = ''): SpawnSyncReturns<Buffer> {
  return spawnSync(process.execPath, [BIN, ...args], { input, maxBuffer: 1 << 24 });
}

describe('bloom dedupe --fpp without --capacity (the growing filter)', () => {
  it.each(['1e-30', '5e-324', '5e-14'])('--fpp %s is a usage error (exit 2) quoting the user value and the smallest accepted', (fpp) => {
    const r = bloom(['dedupe', '--fpp', fpp], 'a\nb\na\n');
    const stderr = r.stderr.toString();
    expect(r.status, stderr).toBe(2);
    expect(r.stdout.toString()).toBe('');
    expect(stderr).toMatch(new RegExp(`^bloom: --fpp ${fpp.replace('-', '\\-')} is too low without --capacity: .* the smallest --fpp it accepts under sbbf is 5\\.09e-14\\n$`));
  });

  it('the smallest --fpp named is accepted, and just below it is refused', () => {
    const ok = bloom(['dedupe', '--fpp', '5.09e-14'], 'a\nb\na\n');
    expect(ok.status, ok.stderr.toString()).toBe(0);
    expect(ok.stdout.toString()).toBe('a\nb\n');
    expect(bloom(['dedupe', '--fpp', '5.08e-14'], 'a\n').status).toBe(2);
  });
});

describe('a value that starts with a dash', () => {
  it.each([
    [['dedupe', '--capacity', '-5'], "bloom: --capacity got '-5', which starts with '-'; write --capacity=-5 to pass it as the value\n"],
    [['dedupe', '--fpp', '-0.1'], "bloom: --fpp got '-0.1', which starts with '-'; write --fpp=-0.1 to pass it as the value\n"],
  ])('%j is a usage error (exit 2) that quotes the value', (args, stderr) => {
    const r = bloom(args, 'a\n');
    expect(r.stderr.toString()).toBe(stderr);
    expect(r.status).toBe(2);
  });

  it('written with =, the value reaches the range check', () => {
    const r = bloom(['dedupe', '--capacity=-5'], 'a\n');
    expect(r.stderr.toString()).toBe("bloom: --capacity must be an integer in [1, 9007199254740991]; got '-5'\n");
    expect(r.status).toBe(2);
  });
});

describe('--capacity too large for MAX_BITS', () => {
  it.each([
    ['sbbf', '9007199254740991', 2034285003],
    ['sbbf', '2034285004', 2034285003],
    ['xxh64', '9007199254740991', 2389739560],
  ])('under %s, --capacity %s names MAX_BITS and the largest capacity that fits (%i)', (scheme, capacity, largest) => {
    const r = bloom(['dedupe', '--scheme', scheme, '--capacity', capacity], 'a\n');
    expect(r.stderr.toString()).toBe(
      `bloom: --capacity ${capacity} at --fpp 0.001 needs more than ${MAX_BITS} bits under ${scheme}; the most --capacity at that --fpp is ${largest}\n`,
    );
    expect(r.status).toBe(2);
    // The named capacity does fit, and one more does not (checked without allocating the 4 GiB filter).
    expect(capacityParams(largest, 0.001, MAX_BITS, scheme as 'sbbf' | 'xxh64').bits).toBeLessThanOrEqual(MAX_BITS);
    expect(() => capacityParams(largest + 1, 0.001, MAX_BITS, scheme as 'sbbf' | 'xxh64')).toThrow(RangeError);
  });
});
