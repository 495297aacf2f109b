// `bloom serve`: argument handling and the static server on 127.0.0.1.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { run, startServer } from '../dist/cli/serve.js';
import { BIN } from './helpers/bin.js';

/** Runs `bloom serve` with argv, capturing what it prints. */
async function serve(argv: string[], whileRunning?: (out: string) => Promise<void>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  const running = run(argv);
  if (whileRunning) {
    await vi.waitFor(() => expect(out).toMatch(/http:\/\/127\.0\.0\.1:\d+\//));
    await whileRunning(out);
    process.emit('SIGINT');
  }
  const code = await running;
  vi.restoreAllMocks();
  return { code, out, err };
}

describe('bloom serve', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints its usage for --help and exits 0', async () => {
    const { code, out } = await serve(['--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: bloom serve \[--port N\]/);
  });

  it('exits 2 with a message naming the problem on a usage error', async () => {
    for (const [argv, message] of [
      [['--port', 'http'], "bloom: --port must be an integer in [0, 65535]; got 'http'\n"],
      [['--port', '70000'], "bloom: --port must be an integer in [0, 65535]; got '70000'\n"],
      [['--port', '-1'], "bloom: --port got '-1', which starts with '-'; write --port=-1 to pass it as the value"],
      [['--verbose'], "bloom: Unknown option '--verbose'"],
      [['extra'], "bloom: Unexpected argument 'extra'"],
    ] as const) {
      const { code, err } = await serve([...argv]);
      expect(code, argv.join(' ')).toBe(2);
      expect(err).toContain(message);
      // One line, as every bloom error.
      expect(err.split('\n').filter(Boolean)).toHaveLength(1);
    }
  });

  it('exits 1 when the port is taken', async () => {
    const other = await startServer(0);
    const { code, err } = await serve(['--port', String(other.port)]);
    await other.close();
    expect(code).toBe(1);
    expect(err).toMatch(new RegExp(`^bloom: cannot listen on 127\\.0\\.0\\.1:${other.port}: .*EADDRINUSE`));
  });

  it('serves the playground on 127.0.0.1 until interrupted, then exits 0', async () => {
    const { code } = await serve(['--port', '0'], async (out) => {
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)![0];
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain('<title>bloomwasm playground</title>');
      const script = await fetch(url + 'playground.js');
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect((await fetch(url + 'missing.txt')).status).toBe(404);
      // Nothing outside the playground directory, however the path is spelled.
      expect((await fetch(url + '..%2f..%2fpackage.json')).status).toBe(403);
      expect((await fetch(url + 'index.html', { method: 'POST' })).status).toBe(405);
    });
    expect(code).toBe(0);
  });
});

describe('bloom serve through the bloom command', () => {
  it('serves until SIGINT and exits 0', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await vi.waitFor(() => expect(out).toMatch(/^bloomwasm playground: http:\/\/127\.0\.0\.1:\d+\/ /), { timeout: 30_000 });
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)![0];
      expect(await (await fetch(url)).text()).toContain('<title>bloomwasm playground</title>');
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});
