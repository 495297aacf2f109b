// `bloom serve [--port N]`: serves the playground page (dist/playground/,
// built from src/playground/) on 127.0.0.1 until interrupted. Loopback only:
// the page is a local teaching tool, not something to expose on a network.
//
// Every file goes out with COOP same-origin and COEP require-corp, so the
// page is cross-origin isolated (self.crossOriginIsolated): only then do
// browsers give it SharedArrayBuffer and shared WebAssembly.Memory, which a
// filter shared with a Web Worker needs (docs/SHARED.md). Everything served
// is same-origin, so require-corp blocks nothing of ours.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guard, intOption, parse } from './common.js';

const USAGE = `Usage: bloom serve [--port N]

Serves the bloomwasm playground on http://127.0.0.1:N/ until interrupted, cross-origin
isolated (COOP/COEP headers), so pages it serves can share a filter with a Web Worker.

Options:
  -p, --port N   TCP port on 127.0.0.1, 0 to 65535 (default 8080; 0 picks a free one)
  -h, --help     show this help
`;

/** Where `npm run build` puts the playground, relative to this file (dist/cli/serve.js). */
export const PLAYGROUND_DIR = fileURLToPath(new URL('../playground/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** The headers that make a page cross-origin isolated (needed for shared memory). */
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
} as const;

/** A running playground server. */
export interface PlaygroundServer {
  /** The page's address, such as http://127.0.0.1:8080/. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Stops listening and resolves once closed. */
  close(): Promise<void>;
}

/** Serves the files of `root` (default: the built playground) on 127.0.0.1:`port`. */
export async function startServer(port: number, root: string = PLAYGROUND_DIR): Promise<PlaygroundServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400).end('bad request path\n');
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    // normalize() folds any '..'; a path that still leaves the root is refused.
    const file = normalize(join(root, path));
    if (!file.startsWith(normalize(root + sep))) {
      res.writeHead(403).end('forbidden\n');
      return;
    }
    stat(file).then(
      (info) => {
        if (!info.isFile()) throw new Error('not a file');
        res.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'content-length': info.size,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          ...ISOLATION_HEADERS,
        });
        if (req.method === 'HEAD') res.end();
        else createReadStream(file).pipe(res);
      },
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const actual = typeof address === 'object' && address !== null ? address.port : port;
  return {
    url: `http://127.0.0.1:${actual}/`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `bloom serve`: returns 0 after an interrupt, 1 when the server cannot start, 2 on a usage error. */
export async function run(argv: string[]): Promise<number> {
  return guard(async () => {
    const { values } = parse(argv, { port: { type: 'string', short: 'p' } }, false);
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const port = intOption('port', values.port, 8080, 0, 65535);
    try {
      await stat(join(PLAYGROUND_DIR, 'index.html'));
    } catch {
      throw new Error(`the playground is not built (no ${join(PLAYGROUND_DIR, 'index.html')}); run npm run build`);
    }
    let server: PlaygroundServer;
    try {
      server = await startServer(port);
    } catch (e) {
      throw new Error(`cannot listen on 127.0.0.1:${port}: ${(e as Error).message}`);
    }
    process.stdout.write(`bloomwasm playground: ${server.url} (Ctrl+C stops it)\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
    return 0;
  });
}
