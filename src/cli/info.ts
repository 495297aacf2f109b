// `bloom info FILE [--json]`: the header fields of a saved filter, its size
// on disk, and what its fill says: fill ratio, estimated distinct count and
// current false-positive rate. The whole file is loaded, so its checksum
// and bit count are verified too; a bad file is a runtime error (exit 1).

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { HEADER_BYTES, parseHeader } from '../format/filter.js';
import { loadFileSync, loadScalableFileSync } from '../node/index.js';
import { CHAIN_VERSION } from '../format/chain.js';
import { guard, isChainFile, parse, UsageError } from './common.js';

/** The help text of `bloom info`. */
export const HELP = `Usage: bloom info [--json] FILE

Describes a filter file saved by saveFile or 'bloom dedupe --state': format
version, scheme, hashes (k), seed, bits (m), bits set, added count, size on
disk, fill ratio, estimated distinct count and current false-positive rate.
An sbbf filter also shows its 256-bit blocks and whether its bits are a
Parquet bitset (seed 0).
The file is verified (checksum, bit count) on the way. A ScalableBloomFilter
chain is described as a whole (its plan and compound rate), then member by
member.

Options:
  --json      print one JSON object instead of aligned text
  -h, --help  show this help
`;

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
    if (isReadableChain(path)) return describeChain(path, values.json === true);
    let header;
    let size: number;
    let filter;
    try {
      const fd = openSync(path, 'r');
      try {
        size = fstatSync(fd).size;
        const prefix = new Uint8Array(Math.min(HEADER_BYTES, size));
        readSync(fd, prefix, 0, prefix.length, 0);
        header = parseHeader(prefix, size);
      } finally {
        closeSync(fd);
      }
      filter = loadFileSync(path);
    } catch (error) {
      throw new Error(`cannot read ${path}: ${(error as Error).message}`);
    }
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
      estimatedCount: filter.estimatedCount(),
      currentFalsePositiveRate: filter.currentFalsePositiveRate(),
      ...sbbfFields(header.scheme, header.bits, header.seed),
    };
    if (values.json) {
      process.stdout.write(JSON.stringify(info) + '\n');
      return 0;
    }
    const n = (x: number): string => x.toLocaleString('en-US');
    const rows: [string, string][] = [
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
    ];
    process.stdout.write(rows.map(([k, v]) => `${k.padEnd(21)}${v}\n`).join(''));
    return 0;
  });
}

/**
 * What an sbbf filter adds to the description: its 256-bit blocks, and
 * whether its bits are a Parquet bitset (only seed 0 hashes as Parquet does).
 */
function sbbfFields(scheme: string, bits: number, seed: bigint): { blocks?: number; parquetCompatible?: boolean } {
  return scheme === 'sbbf' ? { blocks: bits / 256, parquetCompatible: seed === 0n } : {};
}

function isReadableChain(path: string): boolean {
  try {
    return isChainFile(path);
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Prints a chain file: its plan, its totals, then one row per member. */
function describeChain(path: string, json: boolean): number {
  let chain;
  let size: number;
  try {
    const fd = openSync(path, 'r');
    try {
      size = fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
    chain = loadScalableFileSync(path);
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  const members = chain.filters;
  const bits = members.reduce((sum, f) => sum + f.bits, 0);
  const bitsSet = members.reduce((sum, f) => sum + f.bitsSet, 0);
  const info = {
    file: path,
    kind: 'scalable chain',
    chainVersion: CHAIN_VERSION,
    scheme: chain.scheme,
    seed: chain.seed.toString(),
    initialCapacity: chain.initialCapacity,
    falsePositiveRate: chain.falsePositiveRate,
    growth: chain.growth,
    tightening: chain.tightening,
    filterCount: members.length,
    bits,
    bitsSet,
    addedCount: chain.addedCount(),
    sizeOnDisk: size,
    fillRatio: bitsSet / bits,
    estimatedCount: chain.estimatedCount(),
    currentFalsePositiveRate: chain.currentFalsePositiveRate(),
    filters: members.map((f) => ({ ...f })),
  };
  if (json) {
    process.stdout.write(JSON.stringify(info) + '\n');
    return 0;
  }
  const n = (x: number): string => x.toLocaleString('en-US');
  const rows: [string, string][] = [
    ['file', path],
    ['kind', `scalable chain, version ${info.chainVersion}`],
    ['scheme', info.scheme],
    ['seed', info.seed],
    ['initial capacity', n(info.initialCapacity)],
    ['false-positive bound', String(info.falsePositiveRate)],
    ['growth, tightening', `${info.growth}, ${info.tightening}`],
    ['filters', String(info.filterCount)],
    ['bits (m, all)', n(bits)],
    ['bits set', n(bitsSet)],
    ['added count', n(info.addedCount)],
    ['size on disk', `${n(size)} bytes`],
    ['fill ratio', info.fillRatio.toFixed(6)],
    ['estimated count', n(Math.round(info.estimatedCount))],
    ['false-positive rate', info.currentFalsePositiveRate.toExponential(4)],
  ];
  const lines = rows.map(([k, v]) => `${k.padEnd(21)}${v}\n`);
  members.forEach((f, i) => {
    lines.push(
      `${`filter ${i}`.padEnd(21)}bits ${n(f.bits)}, hashes ${f.hashes}, capacity ${n(f.capacity)} at ${f.falsePositiveRate.toExponential(2)}, ` +
        `added ${n(f.addedCount)}, bits set ${n(f.bitsSet)}\n`,
    );
  });
  process.stdout.write(lines.join(''));
  return 0;
}
