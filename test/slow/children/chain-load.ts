// Loads a chain file (argv: path, sync|async, item count, and a path to save
// it to again or "-"), and prints a JSON report: its members, how many of
// every 97th item it finds, and the peak resident memory before and after
// the load.
import { loadFile, loadFileSync, saveFile } from '../../../src/node/index.js';
import { ScalableBloomFilter } from '../../../src/index.js';
import { bigChainItem } from './big-chain.js';

const [path, mode, count, saveTo] = process.argv.slice(2);
const maxRssBefore = process.resourceUsage().maxRSS * 1024;
const chain = mode === 'async' ? await loadFile(path, ScalableBloomFilter) : loadFileSync(path, ScalableBloomFilter);
const maxRssAfter = process.resourceUsage().maxRSS * 1024;
let sampled = 0;
let found = 0;
for (let n = 0; n < Number(count); n += 97, sampled++) if (chain.has(bigChainItem(n))) found++;
if (saveTo !== '-') await saveFile(chain, saveTo, { durable: false });
process.stdout.write(JSON.stringify({ members: chain.members, addedCount: chain.size, sampled, found, maxRssBefore, maxRssAfter }));
