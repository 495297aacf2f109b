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
import { BloomFilter } from '../filter.js';
import { LineDeduper, wasmLines } from '../lines.js';
import { MAX_BITS } from '../options.js';
import { capacityParams } from '../sizing.js';
import { loadFileSync, saveFileSync } from '../node/index.js';
import { guard, intOption, parse, rateOption, UsageError } from './common.js';

/** The help text of `bloom dedupe`. */
export const HELP = `Usage: bloom dedupe [options] [FILE...]

Prints each line of the FILEs (or stdin, also as '-') the first time it is
seen. Lines that the filter says it may have seen are dropped, so a few new
lines are lost to false positives (about --fpp of them at --capacity lines).

A line ends at \\n; a \\r before it is not part of the item; a last line
without \\n counts (and is printed with one); bytes need not be UTF-8.
Each line is added as filter.add(lineBytes) would add it (xxh64 by default).

Options:
  --capacity N        expected distinct lines, sizes a new filter (default 10000000)
  --fpp P             false-positive rate at capacity (default 0.001)
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

const DEFAULT_CAPACITY = 10_000_000;
const DEFAULT_FPP = 0.001;

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

/** Loads --state when the file exists; null when it does not. Any other failure is a runtime error. */
function loadState(path: string): BloomFilter | null {
  try {
    return loadFileSync(path);
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
    const capacity = intOption('capacity', values.capacity, DEFAULT_CAPACITY, 1, Number.MAX_SAFE_INTEGER);
    const fpp = rateOption('fpp', values.fpp, DEFAULT_FPP);
    const checkpoint = values.checkpoint === undefined ? undefined : rateOption('checkpoint', values.checkpoint, 0, 0, Infinity);
    const statePath = values.state;
    if (statePath === '') throw new UsageError('--state needs a file name');
    if (checkpoint !== undefined && statePath === undefined) throw new UsageError('--checkpoint needs --state FILE');

    const sized = sizeFor(capacity, fpp);
    let filter = statePath === undefined ? null : loadState(statePath);
    if (filter !== null && (values.capacity !== undefined || values.fpp !== undefined)) {
      if (sized.bits !== filter.bits || sized.hashes !== filter.hashes) {
        process.stderr.write(
          `bloom: --state ${statePath} has bits=${filter.bits} hashes=${filter.hashes}, which win over ` +
            `--capacity ${capacity} --fpp ${fpp} (bits=${sized.bits} hashes=${sized.hashes})\n`,
        );
      }
    }
    filter ??= new BloomFilter(sized.bits, sized.hashes);
    const inputs = openInputs(positionals);
    const dedupe = new LineDeduper(wasmLines(filter, values.invert === true));

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

/** The --stats summary. */
function writeStats(filter: BloomFilter, dedupe: LineDeduper, bytes: number, seconds: number): void {
  const read = dedupe.linesRead;
  const printed = dedupe.linesPrinted;
  const rows: [string, string][] = [
    ['lines read', count(read)],
    ['emitted', count(printed)],
    ['skipped', count(read - printed)],
    ['bits', `${count(filter.bits)} (${(filter.bits / 8 / 2 ** 20).toFixed(1)} MiB), hashes ${filter.hashes}, ${filter.scheme}`],
    ['fill ratio', (filter.bitsSet() / filter.bits).toFixed(4)],
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
