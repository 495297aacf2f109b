// `bloom dedupe` and `bloom info` argument and input edges, as an outside
// user would hit them, run as real processes. Usage mistakes exit 2 and name
// the option and the user's own value; runtime faults exit 1 with one line.
// Run `npm run build` before running this file alone.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const dir = mkdtempSync(join(tmpdir(), 'bloom-attack-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bloom(args: string[], input: string | Uint8Array = ''): SpawnSyncReturns<Buffer> {
  return spawnSync(process.execPath, [BIN, ...args], { input, maxBuffer: 1 << 24 });
}

describe('bloom dedupe --fpp without --capacity (the growing filter)', () => {
  it.each(['1e-30', '5e-324', '1e-14'])('--fpp %s is a usage error (exit 2) quoting the user value and the smallest accepted', (fpp) => {
    const r = bloom(['dedupe', '--fpp', fpp], 'a\nb\na\n');
    const stderr = r.stderr.toString();
    expect(r.status, stderr).toBe(2);
    expect(r.stdout.toString()).toBe('');
    expect(stderr).toMatch(new RegExp(`^bloom: --fpp ${fpp.replace('-', '\\-')} is too low without --capacity: .* the smallest --fpp it accepts under sbbf is 2\\.55e-14\\n$`));
  });

  it('the smallest --fpp named is accepted, and just below it is refused', () => {
    const ok = bloom(['dedupe', '--fpp', '2.55e-14'], 'a\nb\na\n');
    expect(ok.status, ok.stderr.toString()).toBe(0);
    expect(ok.stdout.toString()).toBe('a\nb\n');
    expect(bloom(['dedupe', '--fpp', '2.54e-14'], 'a\n').status).toBe(2);
  });
});
