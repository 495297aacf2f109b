// The shared-memory build loads only when asked for (src/wasm/shared-build.ts):
// before loadSharedMemory() every way to a shared filter throws
// BloomNotLoadedError naming the call, after it they work; the Node entry
// (the `node` export condition, src/index.node.ts) loads it at import.
// This file must make no shared filter before its first test: the module
// graph is its own (vitest runs each file in a fresh process).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BloomFilter, BloomNotLoadedError, loadSharedMemory } from '../src/index.js';
import * as reference from '../src/reference/index.js';

const root = fileURLToPath(new URL('../', import.meta.url));

describe('loadSharedMemory()', () => {
  it('is needed first: { shared: true }, share() and attach() throw BloomNotLoadedError naming it', () => {
    const named = /needs the shared-memory build, which is loaded only on demand: first call `await loadSharedMemory\(\)` \(from 'bloomwasm'\) once in this thread$/;
    expect(() => new BloomFilter(64, 3, { shared: true })).toThrow(BloomNotLoadedError);
    expect(() => new BloomFilter(64, 3, { shared: true })).toThrow(/^new BloomFilter\(bits, hashes, \{ shared: true \}\) needs/);
    expect(() => new BloomFilter(64, 3, { shared: true })).toThrow(named);
    const plain = new BloomFilter(64, 3);
    plain.add('kept');
    expect(() => plain.share()).toThrow(/^BloomFilter\.share\(\) needs/);
    // The refused share() left the filter as it was.
    expect([plain.shared, plain.has('kept')]).toEqual([false, true]);
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    const handle = { kind: 'bloomwasm.SharedFilter', version: 1, memory, bits: 64, hashes: 3, scheme: 'xxh64', seed: 0n } as const;
    expect(() => BloomFilter.attach(handle)).toThrow(/^BloomFilter\.attach\(handle\) needs/);
    try {
      new BloomFilter(64, 3, { shared: true });
    } catch (error) {
      expect(error).toBeInstanceOf(Error);
      expect((error as BloomNotLoadedError).name).toBe('BloomNotLoadedError');
      expect((error as BloomNotLoadedError).load).toBe("`await loadSharedMemory()` (from 'bloomwasm') once in this thread");
    }
  });

  it('loads the build once; after it every way to a shared filter works', async () => {
    const calls = [loadSharedMemory(), loadSharedMemory()];
    await Promise.all(calls);
    await loadSharedMemory();
    const filter = new BloomFilter(1000, 3, { shared: true });
    filter.add('a');
    const other = BloomFilter.attach(filter.share());
    expect([other.has('a'), other.has('b')]).toEqual([true, false]);
    const moved = new BloomFilter(1000, 3);
    moved.add('b');
    expect(BloomFilter.attach(moved.share()).has('b')).toBe(true);
  });

  it("has a twin in bloomwasm/reference that resolves at once (its shared filters need nothing loaded)", async () => {
    await expect(reference.loadSharedMemory()).resolves.toBeUndefined();
    expect(new reference.BloomFilter(64, 3, { shared: true }).shared).toBe(true);
  });
});

describe("the package's Node entry (export condition node)", () => {
  it('has the shared-memory build loaded at import, in the main thread and in a worker', () => {
    // The package imports itself by name from its own folder: Node resolves it through package.json's exports.
    const script = `
      import { Worker } from 'node:worker_threads';
      import { BloomFilter } from 'bloomwasm';
      const filter = new BloomFilter(1000, 3, { shared: true });
      filter.add('from the main thread');
      const worker = new Worker(\`
        import { workerData, parentPort } from 'node:worker_threads';
        import { BloomFilter } from 'bloomwasm';
        parentPort.postMessage(BloomFilter.attach(workerData).has('from the main thread'));
      \`, { eval: true, workerData: filter.share() });
      worker.once('message', (seen) => { console.log(JSON.stringify({ shared: filter.shared, seen })); worker.terminate(); });
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ shared: true, seen: true });
  });
});
