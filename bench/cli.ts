// `npm run bench:cli`: bloom dedupe against awk '!seen[$0]++' and sort -u on
// a generated file of URLs (10,000,000 lines by default, about a sixth of
// them repeats of earlier lines). bloom runs at the default --fpp with
// --capacity (a fixed filter) and without it (a scalable chain), and with
// --capacity at the common 1%. Reports wall time and peak RSS of each,
// their ratios to awk, and the unique lines bloom lost to false positives
// next to the prediction. Set BENCH_LINES to run a smaller file, and
// BENCH_ONLY=bloom to skip awk and sort (no ratios then).
//
// Peak RSS comes from GNU time (/usr/bin/time -f) when present, else from
// polling VmHWM in /proc/<pid>/status (the kernel's high-water mark).

import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { capacityParams, falsePositiveRate } from '../src/filter/sizing.js';
import { MAX_BITS } from '../src/filter/options.js';
import { mulberry32 } from '../src/cli/mulberry32.js';

const LINES = Number(process.env.BENCH_LINES ?? 10_000_000);
const REPEAT_SHARE = 1 / 6;
/** bloom's default --fpp, and the common 1%. */
const DEFAULT_FPP = 0.001;
const COMMON_FPP = 0.01;
const ONLY_BLOOM = process.env.BENCH_ONLY === 'bloom';
// The bundle runs from build/bench/, so the bin is found from the working directory (npm runs scripts at the package root).
const BLOOM = join(process.cwd(), 'dist/cli/main.js');
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
    child.stderr.on('data', (d) => (stderr += d));
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

/** Expected unique lines lost: the sum over first occurrences of the rate with j items in (Bloom, 1970). */
function predictedLoss(bits: number, hashes: number, distinct: number): number {
  let sum = 0;
  for (let j = 1; j < distinct; j += 1000) sum += 1000 * falsePositiveRate(bits, j, hashes);
  return sum;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bloom-bench-'));
  try {
    const input = join(dir, 'urls.txt');
    const load = loadavg()[0];
    process.stderr.write(`generating ${LINES.toLocaleString('en-US')} URLs in ${dir}...\n`);
    const distinct = generate(input);
    const size = statSync(input).size;
    const capacity = LINES;
    const bloomRun = (fpp: number, sized: boolean) => ({
      name: `bloom dedupe ${sized ? '--capacity N ' : ''}--fpp ${fpp}`,
      command: [process.execPath, BLOOM, 'dedupe', ...(sized ? ['--capacity', String(capacity)] : []), '--fpp', String(fpp), input],
      fpp,
      sized,
    });
    const runs: { name: string; command: string[]; env?: NodeJS.ProcessEnv; fpp?: number; sized?: boolean }[] = [
      bloomRun(DEFAULT_FPP, true),
      bloomRun(DEFAULT_FPP, false),
      bloomRun(COMMON_FPP, true),
      ...(ONLY_BLOOM
        ? []
        : [
            { name: "awk '!seen[$0]++'", command: ['awk', '!seen[$0]++', input] },
            { name: 'LC_ALL=C sort -u', command: ['sort', '-u', input], env: { ...process.env, LC_ALL: 'C' } },
          ]),
    ];
    const results: { name: string; m: Measured; lines: number; fpp?: number; sized?: boolean }[] = [];
    for (const { name, command, env, fpp, sized } of runs) {
      process.stderr.write(`running ${name}...\n`);
      const out = join(dir, 'out.txt');
      const m = await measure(command, out, env);
      results.push({ name, m, lines: countLines(out), fpp, sized });
      rmSync(out);
    }
    // Without awk, ratios are to the first row and losses are against the distinct count.
    const awk = results.find((r) => r.name.startsWith('awk')) ?? { ...results[0], lines: distinct };
    const date = new Date().toISOString().slice(0, 10);
    const lost = (r: (typeof results)[number]): string => {
      if (r.fpp === undefined) return '0';
      if (!r.sized) return `${(awk.lines - r.lines).toLocaleString('en-US')} (bound ${(r.fpp * distinct).toFixed(0)}: the chain's rate stays below --fpp)`;
      const { bits, hashes } = capacityParams(capacity, r.fpp, MAX_BITS);
      return `${(awk.lines - r.lines).toLocaleString('en-US')} (predicted ${predictedLoss(bits, hashes, distinct).toFixed(0)}; m = ${bits}, k = ${hashes})`;
    };
    const lines = [
      `${date}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), Node ${process.version}, load average ${load.toFixed(1)} at start`,
      `input: ${LINES.toLocaleString('en-US')} URLs, ${(size / 1e6).toFixed(0)} MB, ${distinct.toLocaleString('en-US')} distinct; N = ${capacity}`,
      '',
      '| command | wall time | peak RSS | time vs awk | RSS vs awk | unique lines lost |',
      '|---|---|---|---|---|---|',
      ...results.map((r) =>
        `| \`${r.name}\` | ${r.m.seconds.toFixed(2)} s | ${(r.m.peakKiB / 1024).toFixed(0)} MiB | ${(awk.m.seconds / r.m.seconds).toFixed(1)}x | ${(awk.m.peakKiB / r.m.peakKiB).toFixed(1)}x | ${lost(r)} |`),
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
