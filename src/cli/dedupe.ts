// `bloom dedupe [FILE...]`: prints each line the first time it is seen, a
// bounded-memory stand-in for `awk '!seen[$0]++'`. Bytes go from the file
// descriptor straight into wasm memory (src/wasm/lines.ts); wasm splits,
// hashes, test-and-sets and compacts, in the filter's instance or, for
// a chain, through its members' batches; JS writes the output area out.
//
// Nothing is lost: the state file is saved atomically (bloomwasm/node's
// saveFileSync: temporary file, fsync, rename) at the end, at checkpoints
// and on SIGINT/SIGTERM. Saves happen only between chunks, when every line
// in the filter has had its output written; a partial last line is neither.
// When the reader goes away (EPIPE), lines may still sit unread in the
// pipe, so no save can be trusted: the state file is left (or put back)
// exactly as it was before the run, and the exit code is 141.

import { closeSync } from 'node:fs';
import { BloomRangeError } from '../errors.js';
import { BloomFilter, engineOf } from '../filter/filter.js';
import { LineDeduper, SPLIT_AREA_SIZES, wasmLines, wasmSplitLines, type SplitCore } from '../wasm/lines.js';
import { ChainLineDeduper } from './chain-deduper.js';
import { MAX_BITS, type Scheme } from '../filter/options.js';
import { capacityParams } from '../filter/sizing.js';
import { checkWritable, guard, intOption, parse, rateOption, UsageError } from './common.js';
import { SlidingBloomFilter } from '../sliding/sliding.js';
import { DEFAULT_WINDOW_CAPACITY, windowClock, windowOption, type WindowOption } from './window.js';
import { inputLines, openInputs, readRegular, StreamReader, writeAll } from './io.js';
import { chainFor, chainShape } from './chain-shape.js';
import { Progress, writeStats } from './report.js';
import type { SeenSet } from './state.js';
import type { ScalableBloomFilter as ScalableChain } from '../scalable/scalable.js';

/** The help text of `bloom dedupe`. */
export const HELP = `Usage: bloom dedupe [options] [FILE...]

Prints each line of the FILEs (or stdin, also as '-') the first time it is
seen. Lines that the filter says it may have seen are dropped, so a few new
lines are lost to false positives (about --fpp of them at --capacity lines).

A line ends at \\n or at the end of the input; a \\r right before that end is
not part of the item (so "a\\r\\n", "a\\n" and a last "a\\r" are one item); a
last line without \\n counts (and is printed with one); bytes need not be
UTF-8. Each line is added as filter.add(lineBytes) would add it. Lines are
split, hashed and probed in wasm in every mode.

Without --capacity the filter is a ScalableBloomFilter: its first member is
sized for the lines of the input files (counted in a first fast pass over
files of up to 4 GiB in all, else their size over a sampled line length
plus 2%; 1,000,000 lines at least, 100,000,000 at most, and 1,000,000 for
a pipe), and it adds larger members as lines keep coming, so an unbounded
stream keeps the --fpp bound. The first member gets 0.99 of --fpp on a run
over counted files without --state (tightening 0.01: only a file that grows
while read adds a member), 0.75 on other runs over files of more than
1,000,000 lines (tightening 0.25), and 0.25 from a pipe or on smaller files
(tightening 0.75: there later members are the rule, and their rates fall by
0.75 per member instead of halving, which takes fewer bits in all).

With --window the filter remembers only recent lines: a line is printed
when it was not seen within the window. '--window 100000' is a window of
the last 100,000 lines; a duration with a unit s, m, h or d ('--window
30d') is a window of time on the machine's clock, saved with the state,
sized for --capacity lines per window (default 1,000,000; more keep every
line of the window but raise the rate). A line is forgotten at most 1/7
of a window after it leaves the window. See docs/SLIDING.md.

Options:
  --capacity N        expected distinct lines: a fixed filter sized for N
                      (with a time --window: lines per window)
  --window W          remember lines for a window: N lines, or a duration
                      (90s, 15m, 12h, 30d); with --state, the file's window
                      wins
  --fpp P             false-positive rate, the library's falsePositiveRate
                      (default 0.001)
  --scheme S          hash scheme of a new filter or chain: sbbf (default: a
                      split-block filter, one cache line per line) or xxh64
  --state FILE        load the filter from FILE if it exists (its parameters
                      and scheme win) and save it back atomically at the end;
                      FILE's directory must be writable (checked first)
  --checkpoint SECS   also save the state every SECS seconds (needs --state)
  --invert            print only the lines already seen
  --stats             print a summary on stderr when done
  -h, --help          show this help

Exit codes: 0 done, 1 runtime error (unreadable input, corrupt --state file,
which is left untouched, or a --state that cannot be written), 2 usage
error; 130/143 after SIGINT/SIGTERM (the state is saved first); 141 when
the output is closed early (EPIPE, as after \`| head\`): lines may sit
unread in the pipe, so --state is left exactly as it was before the run.
`;

const DEFAULT_FPP = 0.001;
/** The schemes --scheme offers: the ones that hash a line's bytes once with XXH64. */
const DEDUPE_SCHEMES = ['sbbf', 'xxh64'];
/**
 * The split-block filter (Parquet's SBBF): each line touches one 32-byte
 * block, one cache miss, where xxh64's k probes touch k cache lines.
 */
const DEFAULT_SCHEME = 'sbbf';
/** Runs `bloom dedupe`. */
export async function run(argv: string[]): Promise<number> {
  return guard(async () => {
    const { values, positionals } = parse(
      argv,
      {
        capacity: { type: 'string' },
        window: { type: 'string' },
        fpp: { type: 'string' },
        scheme: { type: 'string' },
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
    const scheme = schemeOption(values.scheme);
    const window = values.window === undefined ? undefined : windowOption(values.window);
    if (window !== undefined && values.scheme !== undefined) {
      throw new UsageError('--scheme does not apply to --window: a sliding window hashes with xxh64');
    }
    if (window?.kind === 'count' && capacity !== undefined) {
      throw new UsageError(`--capacity applies to a time --window only: a window of ${window.lines} lines is sized for ${window.lines}`);
    }
    const clock = windowClock();
    const checkpoint = values.checkpoint === undefined ? undefined : rateOption('checkpoint', values.checkpoint, 0, 0, Infinity);
    const statePath = values.state;
    if (statePath === '') throw new UsageError('--state needs a file name');
    if (checkpoint !== undefined && statePath === undefined) throw new UsageError('--checkpoint needs --state FILE');
    // Before any input is read: a state that cannot be saved is an error now, not after the whole stream.
    if (statePath !== undefined) checkWritable('--state', statePath);

    const sized = capacity === undefined || window !== undefined ? undefined : sizeFor(capacity, fpp, scheme);
    // Loaded only when used: every module is resident memory for the whole run.
    const state = statePath === undefined ? undefined : await import('./state.js');
    const files = statePath === undefined ? undefined : await import('../node/index.js');
    // What killed runs on this state left beside it (their copies and unfinished saves) goes first.
    if (state !== undefined) state.removeDeadRuns(statePath!);
    const loaded = state === undefined ? null : state.loadState(statePath!, clock);
    if (window !== undefined && loaded !== null && !(loaded instanceof SlidingBloomFilter)) {
      throw new UsageError(`--window needs a sliding --state; ${statePath} holds a ${loaded instanceof BloomFilter ? 'filter' : 'scalable chain'}, which never forgets`);
    }
    if (loaded instanceof SlidingBloomFilter) {
      reportWindowConflict(statePath!, loaded, window, capacity, values.fpp === undefined ? undefined : fpp, values.scheme);
    } else if (loaded !== null && (values.capacity !== undefined || values.fpp !== undefined || values.scheme !== undefined)) {
      if (values.scheme !== undefined && loaded.scheme !== scheme) {
        process.stderr.write(`bloom: --state ${statePath} uses scheme ${loaded.scheme}, which wins over --scheme ${scheme}\n`);
      }
      if (values.capacity !== undefined || values.fpp !== undefined) reportConflict(statePath!, loaded, capacity, fpp, sized);
    }
    const inputs = openInputs(positionals);
    const invert = values.invert === true;
    // A new chain's lines are split in a small instance of their own, which
    // first counts the input files' lines to size the chain (chain-shape.ts).
    let split: SplitCore | undefined;
    let filter: SeenSet;
    if (loaded !== null) filter = loaded;
    else if (window !== undefined) filter = slidingFor(window, capacity, fpp, clock);
    else if (sized !== undefined) filter = new BloomFilter(sized.bits, sized.hashes, { scheme });
    else {
      // dedupe's schemes (xxh64, sbbf) have digests; a new chain's seed is 0.
      split = wasmSplitLines(invert, SPLIT_AREA_SIZES, 0n);
      const core = split;
      const lines = inputLines(inputs, () => core.inputArea, (n) => core.linesCount(n));
      const { ScalableBloomFilter } = await import('../scalable/scalable.js');
      filter = chainFor(ScalableBloomFilter, chainShape(lines, statePath === undefined), fpp, values.fpp, scheme);
    }
    // Both run in wasm: a fixed filter splits, hashes and test-and-sets in its
    // instance; a chain's (or a sliding window's) lines are split in a small
    // instance and go to it as one batch per chunk.
    const dedupe = filter instanceof BloomFilter ? new LineDeduper(wasmLines(engineOf(filter), invert)) : new ChainLineDeduper(filter, invert, split);

    const before = state === undefined ? undefined : new state.StateBefore(statePath!, loaded !== null);
    const save = (): void => {
      if (files !== undefined) files.saveFileSync(filter, statePath!);
    };
    const checkpointSave = (): void => {
      before!.keep();
      save();
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
        before?.drop();
        report();
      } catch (error) {
        process.stderr.write(`bloom: could not save --state on ${signal}: ${(error as Error).message}\n`);
      }
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);

    // The input area is asked for where bytes are read into it, after any await (StreamReader.read).
    const inputArea = (): Uint8Array => dedupe.inputArea;
    try {
      let lastSave = performance.now();
      let lastYield = lastSave;
      for (const input of inputs) {
        const stream = input.regular ? null : await StreamReader.open(input);
        for (;;) {
          const start = dedupe.inputStart;
          const n = stream === null ? readRegular(input, dedupe.inputArea, start) : await stream.read(inputArea, start);
          if (n === 0) break;
          bytesRead += n;
          dedupe.push(n, writeOut);
          const now = performance.now();
          if (checkpoint !== undefined && now - lastSave >= checkpoint * 1000) {
            checkpointSave();
            lastSave = performance.now();
          }
          if (now - lastYield >= 50) {
            progress?.update(bytesRead, dedupe.linesRead);
            await new Promise((resolve) => setImmediate(resolve));
            lastYield = performance.now();
          }
        }
      }
      dedupe.finish(writeOut);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') {
        // The reader went away (say `| head`). Lines may still sit unread in
        // the pipe, so no state that includes them may be saved.
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        progress?.clear();
        if (statePath !== undefined) {
          before!.restore();
          process.stderr.write(`bloom: output closed before the end (EPIPE); --state ${statePath} left as it was before this run\n`);
        }
        return EXIT_EPIPE;
      }
      save();
      before?.drop();
      throw error;
    } finally {
      for (const input of inputs) if (input.fd !== 0) closeSync(input.fd);
    }
    save();
    before?.drop();
    report();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    return 0;
  });
}

/** Writes printed lines to stdout. */
const writeOut = (bytes: Uint8Array, length: number): void => writeAll(1, bytes, length);

/** The exit code after EPIPE: 128 + SIGPIPE (13), as a shell reports a process that SIGPIPE ended. */
const EXIT_EPIPE = 141;

/** The --scheme option: sbbf (the default) or xxh64. */
function schemeOption(value: string | undefined): Scheme {
  if (value === undefined) return DEFAULT_SCHEME;
  if (!DEDUPE_SCHEMES.includes(value)) throw new UsageError(`--scheme must be one of ${DEDUPE_SCHEMES.join(', ')}; got '${value}'`);
  return value as Scheme;
}

/** The bits and hashes forCapacity would choose, or a usage error naming the options. */
function sizeFor(capacity: number, fpp: number, scheme: Scheme): { bits: number; hashes: number } {
  try {
    return capacityParams(capacity, fpp, MAX_BITS, scheme);
  } catch (error) {
    // The library's own message can quote a limit of 2^53 bits or a rate that
    // would not fit either; MAX_BITS is the limit that decides here.
    if (!(error instanceof BloomRangeError)) throw error;
    throw new UsageError(
      `--capacity ${capacity} at --fpp ${fpp} needs more than ${MAX_BITS} bits under ${scheme}; ` +
        `the most --capacity at that --fpp is ${largestCapacity(fpp, scheme)}`,
    );
  }
}

/** The largest capacity that capacityParams sizes within MAX_BITS at `fpp` (bisection; 0 when none fits). */
function largestCapacity(fpp: number, scheme: Scheme): number {
  const fits = (n: number): boolean => {
    try {
      capacityParams(n, fpp, MAX_BITS, scheme);
      return true;
    } catch {
      return false;
    }
  };
  if (!fits(1)) return 0;
  let lo = 1; // fits
  let hi = Number.MAX_SAFE_INTEGER; // assumed not to fit; checked below
  if (fits(hi)) return hi;
  while (hi - lo > 1) {
    const mid = Math.floor(lo + (hi - lo) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** A new sliding filter for --window, or a usage error naming --window or --capacity when it cannot be made. */
function slidingFor(window: WindowOption, capacity: number | undefined, fpp: number, clock: () => number): SlidingBloomFilter {
  try {
    return window.kind === 'count'
      ? new SlidingBloomFilter({ window: window.lines, falsePositiveRate: fpp })
      : new SlidingBloomFilter({ windowMs: window.ms, capacity: capacity ?? DEFAULT_WINDOW_CAPACITY, falsePositiveRate: fpp, clock });
  } catch (error) {
    if (!(error instanceof BloomRangeError)) throw error;
    const option = error.parameter === 'capacity' && window.kind === 'time' ? 'capacity' : 'window';
    throw new UsageError(`--${option}: ${error.message}`);
  }
}

/**
 * Tells the user that a sliding --state file's own window wins over the
 * --window, --capacity, --fpp and --scheme given (undefined: not given).
 */
function reportWindowConflict(
  path: string, loaded: SlidingBloomFilter, window: WindowOption | undefined, capacity: number | undefined, fpp: number | undefined, scheme: string | undefined,
): void {
  const same = (window === undefined || (window.kind === 'count' ? loaded.window === window.lines : loaded.windowMs === window.ms)) &&
    (capacity === undefined || loaded.capacity === capacity) && (fpp === undefined || fpp === loaded.falsePositiveRate) &&
    (scheme === undefined || scheme === 'xxh64');
  if (same) return;
  const held = loaded.window > 0 ? `${loaded.window} lines` : `${loaded.windowMs} ms for ${loaded.capacity} lines`;
  process.stderr.write(`bloom: --state ${path} is a sliding window of ${held} at rate ${loaded.falsePositiveRate}, which wins over the options given\n`);
}

/** Tells the user that the --state file's own parameters win over the size flags. */
function reportConflict(path: string, loaded: BloomFilter | ScalableChain, capacity: number | undefined, fpp: number, sized?: { bits: number; hashes: number }): void {
  if (!(loaded instanceof BloomFilter)) {
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

