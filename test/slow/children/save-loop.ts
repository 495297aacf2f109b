// Saves one growing filter to argv[2] over and over: before each save it
// prints "saving <generation> <bitsSet> <addedCount>", after it "saved <generation>".
import { BloomFilter } from '../../../src/index.js';
import { saveFileSync } from '../../../src/node/index.js';

const [path, bits] = process.argv.slice(2);
const filter = new BloomFilter(Number(bits), 3);
for (let generation = 1; ; generation++) {
  for (let i = 0; i < 1000; i++) filter.add(`generation ${generation} item ${i}`);
  process.stdout.write(`saving ${generation} ${filter.bitsSet()} ${filter.size}\n`);
  saveFileSync(filter, path);
  process.stdout.write(`saved ${generation}\n`);
}
