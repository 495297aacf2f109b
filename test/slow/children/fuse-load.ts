// Loads a binary fuse filter file (argv: path, sync|async) and prints a JSON
// report: its shape, a checksum-bearing header it would write again, and
// the peak resident memory before and after the load.
import { readFileSync } from 'node:fs';
import { loadFile, loadFileSync } from '../../../src/node/index.js';
import { BinaryFuseFilter } from '../../../src/index.js';

/**
 * This process's peak resident bytes: VmHWM, the high-water mark of its own
 * memory map. Not resourceUsage().maxRSS, which Linux carries over exec from
 * the parent that forked it, so a child of a large test process would start
 * at the parent's peak.
 */
function peakResident(): number {
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
}

const [path, mode] = process.argv.slice(2);
const maxRssBefore = peakResident();
const filter = mode === 'async' ? await loadFile(path, BinaryFuseFilter) : loadFileSync(path, BinaryFuseFilter);
const maxRssAfter = peakResident();
process.stdout.write(
  JSON.stringify({
    arrayLength: filter.arrayLength,
    fingerprintBits: filter.fingerprintBits,
    header: Buffer.from(filter.fileHeader()).toString('hex'),
    maxRssBefore,
    maxRssAfter,
  }),
);
