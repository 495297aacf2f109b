// `bloom info FILE [--json]`: the header fields of a saved filter, its size
// on disk, and what its fill says: fill ratio, estimated distinct count and
// current false-positive rate. The whole file is loaded, so its checksum
// and bit count are verified too; a bad file is a runtime error (exit 1).

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { HEADER_BYTES, parseHeader } from '../format.js';
import { loadFileSync } from '../node/index.js';
import { guard, parse, UsageError } from './common.js';

/** The help text of `bloom info`. */
export const HELP = `Usage: bloom info [--json] FILE

Describes a filter file saved by saveFile or 'bloom dedupe --state': format
version, scheme, hashes (k), seed, bits (m), bits set, added count, size on
disk, fill ratio, estimated distinct count and current false-positive rate.
The file is verified (checksum, bit count) on the way.

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
