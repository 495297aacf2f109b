// Loads a filter file (argv: path, sync|async, items file) and prints a JSON
// report: the parameters, counters, the header it would write, how many of
// the items it finds, and the peak resident memory before and after the load.
import { readFileSync } from 'node:fs';
import { BloomFilter, fileHeader } from '../../../src/filter/filter.js';
import { loadFile, loadFileSync } from '../../../src/node/index.js';

const [path, mode, itemsPath] = process.argv.slice(2);
const items: string[] = JSON.parse(readFileSync(itemsPath, 'utf8'));
const maxRssBefore = process.resourceUsage().maxRSS * 1024;
const filter = mode === 'async' ? await loadFile(path, BloomFilter) : loadFileSync(path, BloomFilter);
const maxRssAfter = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  JSON.stringify({
    bits: filter.bits,
    hashes: filter.hashes,
    bitsSet: filter.bitsSet(),
    addedCount: filter.size,
    header: Buffer.from(fileHeader(filter)).toString('hex'),
    found: items.filter((item) => filter.has(item)).length,
    maxRssBefore,
    maxRssAfter,
  }),
);
