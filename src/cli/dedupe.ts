// `bloom dedupe [FILE...]`: prints each line the first time it is seen, a
// bounded-memory stand-in for `awk '!seen[$0]++'`. Bytes go from the file
// descriptor straight into the filter's wasm memory (src/lines.ts); wasm
// splits, hashes, test-and-sets and compacts; JS writes the output area out.
//
// Nothing is lost: the state file is saved atomically (bloomwasm/node's
// saveFileSync: temporary file, fsync, rename) at the end, at checkpoints
// and on SIGINT/SIGTERM. Saves happen only between chunks, when every line
// in the filter has had its output written; a partial last line is neither.

import { closeSync, createReadStream, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { BloomFormatError } from '../errors.js';
import { BloomFilter } from '../filter/filter.js';
import { LINES_AREA_SIZES, LineDeduper, wasmLines } from '../wasm/lines.js';
import { MAX_BITS } from '../filter/options.js';
import { ReferenceLines } from '../reference/lines.js';
import { ScalableBloomFilter } from '../scalable/scalable.js';
import { capacityParams } from '../filter/sizing.js';
import { loadFileSync, loadScalableFileSync, saveFileSync } from '../node/index.js';
import { guard, intOption, isChainFile, parse, rateOption, UsageError } from './common.js';

/** The help text of `bloom dedupe`. */
export const HELP = `Usage: bloom dedupe [options] [FILE...]

Prints each line of the FILEs (or stdin, also as '-') the first time it is
seen. Lines that the filter says it may have seen are dropped, so a few new
lines are lost to false positives (about --fpp of them at --capacity lines).

A line ends at \\n; a \\r before it is not part of the item; a last line
without \\n counts (and is printed with one); bytes need not be UTF-8.
Each line is added as filter.add(lineBytes) would add it (xxh64 by default).

Without --capacity the filter is a ScalableBloomFilter: it starts sized for
1,000,000 lines and adds larger members as lines keep coming, so an unbounded
stream keeps the --fpp bound (its lines are split in TypeScript, not wasm).

Options:
  --capacity N        expected distinct lines: a fixed filter sized for N
                      (the fastest path: wasm splits, hashes and compacts)
  --fpp P             false-positive rate (default 0.001)
  --state FILE        load the filter from FILE if it exists (its parameters win)
                      and save it back atomically at the end
  --checkpoint SECS   also save the state every SECS seconds (needs --state)
  --invert            print only the lines already seen
  --stats             print a summary on stderr when done
  -h, --help          show this help

Exit codes: 0 done, 1 runtime error (unreadable input, corrupt --state file,
which is left untouched), 2 usage error; 130/143 after SIGINT/SIGTERM (the
state is saved first).
`;

const DEFAULT_FPP = 0.001;
/** The first member of the scalable chain used when --capacity is not given. */
const CHAIN_INITIAL_CAPACITY = 1_000_000;

/** What dedupe keeps lines in: a fixed filter (--capacity) or a growing chain. */
type SeenSet = BloomFilter | ScalableBloomFilter;

/** One input: its descriptor, whether it is a regular file, and its size when known. */
interface Input {
  name: string;
  fd: number;
  regular: boolean;
  size: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `bytes` to `fd`, waiting out EAGAIN on a non-blocking descriptor. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(sleeper, 0, 0, 1);
    }
  }
}

/** Reads into `into` from a regular file, synchronously (the fast path). */
function readRegular(input: Input, into: Uint8Array): number {
  return readSync(input.fd, into, 0, into.length, null);
}

/**
 * Reads from a pipe or terminal through a Node stream (libuv polls it on the
 * event loop), so signals are handled while it waits. Not fs.read: a read
 * blocked in the thread pool would keep process.exit from returning.
 */
class StreamReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private left: Buffer = Buffer.alloc(0);

  constructor(input: Input) {
    const stream = input.fd === 0 ? process.stdin : createReadStream('', { fd: input.fd, autoClose: false });
    this.chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /** Copies the next bytes into `into`; 0 at the end of the stream. */
  async read(into: Uint8Array): Promise<number> {
    while (this.left.length === 0) {
      const next = await this.chunks.next();
      if (next.done) return 0;
      this.left = next.value;
    }
    const n = Math.min(into.length, this.left.length);
    into.set(this.left.subarray(0, n));
    this.left = this.left.subarray(n);
    return n;
  }
}

function openInputs(names: string[]): Input[] {
  const inputs: Input[] = [];
  try {
    for (const name of names.length ? names : ['-']) {
      let fd: number;
      try {
        fd = name === '-' ? 0 : openSync(name, 'r');
      } catch (error) {
        throw new Error(`cannot open ${name}: ${(error as Error).message}`);
      }
      const stat = fstatSync(fd);
      if (stat.isDirectory()) throw new Error(`cannot read ${name}: it is a directory`);
      inputs.push({ name, fd, regular: stat.isFile(), size: stat.isFile() ? stat.size : NaN });
    }
  } catch (error) {
    for (const input of inputs) if (input.fd !== 0) closeSync(input.fd);
    throw error;
  }
  return inputs;
}

/** Loads --state (a filter or a chain) when the file exists; null when it does not. Any other failure is a runtime error. */
function loadState(path: string): SeenSet | null {
  try {
    return isChainFile(path) ? loadScalableFileSync(path) : loadFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    const why = error instanceof BloomFormatError ? error.message : (error as Error).message;
    throw new Error(`cannot use --state ${path} (left untouched): ${why}`);
  }
}

const count = (n: number): string => n.toLocaleString('en-US');

/** Runs `bloom dedupe`. */
export async function run(argv: string[]): Promise<number> {
  return guard(async () => {
    const { values, positionals } = parse(
      argv,
      {
        capacity: { type: 'string' },
        fpp: { type: 'string' },
        state: { type: 'string' },
        checkpoint: { type: 'string' },
        invert: { type: 'boolean' },
        stats: { type: 'boolean' },
      },
      true,
    );
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const capacity = values.capacity === undefined ? undefined : intOption('capacity', values.capacity, 0, 1, Number.MAX_SAFE_INTEGER);
    const fpp = rateOption('fpp', values.fpp, DEFAULT_FPP);
    const checkpoint = values.checkpoint === undefined ? undefined : rateOption('checkpoint', values.checkpoint, 0, 0, Infinity);
    const statePath = values.state;
    if (statePath === '') throw new UsageError('--state needs a file name');
    if (checkpoint !== undefined && statePath === undefined) throw new UsageError('--checkpoint needs --state FILE');

    const sized = capacity === undefined ? undefined : sizeFor(capacity, fpp);
    const loaded = statePath === undefined ? null : loadState(statePath);
    if (loaded !== null && (values.capacity !== undefined || values.fpp !== undefined)) {
      reportConflict(statePath!, loaded, capacity, fpp, sized);
    }
    const filter: SeenSet =
      loaded ??
      (sized === undefined
        ? new ScalableBloomFilter({ capacity: CHAIN_INITIAL_CAPACITY, falsePositiveRate: fpp })
        : new BloomFilter(sized.bits, sized.hashes));
    const inputs = openInputs(positionals);
    const invert = values.invert === true;
    // A fixed filter runs the wasm line core in its own instance; a chain's
    // members live in several instances, so its lines are split in TypeScript
    // (still as bytes, never strings) and each goes to the chain's add.
    const dedupe = new LineDeduper(
      filter instanceof BloomFilter ? wasmLines(filter, invert) : new ReferenceLines(filter, LINES_AREA_SIZES[0], invert),
    );

    const save = (): void => {
      if (statePath !== undefined) saveFileSync(filter, statePath);
    };
    const progress = process.stderr.isTTY ? new Progress(inputs) : null;
    const started = performance.now();
    let bytesRead = 0;
    const report = (): void => {
      progress?.clear();
      if (values.stats) writeStats(filter, dedupe, bytesRead, (performance.now() - started) / 1000);
    };

    // Signals arrive only at an await, which is always between chunks.
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      try {
        save();
        report();
      } catch (error) {
        process.stderr.write(`bloom: could not save --state on ${signal}: ${(error as Error).message}\n`);
      }
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);

    try {
      let lastSave = performance.now();
      let lastYield = lastSave;
      for (const input of inputs) {
        const stream = input.regular ? null : new StreamReader(input);
        for (;;) {
          const room = dedupe.input();
          const n = stream === null ? readRegular(input, room) : await stream.read(room);
          if (n === 0) break;
          bytesRead += n;
          for (const chunk of dedupe.push(n)) writeAll(1, chunk);
          const now = performance.now();
          if (checkpoint !== undefined && now - lastSave >= checkpoint * 1000) {
            save();
            lastSave = performance.now();
          }
          if (now - lastYield >= 50) {
            progress?.update(bytesRead, dedupe.linesRead);
            await new Promise((resolve) => setImmediate(resolve));
            lastYield = performance.now();
          }
        }
      }
      for (const chunk of dedupe.finish()) writeAll(1, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') {
        save();
        throw error;
      }
      // The reader went away (say `| head`): what was read is in the filter; stop quietly.
    } finally {
      for (const input of inputs) if (input.fd !== 0) closeSync(input.fd);
    }
    save();
    report();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    return 0;
  });
}

/** The bits and hashes forCapacity would choose, or a usage error naming the options. */
function sizeFor(capacity: number, fpp: number): { bits: number; hashes: number } {
  try {
    return capacityParams(capacity, fpp, MAX_BITS);
  } catch (error) {
    throw new UsageError(`--capacity ${capacity} at --fpp ${fpp} needs too many bits: ${(error as Error).message}`);
  }
}

/** Tells the user that the --state file's own parameters win over the size flags. */
function reportConflict(path: string, loaded: SeenSet, capacity: number | undefined, fpp: number, sized?: { bits: number; hashes: number }): void {
  if (loaded instanceof ScalableBloomFilter) {
    if (capacity !== undefined || fpp !== loaded.falsePositiveRate) {
      process.stderr.write(
        `bloom: --state ${path} is a scalable chain (capacity ${loaded.capacity}, rate ${loaded.falsePositiveRate}), ` +
          `which wins over ${capacity === undefined ? '' : `--capacity ${capacity} `}--fpp ${fpp}\n`,
      );
    }
    return;
  }
  if (sized === undefined) {
    process.stderr.write(`bloom: --state ${path} has bits=${loaded.bits} hashes=${loaded.hashes}, which win over --fpp ${fpp}\n`);
  } else if (sized.bits !== loaded.bits || sized.hashes !== loaded.hashes) {
    process.stderr.write(
      `bloom: --state ${path} has bits=${loaded.bits} hashes=${loaded.hashes}, which win over ` +
        `--capacity ${capacity} --fpp ${fpp} (bits=${sized.bits} hashes=${sized.hashes})\n`,
    );
  }
}

/** m, bits set and a description of the filter or chain, for --stats. */
function shape(filter: SeenSet): { bits: number; bitsSet: number; text: string } {
  if (filter instanceof BloomFilter) {
    const text = `${count(filter.bits)} (${(filter.bits / 8 / 2 ** 20).toFixed(1)} MiB), hashes ${filter.hashes}, ${filter.scheme}`;
    return { bits: filter.bits, bitsSet: filter.bitsSet(), text };
  }
  const members = filter.filters;
  const bits = members.reduce((sum, f) => sum + f.bits, 0);
  const bitsSet = members.reduce((sum, f) => sum + f.bitsSet, 0);
  const text = `${count(bits)} (${(bits / 8 / 2 ** 20).toFixed(1)} MiB) in a chain of ${members.length}, ${filter.scheme}`;
  return { bits, bitsSet, text };
}

/** The --stats summary. */
function writeStats(filter: SeenSet, dedupe: LineDeduper, bytes: number, seconds: number): void {
  const read = dedupe.linesRead;
  const printed = dedupe.linesPrinted;
  const { bits, bitsSet, text } = shape(filter);
  const rows: [string, string][] = [
    ['lines read', count(read)],
    ['emitted', count(printed)],
    ['skipped', count(read - printed)],
    ['bits', text],
    ['fill ratio', (bitsSet / bits).toFixed(4)],
    ['false-positive rate now', filter.currentFalsePositiveRate().toExponential(3)],
    ['estimated distinct', count(Math.round(filter.estimatedCount()))],
    ['throughput', `${(bytes / 1e6 / seconds).toFixed(1)} MB/s, ${count(Math.round(read / seconds))} lines/s (${seconds.toFixed(2)} s)`],
  ];
  process.stderr.write(rows.map(([k, v]) => `${k.padEnd(24)}${v}\n`).join(''));
}

/** A one-line progress bar on a terminal's stderr. */
class Progress {
  private readonly total: number;
  private shown = false;

  constructor(inputs: Input[]) {
    this.total = inputs.every((i) => i.regular) ? inputs.reduce((s, i) => s + i.size, 0) : NaN;
  }

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

  clear(): void {
    if (this.shown) process.stderr.write('\r\x1b[K');
    this.shown = false;
  }
}
