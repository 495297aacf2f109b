// The memory scenarios of `npm run bench:engine`, each run in a child
// process of its own per build and runtime, so that the peak it reports is
// its own: 10^6 live filters, and 3 × 10^6 short-lived ones, either dropped
// (left to the FinalizationRegistry) or disposed. The filters are those of
// workload (j) (bench/workloads/many.ts), so the figures read alike.

import { readFileSync } from 'node:fs';
import { setImmediate as turn } from 'node:timers/promises';
import type { Library } from './engine-cases.js';

/** The scenarios, in the order they run. */
export const MEMORY_SCENARIOS = ['10^6 live', '3 × 10^6 dropped', '3 × 10^6 disposed'] as const;
export type MemoryScenario = (typeof MEMORY_SCENARIOS)[number];

/** What one scenario's child reports, in MB but for the time. */
export interface MemoryRow {
  scenario: MemoryScenario;
  /** Peak resident set (VmHWM of /proc/self/status). */
  peakMB: number;
  /** Resident set at the end, the filters of `live` still held. */
  rssMB: number;
  /** V8's heap in use at the end, after a full collection. */
  heapMB: number;
  /** The bytes of every wasm memory still reachable at the end. */
  wasmMB: number;
  /** ns per filter made (and added to and asked, for the short-lived ones). */
  nsPerFilter: number;
}

/** A field of /proc/self/status, in MB. */
function statusMB(field: 'VmHWM' | 'VmRSS'): number {
  const line = readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return line === undefined ? Number.NaN : Number.parseInt(line.slice(field.length + 1), 10) / 1024;
}

/**
 * Records every wasm memory the library makes, before it is loaded: both
 * builds instantiate with `new WebAssembly.Instance`, and neither exposes
 * its memories. Weak references, so a released arena's memory can go.
 */
export function watchWasmMemories(): () => number {
  const memories: WeakRef<WebAssembly.Memory>[] = [];
  const Original = WebAssembly.Instance;
  class Watched extends Original {
    constructor(module: WebAssembly.Module, imports?: WebAssembly.Imports) {
      super(module, imports);
      const own = this.exports.memory;
      if (own instanceof WebAssembly.Memory) memories.push(new WeakRef(own));
      for (const space of Object.values(imports ?? {})) {
        for (const value of Object.values(space)) if (value instanceof WebAssembly.Memory) memories.push(new WeakRef(value));
      }
    }
  }
  (WebAssembly as { Instance: typeof WebAssembly.Instance }).Instance = Watched;
  return () => {
    const seen = new Set<WebAssembly.Memory>();
    for (const ref of memories) {
      const memory = ref.deref();
      if (memory !== undefined) seen.add(memory);
    }
    let bytes = 0;
    for (const memory of seen) bytes += memory.buffer.byteLength;
    return bytes / 2 ** 20;
  };
}

/** Runs one scenario in this process; the caller loaded `lib` after watchWasmMemories(). */
export async function memoryScenario(lib: Library, scenario: MemoryScenario, wasmMB: () => number, quick: boolean): Promise<MemoryRow> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const keep: unknown[] = [];
  let answered = 0;
  const t0 = process.hrtime.bigint();
  let made: number;
  if (scenario === '10^6 live') {
    made = quick ? 20_000 : 1_000_000;
    for (let i = 0; i < made; i++) {
      const f = lib.BloomFilter.forCapacity(1000, 0.01);
      f.add(`key-${i}`);
      keep.push(f);
    }
  } else {
    made = quick ? 60_000 : 3_000_000;
    const dispose = scenario === '3 × 10^6 disposed';
    for (let i = 0; i < made; i++) {
      const key = `key-${i}`;
      const f = new lib.BloomFilter(8192, 5);
      f.add(key);
      if (f.has(key)) answered++;
      if (dispose) f.dispose();
      // A turn of the event loop every 1,000, as a server gives between requests, so the collector's reports can run.
      if (i % 1000 === 999) await turn();
    }
  }
  const nsPerFilter = Number(process.hrtime.bigint() - t0) / made;
  gc();
  await turn();
  const row: MemoryRow = { scenario, peakMB: statusMB('VmHWM'), rssMB: statusMB('VmRSS'), heapMB: process.memoryUsage().heapUsed / 2 ** 20, wasmMB: wasmMB(), nsPerFilter };
  if (keep.length + answered === 0) throw new Error('nothing was made');
  return row;
}
