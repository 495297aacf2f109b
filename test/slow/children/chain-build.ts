// Builds a chain of three members (2 MB, 69 MB and 2.2 GB: 2.29 GB in all),
// fills the first two and adds 5,000 items to the third, saves it with
// saveFileSync to argv[2] (not durable: test/slow/big-file.test.ts says
// why), and prints its members and the number of items.
import { ScalableBloomFilter } from '../../../src/index.js';
import { saveFileSync } from '../../../src/node/index.js';
import { BIG_CHAIN, bigChainItem } from './big-chain.js';

const [path] = process.argv.slice(2);
const chain = new ScalableBloomFilter(BIG_CHAIN.options);
const batch: string[] = [];
let n = 0;
while (chain.members.length < 3 || chain.members[2].size < BIG_CHAIN.newestItems) {
  batch.length = 0;
  for (let i = 0; i < 1000; i++) batch.push(bigChainItem(n++));
  chain.addMany(batch);
}
saveFileSync(chain, path, { durable: false });
process.stdout.write(JSON.stringify({ items: n, members: chain.members, addedCount: chain.size }));
