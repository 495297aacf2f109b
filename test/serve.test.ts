// `bloom serve`: argument handling and the static server on 127.0.0.1.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { run, startServer } from '../dist/cli/serve.js';

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
      [['--port', 'http'], '--port must be an integer in [0, 65535]; got "http"'],
      [['--port', '70000'], '--port must be an integer in [0, 65535]; got "70000"'],
      [['--port', '-1'], '--port'],
      [['--verbose'], "Unknown option '--verbose'"],
      [['extra'], 'extra'],
    ] as const) {
      const { code, err } = await serve([...argv]);
      expect(code, argv.join(' ')).toBe(2);
      expect(err).toContain(message);
      expect(err).toContain('Usage: bloom serve');
    }
  });

  it('exits 1 when the port is taken', async () => {
    const other = await startServer(0);
    const { code, err } = await serve(['--port', String(other.port)]);
    await other.close();
    expect(code).toBe(1);
    expect(err).toContain(`cannot listen on 127.0.0.1:${other.port}`);
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
