// A named pipe with no writer, handed to every loader of bloomwasm/node and
// to the CLI commands that load a file: each refuses it at once with
// BloomTypeError on `path` (a pipe has no size to check the headers
// against), where open() alone would wait for a writer forever. Each runs in
// a child process under a timeout, so that a hang fails the test instead of
// stopping the suite.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers/bin.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-pipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fifo = join(dir, 'no-writer.fifo');
const made = spawnSync('mkfifo', [fifo]);

/** Long enough for a child to start and refuse; a child blocked in open() is killed then. */
const TIMEOUT_MS = 20_000;

const LOADERS = ['loadFile', 'loadFileSync'];

/** A child, bundled from the sources: calls each loader (and inspectFileSync) on argv[2] in turn and prints what each threw, one JSON line each. */
function bundleChild(): string {
  const node = fileURLToPath(new URL('../src/node/index.ts', import.meta.url));
  const inspect = fileURLToPath(new URL('../src/node/inspect.ts', import.meta.url));
  const contents = `
    import * as files from ${JSON.stringify(node)};
    import { inspectFileSync } from ${JSON.stringify(inspect)};
    const path = process.argv[2];
    const calls = { ...Object.fromEntries(${JSON.stringify(LOADERS)}.map((name) => [name, () => files[name](path)])), inspectFileSync: () => inspectFileSync(path) };
    for (const [name, call] of Object.entries(calls)) {
      let outcome;
      try {
        await call();
        outcome = { name, threw: null };
      } catch (error) {
        outcome = { name, threw: error.name, parameter: error.parameter, message: error.message };
      }
      process.stdout.write(JSON.stringify(outcome) + '\\n');
    }
  `;
  const outfile = join(dir, 'load-pipe.mjs');
  buildSync({ stdin: { contents, resolveDir: dir, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'error' });
  return outfile;
}

describe('a named pipe with no writer', () => {
  it('is refused at once by every loader and by inspectFileSync, with BloomTypeError on path', () => {
    expect(made.status, made.stderr?.toString()).toBe(0);
    const r = spawnSync(process.execPath, [bundleChild(), fifo], { encoding: 'utf8', timeout: TIMEOUT_MS });
    expect(r.signal, `a loader blocked; it got through: ${r.stdout}`).toBe(null);
    expect(r.stderr).toBe('');
    const outcomes = r.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(outcomes.map((o) => o.name)).toEqual([...LOADERS, 'inspectFileSync']);
    for (const o of outcomes) {
      expect(o, o.name).toMatchObject({ threw: 'BloomTypeError', parameter: 'path' });
      expect(o.message, o.name).toMatch(/^path must be a regular file \(a pipe, socket, device or directory/);
    }
  });

  it('is refused at once by bloom info, bloom check and bloom dedupe --state, exit 1 naming the path', () => {
    const cases: [string[], RegExp][] = [
      [['info', fifo], /^bloom: cannot read .*no-writer\.fifo: path must be a regular file .*; got ".*no-writer\.fifo"\n$/],
      [['check', fifo], /^bloom: cannot read .*no-writer\.fifo: path must be a regular file .*\n$/],
      [['dedupe', '--state', fifo], /^bloom: cannot use --state .*no-writer\.fifo \(left untouched\): path must be a regular file .*\n$/],
    ];
    for (const [args, message] of cases) {
      const r = spawnSync(process.execPath, [BIN, ...args], { input: 'a\n', encoding: 'utf8', timeout: TIMEOUT_MS });
      expect(r.signal, `bloom ${args.join(' ')} blocked`).toBe(null);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
  });

  it('leaves regular files loading as before (O_NONBLOCK changes nothing for them)', () => {
    const file = join(dir, 'keys.txt');
    writeFileSync(file, 'a\nb\n');
    const out = join(dir, 'keys.blmf');
    expect(spawnSync(process.execPath, [BIN, 'build', file, '-o', out], { encoding: 'utf8' }).status).toBe(0);
    const r = spawnSync(process.execPath, [BIN, 'check', out], { input: 'a\nc\nb\n', encoding: 'utf8', timeout: TIMEOUT_MS });
    expect(r.stdout).toBe('a\nb\n');
    expect(spawnSync(process.execPath, [BIN, 'info', '--json', out], { encoding: 'utf8' }).status).toBe(0);
  });
});
