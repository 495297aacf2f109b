// The benchmark document generator (bench/report.ts, report-cli.ts,
// report-redis.ts, format.ts, document-sections.ts): fixed fake results in,
// exact Markdown out; and docs/BENCHMARKS.md keeps its hand-written text
// outside the sections the benches rewrite. Nothing is timed here.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCH_METHOD, renderBench, renderSummary, renderWorkload } from '../bench/report.js';
import { AWK, CLI_METHOD, renderCli, type CliResults } from '../bench/report-cli.js';
import { DOCUMENT_TEMPLATE, replaceSection } from '../bench/document-sections.js';
import { formatNs, formatRatio } from '../bench/format.js';
import type { BenchResults, Row } from '../bench/results.js';
import { REDIS_METHOD, renderRedis, type RedisResults } from '../bench/report-redis.js';

const machine = { cpu: 'Test CPU 9000', cores: 2, memoryGiB: 24, node: 'v20.20.2', platform: 'linux x64', loadAverage: 0.25 };
const A = '(a) URLs, n = 1,000';
const B = '(b) keys, n = 10';

const rows: Row[] = [
  { workload: A, op: 'add', contestant: 'wasm single', nsPerOp: 100 },
  { workload: A, op: 'has present', contestant: 'wasm single', nsPerOp: 80 },
  { workload: A, op: 'has absent', contestant: 'wasm single', nsPerOp: 50 },
  { workload: A, op: 'add', contestant: 'wasm batch (packed)', nsPerOp: 60 },
  { workload: A, op: 'has present', contestant: 'wasm batch (packed)', nsPerOp: 40 },
  { workload: A, op: 'has absent', contestant: 'wasm batch (packed)', nsPerOp: 45 },
  { workload: A, op: 'add', contestant: 'reference', nsPerOp: 4000, note: 'slow' },
  { workload: A, op: 'has present', contestant: 'reference', nsPerOp: 3000, note: 'slow' },
  { workload: A, op: 'has absent', contestant: 'reference', nsPerOp: 2500 },
  { workload: A, op: 'add', contestant: 'bloomfilter', nsPerOp: 250 },
  { workload: A, op: 'has present', contestant: 'bloomfilter', nsPerOp: 200 },
  { workload: A, op: 'has absent', contestant: 'bloomfilter', nsPerOp: 100 },
  { workload: A, op: 'add', contestant: 'bloom-filters', nsPerOp: 12345 },
  { workload: A, op: 'has present', contestant: 'bloom-filters', nsPerOp: 8000 },
  { workload: A, op: 'has absent', contestant: 'bloom-filters', nsPerOp: 600 },
  { workload: A, op: 'encode', contestant: 'encode only (floor)', nsPerOp: 5.04 },
  { workload: B, op: 'add', contestant: 'wasm single', nsPerOp: 10 },
  { workload: B, op: 'has absent', contestant: 'wasm single', nsPerOp: 20 },
  { workload: B, op: 'add', contestant: 'Set<number>', nsPerOp: 30 },
];

const results: BenchResults = {
  date: '2026-11-30T00:49:12.345Z',
  machine,
  taskTimeMs: 400,
  scale: 1,
  quick: false,
  seconds: 241.6,
  // (b) first: the report orders workloads by their letter.
  rows: [...rows.slice(16), ...rows.slice(0, 16)],
  falsePositives: [{ workload: '(a)', contestant: 'wasm', bits: 10000, hashes: 7, items: 1000, queries: 1000, falsePositives: 9, theoretical: 0.00819, note: 'same answers' }],
  heap: [{ call: 'has(string)', calls: 1000000, growthBytes: 2048, gcsDuringLoop: 0 }],
  scalable: { members: 7, chainBits: 23300000, fixedBits: 9585059, chainFalsePositives: 9970, fixedFalsePositives: 9900, queries: 1000000 },
  bitmap: { values: 1000000, distinct: 994838, toArrayMs: 25.04, sortMs: 107.2 },
};

const tableA = [
  `### ${A}`,
  '',
  '| contestant | add | has present | has absent |',
  '|---|---:|---:|---:|',
  '| wasm single | 100 | 80 | 50 |',
  '| wasm batch (packed) | 60 (0.60×) | 40 (0.50×) | 45 (0.90×) |',
  '| reference | 4,000 (40.0×) | 3,000 (37.5×) | 2,500 (50.0×) |',
  '| bloomfilter | 250 (2.50×) | 200 (2.50×) | 100 (2.00×) |',
  '| bloom-filters | 12,345 (123×) | 8,000 (100×) | 600 (12.0×) |',
  '| encode only (floor) | 5.0 (0.05×) | 5.0 (0.06×) | 5.0 (0.10×) |',
  '',
  '- reference: slow',
].join('\n');

const tableB = [
  `### ${B}`,
  '',
  '| contestant | add | has present | has absent |',
  '|---|---:|---:|---:|',
  '| wasm single | 10 |  | 20 |',
  '| Set<number> | 30 (3.00×) |  |  |',
].join('\n');

const summary = [
  '### Summary',
  '',
  `${A}: ns per operation, and how many times longer the reference and the peers take than \`wasm single\`.`,
  '',
  '| operation | wasm single | wasm batch (packed) | encode only (floor) | reference | bloomfilter | bloom-filters |',
  '|---|---:|---:|---:|---:|---:|---:|',
  '| add | 100 | 60 | 5.0 | 40.0× | 2.50× | 123× |',
  '| has present | 80 | 40 | 5.0 | 37.5× | 2.50× | 100× |',
  '| has absent | 50 | 45 | 5.0 | 50.0× | 2.00× | 12.0× |',
].join('\n');

describe('bench report', () => {
  it('formats ns and ratios', () => {
    expect([formatNs(5.04), formatNs(9.96), formatNs(10.4), formatNs(13180.4)]).toEqual(['5.0', '10.0', '10', '13,180']);
    expect([formatRatio(0.054), formatRatio(9.994), formatRatio(12.34), formatRatio(123.4)]).toEqual(['0.05×', '9.99×', '12.3×', '123×']);
  });

  it('renders a workload table with ratios to the wasm single row, the floor in every column, and notes once', () => {
    expect(renderWorkload(rows, A)).toBe(tableA);
    expect(renderWorkload(rows, B)).toBe(tableB);
  });

  it('renders the summary of workload (a)', () => {
    expect(renderSummary(rows)).toBe(summary);
    expect(renderSummary(rows.slice(16))).toBe('');
  });

  it('renders the whole bench section', () => {
    const expected = [
      '## Library (`npm run bench`)',
      '',
      'Run of 2026-11-30 00:49 UTC on Test CPU 9000 (2 cores), 24 GiB, Node v20.20.2, linux x64, load average 0.3 at the start; 400 ms per task, item counts × 1, 242 s in all.',
      '',
      'Every cell is the median time of one operation in ns; in brackets, that time divided by the `wasm single` row\'s for the same operation (above 1× the wasm filter is faster). The floor row is one figure, `TextEncoder.encodeInto` of the same item, repeated in each column.',
      '',
      summary,
      '',
      BENCH_METHOD,
      '',
      tableA,
      '',
      tableB,
      '',
      '### False-positive rates',
      '',
      '| workload | contestant | m | k | n | queries | false positives | measured | (1 − e^(−kn/m))^k | measured / theory |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      '| (a) | wasm (same answers) | 10,000 | 7 | 1,000 | 1,000 | 9 | 0.900% | 0.819% | 1.099 |',
      '',
      '### Heap growth over single calls',
      '',
      '`process.memoryUsage().heapUsed` after a forced GC, before and after the loop.',
      '',
      '| call | calls | heap growth | GCs during the loop |',
      '|---|---:|---:|---:|',
      '| has(string) | 1,000,000 | 2.0 KiB | 0 |',
      '',
      '### ScalableBloomFilter against a fixed filter',
      '',
      'The chain grew to 7 members and 23,300,000 bits (the fixed filter: 9,585,059, 2.43×). Over 1,000,000 absent items it answered 9,970 false positives (0.997%), the fixed filter 9,900 (0.990%).',
      '',
      '### Bitmap iteration',
      '',
      '`toArray()` of the 994,838 distinct values took 25.0 ms; `Uint32Array.prototype.sort` of the 1,000,000 inputs 107.2 ms.',
    ].join('\n');
    expect(renderBench(results)).toBe(expected);
  });

  it('marks a quick run and prints a note, and leaves out what was not measured', () => {
    const out = renderBench({ ...results, date: '2026-11-30', seconds: 0, quick: true, scale: 0.002, note: 'A note.', falsePositives: [], heap: [], scalable: undefined, bitmap: undefined, rows: rows.slice(16) });
    expect(out).toBe([
      '## Library (`npm run bench`)',
      '',
      'Run of 2026-11-30 on Test CPU 9000 (2 cores), 24 GiB, Node v20.20.2, linux x64, load average 0.3 at the start; 400 ms per task, item counts × 0.002 (quick smoke mode: tiny sizes, the figures mean nothing).',
      '',
      'A note.',
      '',
      'Every cell is the median time of one operation in ns; in brackets, that time divided by the `wasm single` row\'s for the same operation (above 1× the wasm filter is faster). The floor row is one figure, `TextEncoder.encodeInto` of the same item, repeated in each column.',
      '',
      BENCH_METHOD,
      '',
      tableB,
    ].join('\n'));
  });

  it('renders the CLI section with ratios to awk and the predicted loss', () => {
    const cli: CliResults = {
      date: '2026-11-30T01:02:00.000Z',
      machine: { ...machine, loadAverage: undefined },
      lines: 10_000_000,
      sizeBytes: 618_400_000,
      distinct: 8_334_675,
      capacity: 10_000_000,
      runs: [
        { name: 'bloom dedupe --fpp 0.001', seconds: 3.79, peakKiB: 72704, lines: 8_334_418, bits: 143775876, hashes: 10, predictedLoss: 261.6 },
        { name: AWK, seconds: 51.77, peakKiB: 1140736, lines: 8_334_675 },
      ],
    };
    expect(renderCli(cli)).toBe([
      '## `bloom dedupe` against awk and sort (`npm run bench:cli`)',
      '',
      'Run of 2026-11-30 01:02 UTC on Test CPU 9000 (2 cores), 24 GiB, Node v20.20.2, linux x64. Input: 10,000,000 URLs, 618 MB, 8,334,675 distinct; `--capacity` is 10000000 where given.',
      '',
      '| command | wall time | peak RSS | awk time / this | awk RSS / this | unique lines lost |',
      '|---|---:|---:|---:|---:|---|',
      '| `bloom dedupe --fpp 0.001` | 3.79 s | 71 MiB | 13.7× | 15.7× | 257 (predicted 262; m = 143,775,876, k = 10) |',
      "| `awk '!seen[$0]++'` | 51.77 s | 1,114 MiB | 1.0× | 1.0× | 0 |",
      '',
      CLI_METHOD,
    ].join('\n'));
  });

  it('renders the Redis section with items per second and the ratio per batch size', () => {
    const redis: RedisResults = {
      date: '2026-11-30T02:10:00.000Z',
      machine,
      redisVersion: '7.0.15',
      bits: 95_850_584,
      hashes: 7,
      shards: 1,
      taskTimeMs: 1500,
      quick: false,
      rows: [
        { batch: 1, addManyPerSecond: 9_876.4, naivePerSecond: 4_321.2 },
        { batch: 1000, addManyPerSecond: 612_345.6, naivePerSecond: 30_100 },
      ],
      addedCount: 1_234_567,
      estimatedCount: 1_234_012.7,
    };
    expect(renderRedis(redis)).toBe([
      '## RedisBloomFilter against GETBIT and SETBIT (`npm run bench:redis`)',
      '',
      'Run of 2026-11-30 02:10 UTC on Test CPU 9000 (2 cores), 24 GiB, Node v20.20.2, linux x64, load average 0.3 at the start; Redis 7.0.15, m = 95,850,584, k = 7, 1 shard; 1500 ms per task.',
      '',
      '| batch | addMany (items/s) | naive GETBIT+SETBIT (items/s) | addMany / naive |',
      '|---:|---:|---:|---:|',
      '| 1 | 9,876 | 4,321 | 2.3× |',
      '| 1,000 | 612,346 | 30,100 | 20.3× |',
      '',
      'After the run the filter had 1,234,567 adds and an estimated count of 1,234,013.',
      '',
      REDIS_METHOD,
    ].join('\n'));
    const quick = renderRedis({ ...redis, date: '2026-11-30', machine: { ...machine, loadAverage: undefined }, shards: 3, taskTimeMs: 20, quick: true, rows: [], note: 'A note.' });
    expect(quick.split('\n').slice(0, 7)).toEqual([
      '## RedisBloomFilter against GETBIT and SETBIT (`npm run bench:redis`)',
      '',
      'Run of 2026-11-30 on Test CPU 9000 (2 cores), 24 GiB, Node v20.20.2, linux x64; Redis 7.0.15, m = 95,850,584, k = 7, 3 shards; 20 ms per task (quick smoke mode: a tiny filter and short tasks, the figures mean nothing).',
      '',
      'A note.',
      '',
      '| batch | addMany (items/s) | naive GETBIT+SETBIT (items/s) | addMany / naive |',
    ]);
  });

  it('keeps the Redis section after the CLI section in a new document, and replaces it alone', () => {
    const doc = replaceSection(replaceSection(replaceSection('', 'bench', 'BENCH'), 'cli', 'CLI'), 'redis', 'REDIS 1');
    expect(doc).toBe([
      DOCUMENT_TEMPLATE.slice(0, DOCUMENT_TEMPLATE.indexOf('<!-- generated:bench:start -->')).trimEnd(),
      '',
      '<!-- generated:bench:start -->', 'BENCH', '<!-- generated:bench:end -->',
      '',
      '<!-- generated:cli:start -->', 'CLI', '<!-- generated:cli:end -->',
      '',
      '<!-- generated:redis:start -->', 'REDIS 1', '<!-- generated:redis:end -->',
      '',
    ].join('\n'));
    expect(replaceSection(doc, 'redis', 'REDIS 2')).toBe(doc.replace('REDIS 1', 'REDIS 2'));
  });

  it('replaces one section in place and keeps the other and the text around them', () => {
    const first = replaceSection('', 'bench', 'BENCH 1');
    expect(first).toBe(DOCUMENT_TEMPLATE.replace('<!-- generated:bench:start -->\n', '<!-- generated:bench:start -->\nBENCH 1\n'));
    const withCli = replaceSection(first, 'cli', 'CLI 1\n');
    const edited = withCli.replace('# Benchmarks\n', '# Benchmarks\n\nA hand-written line.\n');
    const second = replaceSection(edited, 'bench', 'BENCH 2');
    expect(second).toContain('A hand-written line.');
    expect(second).toContain('<!-- generated:bench:start -->\nBENCH 2\n<!-- generated:bench:end -->');
    expect(second).toContain('<!-- generated:cli:start -->\nCLI 1\n<!-- generated:cli:end -->');
    expect(second).not.toContain('BENCH 1');
    // A document without the markers keeps its text and gains the section at its end.
    expect(replaceSection('# Mine\n', 'cli', 'CLI')).toBe('# Mine\n\n<!-- generated:cli:start -->\nCLI\n<!-- generated:cli:end -->\n');
  });

  it('finds in docs/BENCHMARKS.md no hand-written section inside a generated one, which the next run would drop', () => {
    const doc = readFileSync(new URL('../docs/BENCHMARKS.md', import.meta.url), 'utf8');
    const blocks = [...doc.matchAll(/<!-- generated:([a-z]+):start -->\n([\s\S]*?)<!-- generated:\1:end -->/g)];
    expect(blocks.length).toBeGreaterThan(5);
    for (const [, name, body] of blocks) {
      // What a bench writes: its own heading first, and only subsections under it.
      expect({ name, headings: body.match(/^## .*$/gm)?.length ?? 0, first: body.startsWith('## ') }).toEqual({ name, headings: 1, first: true });
    }
  });
});
