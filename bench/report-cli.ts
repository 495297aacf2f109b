// The section `npm run bench:cli` owns in docs/BENCHMARKS.md, rendered
// from measured results: `bloom dedupe` against awk and sort. Pure
// functions only, like bench/report.ts; test/bench-report.test.ts pins the
// output.

import { formatDate, formatMachine, int } from './format.js';
import type { Machine } from './results.js';

/** One command timed by `npm run bench:cli`. */
export interface CliRun {
  name: string;
  seconds: number;
  peakKiB: number;
  /** Lines it printed. */
  lines: number;
  /** For bloom: the m and k it sized, and the unique lines it is predicted to lose. */
  bits?: number;
  hashes?: number;
  predictedLoss?: number;
}

/** Everything `npm run bench:cli` measured in one run; `runs` holds the awk run the ratios divide by. */
export interface CliResults {
  date: string;
  machine: Machine;
  lines: number;
  sizeBytes: number;
  distinct: number;
  capacity: number;
  runs: CliRun[];
  note?: string;
}

/** The awk command `npm run bench:cli` divides by. */
export const AWK = "awk '!seen[$0]++'";

/** How `npm run bench:cli` measures. */
export const CLI_METHOD = [
  '### Method',
  '',
  'A file of URLs (about a sixth of them repeats of earlier lines, `bench/cli.ts`) is written to a temporary directory; `bloom dedupe` (with `--capacity` at `--fpp` 0.001 and 0.01, and twice without it, as a growing chain at the default `--fpp`: given the file, whose lines (counted in a first pass) size the chain\'s first member, and reading the file from a pipe, where the chain starts at 1,000,000 lines and grows), `awk \'!seen[$0]++\'` and `LC_ALL=C sort -u` run on it one after the other. Wall time is measured around each process and peak RSS taken from GNU `time` (or the kernel\'s `VmHWM` when it is missing). "Unique lines lost" counts the lines awk printed that bloom did not: false positives, next to the prediction, the sum over the first occurrences of the false-positive rate at that point (bloom dedupe runs its default scheme, the split-block filter, so its blocked rate). `BENCH_LINES` sets the number of lines (default 10,000,000).',
].join('\n');

/** The section `npm run bench:cli` owns. */
export function renderCli(r: CliResults): string {
  const awk = r.runs.find((x) => x.name === AWK);
  const out: string[] = [
    '## `bloom dedupe` against awk and sort (`npm run bench:cli`)',
    '',
    `Run of ${formatDate(r.date)} on ${formatMachine(r.machine)}. Input: ${int(r.lines)} URLs, ${int(r.sizeBytes / 1e6)} MB, ${int(r.distinct)} distinct; \`--capacity\` is ${r.capacity} where given.`,
  ];
  if (r.note) out.push('', r.note);
  out.push('', '| command | wall time | peak RSS | awk time / this | awk RSS / this | unique lines lost |', '|---|---:|---:|---:|---:|---|');
  for (const x of r.runs) {
    const lost = awk === undefined ? '' : int(awk.lines - x.lines);
    const predicted = x.predictedLoss === undefined ? '' : ` (predicted ${int(x.predictedLoss)}; m = ${int(x.bits ?? 0)}, k = ${x.hashes})`;
    const speed = awk ? `${(awk.seconds / x.seconds).toFixed(1)}×` : '';
    const memory = awk ? `${(awk.peakKiB / x.peakKiB).toFixed(1)}×` : '';
    out.push(`| \`${x.name}\` | ${x.seconds.toFixed(2)} s | ${int(x.peakKiB / 1024)} MiB | ${speed} | ${memory} | ${lost}${predicted} |`);
  }
  out.push('', CLI_METHOD);
  return out.join('\n');
}
