// The measuring core shared by every workload in bench/workloads/: the run's
// settings, a task spec, tinybench around a block of items per call, and the
// results the report is rendered from.
//
// Each tinybench task call processes a block of items and its median call
// time is divided by the block size: ns per operation. `add` always inserts
// into a filter that holds only the items of the current pass (the filter is
// reset, untimed, when a task wraps around its items).

import { cpus, loadavg, totalmem } from 'node:os';
import { Bench } from 'tinybench';
import type { BloomFilter } from '../src/index.js';
import type { BloomFilter as ReferenceFilter } from '../src/reference/index.js';
import type { BenchResults, Machine, Op, Row } from './report.js';
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
}

/** Reads BENCH_QUICK, BENCH_TIME and BENCH_SCALE. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Settings {
  const quick = env.BENCH_QUICK === '1';
  const time = Number(env.BENCH_TIME ?? (quick ? 10 : 400));
  const scale = Number(env.BENCH_SCALE ?? (quick ? 0.002 : 1));
  return { quick, time, scale, n: Math.round(1_000_000 * scale) };
}

/** The machine, as the report names it. */
export function describeMachine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
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

/** Runs the specs as one tinybench suite, appends their rows, and prints the workload's table. */
export async function measure(ctx: Context, specs: Spec[]): Promise<void> {
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
  const base = (op: Op) => rows.find((r) => r.op === op && r.contestant === 'wasm single')?.nsPerOp;
  console.log(`\n== ${specs[0].workload}`);
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
