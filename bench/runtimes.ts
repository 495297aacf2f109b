// `npm run bench:runtimes`: workloads (a) URLs and (b) keys of `npm run bench`
// under every runtime users run: Node 20 (the machine's, or BLOOM_NODE20),
// 22, 24 and 26, Bun and Deno, from the npm registry (`npm run runtimes`
// installs them into build/runtimes/). Each runtime runs build/bench/run.mjs
// with BENCH_ONLY=a,b, and there each contestant runs in a process of its
// own (BENCH_ISOLATE), as in the main bench. Writes one dated table, ns per
// operation and the ratios the targets name, as the "runtimes" section of
// docs/BENCHMARKS.md.
//
// Env: BENCH_SCALE (item counts; default 0.2, 200,000 URLs and keys),
// BENCH_TIME (ms per task, default 400), BENCH_REPEAT (processes per
// contestant, default 3: each row keeps the median, since one process's
// figure moved by up to 1.6x from the next on this 2-core machine),
// RUNTIMES_ONLY (runtime names, e.g. `Node 24,Bun 1.4`).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RUNTIMES } from '../src/build/runtimes.mjs';
import { documentPath, writeSection } from './document.js';
import { DENO_ARGUMENTS, describeMachine } from './harness.js';
import { formatDate, formatMachine, formatNs, formatRatio } from './format.js';
import type { BenchResults, Row } from './results.js';

const root = process.cwd();
const script = join(root, 'build/bench/run.mjs');
const scale = process.env.BENCH_SCALE ?? '0.2';
const repeat = process.env.BENCH_REPEAT ?? '3';
const only = process.env.RUNTIMES_ONLY?.split(',').map((name) => name.trim());

/** A runtime to measure: its name, binary and the arguments before the script. */
interface Contender {
  name: string;
  binary: string;
  args: string[];
}

const node20 = process.env.BLOOM_NODE20 ?? (process.versions.node.startsWith('20.') ? process.execPath : undefined);
const contenders: Contender[] = [
  ...(node20 !== undefined ? [{ name: 'Node 20', binary: node20, args: ['--expose-gc', '--max-old-space-size=8192'] }] : []),
  ...RUNTIMES.map((r) => ({
    name: r.name,
    binary: join(root, r.dir, r.binary),
    args: r.name.startsWith('Deno') ? DENO_ARGUMENTS : ['--expose-gc', '--max-old-space-size=8192'],
  })),
].filter((c) => only === undefined || only.includes(c.name));

mkdirSync(join(root, 'build/bench'), { recursive: true });
const started = new Date().toISOString();
const results: Array<{ name: string; results: BenchResults }> = [];
for (const c of contenders) {
  if (!existsSync(c.binary)) throw new Error(`${c.name}: ${c.binary} is missing (npm run runtimes installs it)`);
  const file = join(root, `build/bench/runtime-${c.name.replace(/\W+/g, '-')}.json`);
  rmSync(file, { force: true });
  console.log(`bench:runtimes: ${c.name}`);
  const done = spawnSync(c.binary, [...c.args, script], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, BENCH_ONLY: 'a,b', BENCH_ISOLATE: 'a,b', BENCH_SCALE: scale, BENCH_REPEAT: repeat, BENCH_RESULTS: file },
  });
  if (done.status !== 0) throw new Error(`${c.name} failed (${done.status ?? done.signal})`);
  results.push({ name: c.name, results: JSON.parse(readFileSync(file, 'utf8')) as BenchResults });
}

/** The row of `contestant` doing `op` in the workload whose title starts with `letter`. */
function find(rows: Row[], letter: string, contestant: string, op: string): number | undefined {
  return rows.find((r) => r.workload.startsWith(`(${letter})`) && r.contestant === contestant && r.op === op)?.nsPerOp;
}

/** The lines of the table: one per measure, one column per runtime. */
const measures: Array<{ label: string; value: (rows: Row[]) => string }> = [];
const ns = (letter: string, contestant: string, op: string) => (rows: Row[]) => {
  const v = find(rows, letter, contestant, op);
  return v === undefined ? '–' : formatNs(v);
};
const ratio = (letter: string, [c1, op1]: [string, string], [c2, op2]: [string, string]) => (rows: Row[]) => {
  const a = find(rows, letter, c1, op1);
  const b = find(rows, letter, c2, op2);
  return a === undefined || b === undefined ? '–' : formatRatio(a / b);
};
for (const [letter, what] of [['a', 'URLs'], ['b', 'keys']] as const) {
  measures.push(
    { label: `${what}: encodeInto floor, ns`, value: ns(letter, 'encode only (floor)', 'encode') },
    { label: `${what}: sbbf \`has\` absent, ns`, value: ns(letter, 'sbbf single', 'has absent') },
    { label: `${what}: sbbf \`has\` present, ns`, value: ns(letter, 'sbbf single', 'has present') },
    { label: `${what}: sbbf \`add\`, ns`, value: ns(letter, 'sbbf single', 'add') },
    { label: `${what}: xxh64 \`has\` absent, ns`, value: ns(letter, 'wasm single', 'has absent') },
    { label: `${what}: \`bloomfilter\` \`has\` absent, ns`, value: ns(letter, 'bloomfilter', 'has absent') },
    { label: `${what}: \`bloomfilter\` \`add\`, ns`, value: ns(letter, 'bloomfilter', 'add') },
    { label: `${what}: sbbf \`has\` absent against \`bloomfilter\``, value: ratio(letter, ['bloomfilter', 'has absent'], ['sbbf single', 'has absent']) },
    { label: `${what}: sbbf \`has\` present against \`bloomfilter\``, value: ratio(letter, ['bloomfilter', 'has present'], ['sbbf single', 'has present']) },
    { label: `${what}: sbbf \`add\` against \`bloomfilter\``, value: ratio(letter, ['bloomfilter', 'add'], ['sbbf single', 'add']) },
    { label: `${what}: xxh64 \`has\` against \`bloomfilter\``, value: ratio(letter, ['bloomfilter', 'has absent'], ['wasm single', 'has absent']) },
    { label: `${what}: sbbf \`has\` over the floor`, value: ratio(letter, ['sbbf single', 'has absent'], ['encode only (floor)', 'encode']) },
  );
}
measures.push({ label: 'URLs: sbbf `has` on `Uint8Array` items against `bloomfilter` on strings', value: (rows) => {
  const a = find(rows, 'a', 'bloomfilter', 'has absent');
  const b = find(rows, 'a', 'sbbf single (bytes)', 'has absent');
  return a === undefined || b === undefined ? '–' : formatRatio(a / b);
} });

const first = results[0]?.results;
const markdown = [
  '## Runtimes (`npm run bench:runtimes`)',
  '',
  `Run of ${formatDate(started)} on ${formatMachine({ ...describeMachine(), runtime: 'each runtime below' })}. Workloads (a) (URLs of 64 to 70 characters) and (b) (keys of 8 to 16 characters) at ${Number(scale) * 1e6 >= 1e6 ? Number(scale) * 1e6 : (Number(scale) * 1e6).toLocaleString('en-US')} items, m = 10n, k = 7 (sbbf: the same m, 8 bits in a 256-bit block); every contestant ran in ${repeat === '1' ? 'a process' : `${repeat} processes`} of its own under each runtime${repeat === '1' ? '' : ' (each figure is the median of theirs)'}, ${first?.taskTimeMs ?? 400} ms per task. Strings are read in place by wasm up to 32 units where the engine has the JS String Builtins, is not JavaScriptCore and is not V8 15 or later (Node 22 to 26), and copied elsewhere (Node 20, Bun, Deno) and beyond (docs/RUNTIMES.md). The code is \`bench/runtimes.ts\`.`,
  '',
  `| measure | ${results.map((r) => r.name).join(' | ')} |`,
  `|---|${results.map(() => '---:').join('|')}|`,
  ...measures.map((m) => `| ${m.label} | ${results.map((r) => m.value(r.results.rows)).join(' | ')} |`),
].join('\n');
console.log(markdown);
writeSection(documentPath(only !== undefined), 'runtimes', markdown);
