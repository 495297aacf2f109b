// `npm run bench:cli`: bloom dedupe against awk '!seen[$0]++' and sort -u on
// a generated file of URLs (10,000,000 lines by default, about a sixth of
// them repeats of earlier lines). Reports wall time and peak RSS of each,
// their ratios to awk, and the unique lines bloom lost to false positives
// next to the prediction, and writes them as its section of
// docs/BENCHMARKS.md (bench/report-cli.ts renders it). Set BENCH_LINES to run a
// smaller file; BENCH_QUICK=1 runs 20,000 lines and writes
// build/bench/BENCHMARKS.md instead; BENCH_REPORT names another document.
//
// Peak RSS comes from GNU time (/usr/bin/time -f) when present, else from
// polling VmHWM in /proc/<pid>/status (the kernel's high-water mark).

import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentPath, writeSection } from './document.js';
import { describeMachine } from './harness.js';
import { AWK, renderCli, type CliRun } from './report-cli.js';
import { capacityParams, sbbfFalsePositiveRate } from '../src/filter/sizing.js';
import { MAX_BITS } from '../src/filter/options.js';
import { mulberry32 } from '../src/cli/mulberry32.js';

const QUICK = process.env.BENCH_QUICK === '1';
const LINES = Number(process.env.BENCH_LINES ?? (QUICK ? 20_000 : 10_000_000));
const REPEAT_SHARE = 1 / 6;
/** bloom's false-positive rates at capacity: the default, and the common 1%. */
const FPPS = [0.001, 0.01];
// The bundle runs from build/bench/, so the bin is found from the working directory (npm runs scripts at the package root).
const BLOOM = join(process.cwd(), 'dist/cli/bloom.cjs');
const GNU_TIME = '/usr/bin/time';

const WORDS = ['news', 'blog', 'shop', 'item', 'docs', 'wiki', 'user', 'tag', 'search', 'archive', '2024', 'en', 'products', 'view'];

/** URL number i: a pure function of i, about 70 bytes. */
function url(i: number): string {
  const r = mulberry32(i * 2654435761);
  const host = `www.${WORDS[Math.floor(r() * WORDS.length)]}${Math.floor(r() * 100_000)}.example.com`;
  const depth = 1 + Math.floor(r() * 3);
  let path = '';
  for (let d = 0; d < depth; d++) path += '/' + WORDS[Math.floor(r() * WORDS.length)];
  return `https://${host}${path}/${i.toString(36)}?ref=${Math.floor(r() * 1e6)}`;
}

/** Writes the input file; returns the number of distinct lines. */
function generate(path: string): number {
  const fd = openSync(path, 'w');
  const random = mulberry32(12345);
  let distinct = 0;
  let pending = '';
  for (let line = 0; line < LINES; line++) {
    const repeat = distinct > 0 && random() < REPEAT_SHARE;
    pending += (repeat ? url(Math.floor(random() * distinct)) : url(distinct++)) + '\n';
    if (pending.length > 1 << 22) {
      writeSync(fd, pending);
      pending = '';
    }
  }
  writeSync(fd, pending);
  closeSync(fd);
  return distinct;
}

interface Measured {
  seconds: number;
  peakKiB: number;
}

/** Runs `command` with stdout to `outPath`; measures wall time and peak RSS. */
function measure(command: string[], outPath: string, env: NodeJS.ProcessEnv = process.env): Promise<Measured> {
  const useGnu = existsSync(GNU_TIME);
  const argv = useGnu ? [GNU_TIME, '-f', '%M', ...command] : command;
  return new Promise((resolve, reject) => {
    const out = openSync(outPath, 'w');
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', out, 'pipe'], env });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    let polled = 0;
    const poll = useGnu
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) polled = Math.max(polled, Number(m[1]));
          } catch {
            // exited between polls
          }
        }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (poll) clearInterval(poll);
      closeSync(out);
      if (code !== 0) return reject(new Error(`${command.join(' ')} exited ${code}: ${stderr}`));
      const peakKiB = useGnu ? Number(stderr.trim().split('\n').pop()) : polled;
      resolve({ seconds, peakKiB });
    });
  });
}

function countLines(path: string): number {
  const bytes = readFileSync(path);
  let n = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * Expected unique lines lost: the sum over first occurrences of the rate
 * with j items in, the split-block filter's (Putze, Sanders and Singler,
 * 2007, as in Parquet's BloomFilter.md), since sbbf is dedupe's default.
 */
function predictedLoss(bits: number, distinct: number): number {
  let sum = 0;
  for (let j = 1; j < distinct; j += 1000) sum += 1000 * sbbfFalsePositiveRate(bits, j);
  return sum;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bloom-bench-'));
  try {
    const input = join(dir, 'urls.txt');
    const date = new Date().toISOString();
    const machine = describeMachine();
    process.stderr.write(`generating ${LINES.toLocaleString('en-US')} URLs in ${dir}...\n`);
    const distinct = generate(input);
    const capacity = LINES;
    const commands: { name: string; command: string[]; env?: NodeJS.ProcessEnv; fpp?: number }[] = [
      ...FPPS.map((fpp) => ({
        name: `bloom dedupe --fpp ${fpp}`,
        command: [process.execPath, BLOOM, 'dedupe', '--capacity', String(capacity), '--fpp', String(fpp), input],
        fpp,
      })),
      // The default path: no --capacity, so a ScalableBloomFilter that grows
      // with the input. Given a file, its first member is sized from the
      // file; read from a pipe, nothing is known, so it starts at 1,000,000
      // lines and grows: both are measured. (Under GNU time the pipe's peak
      // RSS is the largest of sh, cat and node: node's.)
      { name: 'bloom dedupe', command: [process.execPath, BLOOM, 'dedupe', input] },
      { name: 'cat FILE \\| bloom dedupe', command: ['sh', '-c', 'cat "$1" | "$2" "$3" dedupe', 'sh', input, process.execPath, BLOOM] },
      { name: AWK, command: ['awk', '!seen[$0]++', input] },
      { name: 'LC_ALL=C sort -u', command: ['sort', '-u', input], env: { ...process.env, LC_ALL: 'C' } },
    ];
    const runs: CliRun[] = [];
    for (const { name, command, env, fpp } of commands) {
      process.stderr.write(`running ${name}...\n`);
      const out = join(dir, 'out.txt');
      const m = await measure(command, out, env);
      const run: CliRun = { name, seconds: m.seconds, peakKiB: m.peakKiB, lines: countLines(out) };
      if (fpp !== undefined) {
        // bloom dedupe's default scheme, the split-block filter.
        const { bits, hashes } = capacityParams(capacity, fpp, MAX_BITS, 'sbbf');
        Object.assign(run, { bits, hashes, predictedLoss: predictedLoss(bits, distinct) });
      }
      runs.push(run);
      rmSync(out);
    }
    const body = renderCli({ date, machine, lines: LINES, sizeBytes: statSync(input).size, distinct, capacity, runs });
    process.stdout.write(body + '\n');
    const document = documentPath(QUICK);
    writeSection(document, 'cli', body);
    process.stderr.write(`wrote ${document}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
