// The portable suites (API surface, parity, strings read in place and
// copied in, format, batches, counting, chains, the cuckoo and binary
// fuse filters, dedupe streams and BloomFilter.from, many filters, shared memory) under every runtime users run: Node
// 22, 24 and 26, Bun and Deno, each a binary from the npm registry that
// `npm run runtimes` installs into build/runtimes/ (.ci/run does), and
// Node 20 where the suite itself runs on another (BLOOM_NODE20). Each runs
// test/helpers/portable.js over dist/, and its answers must equal those of
// the Node that runs the tests. In CI a missing runtime fails its suite;
// outside CI it is skipped, loudly.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parityCases } from './helpers/parity-cases.js';
import { runStatic } from './helpers/run-cases.js';
import { runStream, type StreamAnswers } from './helpers/run-stream.js';
import { RUNTIMES } from '../src/build/runtimes.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const SCRIPT = join(root, 'test/helpers/portable.js');
const DIST = pathToFileURL(join(root, 'dist/index.js')).href;
const inCI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== '0' && process.env.CI !== 'false';

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-runtimes-'));
const casesPath = join(dir, 'cases.json');
writeFileSync(casesPath, JSON.stringify(parityCases()));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the portable script prints: its answers, and the longest string the runtime reads in place (-1: none). */
interface Printed {
  answers: Record<string, unknown>;
  inPlaceUnits: number;
}

/** The portable script's output under `binary` (Deno needs its permissions). */
function run(binary: string, deno = false): Printed {
  const args = deno ? ['run', '--allow-read', '--allow-env', SCRIPT, DIST, casesPath] : [SCRIPT, DIST, casesPath];
  const out = execFileSync(binary, args, { encoding: 'utf8', timeout: 180_000, maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(out.trim().split('\n').pop()!) as Printed;
}

const host = run(process.execPath);
const expected = host.answers;

/**
 * The path each runtime's strings take (docs/RUNTIMES.md): read in place up
 * to 32 units where V8 12.4 to 14 supplies the JS String Builtins (Node 22 to
 * 26); copied on Node 20 (no builtins), Bun (JavaScriptCore) and Deno 2.9
 * (V8 15, where the copy is cheaper).
 */
const IN_PLACE_UNITS: Record<string, number> = {
  'Node 22': 32, 'Node 24': 32, 'Node 26': 32, 'Bun 1.4': -1, 'Deno 2.9': -1, "Node 20 (the machine's)": -1,
};

describe('the portable suites in Node (the expected answers)', () => {
  it('answers every part, shared memory included', () => {
    const e = expected;
    const v8 = Number(process.versions.v8.split('.')[0]);
    expect(host.inPlaceUnits).toBe(v8 >= 12 && v8 < 15 ? 32 : -1);
    expect(Object.keys(e).sort()).toEqual(['batches', 'cases', 'chain', 'counting', 'format', 'many', 'modules', 'seeds', 'shared', 'static', 'stream', 'strings', 'surface']);
    expect(e.strings).toEqual({ runs: 100, failed: false, counterexample: null });
    expect(e.many).toEqual({ found: 20_000, refused: 'BloomDisposedError BloomFilter.has' });
    // The family modules the other parts leave out: what holds whatever the runtime.
    const modules = e.modules as { bitmap: { count: number; has: number[] }; long: { polyHas: boolean[]; bytesumHas: boolean[] } };
    expect(modules.bitmap.count).toBe(500);
    expect(modules.bitmap.has).toEqual([1, 1, 0, 1]);
    expect(modules.long.polyHas).toEqual([true, true, true]);
    expect(modules.long.bytesumHas).toEqual([true, true, true]);
  });

  it('answers as the reference twin for dedupe streams and BloomFilter.from, with their numbers', async () => {
    const reference = await import('../dist/reference/index.js');
    const got = expected.stream as StreamAnswers;
    expect(got).toEqual(await runStream(reference));
    expect(got.from).toMatchObject({ bits: 28_756, hashes: 7, sameAsForCapacity: true, setBits: 19_171, held: true });
    expect(got.from.refused).toEqual(['BloomRangeError items.length', 'BloomRangeError items.size', 'BloomTypeError items', 'BloomTypeError items[1]']);
    for (const kind of ['bloom', 'sbbf', 'scalable', 'counting', 'sliding', 'cuckoo', 'bytes'] as const) expect([kind, got.dedupe[kind].passed]).toEqual([kind, 2000]);
    expect(got.dedupe.tight.passed).toBe(599);
    expect(got.backpressure).toMatchObject({ stalled: { accepted: 32, added: 16, acceptedAt3: 6 }, then: { accepted: 3000, passed: 2000, items: got.dedupe.bloom.items } });
    expect(got.errors).toEqual({ chunk: 'BloomTypeError chunks[2] 2', filter: Array(4).fill('BloomTypeError filter'), highWaterMark: 'BloomRangeError options.highWaterMark' });
  });

  it('answers as the reference twin for the cuckoo and binary fuse filters, with no false negative', async () => {
    const reference = await import('../dist/reference/index.js');
    const got = expected.static as ReturnType<typeof runStatic>;
    expect(got).toEqual(runStatic(reference));
    expect(got.cuckoo).toMatchObject({ removed: 950, afterRemove: { kept: 950, absentHits: 0 }, size: 950, sameFile: true, full: 'BloomFullError', grown: { members: 5, kept: 2000 } });
    expect(got.fuse.map((f) => [f.fingerprintBits, f.kept, f.keysKept])).toEqual([[8, 3000, 1000], [16, 3000, 1000]]);
  });
});

// CI runs the whole suite on Node 24 and names the machine's Node 20 here,
// which then runs the portable suites like the others.
const machineNode20 = process.env.BLOOM_NODE20;
const portable = [
  ...RUNTIMES.filter((r) => r.portable).map((r) => ({ name: r.name, binary: join(root, r.dir, r.binary) })),
  ...(machineNode20 ? [{ name: 'Node 20 (the machine\'s)', binary: machineNode20 }] : []),
];

for (const runtime of portable) {
  const binary = runtime.binary;
  const present = existsSync(binary);
  if (!present && !inCI) {
    console.warn(`\n*** SKIPPING the portable suites under ${runtime.name}: ${binary} is missing (npm run runtimes). In CI they fail instead. ***\n`);
  }
  (present || inCI ? describe : describe.skip)(`the portable suites under ${runtime.name}`, () => {
    it('give the same answers as Node: surface, parity vectors, strings on both paths, files, batches, counting, sliding windows, Bitmaps, long items of the exercise schemes, chains, cuckoo and binary fuse filters, dedupe streams and BloomFilter.from, many filters, shared memory', () => {
      if (!present) throw new Error(`${binary} is missing: run npm run runtimes (.ci/run does)`);
      const printed = run(binary, runtime.name.startsWith('Deno'));
      expect({ runtime: runtime.name, inPlaceUnits: printed.inPlaceUnits }).toEqual({ runtime: runtime.name, inPlaceUnits: IN_PLACE_UNITS[runtime.name] });
      const got = printed.answers;
      const want = expected;
      // Part by part, so that a failure names the part.
      for (const part of Object.keys(want)) expect({ part, answer: got[part] }).toEqual({ part, answer: want[part] });
      expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
    });
  });
}
