// A worker_threads worker over a shared filter, for test/shared-workers.test.ts
// and bench/workloads/shared.ts (bundled by esbuild into build/). It attaches
// the handle it is given, waits for the common start signal, runs one job
// and posts its result back.
import { parentPort, workerData } from 'node:worker_threads';
import { BloomFilter, loadSharedMemory, type SharedFilterHandle } from '../../src/index.js';
import { BloomFilter as ReferenceFilter, type SharedFilterHandle as ReferenceSharedHandle } from '../../src/reference/index.js';
import { mulberry32 } from '../../src/cli/mulberry32.js';

// A worker has a module graph of its own: it loads the shared-memory build
// before attach(), as the docs tell a browser worker to (docs/SHARED.md).
await loadSharedMemory();

/** What the parent sends: the handle, the job, and a SharedArrayBuffer of Int32 signals. */
export interface SharedJob {
  /** A handle from share() (wasm), or from the reference twin's share(). */
  handle: SharedFilterHandle | ReferenceSharedHandle;
  /** race: add items [0, count) in a shuffled order; relay: add or check rounds in turn; time: addMany then hasMany, timed. */
  job: 'race' | 'relay' | 'time';
  /** Items are `https://example.com/crawl/${i}` for i in [first, first + count). */
  first: number;
  count: number;
  /** Which worker this is (seeds the shuffle; in relay, 0 adds and 1 checks). */
  worker: number;
  /** Int32: [0] start flag (1 = go), [1] the last round the adding worker finished. */
  signals: SharedArrayBuffer;
  /** Items per addMany call (race, time), or per round (relay). */
  chunk: number;
  /** relay: add with single add() calls instead of addMany. */
  single?: boolean;
  /** race: every worker visits the items in the same order (the worst case for duplicates). */
  sameOrder?: boolean;
}

const job = workerData as SharedJob;
const filter = job.handle.kind === 'bloomwasm.SharedFilter'
  ? BloomFilter.attach(job.handle)
  : ReferenceFilter.attach(job.handle as ReferenceSharedHandle);
const signals = new Int32Array(job.signals);
const item = (i: number): string => `https://example.com/crawl/${i}`;

/** The indices [first, first + count) in this worker's own order (a seeded Fisher-Yates shuffle). */
function order(): number[] {
  const random = mulberry32(0x9e3779b9 ^ (job.sameOrder ? 0 : job.worker));
  const list = Array.from({ length: job.count }, (_, i) => job.first + i);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** Every worker prepares, then all start at once: they wait on the start flag. */
function startTogether(): void {
  parentPort!.postMessage({ ready: true });
  Atomics.wait(signals, 0, 0);
}

if (job.job === 'race') {
  const list = order();
  const items = list.map(item);
  const fresh = new Uint8Array(job.count);
  startTogether();
  for (let at = 0; at < items.length; at += job.chunk) {
    const flags = filter.addMany(items.slice(at, at + job.chunk));
    for (let j = 0; j < flags.length; j++) fresh[list[at + j] - job.first] = flags[j];
  }
  parentPort!.postMessage({ fresh }, [fresh.buffer]);
} else if (job.job === 'relay') {
  // Worker 0 adds round r, then publishes r in signals[1]. Worker 1 waits
  // until round r is published, then asks for its items: every one must be
  // present. misses counts those that were not.
  const rounds = Math.ceil(job.count / job.chunk);
  let misses = 0;
  startTogether();
  for (let r = 1; r <= rounds; r++) {
    const items: string[] = [];
    for (let i = (r - 1) * job.chunk; i < Math.min(job.count, r * job.chunk); i++) items.push(item(job.first + i));
    if (job.worker === 0) {
      if (job.single) for (const it of items) filter.add(it);
      else filter.addMany(items);
      Atomics.store(signals, 1, r);
      Atomics.notify(signals, 1);
    } else {
      while (Atomics.load(signals, 1) < r) Atomics.wait(signals, 1, r - 1);
      const flags = filter.hasMany(items);
      for (let j = 0; j < flags.length; j++) if (flags[j] !== 1 || !filter.has(items[j])) misses++;
    }
  }
  parentPort!.postMessage({ misses });
} else {
  const items = order().map(item);
  // Warm up on a filter of its own: the JIT compiles the staging code and
  // the engine tiers the wasm up before the clock starts.
  const warm = new BloomFilter(1 << 20, 7, { shared: true });
  for (let at = 0; at < 50_000; at += job.chunk) {
    const chunk = Array.from({ length: job.chunk }, (_, j) => item(-1 - at - j));
    warm.addMany(chunk);
    warm.hasMany(chunk);
  }
  startTogether();
  const t0 = performance.now();
  for (let at = 0; at < items.length; at += job.chunk) filter.addMany(items.slice(at, at + job.chunk));
  const t1 = performance.now();
  let found = 0;
  for (let at = 0; at < items.length; at += job.chunk) {
    const flags = filter.hasMany(items.slice(at, at + job.chunk));
    for (let j = 0; j < flags.length; j++) found += flags[j];
  }
  const t2 = performance.now();
  parentPort!.postMessage({ addMs: t1 - t0, hasMs: t2 - t1, found });
}
