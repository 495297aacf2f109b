// What `bloom dedupe` tells a person on stderr: the --stats summary, and a
// progress bar when stderr is a terminal.

import { BloomFilter } from '../filter/filter.js';
import { SlidingBloomFilter } from '../sliding/sliding.js';
import type { LineDeduper } from '../wasm/lines.js';
import type { Input } from './io.js';
import type { SeenSet } from './state.js';
import { grouped } from './grouped.js';

const count = grouped;

/** m, bits set (undefined for a sliding window, whose planes fill and clear) and a description of the filter, for --stats. */
function shape(filter: SeenSet): { bits: number; bitsSet?: number; text: string } {
  if (filter instanceof SlidingBloomFilter) {
    const window = filter.window > 0 ? `the last ${count(filter.window)} lines` : `${count(filter.windowMs)} ms`;
    const text = `${count(filter.bits)} (${(filter.bits / 8 / 2 ** 20).toFixed(1)} MiB), a window of ${window} in ${filter.shape.generations} generations`;
    return { bits: filter.bits, text };
  }
  if (filter instanceof BloomFilter) {
    const text = `${count(filter.bits)} (${(filter.bits / 8 / 2 ** 20).toFixed(1)} MiB), hashes ${filter.hashes}, ${filter.scheme}`;
    return { bits: filter.bits, bitsSet: filter.bitsSet(), text };
  }
  const members = filter.members;
  const bits = members.reduce((sum, f) => sum + f.bits, 0);
  const bitsSet = members.reduce((sum, f) => sum + f.bitsSet, 0);
  const text = `${count(bits)} (${(bits / 8 / 2 ** 20).toFixed(1)} MiB) in a chain of ${members.length}, ${filter.scheme}`;
  return { bits, bitsSet, text };
}

/** The --stats summary. */
export function writeStats(filter: SeenSet, dedupe: LineDeduper, bytes: number, seconds: number): void {
  const read = dedupe.linesRead;
  const printed = dedupe.linesPrinted;
  const { bits, bitsSet, text } = shape(filter);
  const rows: [string, string][] = [
    ['lines read', count(read)],
    ['emitted', count(printed)],
    ['skipped', count(read - printed)],
    ['bits', text],
    ...(bitsSet === undefined ? [] : [['fill ratio', (bitsSet / bits).toFixed(4)] as [string, string]]),
    ['false-positive rate now', filter.currentFalsePositiveRate().toExponential(3)],
    ...(filter instanceof SlidingBloomFilter ? [] : [['estimated distinct', count(Math.round(filter.estimatedCount()))] as [string, string]]),
    ['throughput', `${(bytes / 1e6 / seconds).toFixed(1)} MB/s, ${count(Math.round(read / seconds))} lines/s (${seconds.toFixed(2)} s)`],
  ];
  process.stderr.write(rows.map(([k, v]) => `${k.padEnd(24)}${v}\n`).join(''));
}

/** A one-line progress bar on a terminal's stderr. */
export class Progress {
  private readonly total: number;
  private shown = false;

  constructor(inputs: Input[]) {
    this.total = inputs.every((i) => i.regular) ? inputs.reduce((s, i) => s + i.size, 0) : NaN;
  }

  /** Redraws the bar after `bytes` bytes and `lines` lines. */
  update(bytes: number, lines: number): void {
    const mb = (bytes / 1e6).toFixed(1);
    let text: string;
    if (Number.isFinite(this.total) && this.total > 0) {
      const share = Math.min(1, bytes / this.total);
      const width = 30;
      const full = Math.round(share * width);
      text = `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(share * 100).toFixed(1)}% ${mb} / ${(this.total / 1e6).toFixed(1)} MB, ${count(lines)} lines`;
    } else {
      text = `${mb} MB, ${count(lines)} lines`;
    }
    process.stderr.write(`\r${text}\x1b[K`);
    this.shown = true;
  }

  /** Erases the bar. */
  clear(): void {
    if (this.shown) process.stderr.write('\r\x1b[K');
    this.shown = false;
  }
}
