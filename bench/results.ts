// What `npm run bench` measured, in the shapes the report renders
// (bench/report.ts) and the harness and workloads fill (bench/harness.ts,
// bench/workloads/). Machine is every section's: the other commands' results
// sit beside their renderers (bench/report-cli.ts, bench/report-redis.ts).

/** The operations a workload row measures; `encode` is the floor's single figure; `remove` only in (h). */
export type Op = 'add' | 'has present' | 'has absent' | 'encode' | 'remove';

/** Where a run happened. */
export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  /** The runtime by name and version ("Node 24.22.3", "Bun 1.4.5", "Deno 2.9.6"); runs before it was recorded name Node. */
  runtime?: string;
  platform: string;
  /** The 1-minute load average when the run started. */
  loadAverage?: number;
}

/** One measured task: the median time of one operation. */
export interface Row {
  /** The workload's title; rows with the same title form one table, in order of first appearance. */
  workload: string;
  op: Op;
  contestant: string;
  /** Median call time divided by the items per call. */
  nsPerOp: number;
  note?: string;
}

/** A measured false-positive rate next to (1 - e^(-kn/m))^k. */
export interface FalsePositiveRow {
  workload: string;
  contestant: string;
  bits: number;
  hashes: number;
  items: number;
  queries: number;
  falsePositives: number;
  theoretical: number;
  note?: string;
}

/** JS heap growth over a loop of single calls. */
export interface HeapRow {
  call: string;
  calls: number;
  growthBytes: number;
  gcsDuringLoop: number;
}

/** The chain against the fixed filter, after the scalable workload. */
export interface ScalableSummary {
  members: number;
  chainBits: number;
  fixedBits: number;
  chainFalsePositives: number;
  fixedFalsePositives: number;
  queries: number;
}

/** Iteration against sorting, after the Bitmap workload. */
export interface BitmapSummary {
  values: number;
  distinct: number;
  toArrayMs: number;
  sortMs: number;
}

/** One scenario of workload (j), many filters, from its child process. */
export interface ManyRow {
  scenario: string;
  /** Filters made (live and short-lived), or items in the chain. */
  count: number;
  /** ns per filter made (and added to, and asked); for the chain, ns per has of an absent item. */
  nsPerFilter: number;
  /** The child's peak resident set. */
  peakMB: number;
  /** Filters that answered true for their own item. */
  answered?: number;
  /** The chain: its members, and the fixed filter's ns per has. */
  members?: number;
  fixedNs?: number;
}

/** Workload (j): its scenarios, and the Node version they ran on. */
export interface ManySummary {
  node: string;
  rows: ManyRow[];
}

/** Workload (k): a sliding window against one plain filter. */
export interface SlidingSummary {
  node: string;
  /** n, the adds of the window. */
  window: number;
  falsePositiveRate: number;
  /** Bits of forCapacity(n, p), of the count window, of a time window of capacity n. */
  plainBits: number;
  countBits: number;
  timeBits: number;
  hashes: { plain: number; sliding: number };
  /** Median ns per has(), present (the window's items) and absent. */
  ns: { plainPresent: number; slidingPresent: number; timePresent: number; plainAbsent: number; slidingAbsent: number; timeAbsent: number };
  /** c, the adds of one generation. */
  generationCapacity: number;
  /** The rate of never-added URLs after `adds` adds, `inGeneration` of them in the current generation. */
  rates: Array<{ adds: number; inGeneration: number; measured: number; estimated: number }>;
}

/** Everything `npm run bench` measured in one run. */
export interface BenchResults {
  /** ISO 8601 time of the run's start. */
  date: string;
  machine: Machine;
  taskTimeMs: number;
  scale: number;
  quick: boolean;
  /** The workloads whose contestants each ran in a process of their own (BENCH_ISOLATE). */
  isolated?: string[];
  /** The run's length; 0 when unknown (left out of the report). */
  seconds: number;
  rows: Row[];
  falsePositives: FalsePositiveRow[];
  heap: HeapRow[];
  scalable?: ScalableSummary;
  bitmap?: BitmapSummary;
  many?: ManySummary;
  /** A paragraph printed under the section title (used to say where hand-entered figures came from). */
  note?: string;
}
