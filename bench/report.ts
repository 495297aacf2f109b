// The sections `npm run bench` owns in the benchmark document,
// docs/BENCHMARKS.md, rendered from measured results (bench/results.ts):
// the library's workloads, and (j) many filters and (k) the sliding window,
// which have sections of their own. Pure functions only (no clock, no file
// system): each benchmark command renders its own section (`npm run
// bench:cli`'s is in bench/report-cli.ts, `npm run bench:redis`'s in
// bench/report-redis.ts) and replaces it in place (bench/document.ts), so
// each command updates the same file without touching the others' figures.
// The formats of the figures are bench/format.ts. test/bench-report.test.ts
// pins the output.

import { formatDate, formatMachine, formatNs, formatRatio, int, percent } from './format.js';
import type { BenchResults, Machine, ManySummary, Op, Row, SlidingSummary } from './results.js';

/** The baseline of every ratio in a workload table. */
export const BASELINE = 'wasm single';
const OPS: Op[] = ['add', 'has present', 'has absent'];

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
