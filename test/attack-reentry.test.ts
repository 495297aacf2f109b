// Caller code that runs in the middle of a call: a Uint8Array subclass's
// `length` getter, a `Symbol.species` behind the bytes of a packed batch,
// the keys of a binary fuse build. Whatever that code does to other filters,
// the outer call acts on its own filter and its own item, in the wasm
// classes and in the reference twin, and every other filter keeps every item.
import { describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';

type Lib = typeof wasm;
const ref = reference as unknown as Lib;
const encoder = new TextEncoder();
const libs: [string, Lib][] = [['wasm', wasm], ['reference', ref]];

/** Bytes whose `length` getter runs `meddle` each time it is read, and then answers truthfully. */
class Meddling extends Uint8Array {
  static meddle: () => void = () => {};
  override get length(): number {
    Meddling.meddle();
    return super.length;
  }
}

/** Bytes whose `length` getter lies: the package must read the real length. */
class Lying extends Uint8Array {
  override get length(): number {
    return 3;
  }
  override get byteLength(): number {
    return 3;
  }
}

function meddling(text: string): Meddling {
  const b = encoder.encode(text);
  const m = new Meddling(b.length);
  m.set(b);
  return m;
}

const urls = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `https://example.com/${tag}/${i}?q=${i * 7919}`);

describe('an item whose length getter uses another filter', () => {
  for (const [name, lib] of libs) {
    it(`${name}: CuckooFilter.add stores into its own filter while the getter counts another cuckoo filter`, () => {
      const victim = lib.CuckooFilter.forCapacity(2000, 0.01);
      const own = lib.CuckooFilter.forCapacity(2000, 0.01);
      const kept = urls(500, 'victim');
      for (const u of kept) victim.add(u);
      Meddling.meddle = () => void victim.size;
      const items = urls(100, 'own').map(meddling);
      for (const it of items) expect(own.add(it)).toBe(true);
      Meddling.meddle = () => {};
      expect(own.size).toBe(100);
      expect(victim.size).toBe(500);
      for (const u of urls(100, 'own')) expect(own.has(u)).toBe(true);
      for (const u of kept) expect(victim.has(u)).toBe(true);
    });

    it(`${name}: CuckooFilter.add while the getter tests a BloomFilter: no trap, the right filter`, () => {
      const bloom = lib.BloomFilter.forCapacity(1000, 0.01);
      bloom.add('zzzz');
      const own = lib.CuckooFilter.forCapacity(1000, 0.01);
      Meddling.meddle = () => void bloom.has('zzzz');
      for (const u of urls(100, 'own')) expect(own.add(meddling(u))).toBe(true);
      Meddling.meddle = () => {};
      for (const u of urls(100, 'own')) expect(own.has(u)).toBe(true);
      expect(bloom.has('zzzz')).toBe(true);
    });

    it(`${name}: BloomFilter.addMany of such items with a cuckoo victim loses nothing`, () => {
      const victim = lib.CuckooFilter.forCapacity(5000, 0.01);
      const kept = urls(2000, 'victim');
      for (const u of kept) victim.add(u);
      const own = lib.BloomFilter.forCapacity(1000, 0.001);
      Meddling.meddle = () => void victim.has(kept[7]);
      own.addMany(urls(300, 'own').map(meddling));
      Meddling.meddle = () => {};
      expect(urls(300, 'own').filter((u) => !own.has(u))).toEqual([]);
      expect(kept.filter((u) => !victim.has(u))).toEqual([]);
      expect(victim.size).toBe(2000);
    });

    it(`${name}: BloomFilter.add and CountingBloomFilter.add while the getter restages another filter's item`, () => {
      const other = lib.BloomFilter.forCapacity(1000, 0.01);
      const filters = [lib.BloomFilter.forCapacity(1000, 0.001), new lib.CountingBloomFilter(20_000, 7)];
      Meddling.meddle = () => void other.has('zzzz');
      for (const f of filters) for (const u of urls(200, 'own')) f.add(meddling(u));
      Meddling.meddle = () => {};
      for (const f of filters) expect(urls(200, 'own').filter((u) => !f.has(u))).toEqual([]);
      expect(other.bitsSet()).toBe(0);
    });

    it(`${name}: SlidingBloomFilter.addMany, CuckooFilter.hasMany and BinaryFuseFilter.has with a meddling getter`, () => {
      const victim = lib.CuckooFilter.forCapacity(2000, 0.01);
      for (const u of urls(500, 'victim')) victim.add(u);
      Meddling.meddle = () => void victim.has('https://example.com/victim/3?q=23757');
      const sliding = new lib.SlidingBloomFilter({ window: 1000, falsePositiveRate: 0.001 });
      sliding.addMany(urls(200, 'own').map(meddling));
      const cuckoo = lib.CuckooFilter.forCapacity(1000, 0.001);
      for (const u of urls(300, 'own')) cuckoo.add(u);
      const found = cuckoo.hasMany(urls(300, 'own').map(meddling));
      const fuse = lib.BinaryFuseFilter.from(urls(1000, 'own'));
      const fuseAnswers = urls(1000, 'own').map((u) => fuse.has(meddling(u)));
      Meddling.meddle = () => {};
      expect(urls(200, 'own').filter((u) => !sliding.has(u))).toEqual([]);
      expect(Array.from(found).filter((v) => v !== 1)).toEqual([]);
      expect(fuseAnswers.filter((v) => !v)).toEqual([]);
      expect(urls(500, 'victim').filter((u) => !victim.has(u))).toEqual([]);
    });
  }
});

describe('a packed batch whose bytes have a species that uses another filter', () => {
  for (const [name, lib] of libs) {
    it(`${name}: BloomFilter.addMany and CuckooFilter.addMany of the packed form hold every item; the victim keeps every item`, () => {
      const victim = lib.CuckooFilter.forCapacity(5000, 0.01);
      const kept = urls(2000, 'victim');
      for (const u of kept) victim.add(u);
      const list = urls(300, 'own');
      const encoded = list.map((u) => encoder.encode(u));
      const offsets = new Uint32Array(list.length + 1);
      encoded.forEach((b, i) => (offsets[i + 1] = offsets[i] + b.length));
      class Species extends Uint8Array {
        static get [Symbol.species]() {
          void victim.has(kept[1]);
          victim.add('intruder');
          victim.remove('intruder');
          return Uint8Array;
        }
      }
      const bytes = new Species(offsets[list.length]);
      encoded.forEach((b, i) => bytes.set(b, offsets[i]));
      const bloom = lib.BloomFilter.forCapacity(1000, 0.001);
      bloom.addMany({ bytes, offsets });
      const cuckoo = lib.CuckooFilter.forCapacity(1000, 0.001);
      cuckoo.addMany({ bytes, offsets });
      expect(list.filter((u) => !bloom.has(u))).toEqual([]);
      expect(list.filter((u) => !cuckoo.has(u))).toEqual([]);
      expect(Array.from(bloom.hasMany({ bytes, offsets })).filter((v) => v !== 1)).toEqual([]);
      expect(kept.filter((u) => !victim.has(u))).toEqual([]);
      expect(victim.size).toBe(2000);
    });
  }
});

describe('a length getter that lies is not believed', () => {
  for (const [name, lib] of libs) {
    it(`${name}: an item's bytes are all its bytes, in add, has and the batches, as a plain Uint8Array's`, () => {
      const plain = encoder.encode('https://example.com/a/long/enough/path');
      const liar = new Lying(plain.length);
      liar.set(plain);
      const a = lib.BloomFilter.forCapacity(1000, 0.001);
      a.add(liar);
      expect(a.has(plain)).toBe(true);
      expect(a.has(plain.subarray(0, 3))).toBe(false);
      const b = lib.BloomFilter.forCapacity(1000, 0.001);
      b.addMany([liar]);
      expect(b.toBytes()).toEqual(a.toBytes());
      const c = lib.CuckooFilter.forCapacity(1000, 0.001);
      c.add(liar);
      expect(c.has(plain)).toBe(true);
    });

    it(`${name}: BinaryFuseFilter.fromKeys reads a BigUint64Array's own length, whatever its getter says`, () => {
      const keys = new BigUint64Array(5000).map((_, i) => BigInt(i) * 0x9e3779b97f4a7c15n & 0xffffffffffffffffn);
      class Under extends BigUint64Array {
        override get length(): number {
          return 10;
        }
      }
      class Over extends BigUint64Array {
        override get length(): number {
          return 9000;
        }
      }
      const truth = lib.BinaryFuseFilter.fromKeys(keys);
      for (const Sub of [Under, Over]) {
        const lying = new Sub(keys.length);
        lying.set(keys);
        const f = lib.BinaryFuseFilter.fromKeys(lying);
        expect(f.toBytes()).toEqual(truth.toBytes());
      }
    });
  }
});

describe('BinaryFuseFilter.from while the items make filters or start another build', () => {
  for (const [name, lib] of libs) {
    it(`${name}: both builds hold every item, whether the iterable or the items' getters do it`, () => {
      const list = urls(200, 'own');
      const innerList = urls(5000, 'inner');
      let inner: wasm.BinaryFuseFilter | undefined;
      const made: wasm.BloomFilter[] = [];
      const meddle = () => {
        if (made.length < 3) made.push(lib.BloomFilter.forCapacity(1e6, 0.01));
        inner ??= lib.BinaryFuseFilter.from(innerList);
      };
      function* walk() {
        for (let i = 0; i < list.length; i++) {
          if (i === 100) meddle();
          yield meddling(list[i]);
        }
      }
      Meddling.meddle = meddle;
      const fuse = lib.BinaryFuseFilter.from(walk());
      const again = lib.BinaryFuseFilter.from(list.map(meddling));
      Meddling.meddle = () => {};
      expect(list.filter((u) => !fuse.has(u))).toEqual([]);
      expect(again.toBytes()).toEqual(fuse.toBytes());
      expect(innerList.filter((u) => !inner!.has(u))).toEqual([]);
      for (const f of made) f.dispose();
    });
  }
});

describe('no view of wasm memory outlives its call', () => {
  it("a Bitmap's bits and a cuckoo or binary fuse filter's fingerprints are not reachable from the objects", () => {
    const bitmap = new wasm.Bitmap(1 << 16);
    bitmap.set(5);
    const cuckoo = wasm.CuckooFilter.forCapacity(1000, 0.01);
    cuckoo.add('a');
    // The language's private fields: neither the view nor the handle that makes it is a property.
    // `bits` is m, a number; no property of the bitmap or its prototype chain is a view.
    expect(bitmap.bits).toBe(1 << 16);
    expect('engine' in bitmap).toBe(false);
    for (let o: object | null = bitmap; o !== null; o = Object.getPrototypeOf(o)) {
      for (const key of Object.getOwnPropertyNames(o)) {
        const d = Object.getOwnPropertyDescriptor(o, key)!;
        if ('value' in d) expect(ArrayBuffer.isView(d.value)).toBe(false);
      }
    }
    expect('payloads' in cuckoo).toBe(false);
    const fuse = wasm.BinaryFuseFilter.from(['a', 'b']);
    expect('fingerprintView' in fuse).toBe(false);
    fuse.dispose();
    bitmap.dispose();
    cuckoo.dispose();
    const next = new wasm.Bitmap(1 << 16);
    expect(next.has(5)).toBe(false);
    expect(Array.from(next)).toEqual([]);
  });
});

describe('every family, every item path, with getters that grow memory, dispose filters and use every kind', () => {
  for (const [name, lib] of libs) {
    it(`${name}: the answers and the bytes are those of plain items, and the bystanders keep theirs`, () => {
      const list = urls(150, 'matrix');
      const absent = urls(150, 'absent');
      const bystanders = {
        bloom: lib.BloomFilter.forCapacity(500, 0.01),
        counting: new lib.CountingBloomFilter(8000, 5),
        cuckoo: lib.CuckooFilter.forCapacity(500, 0.01),
        sliding: new lib.SlidingBloomFilter({ window: 500, falsePositiveRate: 0.01 }),
        scalable: new lib.ScalableBloomFilter({ capacity: 50, falsePositiveRate: 0.01 }),
      };
      const kept = urls(100, 'bystander');
      for (const f of Object.values(bystanders)) f.addMany(kept);
      const bytesBefore = Object.values(bystanders).map((f) => f.toBytes());
      const grown: { dispose(): void }[] = [];
      let calls = 0;
      Meddling.meddle = () => {
        calls++;
        for (const f of Object.values(bystanders)) f.has(kept[calls % kept.length]);
        const big = lib.BloomFilter.forCapacity(2e5, 0.01);
        big.add('grows');
        if (calls % 2 === 0) big.dispose();
        else grown.push(big);
      };
      const makers: [string, () => { add(i: Uint8Array | string): unknown; addMany(i: Iterable<Uint8Array | string>): unknown; has(i: Uint8Array | string): boolean; hasMany(i: Iterable<Uint8Array | string>): Uint8Array; toBytes(): Uint8Array }][] = [
        ['BloomFilter xxh64', () => lib.BloomFilter.forCapacity(300, 0.01)],
        ['BloomFilter sbbf', () => new lib.BloomFilter(256 * 12, 8, { scheme: 'sbbf' })],
        ['BloomFilter poly', () => new lib.BloomFilter(3000, 4, { scheme: 'poly' })],
        ['CountingBloomFilter', () => new lib.CountingBloomFilter(3000, 4)],
        ['ScalableBloomFilter', () => new lib.ScalableBloomFilter({ capacity: 40, falsePositiveRate: 0.01 })],
        ['SlidingBloomFilter', () => new lib.SlidingBloomFilter({ window: 300, falsePositiveRate: 0.01 })],
        ['CuckooFilter', () => lib.CuckooFilter.forCapacity(300, 0.01)],
      ];
      for (const [kind, make] of makers) {
        const control = make();
        const single = make();
        const batched = make();
        for (const u of list) control.add(u);
        for (const u of list) single.add(meddling(u));
        batched.addMany(list.map(meddling));
        expect(single.toBytes(), kind).toEqual(control.toBytes());
        expect(batched.toBytes(), kind).toEqual(control.toBytes());
        const probe = [...list, ...absent];
        const expected = probe.map((u) => (control.has(u) ? 1 : 0));
        expect(probe.map((u) => (single.has(meddling(u)) ? 1 : 0)), kind).toEqual(expected);
        expect(Array.from(single.hasMany(probe.map(meddling))), kind).toEqual(expected);
      }
      const fuse = lib.BinaryFuseFilter.from(list.map(meddling));
      const fuseControl = lib.BinaryFuseFilter.from(list);
      expect(fuse.toBytes()).toEqual(fuseControl.toBytes());
      const probe = [...list, ...absent];
      expect(Array.from(fuse.hasMany(probe.map(meddling)))).toEqual(probe.map((u) => (fuseControl.has(u) ? 1 : 0)));
      expect(lib.digest(meddling(list[0])).value).toBe(lib.digest(list[0]).value);
      Meddling.meddle = () => {};
      expect(calls).toBe(0);
      expect(Object.values(bystanders).map((f) => f.toBytes())).toEqual(bytesBefore);
      for (const f of grown) f.dispose();
    });
  }
});

describe('a Bitmap batch whose typed array has a species and a length getter', () => {
  it('setMany and hasMany read the values, never the getters, and another bitmap keeps its values', () => {
    const other = new wasm.Bitmap(1 << 20);
    other.setMany([1, 2, 3]);
    let ran = 0;
    class Values extends Uint32Array {
      static get [Symbol.species]() {
        ran++;
        other.delete(2);
        return Uint32Array;
      }
      override get length(): number {
        ran++;
        return 1;
      }
    }
    const values = new Values(40_000);
    for (let i = 0; i < 40_000; i++) values[i] = i * 7;
    const bitmap = new wasm.Bitmap(1 << 20);
    bitmap.setMany(values);
    expect(Array.from(bitmap.hasMany(values)).every((v) => v === 1)).toBe(true);
    expect(bitmap.has(7 * 39_999)).toBe(true);
    expect(ran).toBe(0);
    expect(Array.from(other)).toEqual([1, 2, 3]);
  });
});
