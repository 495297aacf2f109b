// No user-reachable property or method of a filter hands out wasm memory:
// a view of it (live, so that writing through it after the filter was
// disposed would change another filter), the Memory or the instance.
// Everything reachable from each family's object is walked: own
// properties of every key (private names are not properties), getters
// along the prototype chain, and the results of every method that takes no
// argument and changes nothing.
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import { sharedArenas } from '../src/wasm/placement.js';

/** Methods that change the filter or end it: not called by the walk. */
const CHANGING = new Set<PropertyKey>(['dispose', 'clear', 'share', 'constructor', Symbol.dispose, Symbol.asyncDispose]);

/** Every value reachable from `root` (own properties, getters, argument-free methods), to `depth` steps. */
function reachable(root: unknown, depth = 5): [unknown, string][] {
  const seen = new Set<unknown>();
  const out: [unknown, string][] = [];
  const visit = (v: unknown, left: number, path = ''): void => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v)) return;
    seen.add(v);
    out.push([v, path]);
    if (left === 0 || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return;
    for (const key of Reflect.ownKeys(v)) {
      const d = Reflect.getOwnPropertyDescriptor(v, key)!;
      if ('value' in d && typeof d.value !== 'function') visit(d.value, left - 1, `${path}.${String(key)}`);
    }
    if (typeof v === 'function') return;
    for (let proto = Object.getPrototypeOf(v); proto !== null && proto !== Object.prototype && proto !== Array.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const key of Reflect.ownKeys(proto)) {
        if (CHANGING.has(key)) continue;
        const d = Reflect.getOwnPropertyDescriptor(proto, key)!;
        let got: unknown;
        try {
          if (d.get !== undefined) got = d.get.call(v);
          else if (typeof d.value === 'function' && d.value.length === 0) got = d.value.call(v);
          else continue;
        } catch {
          continue;
        }
        visit(got, left - 1, `${path}.${String(key)}${d.get ? '' : '()'}`);
        if (got !== null && typeof got === 'object' && Symbol.iterator in got && !ArrayBuffer.isView(got) && typeof got !== 'string') {
          try {
            let n = 0;
            for (const e of got as Iterable<unknown>) {
              visit(e, left - 1, `${path}.${String(key)}[${n}]`);
              if (++n === 8) break;
            }
          } catch {
            // An iterator that refuses (a disposed filter's): nothing reachable through it.
          }
        }
      }
    }
  };
  visit(root, depth);
  return out;
}

describe('no property or method of a filter hands out wasm memory', () => {
  it('every family: nothing reachable is a view of an instance\'s memory, its Memory, or an instance', () => {
    const bloom = new wasm.BloomFilter(10_000, 7);
    const sbbf = new wasm.BloomFilter(10_240, 8, { scheme: 'sbbf' });
    const counting = new wasm.CountingBloomFilter(10_000, 7);
    const cuckoo = wasm.CuckooFilter.forCapacity(1000, 0.01);
    const scalable = new wasm.ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01 });
    const sliding = new wasm.SlidingBloomFilter({ window: 1000, falsePositiveRate: 0.01 });
    const fuse = wasm.BinaryFuseFilter.from(['a', 'b', 'c']);
    const bitmap = new wasm.Bitmap(1 << 16);
    const filters: Record<string, object> = { bloom, sbbf, counting, cuckoo, scalable, sliding, fuse, bitmap };
    for (const f of [bloom, sbbf, counting, cuckoo, sliding]) (f as { add(s: string): unknown }).add('x');
    for (let i = 0; i < 40; i++) scalable.add(`item ${i}`);
    bitmap.set(5);
    const buffers = new Set<unknown>(sharedArenas().map((a) => a.x.memory.buffer));
    expect(buffers.size).toBeGreaterThan(0);
    const found: string[] = [];
    for (const [name, f] of Object.entries(filters)) {
      for (const [v, path] of reachable(f)) {
        if (v instanceof WebAssembly.Memory || v instanceof WebAssembly.Instance) found.push(`${name}${path}: ${v.constructor.name}`);
        else if (ArrayBuffer.isView(v) && buffers.has(v.buffer)) found.push(`${name}${path}: a ${v.constructor.name} over wasm memory`);
        else if (buffers.has(v)) found.push(`${name}${path}: the memory's buffer`);
      }
    }
    expect(found).toEqual([]);
    for (const f of Object.values(filters)) (f as { dispose(): void }).dispose();
  });
});
