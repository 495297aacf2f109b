// Loads a binary fuse filter file (argv: path, sync|async) and prints a JSON
// report: its shape, a checksum-bearing header it would write again, and
// the peak resident memory before and after the load.
import { loadBinaryFuseFile, loadBinaryFuseFileSync } from '../../../src/node/index.js';

const [path, mode] = process.argv.slice(2);
const maxRssBefore = process.resourceUsage().maxRSS * 1024;
const filter = mode === 'async' ? await loadBinaryFuseFile(path) : loadBinaryFuseFileSync(path);
const maxRssAfter = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  JSON.stringify({
    arrayLength: filter.arrayLength,
    fingerprintBits: filter.fingerprintBits,
    header: Buffer.from(filter.fileHeader()).toString('hex'),
    maxRssBefore,
    maxRssAfter,
  }),
);
