// A property test of `bloom dedupe` against `awk '!seen[$0]++'`, both run
// as real processes on random byte streams: mixes of \n, \r\n, lone \r,
// NUL, invalid UTF-8 and empty lines, in both modes (a chain without
// --capacity, a fixed filter with it).
//
// awk keys a line by all its bytes; dedupe drops one \r right before the
// end of a line (the documented \r rule), so "a\r" repeats "a". The
// expected output is therefore awk's, with later lines whose item repeats
// an earlier one removed. Nothing else may differ but false positives, and
// those are bounded away: each input has at most 120 lines, and both modes
// start with a filter sized for 1,000,000 lines at --fpp 1e-6 (m = 28.8
// Mbit, k = 20), whose false-positive rate after 120 items is
// (1 - e^(-20 * 120 / 28.8e6))^20 < 1e-80 per line.
// Run `npm run build` before running this file alone.

import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BIN } from './helpers/bin.js';


/** Pieces that lines are made of: repeats are likely, and every hostile byte appears. */
const PIECES = ['a', 'b', '\0', '\xff', '\xc3', '\xc3\xa9', ' ', '\r', '\n', '\r\n', '\n\n', '\r\r\n'].map((p) => Buffer.from(p, 'latin1'));
const streams = fc.array(fc.constantFrom(...PIECES), { maxLength: 120 }).map((parts) => Buffer.concat(parts));

/** Lines of a dedupe or awk output: each ends with \n. */
function outputLines(bytes: Buffer): string[] {
  const text = bytes.toString('latin1');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text === '' ? [] : text.slice(0, -1).split('\n');
}

const itemOf = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line);

describe("bloom dedupe against awk '!seen[$0]++'", () => {
  const modes: [string, string[]][] = [
    ['chain', ['--fpp', '1e-6']],
    ['fixed filter', ['--capacity', '1000000', '--fpp', '1e-6']],
  ];
  it('never prints a line twice, and prints what awk prints but for the \\r rule (both modes)', () => {
    fc.assert(
      fc.property(streams, (input) => {
        const awk = spawnSync('awk', ['!seen[$0]++'], { input, env: { ...process.env, LC_ALL: 'C' } });
        expect(awk.status).toBe(0);
        const seen = new Set<string>();
        const expected = outputLines(awk.stdout).filter((line) => {
          const item = itemOf(line);
          if (seen.has(item)) return false;
          seen.add(item);
          return true;
        });
        for (const [mode, args] of modes) {
          const r = spawnSync(process.execPath, [BIN, 'dedupe', ...args], { input });
          expect(r.status, mode).toBe(0);
          const printed = outputLines(r.stdout);
          expect(new Set(printed.map(itemOf)).size, mode).toBe(printed.length);
          expect(printed, mode).toEqual(expected);
        }
      }),
      { numRuns: 25, seed: 13 },
    );
  }, 120_000);
});
