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
// - callgrind: instructions per call, which load does not move: valgrind
//   counts a process making N calls and one making 2N, after the same
//   setup and warm-up, and the difference over N is one call's.
//
// Env: BLOOMWASM_BASELINE (required); ENGINE_PARTS (default
// `timed,memory,callgrind`); BENCH_ROUNDS (timed rounds per process,
// default 7); BENCH_REPEAT (timed processes per build and runtime, default
// 5); MEMORY_REPEAT (default 2); CALLGRIND_RUNTIMES (`20`, `24` or `20,24`,
// default both); ENGINE_CASES (a substring: only the cases whose name holds
// it); BENCH_QUICK=1 (tiny sizes, one process each, report to build/bench/).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CASES, type Library } from './engine-cases.js';
import { MEMORY_SCENARIOS, memoryScenario, watchWasmMemories, type MemoryRow, type MemoryScenario } from './engine-memory.js';
import { documentPath, writeSection } from './document.js';
import { commitOf, describeMachine, nodeRuntimes } from './harness.js';
import { renderEngine, type EngineResults } from './report-engine.js';

const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 2 : 7));
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? (quick ? 1 : 5)));
const MEMORY_REPEAT = Math.max(1, Number(process.env.MEMORY_REPEAT ?? (quick ? 1 : 2)));
const PARTS = new Set((process.env.ENGINE_PARTS ?? 'timed,memory,callgrind').split(','));
const only = process.env.ENGINE_CASES;
const cases = CASES.filter((c) => only === undefined || c.name.includes(only));
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

/** In a callgrind child: one case at the small size, its warm-up, then `calls` calls. */
async function countChild(dist: string, name: string, calls: number): Promise<void> {
  const spec = CASES.find((c) => c.name === name)!;
  const { call, reset } = spec.make(await load(dist), true);
  let sink = 0;
  reset?.();
  for (let j = 0; j < spec.warm; j++) sink ^= Number(call(j)) | 0;
  for (let j = spec.warm; j < spec.warm + calls; j++) sink ^= Number(call(j)) | 0;
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
    await countChild(dist, process.env.ENGINE_CASE!, Number(process.env.ENGINE_CALLS));
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

/** Instructions counted by callgrind for one child, from the totals line of its output file. */
function countOnce(node: string, dist: string, name: string, calls: number): Promise<number> {
  const out = join(tmpdir(), `bloomwasm-engine-${process.pid}-${Math.random().toString(36).slice(2)}.callgrind`);
  const argv = ['--tool=callgrind', `--callgrind-out-file=${out}`, node, '--single-threaded', process.argv[1]];
  return new Promise((resolve, reject) => {
    const job = spawn('valgrind', argv, { env: { ...process.env, ENGINE_CHILD: 'count', ENGINE_DIST: dist, ENGINE_CASE: name, ENGINE_CALLS: String(calls) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    job.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    job.on('close', (status) => {
      const text = existsSync(out) ? readFileSync(out, 'utf8') : '';
      rmSync(out, { force: true });
      const totals = /^(?:totals|summary): (\d+)/m.exec(text);
      if (status !== 0 || totals === null) reject(new Error(`callgrind of ${name} (${calls} calls) failed: ${stderr.slice(-2000)}`));
      else resolve(Number(totals[1]));
    });
  });
}

if (PARTS.has('callgrind')) {
  const wanted = (process.env.CALLGRIND_RUNTIMES ?? '20,24').split(',');
  // Two valgrind processes at a time, one per core: instruction counts do not depend on load.
  const jobs: (() => Promise<void>)[] = [];
  for (const runtime of runtimes.filter((t) => wanted.some((v) => t.name.startsWith(`Node ${v}`)))) {
    const entry = { runtime: runtime.name, perCall: cases.map(() => [Number.NaN, Number.NaN] as [number, number]) };
    results.counted.push(entry);
    for (const [i, spec] of cases.entries()) {
      // The absent twin of a present case walks the same boundary: counting one of the two halves the hour valgrind takes.
      if (spec.counted === 0) continue;
      for (const b of [0, 1] as const) {
        const n = quick ? Math.max(1, spec.counted >> 4) : spec.counted;
        jobs.push(async () => {
          try {
            const [once, twice] = await Promise.all([countOnce(runtime.path, builds[b], spec.name, n), countOnce(runtime.path, builds[b], spec.name, 2 * n)]);
            entry.perCall[i][b] = (twice - once) / n;
          } catch (error) {
            // One failed count leaves its cell empty ('-') rather than losing the run.
            console.error(String(error));
          }
          console.log(`callgrind, ${runtime.name}: ${spec.name}, ${b === 0 ? 'this build' : 'the earlier build'}: ${entry.perCall[i][b].toFixed(0)} instructions a call`);
        });
      }
    }
  }
  // Each job runs its two counts side by side; one job at a time.
  for (const [j, job] of jobs.entries()) {
    await job();
    if (j % 8 === 7) publish();
  }
}

publish();
console.log(renderEngine(results));
console.log(`wrote ${documentPath(quick)}`);
