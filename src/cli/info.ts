// `bloom info FILE [--json]`: the header fields of a saved filter, its size
// on disk, and what its fill says: fill ratio, estimated distinct count and
// current false-positive rate. The file is verified (checksum, padding,
// bit count) in a streaming pass through one 8 MiB buffer, and nothing is
// loaded: describing a 4 GiB filter takes megabytes, and a corrupt or
// sparse file that claims gigabytes is refused without allocating them. A
// bad file is a runtime error (exit 1).

import { currentFalsePositiveRateOf, estimatedCountOf } from '../filter/sizing.js';
import {
  inspectFileSync, type ChainFileSummary, type CountingFileSummary, type CuckooFileSummary, type FilterFileSummary, type FuseFileSummary, type SlidingFileSummary,
} from '../node/inspect.js';
import { describeCuckoo } from './info-cuckoo.js';
import { Generations } from '../sliding/generations.js';
import { slidingFalsePositiveRate } from '../sliding/shape.js';
import { compoundRate, memberPlan } from '../scalable/plan.js';
import { guard, parse, UsageError } from './common.js';
import { grouped } from './grouped.js';

/** The help text of `bloom info`. */
export const HELP = `Usage: bloom info [--json] FILE

Describes a filter file of any kind (saved by saveFile, 'bloom build' or
'bloom dedupe --state'), reading it and never writing it: format
version, scheme, hashes (k), seed, bits (m), bits set, added count, size on
disk, fill ratio, estimated distinct count and current false-positive rate.
An sbbf filter also shows its 256-bit blocks and whether its bits are a
Parquet bitset (seed 0).
The file is verified (checksum, padding, bit count) in a streaming pass,
without loading it. A ScalableBloomFilter
chain is described as a whole (its plan and compound rate), then member by
member. A CountingBloomFilter file shows its counters (m), the counters in
use (above 0) and saturated (at 15), and the fill of the plain filter it
stands for. A SlidingBloomFilter file shows its window, its generations
(adds in each, which are live at the file's last clock reading) and the
rate those live generations give. A CuckooFilter file shows its shape, then
each member's buckets, fingerprint bits and fingerprints held. A
BinaryFuseFilter file shows its keys,
fingerprint bits, seed, segments and fingerprints, its bits per key and its
false-positive rate (2^-bits).

Options:
  --json      print one JSON object instead of aligned text
  -h, --help  show this help
`;

/** "1,000,000": counts in the aligned text. */
const n = grouped;

/** Writes `info` as one JSON object, or as aligned "name  value" rows; the rows are made only for the text. */
function report(info: object, json: boolean, rows: () => [string, string][]): number {
  process.stdout.write(json ? JSON.stringify(info) + '\n' : rows().map(([k, v]) => `${k.padEnd(21)}${v}\n`).join(''));
  return 0;
}

/** Runs `bloom info`. */
export async function run(argv: string[]): Promise<number> {
  return guard(async () => {
    const { values, positionals } = parse(argv, { json: { type: 'boolean' } }, true);
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError(`info takes exactly one FILE; got ${positionals.length} (try 'bloom info --help')`);
    const path = positionals[0];
    const summary = inspect(path);
    if (summary.kind === 'chain') return describeChain(path, summary, values.json === true);
    if (summary.kind === 'counting') return describeCounting(path, summary, values.json === true);
    if (summary.kind === 'sliding') return describeSliding(path, summary, values.json === true);
    if (summary.kind === 'cuckoo') return describeCuckoo(path, summary, values.json === true, report);
    if (summary.kind === 'fuse') return describeFuse(path, summary, values.json === true);
    const { header, size } = summary;
    const info = {
      file: path,
      version: header.version,
      scheme: header.scheme,
      hashes: header.hashes,
      seed: header.seed.toString(),
      bits: header.bits,
      bitsSet: header.bitsSet,
      addedCount: header.addedCount,
      sizeOnDisk: size,
      fillRatio: header.bitsSet / header.bits,
      estimatedCount: estimatedCountOf(header.bits, header.hashes, header.bitsSet),
      currentFalsePositiveRate: currentFalsePositiveRateOf(header.bits, header.hashes, header.bitsSet, header.scheme),
      ...sbbfFields(header.scheme, header.bits, header.seed),
    };
    return report(info, values.json === true, () => [
      ['file', path],
      ['format version', String(info.version)],
      ['scheme', info.scheme],
      ['hashes (k)', String(info.hashes)],
      ['seed', info.seed],
      ['bits (m)', n(info.bits)],
      ...(info.blocks === undefined ? [] : [['blocks', `${n(info.blocks)} of 256 bits, ${info.parquetCompatible ? 'the Parquet bitset as it stands (seed 0)' : 'not Parquet-compatible (seed is not 0)'}`] as [string, string]]),
      ['bits set', n(info.bitsSet)],
      ['added count', n(info.addedCount)],
      ['size on disk', `${n(size)} bytes`],
      ['fill ratio', info.fillRatio.toFixed(6)],
      ['estimated count', Number.isFinite(info.estimatedCount) ? n(Math.round(info.estimatedCount)) : 'unbounded (every bit set)'],
      ['false-positive rate', info.currentFalsePositiveRate.toExponential(4)],
    ]);
  });
}

/**
 * What an sbbf filter adds to the description: its 256-bit blocks, and
 * whether its bits are a Parquet bitset (only seed 0 hashes as Parquet does).
 */
function sbbfFields(scheme: string, bits: number, seed: bigint): { blocks?: number; parquetCompatible?: boolean } {
  return scheme === 'sbbf' ? { blocks: bits / 256, parquetCompatible: seed === 0n } : {};
}

/** Verifies the file in a streaming pass (nothing its headers ask for is allocated) and reads its headers. */
function inspect(path: string): FilterFileSummary | ChainFileSummary | CountingFileSummary | SlidingFileSummary | CuckooFileSummary | FuseFileSummary {
  try {
    return inspectFileSync(path);
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/**
 * Prints a counting filter file: its header, its counters in use and
 * saturated, and the fill figures of its plain filter (a counter above 0 is
 * a bit set).
 */
function describeCounting(path: string, counting: CountingFileSummary, json: boolean): number {
  const { header, size, saturated } = counting;
  const info = {
    file: path,
    kind: 'counting filter',
    version: header.version,
    scheme: header.scheme,
    hashes: header.hashes,
    seed: header.seed.toString(),
    bits: header.bits,
    countersInUse: header.bitsSet,
    saturatedCounters: saturated,
    addedCount: header.addedCount,
    sizeOnDisk: size,
    fillRatio: header.bitsSet / header.bits,
    estimatedCount: estimatedCountOf(header.bits, header.hashes, header.bitsSet),
    currentFalsePositiveRate: currentFalsePositiveRateOf(header.bits, header.hashes, header.bitsSet, header.scheme),
  };
  return report(info, json, () => [
    ['file', path],
    ['kind', `counting filter (4-bit counters), version ${info.version}`],
    ['scheme', info.scheme],
    ['hashes (k)', String(info.hashes)],
    ['seed', info.seed],
    ['bits (m)', `${n(info.bits)} counters`],
    ['counters in use', `${n(info.countersInUse)} (above 0)`],
    ['saturated counters', `${n(saturated)} (at 15: never lowered again)`],
    ['added count', `${n(info.addedCount)} (adds minus removes)`],
    ['size on disk', `${n(size)} bytes`],
    ['fill ratio', info.fillRatio.toFixed(6)],
    ['estimated count', Number.isFinite(info.estimatedCount) ? n(Math.round(info.estimatedCount)) : 'unbounded (every counter in use)'],
    ['false-positive rate', info.currentFalsePositiveRate.toExponential(4)],
  ]);
}

/**
 * Prints a sliding filter file: its window and shape, then its generations;
 * which are live, and the rate, are as of the last clock reading the file
 * holds (a count window's generations are all live).
 */
function describeSliding(path: string, sliding: SlidingFileSummary, json: boolean): number {
  const { shape, seed, state } = sliding.file;
  const generations = new Generations(shape, state, undefined);
  const live = Array.from({ length: shape.generations }, (_, p) => generations.isLive(p, state.lastNow));
  const info = {
    file: path,
    kind: 'sliding filter',
    version: 1,
    mode: shape.mode,
    window: shape.window,
    windowMs: shape.windowMs,
    capacity: shape.capacity,
    falsePositiveRate: shape.falsePositiveRate,
    generations: shape.generations,
    generationCapacity: shape.generationCapacity,
    periodMs: shape.periodMs,
    bitsPerGeneration: shape.bits,
    bits: shape.bits * shape.generations,
    hashes: shape.hashes,
    seed: seed.toString(),
    currentGeneration: state.current,
    addedCount: state.totalAdds,
    lastClockMs: shape.mode === 'time' ? state.lastNow : undefined,
    sizeOnDisk: sliding.size,
    liveGenerations: live.filter(Boolean).length,
    liveAdds: Array.from(state.counts).reduce((sum, c, p) => sum + (live[p] ? c : 0), 0),
    currentFalsePositiveRate: slidingFalsePositiveRate(shape.bits, shape.hashes, generations.liveCounts(state.lastNow)),
    generationCounts: Array.from(state.counts),
  };
  const window = shape.mode === 'count'
    ? `the last ${n(shape.window)} adds`
    : `${n(shape.windowMs)} ms, up to ${n(shape.capacity)} adds in any window`;
  return report(info, json, () => [
    ['file', path],
    ['kind', `sliding filter (${shape.mode} window), version ${info.version}`],
    ['window', window],
    ['false-positive bound', String(shape.falsePositiveRate)],
    ['generations', `${shape.generations} of ${n(shape.generationCapacity)} adds${shape.mode === 'time' ? ` or ${n(Math.round(shape.periodMs))} ms` : ''}`],
    ['bits (m, all)', `${n(info.bits)} (${n(shape.bits)} positions of ${shape.generations} bits)`],
    ['hashes (k)', String(shape.hashes)],
    ['seed', info.seed],
    ['added count', n(info.addedCount)],
    ...(shape.mode === 'time' ? [['last clock', new Date(state.lastNow).toISOString()] as [string, string]] : []),
    ['live generations', `${info.liveGenerations}, holding ${n(info.liveAdds)} adds`],
    ['size on disk', `${n(sliding.size)} bytes`],
    ['false-positive rate', info.currentFalsePositiveRate.toExponential(4)],
    ['generation adds', info.generationCounts.map((c, p) => `${p === state.current ? '*' : ''}${n(c)}${c > 0 && !live[p] ? ' (expired)' : ''}`).join(', ')],
  ]);
}

/** Prints a chain file: its plan, its totals, then one row per member. */
function describeChain(path: string, chain: ChainFileSummary, json: boolean): number {
  const { plan, size } = chain;
  const members = chain.members.map(({ header, capacity }, i) => ({
    bits: header.bits,
    hashes: header.hashes,
    capacity,
    falsePositiveRate: memberPlan(plan, i).falsePositiveRate,
    addedCount: header.addedCount,
    bitsSet: header.bitsSet,
    fill: header.bitsSet / header.bits,
  }));
  const rates = members.map((f) => ({ currentFalsePositiveRate: () => currentFalsePositiveRateOf(f.bits, f.hashes, f.bitsSet, plan.scheme) }));
  const bits = members.reduce((sum, f) => sum + f.bits, 0);
  const bitsSet = members.reduce((sum, f) => sum + f.bitsSet, 0);
  const info = {
    file: path,
    kind: 'scalable chain',
    chainVersion: plan.sizing,
    scheme: plan.scheme,
    seed: plan.seed.toString(),
    capacity: plan.capacity,
    falsePositiveRate: plan.falsePositiveRate,
    growth: plan.growth,
    tightening: plan.tightening,
    memberCount: members.length,
    bits,
    bitsSet,
    addedCount: members.reduce((sum, f) => sum + f.addedCount, 0),
    sizeOnDisk: size,
    fillRatio: bitsSet / bits,
    estimatedCount: members.reduce((sum, f) => sum + estimatedCountOf(f.bits, f.hashes, f.bitsSet), 0),
    currentFalsePositiveRate: compoundRate(rates),
    members,
  };
  return report(info, json, () => [
    ['file', path],
    ['kind', `scalable chain, version ${info.chainVersion}`],
    ['scheme', info.scheme],
    ['seed', info.seed],
    ['capacity', n(info.capacity)],
    ['false-positive bound', String(info.falsePositiveRate)],
    ['growth, tightening', `${info.growth}, ${info.tightening}`],
    ['members', String(info.memberCount)],
    ['bits (m, all)', n(bits)],
    ['bits set', n(bitsSet)],
    ['added count', n(info.addedCount)],
    ['size on disk', `${n(size)} bytes`],
    ['fill ratio', info.fillRatio.toFixed(6)],
    ['estimated count', n(Math.round(info.estimatedCount))],
    ['false-positive rate', info.currentFalsePositiveRate.toExponential(4)],
    ...members.map((f, i): [string, string] => [
      `member ${i}`,
      `bits ${n(f.bits)}, hashes ${f.hashes}, capacity ${n(f.capacity)} at ${f.falsePositiveRate.toExponential(2)}, added ${n(f.addedCount)}, bits set ${n(f.bitsSet)}`,
    ]),
  ]);
}

/** Prints a binary fuse filter file: the reference's struct fields, and its size and rate. */
function describeFuse(path: string, fuse: FuseFileSummary, json: boolean): number {
  const { shape, seed, width } = fuse.file;
  const info = {
    file: path,
    kind: 'binary fuse',
    version: 1,
    fingerprintBits: 8 * width,
    keys: shape.size,
    seed: seed.toString(),
    segmentLength: shape.segmentLength,
    segmentCount: shape.segmentCount,
    fingerprints: shape.arrayLength,
    sizeOnDisk: fuse.size,
    bitsPerKey: shape.size === 0 ? null : (8 * fuse.size) / shape.size,
    falsePositiveRate: shape.size === 0 ? 0 : 2 ** (-8 * width),
  };
  return report(info, json, () => [
    ['file', path],
    ['kind', 'binary fuse filter (static)'],
    ['format version', String(info.version)],
    ['fingerprint bits', String(info.fingerprintBits)],
    ['keys', n(info.keys)],
    ['seed', `0x${seed.toString(16).padStart(16, '0')}`],
    ['segments', `${n(info.segmentCount)} of ${n(info.segmentLength)} fingerprints (+2)`],
    ['fingerprints', n(info.fingerprints)],
    ['size on disk', `${n(fuse.size)} bytes`],
    ['bits per key', info.bitsPerKey === null ? 'none (no keys)' : info.bitsPerKey.toFixed(3)],
    ['false-positive rate', info.falsePositiveRate.toExponential(4)],
  ]);
}
