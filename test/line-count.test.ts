// Counting a file's lines before `bloom dedupe` sizes a new chain for it:
// the wasm count (assembly/line-count.ts, through the split core) against
// its twin and against hand-counted inputs, and inputLines over real files.

import { closeSync, mkdtempSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { COUNT_LIMIT, inputLines, openInputs } from '../src/cli/io.js';
import { chainShape } from '../src/cli/chain-shape.js';
import { grouped } from '../src/cli/grouped.js';
import { ReferenceSplitLines } from '../src/reference/lines-split.js';
import { linesCount } from '../src/reference/line-count.js';
import { wasmSplitLines, type SplitCore } from '../src/wasm/lines.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-count-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SIZE = 1 << 16;
const wasm = wasmSplitLines(false, [SIZE], 0n);
const twin = new ReferenceSplitLines(SIZE, false, 0n);

/** Both cores' counts of `bytes` staged at the start of their input areas. */
function counts(bytes: Uint8Array): [number, number] {
  const both = [wasm, twin].map((core: SplitCore) => {
    core.inputArea.set(bytes);
    return core.linesCount(bytes.length);
  });
  return [both[0], both[1]];
}

describe('linesCount', () => {
  it('counts \\n exactly at every length around the 16- and 8-byte steps and the 255-step sums', () => {
    for (const length of [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 255 * 16 - 1, 255 * 16, 255 * 16 + 1, 255 * 16 * 2 + 9, SIZE]) {
      const all = new Uint8Array(length).fill(10);
      expect(counts(all), `all newlines, ${length}`).toEqual([length, length]);
      const none = new Uint8Array(length).fill(0x0b);
      expect(counts(none), `no newline, ${length}`).toEqual([0, 0]);
      // Bytes that differ from \n in one bit, or are \n plus a carry away, next to real ones.
      const mixed = Uint8Array.from({ length }, (_, i) => [10, 11, 8, 0x8a, 0x0a ^ 0x80, 9, 0x7f, 0xff][i % 8]);
      const expected = Array.from(mixed).filter((b) => b === 10).length;
      expect(counts(mixed), `mixed, ${length}`).toEqual([expected, expected]);
    }
  });

  it('the wasm count equals the reference count on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 9000 }), fc.integer({ min: 0, max: 15 }), (bytes, shift) => {
        // Shifted: the count's loads are unaligned as often as not.
        const staged = new Uint8Array(bytes.length + shift);
        staged.set(bytes, shift);
        const [a, b] = counts(staged);
        expect(a).toBe(b);
        expect(a).toBe(linesCount(staged));
      }),
      { numRuns: 300 },
    );
  });
});

describe('inputLines', () => {
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const linesOf = (names: string[]) => {
    const inputs = openInputs(names);
    try {
      return inputLines(inputs, () => wasm.inputArea, (n) => wasm.linesCount(n));
    } finally {
      for (const i of inputs) closeSync(i.fd);
    }
  };

  it('counts every line of regular files, a last line without \\n too, across area-sized chunks', () => {
    const long = file('long.txt', 'x\n'.repeat(3 * SIZE) + 'tail');
    expect(linesOf([long])).toEqual({ lines: 3 * SIZE + 1, exact: true });
    const empty = file('empty.txt', '');
    const one = file('one.txt', 'a');
    const crlf = file('crlf.txt', 'a\r\nb\r\n\r\n');
    expect(linesOf([empty])).toEqual({ lines: 0, exact: true });
    expect(linesOf([one, one, crlf, empty])).toEqual({ lines: 5, exact: true });
  });

  it('leaves each descriptor where it was, so the run still reads the whole file', () => {
    const path = file('offset.txt', 'a\nb\nc\n');
    const inputs = openInputs([path]);
    try {
      expect(inputLines(inputs, () => wasm.inputArea, (n) => wasm.linesCount(n)).lines).toBe(3);
      const into = new Uint8Array(16);
      expect(Buffer.from(into.subarray(0, readSync(inputs[0].fd, into))).toString()).toBe('a\nb\nc\n');
    } finally {
      for (const i of inputs) closeSync(i.fd);
    }
  });

  it('estimates instead when an input is not a regular file or the files exceed COUNT_LIMIT', () => {
    const never = (): number => {
      throw new Error('counted');
    };
    // A pipe: no size, so nothing to count or estimate from.
    expect(inputLines([{ name: '-', fd: -1, regular: false, size: NaN }], () => wasm.inputArea, never)).toEqual({ lines: 0, exact: false });
    // A file said to be past the limit: sampled, not counted. Only the window at byte 0 holds bytes
    // (1,000 lines of 2 bytes), so the estimate is the claimed size over 2.
    const inputs = openInputs([file('sampled.txt', 'a\n'.repeat(1000))]);
    try {
      const big = { ...inputs[0], size: COUNT_LIMIT + 2 };
      expect(inputLines([big], () => wasm.inputArea, never)).toEqual({ lines: COUNT_LIMIT / 2 + 1, exact: false });
    } finally {
      closeSync(inputs[0].fd);
    }
  });
});

describe('chainShape', () => {
  it('a one-shot run over counted lines: exactly those lines, at tightening 0.01', () => {
    expect(chainShape({ lines: 10_000_000, exact: true }, true)).toEqual({ capacity: 10_000_000, tightening: 0.01 });
    expect(chainShape({ lines: 5, exact: true }, true)).toEqual({ capacity: 1_000_000, tightening: 0.01 });
  });

  it('a chain kept with --state, or sized from an estimate, leaves room to grow', () => {
    expect(chainShape({ lines: 10_000_000, exact: true }, false)).toEqual({ capacity: 10_000_000, tightening: 0.25 });
    expect(chainShape({ lines: 10_000_000, exact: false }, true)).toEqual({ capacity: 10_200_000, tightening: 0.25 });
    // A pipe, or a small file kept with --state: later members are the rule, so tightening 0.75.
    expect(chainShape({ lines: 0, exact: false }, true)).toEqual({ capacity: 1_000_000, tightening: 0.75 });
    expect(chainShape({ lines: 5, exact: true }, false)).toEqual({ capacity: 1_000_000, tightening: 0.75 });
    // Above the largest first member, a counted file grows the chain: it keeps the fair share too.
    expect(chainShape({ lines: 300_000_000, exact: true }, true)).toEqual({ capacity: 100_000_000, tightening: 0.25 });
  });
});

describe('grouped', () => {
  it('writes counts as toLocaleString("en-US") writes integers', () => {
    for (const n of [0, 7, 999, 1000, 12345, 999_999, 1_000_000, 8_334_675, 2 ** 53 - 1, -1234567, 1234.6]) {
      expect(grouped(n)).toBe(Math.round(n).toLocaleString('en-US'));
    }
    expect(grouped(169_232_384)).toBe('169,232,384');
  });
});
