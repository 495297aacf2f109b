// Renders the "engine" section of docs/BENCHMARKS.md from what
// bench/engine.ts measured: the ratios first (this build's figure over the
// earlier build's, above 1.05 a regression), then each part's figures.

import { formatDate, formatMachine, formatNs, int } from './format.js';
import type { MemoryRow } from './engine-memory.js';
import type { Machine } from './results.js';

/** What bench/engine.ts hands the report. */
export interface EngineResults {
  date: string;
  machine: Machine;
  /** This build's commit, the earlier build's. */
  commits: [string, string];
  quick: boolean;
  rounds: number;
  repeat: number;
  memoryRepeat: number;
  cases: { name: string; unit: string; counted: number; warm: number }[];
  /** Per runtime, per process, ns per call of each case (each the median of its rounds), ours and the earlier build's. */
  timed: { runtime: string; ours: number[][]; theirs: number[][] }[];
  memory: { runtime: string; ours: MemoryRow[]; theirs: MemoryRow[] }[];
  /** Per runtime, per case, instructions per call: [this build, earlier build]. */
  counted: { runtime: string; perCall: [number, number][] }[];
  seconds?: number;
}

const LIMIT = 1.05;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const ratio = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const mb = (x: number) => (Number.isFinite(x) ? int(x) : '-');
const count = (x: number) => (Number.isFinite(x) ? int(x) : '-');

/** The median of the paired ratios of case i (process r of this build over process r of the earlier one), and their range. */
function pairedRatios(t: EngineResults['timed'][number], i: number): { median: number; low: number; high: number } {
  const ratios = t.ours.map((run, r) => run[i] / t.theirs[r][i]);
  return { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}

/** The memory rows of one scenario, each figure the median of its processes. */
function memoryOf(rows: MemoryRow[], scenario: string): Omit<MemoryRow, 'scenario'> {
  const of = rows.filter((r) => r.scenario === scenario);
  const m = (key: keyof Omit<MemoryRow, 'scenario'>) => median(of.map((r) => r[key]));
  return { peakMB: m('peakMB'), rssMB: m('rssMB'), heapMB: m('heapMB'), wasmMB: m('wasmMB'), nsPerFilter: m('nsPerFilter') };
}

/** The section's Markdown. */
export function renderEngine(res: EngineResults): string {
  const lines = ['## This build against an earlier one, call by call (`npm run bench:engine`)', ''];
  lines.push(
    `Run of ${formatDate(res.date)} on ${formatMachine(res.machine)}${res.quick ? ' (quick run: figures not meaningful)' : ''}` +
      `${res.seconds === undefined ? '' : `, ${int(res.seconds)} s in all`}. This build is of commit ${res.commits[0]}; the earlier build is of ${res.commits[1]}. ` +
      `Every figure is this build's as a multiple of the earlier build's: above ${LIMIT} is a regression.`,
    '',
  );

  const above: string[] = [];
  const header = ['case', 'one call', ...res.timed.map((t) => `${t.runtime}, wall-clock`), ...res.counted.map((c) => `${c.runtime}, instructions`)];
  lines.push('| ' + header.join(' | ') + ' |', '|---|---|' + header.slice(2).map(() => '---:|').join(''));
  res.cases.forEach((c, i) => {
    const wall = res.timed.map((t) => pairedRatios(t, i).median);
    const counts = res.counted.map((k) => k.perCall[i][0] / k.perCall[i][1]);
    [...wall, ...counts].forEach((x, j) => {
      if (x > LIMIT) above.push(`${c.name} (${header[2 + j]}: ${ratio(x)})`);
    });
    lines.push(`| ${c.name} | ${c.unit} | ${[...wall, ...counts].map(ratio).join(' | ')} |`);
  });
  lines.push('', above.length === 0 ? `Nothing above ${LIMIT}.` : `Above ${LIMIT}: ${above.join('; ')}.`, '');

  if (res.memory.length > 0) {
    lines.push('### Memory', '', 'Each scenario in a process of its own; MB, each figure the median of its processes; in brackets, this build\'s figure over the earlier build\'s.', '');
    const grew: string[] = [];
    lines.push('| runtime | scenario | peak RSS | RSS at the end | V8 heap at the end | wasm memory at the end | ns per filter |', '|---|---|---:|---:|---:|---:|---:|');
    for (const m of res.memory) {
      for (const scenario of new Set(m.ours.map((r) => r.scenario))) {
        const ours = memoryOf(m.ours, scenario);
        const theirs = memoryOf(m.theirs, scenario);
        const cell = (key: keyof typeof ours, show: (x: number) => string) => {
          const x = ours[key] / theirs[key];
          if (key !== 'nsPerFilter' && x > LIMIT && ours[key] - theirs[key] > 1) grew.push(`${scenario}, ${m.runtime}: ${key} ${ratio(x)}`);
          return `${show(theirs[key])} → ${show(ours[key])} (${ratio(x)})`;
        };
        lines.push(`| ${m.runtime} | ${scenario} | ${cell('peakMB', mb)} | ${cell('rssMB', mb)} | ${cell('heapMB', mb)} | ${cell('wasmMB', mb)} | ${cell('nsPerFilter', formatNs)} |`);
      }
    }
    lines.push('', 'Each cell: the earlier build → this build (ratio). ' + (grew.length === 0 ? `No memory figure above ${LIMIT} (and 1 MB).` : `Above ${LIMIT}: ${grew.join('; ')}.`), '');
  }

  for (const t of res.timed) {
    lines.push(`### Wall-clock, ${t.runtime}`, '', '| case | earlier build, ns | this build, ns | ratio | lowest and highest pair |', '|---|---:|---:|---:|---:|');
    res.cases.forEach((c, i) => {
      const p = pairedRatios(t, i);
      const ns = (runs: number[][]) => formatNs(median(runs.map((run) => run[i])));
      lines.push(`| ${c.name} | ${ns(t.theirs)} | ${ns(t.ours)} | ${ratio(p.median)} | ${ratio(p.low)} to ${ratio(p.high)} |`);
    });
    lines.push('');
  }
  for (const k of res.counted) {
    lines.push(`### Instructions per call (callgrind), ${k.runtime}`, '', '| case | N | earlier build | this build | ratio |', '|---|---:|---:|---:|---:|');
    res.cases.forEach((c, i) => {
      const [ours, theirs] = k.perCall[i];
      if (c.counted > 0) lines.push(`| ${c.name} | ${int(c.counted)} | ${count(theirs)} | ${count(ours)} | ${ratio(ours / theirs)} |`);
    });
    lines.push('');
  }

  lines.push(
    '### Method',
    '',
    `Each build is loaded from its dist/index.node.js in a fresh process of its own, under each runtime. Wall-clock: ${res.repeat} processes per build and runtime, the two builds taking turns (this one first in every other pair); ` +
      `in each process every case runs in ${res.rounds} interleaved rounds after one of warm-up, each case's figure the median of its rounds; a ratio is the median over the pairs of processes of this build's figure over the earlier one's, and the table of each runtime gives the lowest and highest pair, which shows how much the shared 2-core VM moved. ` +
      'Filters hold 200,000 URLs of 64-70 characters at m = 10n (k = 7, 8 under sbbf), a size that stays in cache; hasMany takes blocks of 300 URLs, as strings or as packed bytes ({ bytes, offsets }); probeAll asks 200 filters of 1,000 to 50,000 keys, its answers written into one array; the chain starts at n/127 and doubles to 7 members; making and disposing filters is new BloomFilter(8192, 5), one add, one has and dispose, 200,000 a round; the binary fuse build takes 10^6 seeded 64-bit keys; making live filters is forCapacity(1000, 0.01) and one add, 200,000 kept a round and disposed between rounds. ' +
      'Instructions: `valgrind --tool=callgrind` on `node --single-threaded --no-liftoff` (the wasm compiled by TurboFan from the start, as a long-running process runs it once every function has tiered up), one process per build and runtime, the two builds side by side (load does not move a count): the present cases at 20,000 URLs (filters of 100 to 5,000 keys for probeAll; an absent twin crosses the same boundary), each case after the last its warm-up and then two segments of N calls, all through one loop of the case\'s own, which is compiled by TurboFan (`--allow-natives-syntax`, `%OptimizeFunctionOnNextCall`) before the first segment, and cut out by calls to `os.getPriority()` before which valgrind writes its counts (`--dump-before`); a call is the two segments\' mean over N, collections included. The cases share the process, so the JIT has seen the earlier cases\' filters, the same in both builds. ' +
      `Memory: ${res.memoryRepeat} processes per build, scenario and runtime (\`--expose-gc --max-old-space-size=8192\`): 10^6 live filters of forCapacity(1000, 0.01), one add each, all kept; 3 × 10^6 filters of new BloomFilter(8192, 5), added to and asked once, then dropped (left to the FinalizationRegistry, a turn of the event loop every 1,000) or disposed; peak RSS is VmHWM of /proc/self/status, the rest is read at the end after a full collection, and the wasm memory is the sum of every memory the library instantiated that is still reachable.`,
  );
  return lines.join('\n');
}
