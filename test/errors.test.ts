// Every bad argument gets a typed error naming the parameter, the value and
// the allowed range, in both twins alike.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { twins } from './helpers/twins.js';

describe.each(twins)('bad input ($name)', ({ BloomFilter, SeenFilter, MAX_BITS, BloomRangeError, BloomTypeError }) => {
  const rangeCases: [string, () => unknown, RegExp][] = [
    ['bits 0', () => new BloomFilter(0, 3), /^bits must be an integer in \[1, 34358689792\]; got 0$/],
    ['bits -1', () => new BloomFilter(-1, 3), /^bits must be .*; got -1$/],
    ['bits 1.5', () => new BloomFilter(1.5, 3), /^bits must be an integer .*; got 1.5$/],
    ['bits NaN', () => new BloomFilter(NaN, 3), /^bits must .*; got NaN$/],
    ['bits Infinity', () => new BloomFilter(Infinity, 3), /^bits must .*; got Infinity$/],
    ['bits MAX_BITS + 1', () => new BloomFilter(MAX_BITS + 1, 3), /^bits must .*; got 34358689793$/],
    ['hashes 0', () => new BloomFilter(100, 0), /^hashes must be an integer in \[1, 64\]; got 0$/],
    ['hashes 65', () => new BloomFilter(100, 65), /^hashes must be an integer in \[1, 64\]; got 65$/],
    ['hashes 2.5', () => new BloomFilter(100, 2.5), /^hashes .*; got 2.5$/],
    ['hashes NaN', () => new BloomFilter(100, NaN), /^hashes .*; got NaN$/],
    ['hashes > bits under xxh64', () => new BloomFilter(3, 4), /^hashes must be at most bits \(3\) under xxh64.*; got 4$/],
    ['scheme md5', () => new BloomFilter(100, 3, { scheme: 'md5' as never }), /^scheme must be one of xxh64, poly, bytesum, sbbf; got "md5"$/],
    ['seed -1', () => new BloomFilter(100, 3, { seed: -1 }), /^seed must be an integer in \[0, 2\^64 - 1\].*; got -1$/],
    ['seed 2^64', () => new BloomFilter(100, 3, { seed: 2n ** 64n }), /^seed .*; got 18446744073709551616n$/],
    ['seed 1.5', () => new BloomFilter(100, 3, { seed: 1.5 }), /^seed .*; got 1.5$/],
    ['seed unsafe number', () => new BloomFilter(100, 3, { seed: 2 ** 60 }), /^seed .*; got 1152921504606847000$/],
    ['seed under poly', () => new BloomFilter(100, 3, { scheme: 'poly', seed: 5 }), /^seed must be 0 under poly, which has no seed; got 5$/],
    ['falsePositiveRate 0', () => BloomFilter.forCapacity(1000, 0), /^falsePositiveRate must be a number in \(0, 1\); got 0$/],
    ['falsePositiveRate 1', () => BloomFilter.forCapacity(1000, 1), /^falsePositiveRate .*; got 1$/],
    ['falsePositiveRate -0.1', () => BloomFilter.forCapacity(1000, -0.1), /^falsePositiveRate .*; got -0.1$/],
    ['falsePositiveRate NaN', () => BloomFilter.forCapacity(1000, NaN), /^falsePositiveRate .*; got NaN$/],
    ['falsePositiveRate Infinity', () => BloomFilter.forCapacity(1000, Infinity), /^falsePositiveRate .*; got Infinity$/],
    ['capacity 0', () => BloomFilter.forCapacity(0, 0.01), /^capacity must be a positive integer; got 0$/],
    ['capacity -5', () => BloomFilter.forCapacity(-5, 0.01), /^capacity .*; got -5$/],
    ['capacity 1.5', () => BloomFilter.forCapacity(1.5, 0.01), /^capacity .*; got 1.5$/],
    ['capacity NaN', () => BloomFilter.forCapacity(NaN, 0.01), /^capacity .*; got NaN$/],
    ['capacity too many for MAX_BITS', () => BloomFilter.forCapacity(1e12, 0.01), /^capacity must be small enough that 9585058377368 bits \(needed at falsePositiveRate 0.01\) stay within 34358689792; got 1000000000000$/],
    ['SeenFilter m 0', () => new SeenFilter(0, 3), /^bits must be an integer/],
  ];

  it.each(rangeCases)('%s throws a BloomRangeError', (_, call, message) => {
    let error: unknown;
    try {
      call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BloomRangeError);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(message);
  });

  const typeCases: [string, () => unknown, RegExp][] = [
    ['bits "10"', () => new BloomFilter('10' as never, 3), /^bits must be an integer in \[1, 34358689792\]; got "10"$/],
    ['hashes undefined', () => new BloomFilter(100, undefined as never), /^hashes .*; got undefined$/],
    ['options 5', () => new BloomFilter(100, 3, 5 as never), /^options must be an object or undefined; got 5$/],
    ['seed "1"', () => new BloomFilter(100, 3, { seed: '1' as never }), /^seed .*; got "1"$/],
    ['capacity "5"', () => BloomFilter.forCapacity('5' as never, 0.1), /^capacity must be a positive integer; got "5"$/],
    ['falsePositiveRate null', () => BloomFilter.forCapacity(5, null as never), /^falsePositiveRate must be a number in \(0, 1\); got null$/],
  ];

  it.each(typeCases)('%s throws a BloomTypeError', (_, call, message) => {
    expect(call).toThrow(BloomTypeError);
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });

  it.each([42, null, undefined, {}, [1, 2], new Uint16Array(2), Symbol('s')])('item %s is refused by add, has and positions', (item) => {
    const f = new BloomFilter(100, 3);
    for (const call of [() => f.add(item as never), () => f.has(item as never), () => f.positions(item as never)]) {
      expect(call).toThrow(BloomTypeError);
      expect(call).toThrow(/^item must be a string or a Uint8Array; got /);
    }
    expect(f.bitsSet()).toBe(0);
  });

  it('accepts the edges of every range', () => {
    expect(new BloomFilter(1, 1).bits).toBe(1);
    expect(new BloomFilter(64, 64).hashes).toBe(64);
    expect(new BloomFilter(10, 64, { scheme: 'poly' }).hashes).toBe(64);
    expect(new BloomFilter(100, 3, { seed: 2n ** 64n - 1n }).seed).toBe(2n ** 64n - 1n);
    expect(new BloomFilter(100, 3, { seed: Number.MAX_SAFE_INTEGER }).seed).toBe(BigInt(Number.MAX_SAFE_INTEGER));
  });

  it('accepts a Buffer, which is a Uint8Array', () => {
    const f = new BloomFilter(1000, 4);
    f.add(Buffer.from('cats.io'));
    expect(f.has('cats.io')).toBe(true);
  });
});

describe('a filter the engine cannot allocate', () => {
  it('fails with BloomAllocationError before any work is done', () => {
    // Cap the child's address space at 5 GB, below what a 4 GiB wasm32
    // memory and its guard regions reserve on Node 20 and 24 alike.
    const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = `import(${JSON.stringify(dist)}).then(({ BloomFilter, MAX_BITS }) => {
      try { new BloomFilter(MAX_BITS, 7); console.log('allocated'); }
      catch (e) { console.log(e.name + ': ' + e.message); }
    })`;
    const out = execFileSync('sh', ['-c', `ulimit -v 5000000 && exec node -e '${script.replace(/'/g, "'\\''")}'`], {
      encoding: 'utf8',
    });
    expect(out).toMatch(/^BloomAllocationError: bits = 34358689792 needs 4294836224 bytes of WebAssembly memory/);
  });
});
