// Starts real redis-server processes for the tests and the benchmark, on
// free loopback ports, with requirepass, no RDB snapshots and (unless asked)
// no AOF. Every process started here is killed by stopAll() and, as a last
// resort, when this Node process exits.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The password every test server requires. */
export const PASSWORD = 'bloom-test-pass';

/** True when the tests run in CI (CI=1 or CI=true), where a missing redis-server fails. */
export const IN_CI = !!process.env.CI && process.env.CI !== '0' && process.env.CI !== 'false';

/** Whether redis-server and redis-cli run here. */
export const HAVE_REDIS = ['redis-server', 'redis-cli'].every(
  (cmd) => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0,
);

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free loopback port; with `bus`, port + 10000 (the cluster bus) is free too. */
export async function freePort(bus = false): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    if (!bus) return port;
    if (port + 10000 < 65536 && (await portIsFree(port + 10000))) return port;
  }
  throw new Error('no free loopback port pair found in 50 attempts');
}

const live = new Set<ChildProcess>();
const killLive = (): void => {
  for (const child of live) child.kill('SIGKILL');
};
process.on('exit', killLive);
// A test that times out never reaches its finally; the runner then ends the
// worker with a signal, which skips 'exit'. Kill the servers, then let the
// signal do what it would have done.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    killLive();
    process.kill(process.pid, signal);
  });
}

/** Options of RedisServer.start. */
export interface ServerOptions {
  /** AOF on, with appendfsync `always` (default false: no persistence at all). */
  aof?: boolean;
  /** Cluster mode (cluster-enabled yes). */
  cluster?: boolean;
  /** Reuse this port and directory (a restart). */
  port?: number;
  dir?: string;
  /** More command-line settings, e.g. ['--maxmemory', '8mb', '--maxmemory-policy', 'allkeys-lru']. */
  args?: string[];
}

/** One redis-server process. */
export class RedisServer {
  private constructor(
    readonly port: number,
    readonly dir: string,
    readonly options: ServerOptions,
    private child: ChildProcess,
  ) {}

  /** Starts a server and resolves once it accepts connections. */
  static async start(options: ServerOptions = {}): Promise<RedisServer> {
    const port = options.port ?? (await freePort(options.cluster));
    const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'bloomwasm-redis-'));
    const args = [
      '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir,
      '--requirepass', PASSWORD, '--appendonly', options.aof ? 'yes' : 'no',
    ];
    // always: a reply is sent only after its write reached the AOF, so
    // "acknowledged" and "survives kill -9" are the same set in the fault test.
    if (options.aof) args.push('--appendfsync', 'always');
    if (options.args) args.push(...options.args);
    if (options.cluster) {
      args.push('--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout', '5000', '--masterauth', PASSWORD);
    }
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    child.once('exit', () => live.delete(child));
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => fail(new Error(`redis-server on port ${port} not ready after 15 s:\n${output}`)), 15_000);
      const fail = (err: Error) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(err);
      };
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          child.stdout!.removeAllListeners('data');
          child.stdout!.resume();
          resolve();
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => fail(new Error(`redis-server on port ${port} exited with ${code}:\n${output}`)));
    });
    child.removeAllListeners('exit');
    child.once('exit', () => live.delete(child));
    return new RedisServer(port, dir, options, child);
  }

  /** redis://:password@127.0.0.1:port */
  get url(): string {
    return `redis://:${PASSWORD}@127.0.0.1:${this.port}`;
  }

  /** The process id. */
  get pid(): number {
    return this.child.pid!;
  }

  /** kill -9, and waits for the process to be gone. */
  async kill9(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const gone = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await gone;
  }

  /** Starts a new process on the same port and directory (so AOF is replayed). */
  async restart(): Promise<RedisServer> {
    await this.kill9();
    return RedisServer.start({ ...this.options, port: this.port, dir: this.dir });
  }

  /** Kills the process and removes its directory. */
  async stop(): Promise<void> {
    await this.kill9();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Runs redis-cli with the password; resolves with its stdout, rejects on a non-zero exit. */
export async function redisCli(args: string[]): Promise<string> {
  const child = spawn('redis-cli', ['--no-auth-warning', '-a', PASSWORD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`redis-cli ${args.join(' ')} exited with ${code}:\n${out}`);
  return out;
}
