// The chain format's bound on members (MAX_FILTER_COUNT) and what a crafted
// chain may cost: a chain that claims more members than the bound is refused
// at filterCount before any member is read or any instance created; a chain
// at the bound loads with one instance per member and little memory; and a
// member's fault names the member's index and field.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BloomFormatError, BloomRangeError, MAX_FILTER_COUNT, ScalableBloomFilter, type ScalableOptions } from '../src/index.js';
import { SCHEMES } from '../src/filter/options.js';
import { encodeChainHeader } from '../src/format/chain.js';
import { encodeHeader, setChecksum } from '../src/format/filter.js';
import { loadFile, loadFileSync } from '../src/node/index.js';
import { checksum } from '../src/reference/checksum.js';
import { xxh64 } from '../src/reference/hash.js';
import { ScalableBloomFilter as ReferenceScalable } from '../src/reference/index.js';
import { checkScalableOptions, memberPlan } from '../src/scalable/plan.js';
import { resealChain, resealMember, spans } from './helpers/chain-bytes.js';

const implementations = [
  ['wasm', ScalableBloomFilter],
  ['reference', ReferenceScalable],
] as const;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Runs `fn` and counts the WebAssembly instances it creates (each filter, each member is one). */
function instancesCreatedBy(fn: () => unknown): number {
  const Original = WebAssembly.Instance;
  let created = 0;
  (WebAssembly as { Instance: unknown }).Instance = function Instance(module: WebAssembly.Module, imports?: WebAssembly.Imports) {
    created++;
    return new Original(module, imports);
  };
  try {
    fn();
  } catch {
    // The caller checks the error itself.
  } finally {
    (WebAssembly as { Instance: unknown }).Instance = Original;
  }
  return created;
}

/** A valid chain of `count` members as the plan sizes them, every bit 0, all but the newest marked full. */
function emptyMembers(options: ScalableOptions, count: number): Uint8Array {
  const plan = checkScalableOptions(options);
  const parts = [encodeChainHeader(plan, count, (b) => xxh64(b, 0n))];
  for (let i = 0; i < count; i++) {
    const { bits, hashes, capacity } = memberPlan(plan, i);
    const schemeId = SCHEMES.indexOf(plan.scheme);
    const header = encodeHeader({ scheme: plan.scheme, schemeId, hashes, seed: plan.seed, bits, bitsSet: 0, addedCount: i < count - 1 ? capacity : 0 });
    const payload = new Uint8Array(Math.ceil(bits / 8));
    setChecksum(header, checksum(header.subarray(0, 48), payload));
    parts.push(header, payload);
  }
  return Uint8Array.from(Buffer.concat(parts));
}

/** A chain header claiming `count` members, followed by `count` copies of a valid first member. */
function manyTinyMembers(count: number): Uint8Array {
  const one = new ScalableBloomFilter({ capacity: 2, falsePositiveRate: 0.1, growth: 1, tightening: 0.5 });
  one.add('a');
  const bytes = one.toBytes();
  const member = bytes.subarray(64);
  const out = new Uint8Array(64 + count * member.length);
  out.set(bytes.subarray(0, 64));
  for (let i = 0; i < count; i++) out.set(member, 64 + i * member.length);
  new DataView(out.buffer).setUint32(48, count, true);
  return resealChain(out);
}

describe('the member bound (MAX_FILTER_COUNT) and the cost of a crafted chain', () => {
  it('is 256', () => {
    expect(MAX_FILTER_COUNT).toBe(256);
  });

  it.each(implementations)('a 1.2 MB chain of 20,000 tiny members is refused at filterCount, before any member is read or allocated (%s)', (_name, Impl) => {
    const bytes = manyTinyMembers(20_000);
    expect(bytes.length).toBeGreaterThan(1_100_000);
    let caught: unknown;
    const created = instancesCreatedBy(() => {
      try {
        Impl.fromBytes(bytes);
      } catch (error) {
        caught = error;
      }
    });
    expect(created).toBe(0);
    expect(caught).toBeInstanceOf(BloomFormatError);
    expect(caught).toMatchObject({ field: 'filterCount', offset: 48 });
    expect((caught as Error).message).toContain('must be in [1, 256] (a chain has at most 256 members); got 20000');
    expect((caught as Error).message).not.toMatch(/needs \d+ bytes/);
  });

  it('the same file is refused by loadFileSync and loadFile, creating no instance', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-many-'));
    try {
      const path = join(dir, 'many.blmc');
      writeFileSync(path, manyTinyMembers(2_000)); // 120 KB
      const created = instancesCreatedBy(() => expect(() => loadFileSync(path, ScalableBloomFilter)).toThrow(/filterCount at byte 48: must be in \[1, 256\]/));
      expect(created).toBe(0);
      await expect(loadFile(path, ScalableBloomFilter)).rejects.toMatchObject({ field: 'filterCount', offset: 48 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(implementations)('a chain grows to 256 members, round-trips, and then refuses to grow with BloomRangeError naming members[256] (%s)', (_name, Impl) => {
    const chain = new Impl({ capacity: 1, falsePositiveRate: 0.5, growth: 1, tightening: 0.99 });
    let i = 0;
    while (chain.members.length < MAX_FILTER_COUNT) chain.add(`grow ${i++}`);
    // The newest member holds its one item; the next new item needs member 256.
    while (chain.members[MAX_FILTER_COUNT - 1].size < 1) chain.add(`grow ${i++}`);
    const bytes = chain.toBytes();
    let error: unknown;
    for (let j = 0; error === undefined && j < 1000; j++) {
      try {
        chain.add(`past ${j}`);
      } catch (e) {
        error = e;
      }
    }
    expect(error).toBeInstanceOf(BloomRangeError);
    expect((error as Error).message).toMatch(/^members\[256\] must be below 256: a chain has at most 256 members/);
    expect(chain.members.length).toBe(MAX_FILTER_COUNT);
    const back = Impl.fromBytes(bytes);
    expect(back.members.length).toBe(MAX_FILTER_COUNT);
    expect(hex(back.toBytes())).toBe(hex(bytes));
  });

  it('a 140 KB chain of 256 members loads into the instance that holds the other filters, with a bounded resident size', () => {
    const bytes = emptyMembers({ capacity: 150, falsePositiveRate: 0.01, growth: 1, tightening: 0.99 }, 256);
    expect(bytes.length).toBeGreaterThan(120_000);
    expect(bytes.length).toBeLessThan(150_000);
    const before = process.memoryUsage().rss;
    let back: ScalableBloomFilter | undefined;
    // Members are regions of one instance's memory (src/wasm/arena.ts): no instance of their own.
    expect(instancesCreatedBy(() => (back = ScalableBloomFilter.fromBytes(bytes)))).toBe(0);
    const grown = process.memoryUsage().rss - before;
    // The payloads and a record each; an instance per member would take megabytes each.
    expect(grown).toBeLessThan(4 * 2 ** 20);
    expect(back!.members.length).toBe(256);
    expect(hex(back!.toBytes())).toBe(hex(bytes));
  });

  it('a member fault deep in a long chain names the member index and the field', () => {
    const chain = new ScalableBloomFilter({ capacity: 1, falsePositiveRate: 0.5, growth: 1, tightening: 0.99 });
    for (let i = 0; chain.members.length < 40; i++) chain.add(`deep ${i}`);
    const bytes = chain.toBytes();
    const [start, length] = spans(bytes)[37];
    const bad = bytes.slice();
    bad[start + 7] += 1; // k of member 37, re-sealed
    let caught: unknown;
    try {
      ScalableBloomFilter.fromBytes(resealMember(bad, start, length));
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ field: 'members[37].hashes', offset: start + 7 });
    expect((caught as Error).message).toContain('for member 37 of this chain');
  });
});
