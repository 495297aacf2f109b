// The benchmark document, docs/BENCHMARKS.md, rendered from measured results.
// Pure functions only (no clock, no file system): `npm run bench` and
// `npm run bench:cli` each render their own section (`npm run bench:redis`'s
// is in bench/report-redis.ts) and replace it in place
// (bench/document.ts), so either command updates the same file without
// touching the other's figures. test/bench-report.test.ts pins the output.
// Slightly over 300 lines: one template per section of the document, kept
// together so that the sections read alike.

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

/** One command timed by `npm run bench:cli`. */
export interface CliRun {
  name: string;
  seconds: number;
  peakKiB: number;
  /** Lines it printed. */
  lines: number;
  /** For bloom: the m and k it sized, and the unique lines it is predicted to lose. */
  bits?: number;
  hashes?: number;
  predictedLoss?: number;
}

/** Everything `npm run bench:cli` measured in one run; `runs` holds the awk run the ratios divide by. */
export interface CliResults {
  date: string;
  machine: Machine;
  lines: number;
  sizeBytes: number;
  distinct: number;
  capacity: number;
  runs: CliRun[];
  note?: string;
}

/** The baseline of every ratio in a workload table. */
export const BASELINE = 'wasm single';
/** The awk command `npm run bench:cli` divides by. */
export const AWK = "awk '!seen[$0]++'";
const OPS: Op[] = ['add', 'has present', 'has absent'];

const int = (x: number): string => Math.round(x).toLocaleString('en-US');
/** ns per operation: one decimal below 10, else a whole number with separators. */
export const formatNs = (x: number): string => (x < 10 ? x.toFixed(1) : int(x));
/** A ratio: two decimals below 10, one below 100, none above. */
export const formatRatio = (x: number): string => `${x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)}×`;
const percent = (x: number): string => `${(x * 100).toFixed(3)}%`;

/** "2026-11-30 00:49 UTC" from an ISO time; a bare date ("2026-11-30") stays a date. */
export function formatDate(iso: string): string {
  return iso.length <= 10 ? iso : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** "AMD EPYC 7B13 (2 cores), 24 GiB, Node 24.22.3, linux x64, load average 0.4 at the start". */
export function formatMachine(m: Machine): string {
  const load = m.loadAverage === undefined ? '' : `, load average ${m.loadAverage.toFixed(1)} at the start`;
  return `${m.cpu} (${m.cores} cores), ${m.memoryGiB} GiB, ${m.runtime ?? `Node ${m.node}`}, ${m.platform}${load}`;
}

/** The workload titles, by their letter ("(a)" to "(f)"), in run order within a letter. */
function workloads(rows: Row[]): string[] {
  return [...new Set(rows.map((r) => r.workload))].sort((x, y) => x.slice(0, 3).localeCompare(y.slice(0, 3)));
}

/** The rows of one workload as a table: ns/op, and the ratio to the baseline row of the same operation. */
export function renderWorkload(rows: Row[], workload: string): string {
  const mine = rows.filter((r) => r.workload === workload);
  const base = (op: Op) => mine.find((r) => r.contestant === BASELINE && r.op === op)?.nsPerOp;
  const contestants = [...new Set(mine.map((r) => r.contestant))];
  const notes: string[] = [];
  // A remove column only for the workloads that measure it (the counting filter's).
  const ops: Op[] = mine.some((r) => r.op === 'remove') ? [...OPS, 'remove'] : OPS;
  const lines = [`### ${workload}`, '', `| contestant | ${ops.join(' | ')} |`, `|---|${ops.map(() => '---:').join('|')}|`];
  for (const c of contestants) {
    const cells = ops.map((op) => {
      const row = mine.find((r) => r.contestant === c && (r.op === op || r.op === 'encode'));
      if (!row) return '';
      const b = base(op);
      return c === BASELINE || b === undefined ? formatNs(row.nsPerOp) : `${formatNs(row.nsPerOp)} (${formatRatio(row.nsPerOp / b)})`;
    });
    for (const r of mine) {
      if (r.contestant === c && r.note && !notes.includes(`${c}: ${r.note}`)) notes.push(`${c}: ${r.note}`);
    }
    lines.push(`| ${c} | ${cells.join(' | ')} |`);
  }
  if (notes.length > 0) lines.push('', ...notes.map((n) => `- ${n}`));
  return lines.join('\n');
}

/** Workload (a)'s headline: per operation, the wasm filter against the reference and the peers. */
export function renderSummary(rows: Row[]): string {
  const workload = workloads(rows).find((w) => w.startsWith('(a)'));
  if (workload === undefined) return '';
  const get = (c: string, op: Op) => rows.find((r) => r.workload === workload && r.contestant === c && (r.op === op || r.op === 'encode'));
  const slower = (c: string, op: Op) => {
    const r = get(c, op);
    const b = get(BASELINE, op);
    return r && b ? formatRatio(r.nsPerOp / b.nsPerOp) : '';
  };
  const ns = (c: string, op: Op) => {
    const r = get(c, op);
    return r ? formatNs(r.nsPerOp) : '';
  };
  const lines = [
    '### Summary',
    '',
    `${workload}: ns per operation, and how many times longer the reference and the peers take than \`${BASELINE}\`.`,
    '',
    `| operation | ${BASELINE} | wasm batch (packed) | encode only (floor) | reference | bloomfilter | bloom-filters |`,
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const op of OPS) {
    lines.push(`| ${op} | ${ns(BASELINE, op)} | ${ns('wasm batch (packed)', op)} | ${ns('encode only (floor)', op)} | ${slower('reference', op)} | ${slower('bloomfilter', op)} | ${slower('bloom-filters', op)} |`);
  }
  return lines.join('\n');
}

/** How `npm run bench` measures; printed in its section so the figures never travel without it. */
export const BENCH_METHOD = [
  '### Method',
  '',
  '- Inputs are fixed and seeded (`bench/data.ts`): URL-like strings of 64 to 70 characters, keys of 8 to 16 bytes and keys of 1 KiB, each with an equally large disjoint set of absent items. Strings are decoded from bytes, so they are flat, as strings read from I/O are.',
  '- Every filter has m = 10n bits and k = 7, except in (e), where both filters are sized for a 1% rate.',
  '- Each tinybench task processes a block of items per call (1,000 for the fast contestants, fewer for the slow ones); ns per operation is the median call time divided by the block.',
  '- `add` inserts into a filter that holds only the current pass\'s items; `has present` and `has absent` query a filter that holds all n items.',
  '- The reference twin (`bloomwasm/reference`) is given the wasm filter\'s bits instead of being filled through its BigInt XXH64, which would take minutes; the parity tests prove it would set the same bits.',
  '- `bloom-filters` is filled with a prefix of the items where filling it completely would take minutes, and `bloomfilter` is left out of (c) because it allows at most 2^32 bits; the rows\' notes say so.',
  '- The floor is `TextEncoder.encodeInto` of the same strings into a wasm memory, and nothing else: no filter can be faster on string items.',
  '',
  'The workloads: (a) URLs; (b) short and long keys; (c) a filter of 10^10 bits (1.25 GB), where the cost is cache misses; (d) the `poly` scheme of the SeenFilter exercise against that exercise\'s own solution (`bench/seen-filter-solution.js`); (e) a `ScalableBloomFilter` that starts at n/100 and grows, against a fixed filter sized for the final n (the `wasm single` row); (f) a `Bitmap` of 10^8 + 1 bits against the reference and a `Set<number>`; (g) one key against 200 filters of different sizes, `probeAll` against 200 `has` calls, with one `has` plus 200 bit-block reads as the `wasm single` row (the target is probeAll within 3× of it), timed in 15 interleaved rounds, each row the median of its rounds, as its rows are read as ratios; (h) the `CountingBloomFilter` on URLs (n/10 of them) against its reference and `bloom-filters`\' CountingBloomFilter, with a remove column; (i) a shared filter of 10^9 bits (`{ shared: true }`, docs/SHARED.md) filled and queried by 1 worker thread, then by 2 that split the same items, timed as wall time per item inside the workers; (j) many filters: 10^6 live ones, 3 × 10^6 short-lived ones, and a chain of 7 members, each scenario in a child process of its own (its table says how); (k) a `SlidingBloomFilter` with a window of 10^5 URLs against one plain filter of that capacity (a section of its own). `BENCH_SCALE` multiplies the item counts, `BENCH_TIME` sets the ms per task (default 400), and `BENCH_QUICK=1` runs everything at tiny sizes to check that the suite works.',
].join('\n');

/** The section `npm run bench` owns. */
export function renderBench(r: BenchResults): string {
  const out: string[] = [
    '## Library (`npm run bench`)',
    '',
    `Run of ${formatDate(r.date)} on ${formatMachine(r.machine)}; ${r.taskTimeMs} ms per task, item counts × ${r.scale}` +
      `${r.quick ? ' (quick smoke mode: tiny sizes, the figures mean nothing)' : ''}${r.seconds > 0 ? `, ${int(r.seconds)} s in all` : ''}.`,
  ];
  if (r.note) out.push('', r.note);
  out.push(
    '',
    `Every cell is the median time of one operation in ns; in brackets, that time divided by the \`${BASELINE}\` row's for the same operation (above 1× the wasm filter is faster). The floor row is one figure, \`TextEncoder.encodeInto\` of the same item, repeated in each column.`,
  );
  const summary = renderSummary(r.rows);
  if (summary) out.push('', summary);
  out.push('', BENCH_METHOD);
  if (r.isolated !== undefined && r.isolated.length > 0) {
    const list = r.isolated.map((w) => `(${w})`).join(', ');
    out.push('', `In ${list}, each contestant ran in a fresh process of its own, which builds the same workload and times only that contestant: in one shared process the contestants share the JIT's type feedback and the heap, and a peer's figure moved by more than 2× with what ran before it. One library per process is what a user's program is. The other workloads compare our own variants and run in one process.`);
  }
  for (const w of workloads(r.rows)) out.push('', renderWorkload(r.rows, w));
  if (r.falsePositives.length > 0) {
    out.push('', '### False-positive rates', '', '| workload | contestant | m | k | n | queries | false positives | measured | (1 − e^(−kn/m))^k | measured / theory |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const f of r.falsePositives) {
      const measured = f.falsePositives / f.queries;
      out.push(`| ${f.workload} | ${f.contestant}${f.note ? ` (${f.note})` : ''} | ${int(f.bits)} | ${f.hashes} | ${int(f.items)} | ${int(f.queries)} | ${int(f.falsePositives)} | ${percent(measured)} | ${percent(f.theoretical)} | ${(measured / f.theoretical).toFixed(3)} |`);
    }
  }
  if (r.heap.length > 0) {
    out.push('', '### Heap growth over single calls', '', '`process.memoryUsage().heapUsed` after a forced GC, before and after the loop.', '', '| call | calls | heap growth | GCs during the loop |', '|---|---:|---:|---:|');
    for (const h of r.heap) out.push(`| ${h.call} | ${int(h.calls)} | ${(h.growthBytes / 1024).toFixed(1)} KiB | ${h.gcsDuringLoop} |`);
  }
  if (r.scalable) {
    const s = r.scalable;
    out.push('', '### ScalableBloomFilter against a fixed filter', '', `The chain grew to ${s.members} members and ${int(s.chainBits)} bits (the fixed filter: ${int(s.fixedBits)}, ${(s.chainBits / s.fixedBits).toFixed(2)}×). Over ${int(s.queries)} absent items it answered ${int(s.chainFalsePositives)} false positives (${percent(s.chainFalsePositives / s.queries)}), the fixed filter ${int(s.fixedFalsePositives)} (${percent(s.fixedFalsePositives / s.queries)}).`);
  }
  if (r.bitmap) {
    const b = r.bitmap;
    out.push('', '### Bitmap iteration', '', `\`toArray()\` of the ${int(b.distinct)} distinct values took ${b.toArrayMs.toFixed(1)} ms; \`Uint32Array.prototype.sort\` of the ${int(b.values)} inputs ${b.sortMs.toFixed(1)} ms.`);
  }
  return out.join('\n');
}

/** Workload (j)'s section of docs/BENCHMARKS.md (its own, so that (j) can run alone): each scenario ran in a child process of its own. */
export function renderMany(m: ManySummary, date: string, machine: Machine): string {
  const row = (name: string) => m.rows.find((x) => x.scenario === name);
  const out = [
    '## Many filters (`npm run bench`, workload (j))',
    '',
    `Run of ${formatDate(date)} on ${formatMachine(machine)}. Each scenario ran in a child process of its own on Node ${m.node}; peak RSS is that child's. Live: 10^6 filters of \`forCapacity(1000, 0.01)\` (m = 9,586, k = 7), one item added to each, all kept, against \`bloomfilter\`'s \`new BloomFilter(9586, 7)\` plus \`add\`. Short-lived: 3 × 10^6 \`new BloomFilter(8192, 5)\`, each added to and asked once, with a turn of the event loop every 1,000 filters (as a server gives between requests). Chain: \`has\` of absent URLs on a \`ScalableBloomFilter\` grown to its members, against one filter sized for the same items (medians of 15 interleaved rounds).`,
    '',
    '| scenario | filters or items | ns per filter (create, add, has) | peak RSS | answered |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const x of m.rows.filter((x) => !x.scenario.startsWith('chain'))) {
    out.push(`| ${x.scenario} | ${int(x.count)} | ${int(x.nsPerFilter)} | ${int(x.peakMB)} MB | ${x.answered === undefined ? '' : int(x.answered)} |`);
  }
  const live = row('live bloomwasm');
  const peer = row('live bloomfilter');
  if (live && peer) {
    out.push('', `Live filters: create and add ${(peer.nsPerFilter / live.nsPerFilter).toFixed(2)}× as fast as \`bloomfilter\`, with ${(live.peakMB / peer.peakMB).toFixed(2)}× its peak RSS.`);
  }
  for (const chain of m.rows.filter((x) => x.scenario.startsWith('chain') && x.fixedNs !== undefined)) {
    out.push('', `${chain.scenario.replace('chain ', 'Chain under ')}, ${chain.members} members over ${int(chain.count)} URLs: \`has\` of an absent item ${chain.nsPerFilter.toFixed(0)} ns against ${chain.fixedNs!.toFixed(0)} ns for the fixed filter (${(chain.nsPerFilter / chain.fixedNs!).toFixed(2)}×).`);
  }
  return out.join('\n');
}

/** The sliding-window section (workload (k)). */
export function renderSliding(k: SlidingSummary, date: string, machine: Machine): string {
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const out = [
    '## Sliding window (`npm run bench`, workload (k))',
    '',
    `Run of ${formatDate(date)} on ${formatMachine(machine)}. A \`SlidingBloomFilter\` with a window of ${int(k.window)} URLs at p = ${k.falsePositiveRate} (docs/SLIDING.md) against one \`BloomFilter.forCapacity(${int(k.window)}, ${k.falsePositiveRate})\` holding the same last ${int(k.window)} URLs. \`has\` is the median ns per call over ${int(k.window)} URLs in 15 interleaved rounds; the rates are of ${int(k.window)} never-added URLs after each checkpoint of a stream of ${int(4 * k.window)} adds.`,
    '',
    '| | bits | memory | k | has, present | has, absent |',
    '|---|---:|---:|---:|---:|---:|',
    `| plain filter | ${int(k.plainBits)} | 1× | ${k.hashes.plain} | ${k.ns.plainPresent.toFixed(0)} ns | ${k.ns.plainAbsent.toFixed(0)} ns |`,
    `| count window (8 generations) | ${int(k.countBits)} | ${ratio(k.countBits, k.plainBits)} | ${k.hashes.sliding} | ${k.ns.slidingPresent.toFixed(0)} ns (${ratio(k.ns.slidingPresent, k.ns.plainPresent)}) | ${k.ns.slidingAbsent.toFixed(0)} ns (${ratio(k.ns.slidingAbsent, k.ns.plainAbsent)}) |`,
    `| time window (16 generations) | ${int(k.timeBits)} | ${ratio(k.timeBits, k.plainBits)} | ${k.hashes.sliding} | ${k.ns.timePresent.toFixed(0)} ns (${ratio(k.ns.timePresent, k.ns.plainPresent)}) | ${k.ns.timeAbsent.toFixed(0)} ns (${ratio(k.ns.timeAbsent, k.ns.plainAbsent)}) |`,
    '',
    `Targets: memory at most 2× the plain filter's for the count window, \`has\` at most 3×, measured rates within 1.25p = ${1.25 * k.falsePositiveRate}. A time window keeps 16 bit-planes to the count window's 8 (docs/SLIDING.md, "Why 16"), so twice the bits.`,
    '',
    `| after adds | adds in the current generation (of ${int(k.generationCapacity)}) | measured rate | currentFalsePositiveRate() |`,
    '|---:|---:|---:|---:|',
    ...k.rates.map((r) => `| ${int(r.adds)} | ${int(r.inGeneration)} | ${r.measured.toFixed(5)} | ${r.estimated.toFixed(5)} |`),
  ];
  return out.join('\n');
}

/** How `npm run bench:cli` measures. */
export const CLI_METHOD = [
  '### Method',
  '',
  'A file of URLs (about a sixth of them repeats of earlier lines, `bench/cli.ts`) is written to a temporary directory; `bloom dedupe` (with `--capacity` at `--fpp` 0.001 and 0.01, and twice without it, as a growing chain at the default `--fpp`: given the file, whose lines (counted in a first pass) size the chain\'s first member, and reading the file from a pipe, where the chain starts at 1,000,000 lines and grows), `awk \'!seen[$0]++\'` and `LC_ALL=C sort -u` run on it one after the other. Wall time is measured around each process and peak RSS taken from GNU `time` (or the kernel\'s `VmHWM` when it is missing). "Unique lines lost" counts the lines awk printed that bloom did not: false positives, next to the prediction, the sum over the first occurrences of the false-positive rate at that point (bloom dedupe runs its default scheme, the split-block filter, so its blocked rate). `BENCH_LINES` sets the number of lines (default 10,000,000).',
].join('\n');

/** The section `npm run bench:cli` owns. */
export function renderCli(r: CliResults): string {
  const awk = r.runs.find((x) => x.name === AWK);
  const out: string[] = [
    '## `bloom dedupe` against awk and sort (`npm run bench:cli`)',
    '',
    `Run of ${formatDate(r.date)} on ${formatMachine(r.machine)}. Input: ${int(r.lines)} URLs, ${int(r.sizeBytes / 1e6)} MB, ${int(r.distinct)} distinct; \`--capacity\` is ${r.capacity} where given.`,
  ];
  if (r.note) out.push('', r.note);
  out.push('', '| command | wall time | peak RSS | awk time / this | awk RSS / this | unique lines lost |', '|---|---:|---:|---:|---:|---|');
  for (const x of r.runs) {
    const lost = awk === undefined ? '' : int(awk.lines - x.lines);
    const predicted = x.predictedLoss === undefined ? '' : ` (predicted ${int(x.predictedLoss)}; m = ${int(x.bits ?? 0)}, k = ${x.hashes})`;
    const speed = awk ? `${(awk.seconds / x.seconds).toFixed(1)}×` : '';
    const memory = awk ? `${(awk.peakKiB / x.peakKiB).toFixed(1)}×` : '';
    out.push(`| \`${x.name}\` | ${x.seconds.toFixed(2)} s | ${int(x.peakKiB / 1024)} MiB | ${speed} | ${memory} | ${lost}${predicted} |`);
  }
  out.push('', CLI_METHOD);
  return out.join('\n');
}

/** The sections of docs/BENCHMARKS.md: `npm run bench`, `bench:cli`, `bench:redis` and `bench:where` write one each. */
export type SectionName = 'bench' | 'cli' | 'redis' | 'where' | 'many' | 'sliding' | 'runtimes' | 'cuckoo' | 'fuse' | 'singles';

const start = (name: SectionName) => `<!-- generated:${name}:start -->`;
const end = (name: SectionName) => `<!-- generated:${name}:end -->`;

/** The document's fixed head, and the empty sections in their order. */
export const DOCUMENT_TEMPLATE = [
  '# Benchmarks',
  '',
  'This file is written by `npm run bench` (the library against its reference twin and the npm peers `bloomfilter` and `bloom-filters`), `npm run bench:cli` (`bloom dedupe` against awk and sort) and `npm run bench:redis` (`RedisBloomFilter` against GETBIT and SETBIT). Each command replaces only its own section, so they may be run at different times: each section names its own run, its machine and its method. The code is in `bench/`.',
  '',
  start('bench'),
  end('bench'),
  '',
  start('cli'),
  end('cli'),
  '',
  start('redis'),
  end('redis'),
  '',
].join('\n');

/**
 * Replaces the text between the markers of section `name` with `body`. An
 * empty document starts from the template; a document without this
 * section's markers gets them appended. Text outside the section is kept.
 */
export function replaceSection(document: string, name: SectionName, body: string): string {
  let doc = document.trim() === '' ? DOCUMENT_TEMPLATE : document;
  if (!doc.includes(start(name)) || !doc.includes(end(name))) doc = `${doc.trimEnd()}\n\n${start(name)}\n${end(name)}\n`;
  const from = doc.indexOf(start(name)) + start(name).length;
  const to = doc.indexOf(end(name));
  doc = `${doc.slice(0, from)}\n${body.trimEnd()}\n${doc.slice(to)}`;
  return doc;
}
