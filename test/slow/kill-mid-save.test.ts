// The atomic save under a crash: a child saves a 128 MiB filter again and
// again; the parent waits until a temporary file is half written, SIGKILLs
// the child, and checks that the target still loads as one whole generation.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BloomFilter } from '../../src/index.js';
import { loadFileSync } from '../../src/node/index.js';
import { bundleChild } from './bundle.js';

const BITS = 2 ** 30; // 128 MiB: each save takes long enough to be caught mid-write
const FILE_BYTES = 56 + BITS / 8;
const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The temporary file's size when it is present and partly written, else -1. */
function partialTemp(): number {
  for (const name of readdirSync(dir)) {
    if (!/^\.bloomwasm-[0-9a-f]{16}\.tmp$/.test(name)) continue;
    try {
      const size = statSync(join(dir, name)).size;
      if (size > 0 && size < FILE_BYTES) return size;
    } catch {
      // Renamed between readdir and stat.
    }
  }
  return -1;
}

describe('saveFile under SIGKILL', () => {
  it('leaves the previous file whole when the process dies mid-write', async () => {
    const path = join(dir, 'filter.bin');
    const child = spawn(process.execPath, [bundleChild('save-loop', mkdtempSync(join(dir, 'child-'))), path, String(BITS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const generations = new Map<number, { bitsSet: number; addedCount: number }>();
    let saved = 0;
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      buffered += text;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const [word, generation, bitsSet, addedCount] = buffered.slice(0, newline).split(' ');
        buffered = buffered.slice(newline + 1);
        if (word === 'saving') generations.set(Number(generation), { bitsSet: Number(bitsSet), addedCount: Number(addedCount) });
        else saved = Number(generation);
      }
    });
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_, signal) => done(signal)));
    try {
      // Wait for one complete save, so that there is a previous file to protect.
      while (saved < 1) {
        if (child.exitCode !== null) throw new Error(`the child exited early with code ${child.exitCode}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      // Then watch (synchronously, to react within microseconds) for a later save's half-written temporary file.
      const deadline = Date.now() + 120_000;
      let size = -1;
      while ((size = partialTemp()) < 0 && Date.now() < deadline);
      expect(size).toBeGreaterThan(0);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      child.kill('SIGKILL');
    }

    // The kill landed mid-write: the torn temporary file is still there, never renamed.
    expect(partialTemp()).toBeGreaterThan(0);
    const loaded = loadFileSync(path, BloomFilter);
    const generation = [...generations].find(([, g]) => g.bitsSet === loaded.bitsSet() && g.addedCount === loaded.size);
    expect(generation).toBeDefined();
    expect(generation![0]).toBeGreaterThanOrEqual(saved);
    for (let i = 0; i < 1000; i += 97) expect(loaded.has(`generation ${generation![0]} item ${i}`)).toBe(true);
  }, 300_000);
});
