// Release: dispose() and [Symbol.dispose]() give a region back at once,
// a disposed object refuses every call with BloomDisposedError naming it
// (the reference twins alike), and dropped objects are given back by the
// garbage collector (FinalizationRegistry), or, where it does not exist,
// by dispose() alone, with the package still working.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { BloomDisposedError } from '../src/index.js';
import { engineOf } from '../src/filter/filter.js';
import { sharedArenas } from '../src/wasm/placement.js';
import { placementOf } from '../src/wasm/record-handle.js';

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** Runs an ES module script with node and returns its stdout parsed as JSON. */
function runNode(script: string, flags: string[] = []): unknown {
  const out = execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

const implementations = [
  ['wasm', wasm],
  ['reference', reference],
] as const;

describe.each(implementations)('dispose (%s)', (_, lib) => {
  const makers = {
    BloomFilter: () => {
      const f = new lib.BloomFilter(1024, 3);
      f.add('a');
      return f;
    },
    CountingBloomFilter: () => {
      const f = new lib.CountingBloomFilter(1024, 3);
      f.add('a');
      return f;
    },
    ScalableBloomFilter: () => {
      const f = new lib.ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01 });
      for (let i = 0; i < 100; i++) f.add(`a${i}`);
      return f;
    },
    Bitmap: () => {
      const f = new lib.Bitmap(1024);
      f.set(1);
      return f;
    },
  };

  it.each(Object.keys(makers))('%s: every later call throws BloomDisposedError naming it; dispose() again does nothing', (name) => {
    const f = makers[name as keyof typeof makers]() as unknown as Record<string, (...args: unknown[]) => unknown> & { dispose(): void };
    f.dispose();
    for (const [method, args] of [['has', ['a']], ['add', ['b']], ['toBytes', []], ['set', [2]], ['count', []]] as const) {
      if (typeof (Object.getPrototypeOf(Object.getPrototypeOf(f)) as Record<string, unknown>)[method] !== 'function') continue;
      let error: unknown;
      try {
        f[method](...args);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(BloomDisposedError);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as BloomDisposedError).call).toBe(`${name}.${method}`);
      expect((error as Error).message).toContain(`${name}.${method}`);
    }
    expect(() => f.dispose()).not.toThrow();
    expect(f).toBeInstanceOf(lib[name as keyof typeof makers]);
  });

  it('[Symbol.dispose]() disposes, as `using` calls it', () => {
    const f = new lib.BloomFilter(1024, 3);
    {
      using g = f;
      g.add('x');
      expect(g.has('x')).toBe(true);
    }
    expect(() => f.has('x')).toThrow(BloomDisposedError);
    expect(() => f.has('x')).toThrow(/BloomFilter\.has/);
  });

  it('a disposed filter cannot be an operand: union, intersect and probeAll refuse it', () => {
    const a = new lib.BloomFilter(1024, 3);
    const b = new lib.BloomFilter(1024, 3);
    b.dispose();
    expect(() => a.union(b as never)).toThrow(BloomDisposedError);
    expect(() => a.intersect(b as never)).toThrow(BloomDisposedError);
    expect(() => lib.probeAll([a, b] as never, 'x')).toThrow(BloomDisposedError);
  });
});

describe('dispose frees at once', () => {
  it('a disposed region is reused by the next filter of its size, and the memory does not grow', () => {
    const first = new wasm.BloomFilter(8192, 5);
    const place = placementOf(engineOf(first))!;
    first.dispose();
    const before = sharedArenas().reduce((n, a) => n + a.memoryBytes, 0);
    for (let i = 0; i < 100_000; i++) {
      const f = new wasm.BloomFilter(8192, 5);
      f.add(`item-${i}`);
      if (i === 0) expect(placementOf(engineOf(f))).toEqual(place);
      expect(f.has(`item-${i}`)).toBe(true);
      expect(f.bitsSet()).toBe(5);
      f.dispose();
    }
    expect(sharedArenas().reduce((n, a) => n + a.memoryBytes, 0)).toBe(before);
  });
});

describe('dropped filters (dist/, in a child with --expose-gc)', () => {
  it('are given back by the garbage collector: 10^5 dropped filters of 1 KiB leave the memory where 10^4 put it', () => {
    const result = runNode(
      `import { BloomFilter } from ${JSON.stringify(DIST)};
       import { sharedArenas } from ${JSON.stringify(DIST.replace('index.js', 'wasm/placement.js'))};
       const memory = () => sharedArenas().reduce((n, a) => n + a.memoryBytes, 0);
       const turn = () => new Promise((r) => setImmediate(r));
       const round = async (count) => {
         for (let i = 0; i < count; i++) { const f = new BloomFilter(8192, 5); f.add('x' + i); if (!f.has('x' + i)) throw new Error('miss'); }
         globalThis.gc(); await turn(); await turn();
       };
       for (let r = 0; r < 10; r++) await round(1000);
       const after10k = memory();
       for (let r = 0; r < 100; r++) await round(1000);
       const heapOk = sharedArenas().every((a) => a.x.heapCheck() === 0);
       console.log(JSON.stringify({ after10k, after100k: memory(), heapOk, used: sharedArenas()[0].x.heapUsedBytes() }));`,
      ['--expose-gc'],
    ) as { after10k: number; after100k: number; heapOk: boolean; used: number };
    expect(result.heapOk).toBe(true);
    expect(result.after100k).toBe(result.after10k);
    // 10^5 filters of 1 KiB held at once would be over 100 MB.
    expect(result.after100k).toBeLessThan(16 * 1024 * 1024);
  });

  it('without FinalizationRegistry the package imports and works, and dispose() alone frees', () => {
    const result = runNode(
      `delete globalThis.FinalizationRegistry;
       const { BloomFilter, ScalableBloomFilter, CountingBloomFilter, Bitmap, digest } = await import(${JSON.stringify(DIST)});
       const { collectsDropped } = await import(${JSON.stringify(DIST.replace('index.js', 'wasm/collection.js'))});
       const { sharedArenas } = await import(${JSON.stringify(DIST.replace('index.js', 'wasm/placement.js'))});
       const f = BloomFilter.forCapacity(1000, 0.01); f.add('a');
       const c = new CountingBloomFilter(1000, 3); c.add('a');
       const s = new ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01 }); for (let i = 0; i < 50; i++) s.add('k' + i);
       const b = new Bitmap(100); b.set(3);
       const ok = f.has('a') && c.has('a') && s.has('k7') && b.has(3) && f.hasDigest(digest('a'));
       const before = sharedArenas()[0].x.heapUsedBytes();
       for (const x of [f, c, s, b]) x.dispose();
       console.log(JSON.stringify({ ok, collectsDropped, freed: before - sharedArenas()[0].x.heapUsedBytes() }));`,
    ) as { ok: boolean; collectsDropped: boolean; freed: number };
    expect(result.ok).toBe(true);
    expect(result.collectsDropped).toBe(false);
    expect(result.freed).toBeGreaterThan(1198 + 1000 / 2);
  });
});
