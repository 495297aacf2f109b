// Parity of assembly/lines.ts with its twin, and both against the spec of
// `bloom dedupe`: the first occurrence of each line, in order.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BloomFilter, engineOf } from '../src/filter/filter.js';
import { LineDeduper, wasmLines, wasmSplitLines, type LinesCore } from '../src/wasm/lines.js';
import { ChainLineDeduper } from '../src/cli/chain-deduper.js';
import { ScalableBloomFilter } from '../src/scalable/scalable.js';
import { BloomFilter as ReferenceFilter } from '../src/reference/filter.js';
import { ReferenceLines } from '../src/reference/lines-filter.js';
import { ReferenceSplitLines } from '../src/reference/lines-split.js';
import type { Scheme } from '../src/filter/options.js';
import { BloomDigestError, BloomTypeError } from '../src/errors.js';

/** Runs `bytes` through a deduper, reading at most `chunk` bytes at a time; records its counts in `counts`. */
function run(core: LinesCore | LineDeduper, bytes: Uint8Array, chunk: number): Uint8Array {
  const dedupe = core instanceof LineDeduper ? core : new LineDeduper(core);
  const out: Uint8Array[] = [];
  let at = 0;
  const write = (b: Uint8Array, length: number) => out.push(b.slice(0, length));
  while (at < bytes.length) {
    const area = dedupe.inputArea;
    const start = dedupe.inputStart;
    const n = Math.min(area.length - start, chunk, bytes.length - at);
    area.set(bytes.subarray(at, at + n), start);
    at += n;
    dedupe.push(n, write);
  }
  dedupe.finish(write);
  counts.push([dedupe.linesRead, dedupe.linesPrinted]);
  return Buffer.concat(out);
}

/** [lines read, lines printed] of each run, in order. */
const counts: [number, number][] = [];

/** The spec, computed with an exact set over the items (latin1 keys keep every byte). */
function firstOccurrences(bytes: Uint8Array, invert: boolean): Uint8Array {
  const text = Buffer.from(bytes).toString('latin1');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const seen = new Set<string>();
  let out = '';
  for (const line of lines) {
    // A \r right before the end of a line is not part of the item, with or without a \n.
    const item = line.endsWith('\r') ? line.slice(0, -1) : line;
    const isNew = !seen.has(item);
    seen.add(item);
    if (isNew !== invert) out += line + '\n';
  }
  return Uint8Array.from(Buffer.from(out, 'latin1'));
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

const lineBytes = fc.array(fc.constantFrom(0x61, 0x62, 0x0d, 0x0a, 0xff, 0xc3, 0x20), { maxLength: 40 });
const streams = fc.array(fc.oneof(lineBytes, fc.constant([0x61, 0x0a]), fc.constant([0x0d, 0x0a])), { maxLength: 30 })
  .map((parts) => Uint8Array.from(parts.flat()));

describe('lines: wasm equals the reference twin and the spec', () => {
  for (const scheme of ['xxh64', 'sbbf', 'poly', 'bytesum'] as Scheme[]) {
    // xxh64 and sbbf hash with XXH64, so their answers are checked against the exact set too.
    const exact = scheme === 'xxh64' || scheme === 'sbbf';
    const hashes = scheme === 'sbbf' ? 8 : 7;
    it(`prints first occurrences, in order (${scheme})`, () => {
      fc.assert(
        fc.property(streams, fc.integer({ min: 1, max: 50 }), fc.constantFrom(16, 32, 4096), fc.boolean(), (bytes, chunk, size, invert) => {
          const bits = exact ? 1 << 16 : 65_537;
          const wasm = new BloomFilter(bits, hashes, { scheme });
          const ref = new ReferenceFilter(bits, hashes, { scheme });
          const a = run(wasmLines(engineOf(wasm), invert, [size]), bytes, chunk);
          const b = run(new ReferenceLines(ref, size, invert), bytes, chunk);
          expect(counts[counts.length - 2]).toEqual(counts[counts.length - 1]);
          // Buffer.equals: toEqual walks a typed array element by element, far too slowly here.
          expect(latin1(a)).toBe(latin1(b));
          expect(Buffer.from(wasm.bitArray()).equals(ref.bitArray())).toBe(true);
          // bytesum and poly collide on permutations; only xxh64 is checked against the exact set.
          if (exact) expect(latin1(a)).toBe(latin1(firstOccurrences(bytes, invert)));
          // Split mode over a chain whose first member holds 3 items, so that members fill mid-chunk:
          // the wasm split core and its reference twin give the chain the same batches.
          const chain = new ScalableBloomFilter({ capacity: 3, falsePositiveRate: 1e-9, scheme });
          const twin = new ScalableBloomFilter({ capacity: 3, falsePositiveRate: 1e-9, scheme });
          const c = run(new ChainLineDeduper(chain, invert, wasmSplitLines(invert, [size])), bytes, chunk);
          const d = run(new ChainLineDeduper(twin, invert, new ReferenceSplitLines(size, invert)), bytes, chunk);
          expect(latin1(c)).toBe(latin1(d));
          expect(counts[counts.length - 1]).toEqual(counts[counts.length - 2]);
          expect(Buffer.from(chain.toBytes()).equals(twin.toBytes())).toBe(true);
          if (exact) expect(latin1(c)).toBe(latin1(firstOccurrences(bytes, invert)));
          if (exact) expect(counts[counts.length - 1]).toEqual(counts[counts.length - 3]);
        }),
        { numRuns: 300, seed: 5 },
      );
    });
  }

  it('hashes each line exactly as add(lineBytes) does, a long streamed line included', () => {
    const long = new Uint8Array(100_000).fill(0x78);
    const text = Buffer.concat([Buffer.from('a\r\nb\n\n'), long, Buffer.from('\r\nc')]);
    const filter = new BloomFilter(1 << 20, 7);
    const core = wasmLines(engineOf(filter), false, [4096]);
    const out = run(core, text, 10_000);
    expect(Buffer.from(out).equals(Buffer.concat([text, Buffer.from('\n')]))).toBe(true);
    const check = new BloomFilter(1 << 20, 7);
    for (const item of [Buffer.from('a'), Buffer.from('b'), new Uint8Array(0), long, Buffer.from('c')]) check.add(item);
    expect(Buffer.from(filter.bitArray()).equals(check.bitArray())).toBe(true);
    expect(filter.has('a') && filter.has('') && filter.has(long) && filter.has('c')).toBe(true);
  });

  it('split mode gives the chain each line exactly as add(lineBytes), a long streamed line included', () => {
    const long = new Uint8Array(100_000).fill(0x78);
    const text = Buffer.concat([Buffer.from('a\r\nb\n\n'), long, Buffer.from('\r\nc\r')]);
    const chain = new ScalableBloomFilter({ capacity: 2, falsePositiveRate: 1e-6 });
    const out = run(new ChainLineDeduper(chain, false, wasmSplitLines(false, [4096])), text, 10_000);
    expect(Buffer.from(out).equals(Buffer.concat([text, Buffer.from('\n')]))).toBe(true);
    expect(counts[counts.length - 1]).toEqual([5, 5]);
    const check = new ScalableBloomFilter({ capacity: 2, falsePositiveRate: 1e-6 });
    for (const item of [Buffer.from('a'), Buffer.from('b'), new Uint8Array(0), long, Buffer.from('c')]) check.add(item);
    expect(Buffer.from(chain.toBytes()).equals(check.toBytes())).toBe(true);
    // Repeats, the long line among them, are dropped, and a last "c\r" is the item "c".
    const again = run(new ChainLineDeduper(chain, false, new ReferenceSplitLines(4096, false)), Buffer.concat([long, Buffer.from('\nc\nd\r')]), 3000);
    expect(Buffer.from(again).toString()).toBe('d\r\n');
  });
});

describe('lines: groups of lines and digest batches decide exactly as one line at a time', () => {
  /** `count` lines drawn from `distinct` values, so that repeats fall inside one group of 64 and across groups. */
  function repeats(count: number, distinct: number, seed: number): Uint8Array {
    let x = seed;
    const lines: string[] = [];
    for (let i = 0; i < count; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      lines.push(`https://example.com/${(x >>> 12) % distinct}`);
    }
    return Buffer.from(lines.join('\n') + '\n');
  }

  for (const scheme of ['sbbf', 'xxh64'] as Scheme[]) {
    it(`filter mode: a repeat inside one group of 64 is seen, with bits equal to add() line by line (${scheme})`, () => {
      // 3 distinct lines in 200: every group holds repeats of lines first added earlier in that same group.
      for (const [count, distinct] of [[200, 3], [5000, 700], [64, 64], [65, 1]]) {
        const bytes = repeats(count, distinct, count);
        const filter = new BloomFilter(1 << 16, scheme === 'sbbf' ? 8 : 7, { scheme });
        const out = run(wasmLines(engineOf(filter), false, [1 << 16]), bytes, 1 << 16);
        expect(latin1(out)).toBe(latin1(firstOccurrences(bytes, false)));
        const check = new BloomFilter(1 << 16, scheme === 'sbbf' ? 8 : 7, { scheme });
        for (const line of latin1(bytes).split('\n').slice(0, -1)) check.add(Buffer.from(line, 'latin1'));
        expect(Buffer.from(filter.bitArray()).equals(check.bitArray())).toBe(true);
        expect(filter.size).toBe(check.size);
      }
    });

    it(`digest split mode equals its twin and the spec, members filling mid-chunk (${scheme})`, () => {
      fc.assert(
        fc.property(streams, fc.integer({ min: 1, max: 50 }), fc.constantFrom(16, 32, 4096), fc.boolean(), (bytes, chunk, size, invert) => {
          const chain = new ScalableBloomFilter({ capacity: 3, falsePositiveRate: 1e-9, scheme, seed: 7 });
          const twin = new ScalableBloomFilter({ capacity: 3, falsePositiveRate: 1e-9, scheme, seed: 7 });
          const packed = new ScalableBloomFilter({ capacity: 3, falsePositiveRate: 1e-9, scheme, seed: 7 });
          const a = run(new ChainLineDeduper(chain, invert, wasmSplitLines(invert, [size], 7n)), bytes, chunk);
          const b = run(new ChainLineDeduper(twin, invert, new ReferenceSplitLines(size, invert, 7n)), bytes, chunk);
          const c = run(new ChainLineDeduper(packed, invert, wasmSplitLines(invert, [size])), bytes, chunk);
          expect(latin1(a)).toBe(latin1(b));
          expect(latin1(a)).toBe(latin1(c));
          expect(latin1(a)).toBe(latin1(firstOccurrences(bytes, invert)));
          expect(counts[counts.length - 3]).toEqual(counts[counts.length - 2]);
          expect(counts[counts.length - 3]).toEqual(counts[counts.length - 1]);
          expect(Buffer.from(chain.toBytes()).equals(twin.toBytes())).toBe(true);
          expect(Buffer.from(chain.toBytes()).equals(packed.toBytes())).toBe(true);
        }),
        { numRuns: 200, seed: 9 },
      );
    });
  }

  it('digest split mode: one chunk crosses several member boundaries, with repeats, as add() line by line', () => {
    // 5,000 lines of 700 distinct values in one 1 MiB chunk, into a chain whose first member holds 50.
    const bytes = repeats(5000, 700, 3);
    const chain = new ScalableBloomFilter({ capacity: 50, falsePositiveRate: 1e-9, scheme: 'sbbf' });
    const dedupe = new ChainLineDeduper(chain, false);
    const out = run(dedupe, bytes, 1 << 20);
    const expected = firstOccurrences(bytes, false);
    expect(counts[counts.length - 1]).toEqual([5000, latin1(expected).split('\n').length - 1]);
    expect(counts[counts.length - 1][1]).toBeGreaterThan(650);
    expect(latin1(out)).toBe(latin1(expected));
    const check = new ScalableBloomFilter({ capacity: 50, falsePositiveRate: 1e-9, scheme: 'sbbf' });
    for (const line of latin1(bytes).split('\n').slice(0, -1)) check.add(Buffer.from(line, 'latin1'));
    expect(chain.members.map((f) => f.capacity)).toEqual([50, 100, 200, 400]);
    expect(Buffer.from(chain.toBytes()).equals(check.toBytes())).toBe(true);
  });

  it('digest split mode hashes a streamed line whole, in wasm and in the twin', () => {
    const long = new Uint8Array(100_000).fill(0x78);
    const text = Buffer.concat([Buffer.from('a\r\nb\n\n'), long, Buffer.from('\r\nc\r')]);
    for (const core of [wasmSplitLines(false, [4096], 0n), new ReferenceSplitLines(4096, false, 0n)]) {
      const chain = new ScalableBloomFilter({ capacity: 2, falsePositiveRate: 1e-6, scheme: 'sbbf' });
      const out = run(new ChainLineDeduper(chain, false, core), text, 10_000);
      expect(Buffer.from(out).equals(Buffer.concat([text, Buffer.from('\n')]))).toBe(true);
      const check = new ScalableBloomFilter({ capacity: 2, falsePositiveRate: 1e-6, scheme: 'sbbf' });
      for (const item of [Buffer.from('a'), Buffer.from('b'), new Uint8Array(0), long, Buffer.from('c')]) check.add(item);
      expect(Buffer.from(chain.toBytes()).equals(check.toBytes())).toBe(true);
      // The long line and "c" again are dropped; a last line streamed without its \n is hashed whole too.
      const again = run(new ChainLineDeduper(chain, false, wasmSplitLines(false, [4096], 0n)), Buffer.concat([long, Buffer.from('\nc\n'), long]), 3000);
      expect(again.length).toBe(0);
    }
  });

  it('a digest core must digest under the chain seed, and only for digest schemes', () => {
    const chain = new ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01, scheme: 'sbbf', seed: 5 });
    expect(() => new ChainLineDeduper(chain, false, wasmSplitLines(false, [4096], 0n))).toThrow(BloomTypeError);
    const poly = new ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01, scheme: 'poly' });
    expect(() => new ChainLineDeduper(poly, false, new ReferenceSplitLines(4096, false, 0n))).toThrow(/digests under seed 0n/);
    expect(() => poly.addDigestPairs(new Uint32Array(2))).toThrow(BloomDigestError);
  });
});
