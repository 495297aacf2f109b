// `bloom check FILE`: reads lines from stdin and prints each one that the
// filter in FILE may hold (--invert: each one it certainly does not), as
// read. FILE is of any kind the package saves (`bloom build`'s binary fuse
// filter, a `bloom dedupe --state`, any saveFile), loaded by its magic and
// never written. Lines are what `bloom build` and `bloom dedupe` take as
// items, a chunk at a time through hasMany. The exit codes and the EPIPE
// behaviour are `bloom dedupe`'s.

import { loadFileSync, type FileFilter } from '../node/index.js';
import { guard, parse, UsageError } from './common.js';
import { openInputs, writeAll } from './io.js';
import { readLines } from './line-reader.js';

/** The help text of `bloom check`. */
export const HELP = `Usage: bloom check [--invert] FILE

Reads lines from stdin and prints each one that the filter in FILE may
hold, exactly as read; a last line without \\n is printed with one. FILE
is any filter file: the binary fuse filter 'bloom build' saves, the state
'bloom dedupe --state' keeps (a sliding window answers for its window as of
now), or any kind saveFile writes. It is read, never written. A line is
what 'bloom build' and 'bloom dedupe' take as one. Lines not in the set are
printed at the filter's false-positive rate ('bloom info FILE' shows it).

Options:
  --invert    print only the lines certainly not in the set
  -h, --help  show this help

Exit codes: 0 done, 1 runtime error (FILE missing or corrupt), 2 usage
error; 130/143 after SIGINT/SIGTERM; 141 when the output is closed early
(EPIPE, as after \`| head\`).
`;

/** The exit code after EPIPE: 128 + SIGPIPE (13), as `bloom dedupe` returns. */
const EXIT_EPIPE = 141;

/** Runs `bloom check`. */
export async function run(argv: string[]): Promise<number> {
  return guard(async () => {
    const { values, positionals } = parse(argv, { invert: { type: 'boolean' } }, true);
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError(`check takes exactly one FILE; got ${positionals.length} (try 'bloom check --help')`);
    let filter: FileFilter;
    try {
      filter = loadFileSync(positionals[0]);
    } catch (error) {
      throw new Error(`cannot read ${positionals[0]}: ${(error as Error).message}`);
    }
    const want = values.invert === true ? 0 : 1;
    const onSignal = (signal: NodeJS.Signals): void => process.exit(signal === 'SIGINT' ? 130 : 143);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    let out = new Uint8Array(1 << 20);
    try {
      for await (const chunk of readLines(openInputs(['-']))) {
        const flags = filter.hasMany(chunk.items);
        let at = 0;
        for (let i = 0; i < flags.length; i++) {
          if (flags[i] !== want) continue;
          const start = chunk.starts[i];
          const end = chunk.ends[i];
          const newline = chunk.buffer[end - 1] === 0x0a ? 0 : 1;
          if (at + end - start + newline > out.length) {
            writeAll(1, out, at);
            at = 0;
            if (end - start + 1 > out.length) out = new Uint8Array(2 * (end - start + 1));
          }
          out.set(chunk.buffer.subarray(start, end), at);
          at += end - start;
          if (newline) out[at++] = 0x0a;
        }
        if (at > 0) writeAll(1, out, at);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') return EXIT_EPIPE;
      throw error;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    return 0;
  });
}
