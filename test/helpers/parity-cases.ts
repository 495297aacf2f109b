// The parity cases that run in other runtimes (Chromium, workerd) and in
// Node, whose answers must be equal: fixed fast-check samples of filters
// and items, plus items long enough to stream through the scratch region.
import fc from 'fast-check';
import type { CaseItem as Item, ParityCase as Case } from './run-cases.js';

// Strings of any UTF-16 code units (lone surrogates included), graphemes, and byte items.
const anyUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const itemArb: fc.Arbitrary<Item> = fc.oneof(
  fc.string({ maxLength: 40 }),
  anyUnits,
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.uint8Array({ maxLength: 64 }).map((b) => ({ bytes: Array.from(b) })),
);

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    bits: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 20_000 })),
    hashes: fc.integer({ min: 1, max: 64 }),
    scheme: fc.constantFrom('xxh64' as const, 'poly' as const, 'bytesum' as const, 'sbbf' as const),
    seed: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    items: fc.array(itemArb, { minLength: 60, maxLength: 100 }),
    probes: fc.array(itemArb, { minLength: 40, maxLength: 60 }),
  })
  .map((c) => ({
    ...c,
    // xxh64 positions are distinct, so k <= m there; sbbf takes whole 256-bit
    // blocks and k = 8 (its v128 loop runs in the page); only xxh64 and sbbf take a seed.
    bits: c.scheme === 'sbbf' ? Math.ceil(c.bits / 256) * 256 : c.bits,
    hashes: c.scheme === 'sbbf' ? 8 : c.scheme === 'xxh64' ? Math.min(c.hashes, c.bits) : c.hashes,
    seed: c.scheme === 'xxh64' || c.scheme === 'sbbf' ? c.seed.toString() : '0',
  }));

/** 36 fixed cases (about 2,900 items and 1,800 probes), plus items long enough to stream through the 64 KiB scratch. */
export function parityCases(): Case[] {
  const cases = fc.sample(caseArb, { seed: 0x6b100d, numRuns: 36 });
  const long: Item[] = [
    'x'.repeat(70_000) + 'é',
    '😀'.repeat(30_000), // surrogate pairs across the UTF-8 chunk boundary
    '\ud800'.repeat(25_000), // lone surrogates: U+FFFD in UTF-8
    { bytes: Array.from({ length: 70_000 }, (_, i) => (i * 7) & 0xff) },
  ];
  for (const scheme of ['xxh64', 'poly', 'bytesum'] as const) {
    cases.push({ bits: 4099, hashes: 5, scheme, seed: scheme === 'xxh64' ? '18446744073709551615' : '0', items: long, probes: ['x'.repeat(70_000)] });
  }
  cases.push({ bits: 4096, hashes: 8, scheme: 'sbbf', seed: '0', items: long, probes: ['x'.repeat(70_000)] });
  return cases;
}

