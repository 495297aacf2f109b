// `npm run bench:engine`: this build against an earlier one
// (BLOOMWASM_BASELINE, the dist/ folder of a build of the earlier commit),
// call by call, for the figures a change to the engine must keep: single
// add and has, hasMany of strings and of packed bytes, probeAll over 200
// filters, a 7-member chain's has, the counting, cuckoo and binary fuse
// filters' calls, a binary fuse build from 10^6 keys, making 200,000 live
// filters (bench/engine-cases.ts), and the memory of 10^6 live and
// 3 × 10^6 short-lived filters (bench/engine-memory.ts). Writes the
// "engine" section of docs/BENCHMARKS.md (bench/report-engine.ts).
//
// Three parts, each build always in a process of its own:
// - timed: wall-clock, in interleaved rounds within a process, processes of
//   the two builds taking turns, under Node 24 and this Node. Ratios are the
//   median over the pairs of processes, since on a shared 2-core VM the same
//   code's time drifted by 1.5× from one minute to the next;
// - memory: each scenario in a process of its own;
// - callgrind: instructions per call, which load does not move: one process
//   per build and runtime makes every counted case's filters, then for each
//   case its warm-up and two segments of N calls, each segment cut out by a
//   call to os.getPriority(), which nothing else makes and before which
//   valgrind writes its counts (--dump-before); a call's figure is the two
//   segments' mean over N. The wasm is compiled by TurboFan from the start
//   (--no-liftoff): a function is otherwise run by the baseline compiler
//   until it has spent a tier-up budget, which a callee such as the probe
//   loop reaches later than the export that calls it, so a count would
//   depend on which functions had tiered up by then, not on the code.
//
// Env: BLOOMWASM_BASELINE (required); ENGINE_PARTS (default
// `timed,memory,callgrind`); BENCH_ROUNDS (timed rounds per process,
// default 7); BENCH_REPEAT (timed processes per build and runtime, default
// 4); MEMORY_REPEAT (default 2); CALLGRIND_RUNTIMES (`20`, `24` or `20,24`,
// default both); ENGINE_CASES (substrings joined by `|`: only the cases whose
// name holds one); BENCH_QUICK=1 (tiny sizes, one process each, report to build/bench/).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CASES, type Library } from './engine-cases.js';
import { MEMORY_SCENARIOS, memoryScenario, watchWasmMemories, type MemoryRow, type MemoryScenario } from './engine-memory.js';
import { documentPath, writeSection } from './document.js';
import { commitOf, describeMachine, nodeRuntimes } from './harness.js';
import { renderEngine, type EngineResults } from './report-engine.js';

const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 2 : 7));
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? (quick ? 1 : 4)));
const MEMORY_REPEAT = Math.max(1, Number(process.env.MEMORY_REPEAT ?? (quick ? 1 : 2)));
const PARTS = new Set((process.env.ENGINE_PARTS ?? 'timed,memory,callgrind').split(','));
const only = process.env.ENGINE_CASES;
const cases = CASES.filter((c) => only === undefined || only.split('|').some((part) => c.name.includes(part)));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

/** Loads a build's library from its dist/ folder. */
const load = async (dist: string) => (await import(pathToFileURL(join(dist, 'index.node.js')).href)) as Library;

/** In a timed child: every case of the build in `dist`, in interleaved rounds; the median ns per call of each. */
async function timedChild(dist: string): Promise<number[]> {
  const lib = await load(dist);
  const made = cases.map((c) => c.make(lib, false));
  const times: number[][] = cases.map(() => []);
  let sink = 0;
  // Round 0 warms every case up and is not kept.
  for (let r = 0; r <= ROUNDS; r++) {
    for (const [i, spec] of cases.entries()) {
      const { call, reset } = made[i];
      reset?.();
      const calls = quick ? Math.max(1, spec.calls >> 4) : spec.calls;
      const started = process.hrtime.bigint();
      for (let j = 0; j < calls; j++) sink ^= Number(call(j)) | 0;
      if (r > 0) times[i].push(Number(process.hrtime.bigint() - started) / calls);
    }
  }
  if (sink === 0.5) console.log('');
  return times.map(median);
}

/** The counted cases: those with N > 0 (an absent twin walks the boundary its present case walks). */
const countedCases = cases.filter((c) => c.counted > 0);

/** Calls call(j) for j in [from, to); the xor of the answers, so that no call can be dropped. */
type CountingLoop = (call: (j: number) => unknown, from: number, to: number) => number;

/**
 * A loop of its own for one case, through which its warm-up and both
 * segments run, so that the segments count the code the warm-up optimized.
 * With a loop per segment, each segment's loop ran in the interpreter and
 * was compiled on the stack (OSR) partway through, and that compile and
 * those interpreted calls were counted as the case's (Node 20). A function
 * made by `new Function` for each case keeps its call site's feedback to
 * that case's calls.
 */
const countingLoop = () =>
  new Function('call', 'from', 'to', 'let sink = 0;\nfor (let j = from; j < to; j++) sink ^= Number(call(j)) | 0;\nreturn sink;') as CountingLoop;

/** Calls of the counting loop the warm-up is split into, so that the loop gathers feedback as a function called again and again. */
const WARM_CALLS = 8;

/**
 * Has V8 compile `loop` with TurboFan at its next call, which an empty
 * range makes before the first segment. Left to itself, V8 tiers a
 * function up (Maglev, then TurboFan) when its budget runs out, which on
 * Node 24 fell inside the first segment and put the compile into its count.
 * Natives syntax (the child runs with --allow-natives-syntax) is only
 * parsed at run time, hence new Function.
 */
const optimizeOnNextCall = () => new Function('f', '%OptimizeFunctionOnNextCall(f);') as (f: CountingLoop) => void;

/** In a callgrind child: every counted case at the small size; per case its warm-up, then two segments of N calls, each ended by the marker. */
async function countChild(dist: string): Promise<void> {
  const lib = await load(dist);
  const made = countedCases.map((c) => c.make(lib, true));
  const optimize = optimizeOnNextCall();
  let sink = 0;
  for (const [i, spec] of countedCases.entries()) {
    const { call, reset } = made[i];
    const n = quick ? Math.max(1, spec.counted >> 4) : spec.counted;
    const loop = countingLoop();
    reset?.();
    for (let part = 0; part < WARM_CALLS; part++) sink ^= loop(call, Math.floor((spec.warm * part) / WARM_CALLS), Math.floor((spec.warm * (part + 1)) / WARM_CALLS));
    optimize(loop);
    sink ^= loop(call, spec.warm, spec.warm);
    getPriority();
    sink ^= loop(call, spec.warm, spec.warm + n);
    getPriority();
    sink ^= loop(call, spec.warm + n, spec.warm + 2 * n);
    getPriority();
  }
  if (sink === 0.5) console.log('');
}

const role = process.env.ENGINE_CHILD;
if (role !== undefined) {
  const dist = process.env.ENGINE_DIST!;
  if (role === 'timed') {
    process.stdout.write('\n@@' + JSON.stringify(await timedChild(dist)) + '\n');
  } else if (role === 'memory') {
    const wasmMB = watchWasmMemories();
    const row = await memoryScenario(await load(dist), process.env.ENGINE_SCENARIO as MemoryScenario, wasmMB, quick);
    process.stdout.write('\n@@' + JSON.stringify(row) + '\n');
  } else {
    await countChild(dist);
  }
  process.exit(0);
}

const baseline = process.env.BLOOMWASM_BASELINE;
if (baseline === undefined || !existsSync(join(baseline, 'index.node.js'))) {
  console.error('BLOOMWASM_BASELINE must name the dist/ folder of an earlier build (it holds index.node.js)');
  process.exit(2);
}
const builds = [join(process.cwd(), 'dist'), baseline] as const;
const started = new Date();
const runtimes = nodeRuntimes();
const results: EngineResults = {
  date: started.toISOString(),
  machine: describeMachine(),
  commits: [commitOf(builds[0]), commitOf(builds[1])],
  quick,
  rounds: ROUNDS,
  repeat: REPEAT,
  memoryRepeat: MEMORY_REPEAT,
  cases: cases.map(({ name, unit, counted, warm }) => ({ name, unit, counted, warm })),
  timed: [],
  memory: [],
  counted: [],
};

/** Writes the section with what has been measured so far: each part adds to it, so a run stopped midway keeps its finished parts. */
function publish(): void {
  results.seconds = (Date.now() - started.getTime()) / 1000;
  writeSection(documentPath(quick), 'engine', renderEngine(results));
}

/** Runs this script as a child under `node`, returns what it printed after @@. */
function child<T>(node: string, env: Record<string, string>, flags: string[] = []): T {
  const done = spawnSync(node, [...flags, process.argv[1]], { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (done.status !== 0) throw new Error(`child ${JSON.stringify(env)} under ${node} failed: ${done.stderr}`);
  return JSON.parse(done.stdout.split('\n').find((l) => l.startsWith('@@'))!.slice(2)) as T;
}

/** The builds in turn, this one first in even rounds and the earlier one first in odd rounds, so neither always follows the other. */
const inTurn = (r: number) => (r % 2 === 0 ? [0, 1] : [1, 0]) as (0 | 1)[];

if (PARTS.has('timed')) {
  for (const runtime of runtimes) {
    const runs: [number[][], number[][]] = [[], []];
    for (let r = 0; r < REPEAT; r++) {
      for (const b of inTurn(r)) {
        console.log(`timed, ${runtime.name}: ${b === 0 ? 'this build' : 'the earlier build'} (${r + 1} of ${REPEAT})`);
        runs[b].push(child<number[]>(runtime.path, { ENGINE_CHILD: 'timed', ENGINE_DIST: builds[b] }));
      }
    }
    results.timed.push({ runtime: runtime.name, ours: runs[0], theirs: runs[1] });
    publish();
  }
}

if (PARTS.has('memory')) {
  for (const runtime of runtimes) {
    const rows: [MemoryRow[], MemoryRow[]] = [[], []];
    for (let r = 0; r < MEMORY_REPEAT; r++) {
      for (const scenario of MEMORY_SCENARIOS) {
        for (const b of inTurn(r)) {
          console.log(`memory, ${runtime.name}: ${scenario}, ${b === 0 ? 'this build' : 'the earlier build'} (${r + 1} of ${MEMORY_REPEAT})`);
          rows[b].push(child<MemoryRow>(runtime.path, { ENGINE_CHILD: 'memory', ENGINE_DIST: builds[b], ENGINE_SCENARIO: scenario }, ['--expose-gc', '--max-old-space-size=8192']));
        }
      }
    }
    results.memory.push({ runtime: runtime.name, ours: rows[0], theirs: rows[1] });
    publish();
  }
}

/**
 * The instructions of each segment of one counting child under callgrind:
 * valgrind writes a file of counts (and zeroes them) on every entry into
 * getpriority, so the files between two markers hold one segment each.
 */
function countSegments(node: string, dist: string): Promise<number[]> {
  const folder = mkdtempSync(join(tmpdir(), 'bloomwasm-engine-'));
  const argv = ['--tool=callgrind', `--callgrind-out-file=${join(folder, 'out')}`, '--dump-before=*getpriority*', node, '--single-threaded', '--no-liftoff', '--allow-natives-syntax', process.argv[1]];
  return new Promise((resolve, reject) => {
    const job = spawn('valgrind', argv, { env: { ...process.env, ENGINE_CHILD: 'count', ENGINE_DIST: dist }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    job.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    job.on('close', (status) => {
      // out.1, out.2, ...: one file per stretch between markers (a marker's own few instructions get files of their own, dropped here); `out` holds what followed the last.
      const parts = readdirSync(folder).filter((f) => /^out\.\d+$/.test(f)).sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)));
      const totals = parts.map((f) => Number(/^totals: (\d+)/m.exec(readFileSync(join(folder, f), 'utf8'))?.[1] ?? Number.NaN));
      rmSync(folder, { recursive: true, force: true });
      if (status !== 0) reject(new Error(`callgrind under ${node} failed: ${stderr.slice(-2000)}`));
      else resolve(totals.filter((t) => t > 10_000));
    });
  });
}

if (PARTS.has('callgrind')) {
  const wanted = (process.env.CALLGRIND_RUNTIMES ?? '20,24').split(',');
  for (const runtime of runtimes.filter((t) => wanted.some((v) => t.name.startsWith(`Node ${v}`)))) {
    console.log(`callgrind, ${runtime.name}: both builds, side by side (the counts do not depend on load)`);
    const entry = { runtime: runtime.name, perCall: cases.map(() => [Number.NaN, Number.NaN] as [number, number]) };
    results.counted.push(entry);
    const segments = await Promise.all(builds.map((dist) => countSegments(runtime.path, dist).catch((error: unknown) => {
      // A failed count leaves its cells empty ('-') rather than losing the run.
      console.error(String(error));
      return [] as number[];
    })));
    for (const b of [0, 1] as const) {
      // Setup and the first warm-up, then per case two segments and the next case's warm-up: 3 a case, the last warm-up-free.
      if (segments[b].length !== 3 * countedCases.length) {
        console.error(`callgrind, ${runtime.name}: ${segments[b].length} segments for ${countedCases.length} cases; cells left empty`);
        continue;
      }
      countedCases.forEach((spec, k) => {
        const n = quick ? Math.max(1, spec.counted >> 4) : spec.counted;
        entry.perCall[cases.indexOf(spec)][b] = (segments[b][3 * k + 1] + segments[b][3 * k + 2]) / (2 * n);
      });
    }
    publish();
  }
}

publish();
console.log(renderEngine(results));
console.log(`wrote ${documentPath(quick)}`);
