// Random programs over filters of every kind that dispose them at random
// points and through every side path: an iterable that disposes a filter
// (its own or another) and makes a new one mid-walk, a Bitmap iterator
// resumed after a dispose, a pending async save disposed before it settles
// and loaded back, digests, probeAll, chains growing members, union. Each
// program runs twice, once on the wasm build and once on the reference twin
// (src/reference/), step by step: every step must answer the same, or throw
// the same error (BloomDisposedError naming the same call); a save the
// wasm build could not finish rejects with BloomConcurrencyError and
// writes nothing. At the end every live filter equals its twin byte for
// byte, every disposed one refuses has() with BloomDisposedError, and the
// shared heap is consistent.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { loadFile, saveFile } from '../src/node/index.js';
import { sharedArenas } from '../src/wasm/placement.js';

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-isolation-property-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Lib = typeof wasm;
const LIBS: readonly Lib[] = [wasm, reference as unknown as Lib];

const KINDS = ['filter', 'counting', 'bitmap', 'chain', 'window'] as const;
type Kind = (typeof KINDS)[number];

/** Any object a program holds; the calls below pick what each kind has. */
interface Obj {
  kind: Kind;
  value: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function make(lib: Lib, kind: Kind): Obj {
  switch (kind) {
    case 'filter':
      return { kind, value: new lib.BloomFilter(4096, 4) };
    case 'counting':
      return { kind, value: new lib.CountingBloomFilter(4096, 4) };
    case 'bitmap':
      return { kind, value: new lib.Bitmap(50_000) };
    case 'chain':
      return { kind, value: new lib.ScalableBloomFilter({ capacity: 16, falsePositiveRate: 0.01 }) };
    case 'window':
      return { kind, value: new lib.SlidingBloomFilter({ window: 64, falsePositiveRate: 0.01 }) };
  }
}

/** The state of an object, as bytes: what must be equal between the twins. */
function stateOf(o: Obj): Uint8Array {
  return o.kind === 'bitmap' ? o.value.bitArray() : o.value.toBytes();
}

/** What a step gave: a value, made comparable, or the error's name and call. */
function outcome(run: () => unknown): unknown {
  try {
    const v = run();
    return v instanceof Uint8Array || v instanceof Uint32Array ? Array.from(v) : v;
  } catch (error) {
    const e = error as { name?: string; call?: string };
    return { error: e.name, call: e.call };
  }
}

type Step =
  | { op: 'make'; kind: Kind }
  | { op: 'add'; slot: number; item: string }
  | { op: 'has'; slot: number; item: string }
  | { op: 'dispose'; slot: number }
  | { op: 'walk'; slot: number; many: 'addMany' | 'hasMany'; items: string[]; at: number; victim: number; kind: Kind }
  | { op: 'values'; slot: number; at: number; victim: number }
  | { op: 'digest'; slot: number; item: string; add: boolean }
  | { op: 'probeAll'; slots: number[]; item: string }
  | { op: 'union'; a: number; b: number }
  | { op: 'save'; slot: number; disposeBefore: boolean };

const item = fc.stringMatching(/^[a-e]{1,3}$/);
const slot = fc.nat(7);
const kind = fc.constantFrom(...KINDS);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('make' as const), kind }),
  fc.record({ op: fc.constant('add' as const), slot, item }),
  fc.record({ op: fc.constant('add' as const), slot, item }),
  fc.record({ op: fc.constant('has' as const), slot, item }),
  fc.record({ op: fc.constant('dispose' as const), slot }),
  fc.record({
    op: fc.constant('walk' as const), slot, many: fc.constantFrom('addMany' as const, 'hasMany' as const),
    items: fc.array(item, { minLength: 1, maxLength: 40 }), at: fc.nat(40), victim: slot, kind,
  }),
  fc.record({ op: fc.constant('values' as const), slot, at: fc.nat(30), victim: slot }),
  fc.record({ op: fc.constant('digest' as const), slot, item, add: fc.boolean() }),
  fc.record({ op: fc.constant('probeAll' as const), slots: fc.array(slot, { minLength: 1, maxLength: 4 }), item }),
  fc.record({ op: fc.constant('union' as const), a: slot, b: slot }),
  fc.record({ op: fc.constant('save' as const), slot, disposeBefore: fc.boolean() }),
);

/** One world: an implementation and the objects a program made in it (undefined: nothing in that slot yet). */
class World {
  readonly objects: (Obj | undefined)[] = [];
  readonly disposed = new Set<Obj>();
  constructor(readonly lib: Lib) {}

  put(o: Obj): void {
    const free = this.objects.findIndex((x) => x === undefined);
    if (free >= 0 && free < 8) this.objects[free] = o;
    else this.objects[this.objects.length % 8] = o;
  }

  at(i: number): Obj | undefined {
    return this.objects[i % 8];
  }

  dispose(o: Obj | undefined): void {
    if (o === undefined) return;
    o.value.dispose();
    this.disposed.add(o);
  }

  /** Runs a synchronous step and returns its outcome. */
  run(s: Exclude<Step, { op: 'save' }>): unknown {
    const lib = this.lib;
    switch (s.op) {
      case 'make':
        this.put(make(lib, s.kind));
        return 'made';
      case 'add':
      case 'has': {
        const o = this.at(s.slot);
        if (o === undefined) return 'empty';
        const call = o.kind === 'bitmap' ? (s.op === 'add' ? 'set' : 'has') : s.op;
        const arg = o.kind === 'bitmap' ? s.item.charCodeAt(0) * 100 + s.item.length : s.item;
        return outcome(() => o.value[call](arg));
      }
      case 'dispose':
        return outcome(() => this.dispose(this.at(s.slot)));
      case 'walk': {
        const o = this.at(s.slot);
        if (o === undefined || o.kind === 'bitmap') return 'empty';
        const world = this;
        const victim = this.at(s.victim) ?? o;
        const { items: list, at, kind: made } = s;
        function* items(): Generator<string> {
          for (let i = 0; i < list.length; i++) {
            if (i === at) {
              world.dispose(victim);
              // A new filter, which may take the disposed one's region.
              world.put(make(lib, made));
            }
            yield list[i];
          }
        }
        return outcome(() => o.value[s.many](items()));
      }
      case 'values': {
        const o = this.at(s.slot);
        if (o === undefined || o.kind !== 'bitmap') return 'empty';
        const victim = this.at(s.victim) ?? o;
        const seen: number[] = [];
        const result = outcome(() => {
          for (const v of o.value.values()) {
            seen.push(v);
            if (seen.length === s.at) {
              this.dispose(victim);
              this.put(make(lib, 'bitmap'));
            }
          }
        });
        return { seen, result };
      }
      case 'digest': {
        const o = this.at(s.slot);
        if (o === undefined || (o.kind !== 'filter' && o.kind !== 'counting')) return 'empty';
        return outcome(() => {
          const d = lib.digest(s.item);
          return s.add ? o.value.addDigest(d) : o.value.hasDigest(d);
        });
      }
      case 'probeAll': {
        const targets = s.slots.map((i) => this.at(i)).filter((o) => o !== undefined && (o.kind === 'filter' || o.kind === 'counting'));
        if (targets.length === 0) return 'empty';
        return outcome(() => lib.probeAll(targets.map((o) => o!.value), s.item));
      }
      case 'union': {
        const a = this.at(s.a);
        const b = this.at(s.b);
        if (a === undefined || b === undefined || a.kind !== 'filter' || b.kind !== 'filter') return 'empty';
        return outcome(() => {
          const u = lib.BloomFilter.union(a.value, b.value);
          this.put({ kind: 'filter', value: u });
          return u.bitsSet();
        });
      }
    }
  }
}

/** Loads a file the wasm world saved, as the object of `kind`. */
async function loadAs(kind: Kind, path: string): Promise<unknown> {
  if (kind === 'filter') return loadFile(path);
  if (kind === 'counting') return loadFile(path, wasm.CountingBloomFilter);
  if (kind === 'chain') return loadFile(path, wasm.ScalableBloomFilter);
  return loadFile(path, wasm.SlidingBloomFilter);
}

/** The reference twin of a file's object, from its bytes. */
function twinFrom(kind: Kind, bytes: Uint8Array): unknown {
  const lib = reference as unknown as Lib;
  if (kind === 'filter') return lib.BloomFilter.fromBytes(bytes);
  if (kind === 'counting') return lib.CountingBloomFilter.fromBytes(bytes);
  if (kind === 'chain') return lib.ScalableBloomFilter.fromBytes(bytes);
  return lib.SlidingBloomFilter.fromBytes(bytes);
}

let saves = 0;

async function runProgram(steps: Step[]): Promise<void> {
  const [w, r] = LIBS.map((lib) => new World(lib));
  for (const s of steps) {
    if (s.op !== 'save') {
      expect(w.run(s)).toEqual(r.run(s));
      continue;
    }
    const ow = w.at(s.slot);
    const or = r.at(s.slot);
    if (ow === undefined || or === undefined || ow.kind === 'bitmap') continue;
    const expected = outcome(() => stateOf(or));
    const path = join(dir, `save-${saves++}.bin`);
    // The wasm save is pending while the filter is disposed (what `using` does), or not.
    const pending = saveFile(ow.value, path).then(() => 'saved', (e: Error) => e);
    if (s.disposeBefore) {
      w.dispose(ow);
      r.dispose(or);
    }
    const settled = await pending;
    if (settled !== 'saved') {
      const error = settled as Error;
      if ((expected as { error?: string }).error !== undefined) {
        // Disposed before the save began: refused by name on both sides.
        expect(error).toBeInstanceOf(wasm.BloomDisposedError);
        expect((error as wasm.BloomDisposedError).call).toBe('saveFile');
      } else {
        expect(error).toBeInstanceOf(wasm.BloomConcurrencyError);
      }
      continue;
    }
    // Finished: the file holds the state the save began with, and loads back in both worlds.
    const bytes = new Uint8Array(readFileSync(path));
    expect(Array.from(bytes)).toEqual(Array.from(expected as number[]));
    w.put({ kind: ow.kind, value: await loadAs(ow.kind, path) });
    r.put({ kind: ow.kind, value: twinFrom(ow.kind, bytes) });
  }
  // Every live object equals its twin; every disposed one refuses.
  for (let i = 0; i < 8; i++) {
    const ow = w.at(i);
    const or = r.at(i);
    expect(ow === undefined).toBe(or === undefined);
    if (ow === undefined || or === undefined) continue;
    expect(w.disposed.has(ow)).toBe(r.disposed.has(or));
    if (w.disposed.has(ow)) {
      const e = outcome(() => ow.value.has(ow.kind === 'bitmap' ? 1 : 'a')) as { error?: string; call?: string };
      expect(e.error).toBe('BloomDisposedError');
      expect(outcome(() => or.value.has(or.kind === 'bitmap' ? 1 : 'a'))).toEqual(e);
    } else {
      expect(Array.from(stateOf(ow))).toEqual(Array.from(stateOf(or)));
    }
  }
  for (const o of [...w.objects, ...r.objects]) if (o !== undefined && !w.disposed.has(o) && !r.disposed.has(o)) o.value.dispose();
  for (const a of sharedArenas()) expect(a.x.heapCheck()).toBe(0);
}

describe('random programs that dispose filters through every side path', () => {
  it('every live filter equals its reference twin, every use of a disposed one throws BloomDisposedError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        // Every program starts with one object of each kind.
        await runProgram([...KINDS.map((k) => ({ op: 'make' as const, kind: k })), ...steps]);
      }),
      { numRuns: 300, seed: 29 },
    );
  }, 240_000);
});
