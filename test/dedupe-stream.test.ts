// dedupeStream(filter): a TransformStream that passes on each item the first
// time the filter sees it. Every filter whose add reports "was new" (and the
// cuckoo filter through addIfAbsent), in both twins; backpressure counted
// item by item; bad filters, options and chunks refused with typed errors.

import { describe, expect, it } from 'vitest';
import { BloomRangeError, BloomTypeError } from '../src/index.js';
import { DEDUPE_HIGH_WATER_MARK } from '../src/stream/dedupe-stream.js';
import { twins, type Twin } from './helpers/twins.js';

type Item = string | Uint8Array;
const encoder = new TextEncoder();

/** 400 URLs with every third one repeated later: 400 written, 300 distinct. */
const urls: string[] = [];
for (let i = 0; i < 300; i++) {
  urls.push(`https://example.com/page/${i}`);
  if (i % 3 === 2) urls.push(`https://example.com/page/${i - 2}`);
}
const distinct = [...new Set(urls)];

/** Writes `items` into the stream and reads everything it passes on; rejects with the stream's error. */
async function run(stream: TransformStream<Item, Item>, items: readonly unknown[]): Promise<Item[]> {
  const writing = (async () => {
    const writer = stream.writable.getWriter();
    for (const item of items) await writer.write(item as Item);
    await writer.close();
  })();
  const reading = (async () => {
    const out: Item[] = [];
    const reader = stream.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return out;
      out.push(value);
    }
  })();
  // Both sides fail with the stream's error: Promise.all reports it once and leaves neither unhandled.
  const [, out] = await Promise.all([writing, reading]);
  return out;
}

/** Lets every pending promise job and stream step run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Each filter kind whose add (or addIfAbsent) reports "was new", sized so that these 300 URLs meet no false positive. */
const kinds: Array<[string, (t: Twin) => { add(item: Item): boolean; has(item: Item): boolean }]> = [
  ['BloomFilter', (t) => t.BloomFilter.forCapacity(1000, 1e-6)],
  ['BloomFilter (sbbf)', (t) => t.BloomFilter.forCapacity(1000, 1e-6, { scheme: 'sbbf' })],
  ['ScalableBloomFilter', (t) => new t.ScalableBloomFilter({ capacity: 50, falsePositiveRate: 1e-6 })],
  ['CountingBloomFilter', (t) => t.CountingBloomFilter.forCapacity(1000, 1e-6)],
  ['SlidingBloomFilter', (t) => new t.SlidingBloomFilter({ window: 1000, falsePositiveRate: 1e-6 })],
  ['CuckooFilter', (t) => t.CuckooFilter.forCapacity(1000, 1e-6)],
];

describe.each(twins)('dedupeStream ($name)', (twin) => {
  const { dedupeStream } = twin;

  it.each(kinds)('passes on each item the first time a %s sees it', async (_, make) => {
    const filter = make(twin);
    const out = await run(dedupeStream(filter), urls);
    expect(out).toEqual(distinct);
    expect(distinct.every((url) => filter.has(url))).toBe(true);
  });

  it.each(kinds)('passes on what a sequence of single adds on a %s calls new, false positives included', async (_, make) => {
    // A small filter: some URLs are reported seen although they never were.
    const items = Array.from({ length: 600 }, (_, i) => `u${i % 500}`);
    const oracle = make(twin);
    const addNew = 'addIfAbsent' in oracle ? (oracle.addIfAbsent as (item: Item) => boolean).bind(oracle) : oracle.add.bind(oracle);
    const expected = items.filter((item) => addNew(item));
    expect(await run(dedupeStream(make(twin)), items)).toEqual(expected);
  });

  it('passes a tight filter\'s false positives on as seen: the stream answers what add answers', async () => {
    const items = Array.from({ length: 200 }, (_, i) => `key-${i}`);
    const oracle = twin.BloomFilter.forCapacity(20, 0.5);
    const expected = items.filter((item) => oracle.add(item));
    expect(expected.length).toBeLessThan(200);
    expect(await run(dedupeStream(twin.BloomFilter.forCapacity(20, 0.5)), items)).toEqual(expected);
  });

  it('takes Uint8Array items and passes on the same objects', async () => {
    const bytes = distinct.slice(0, 50).map((url) => encoder.encode(url));
    const filter = twin.BloomFilter.forCapacity(100, 1e-6);
    filter.add('https://example.com/page/0');
    const items = [...bytes, bytes[3], 'https://example.com/page/1'];
    const out = await run(dedupeStream(filter), items);
    // page/0 was added as a string: its bytes are the same item. page/1's string follows its bytes.
    expect(out).toEqual(bytes.slice(1));
    expect(out[0]).toBe(bytes[1]);
  });

  it('stops a producer while nothing is read: each side holds 16 items, so 32 are accepted', async () => {
    const filter = twin.BloomFilter.forCapacity(1000, 1e-6);
    const stream = dedupeStream(filter);
    const writer = stream.writable.getWriter();
    let accepted = 0;
    // A well-behaved producer: it waits for writer.ready before each write, as pipeTo does.
    const producing = (async () => {
      for (let i = 0; i < 1000; i++) {
        await writer.ready;
        void writer.write(`u${i}`);
        accepted++;
      }
      await writer.close();
    })();
    await settle();
    expect(DEDUPE_HIGH_WATER_MARK).toBe(16);
    expect(accepted).toBe(32);
    // 16 passed on and waiting to be read, 16 written and waiting for the filter.
    expect(filter.size).toBe(16);
    await settle();
    expect(accepted).toBe(32);
    const reader = stream.readable.getReader();
    const out: Item[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      out.push(value);
    }
    await producing;
    expect(out).toEqual(Array.from({ length: 1000 }, (_, i) => `u${i}`));
    expect(accepted).toBe(1000);
  });

  it('holds highWaterMark items each side when told, and pulls no more from a piped source', async () => {
    let pulled = 0;
    const source = new ReadableStream<string>(
      {
        pull(controller) {
          controller.enqueue(`u${pulled++}`);
        },
      },
      { highWaterMark: 0 },
    );
    const stream = dedupeStream(twin.BloomFilter.forCapacity(1000, 1e-6), { highWaterMark: 4 });
    const piping = source.pipeTo(stream.writable);
    await settle();
    const stalled = pulled;
    await settle();
    expect(pulled).toBe(stalled);
    // 4 passed on and 4 waiting for the filter: pipeTo reads only while the writable side has room.
    expect(stalled).toBe(8);
    const reader = stream.readable.getReader();
    for (let i = 0; i < 100; i++) expect((await reader.read()).value).toBe(`u${i}`);
    await reader.cancel();
    await piping.catch(() => undefined);
  });

  it('errors the stream with BloomTypeError naming the index of a chunk that is not an item', async () => {
    const stream = dedupeStream(twin.BloomFilter.forCapacity(100, 0.01));
    const items: unknown[] = ['a', 'b', 'a', 42, 'c'];
    const error = await run(stream, items).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BloomTypeError);
    expect(error).toMatchObject({ parameter: 'chunks[3]', index: 3, message: 'chunks[3] must be a string or a Uint8Array; got 42' });
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['an ArrayBuffer', new ArrayBuffer(4)],
    ['a DataView', new DataView(new ArrayBuffer(4))],
    ['a Uint16Array', new Uint16Array(2)],
    ['an object', { toString: () => 'a' }],
  ])('refuses %s as a chunk', async (_, chunk) => {
    const error = await run(dedupeStream(twin.BloomFilter.forCapacity(100, 0.01)), ['x', chunk]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'BloomTypeError', parameter: 'chunks[1]', index: 1 });
  });

  it("errors the stream with the filter's own error (a disposed filter)", async () => {
    const filter = twin.BloomFilter.forCapacity(100, 0.01);
    filter.dispose();
    const error = await run(dedupeStream(filter), ['a']).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'BloomDisposedError' });
  });

  it("errors the stream with a full cuckoo filter's BloomFullError, after passing on what it held", async () => {
    const filter = twin.CuckooFilter.forCapacity(100, 0.01);
    const items = Array.from({ length: 5000 }, (_, i) => `u${i}`);
    const stream = dedupeStream(filter);
    const passed: Item[] = [];
    const reading = (async () => {
      const reader = stream.readable.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        passed.push(value);
      }
    })();
    const writer = stream.writable.getWriter();
    const writing = (async () => {
      for (const item of items) await writer.write(item);
    })();
    const errors = await Promise.allSettled([writing, reading]);
    expect(errors.map((e) => e.status)).toEqual(['rejected', 'rejected']);
    expect((errors[0] as PromiseRejectedResult).reason).toMatchObject({ name: 'BloomFullError' });
    expect(passed.length).toBeGreaterThan(0);
    expect(passed.every((item) => filter.has(item))).toBe(true);
  });

  it('refuses, when called, an object whose add does not report "was new", naming filter', () => {
    const refused: unknown[] = [
      new twin.Bitmap(64), // set, not add
      twin.BinaryFuseFilter.from(['a', 'b']), // static: no add
      new twin.SeenFilter(1000, 3), // add returns nothing, and it has no has
      new Set<string>(), // add returns the set
      { add: () => true }, // no has
      {},
      null,
      undefined,
      'filter',
    ];
    for (const filter of refused) {
      let caught: unknown;
      try {
        dedupeStream(filter as never);
      } catch (error) {
        caught = error;
      }
      expect(caught, String(filter)).toBeInstanceOf(BloomTypeError);
      expect((caught as BloomTypeError).parameter).toBe('filter');
      expect((caught as Error).message).toMatch(/^filter must be a filter whose add\(item\) or addIfAbsent\(item\) says whether the item was new \(a BloomFilter, a CuckooFilter; not a Set\); got /);
    }
  });

  it('reads the filter\'s method once: replacing it afterwards does not redirect the stream', async () => {
    const filter = twin.BloomFilter.forCapacity(100, 1e-6);
    const stream = dedupeStream(filter);
    Object.defineProperty(filter, 'add', { value: () => true });
    expect(await run(stream, ['a', 'a', 'b'])).toEqual(['a', 'b']);
  });

  it('refuses a bad highWaterMark naming it', () => {
    const filter = twin.BloomFilter.forCapacity(100, 0.01);
    for (const [value, type] of [[0, BloomRangeError], [1.5, BloomRangeError], [2 ** 20 + 1, BloomRangeError], [NaN, BloomRangeError], ['4', BloomTypeError]] as const) {
      expect(() => dedupeStream(filter, { highWaterMark: value as number })).toThrow(type);
      expect(() => dedupeStream(filter, { highWaterMark: value as number })).toThrow(/^options\.highWaterMark must be an integer in \[1, 1048576\]/);
    }
    expect(() => dedupeStream(filter, 3 as never)).toThrow(expect.objectContaining({ parameter: 'options' }));
  });
});

describe('dedupeStream with a filter whose add answers a promise (as the Redis filters do)', () => {
  it('waits for each answer, in order', async () => {
    const [wasm] = twins;
    const inner = wasm.BloomFilter.forCapacity(1000, 1e-6);
    const order: string[] = [];
    const remote = {
      async add(item: Item): Promise<boolean> {
        await new Promise((resolve) => setTimeout(resolve, 0));
        order.push(String(item));
        return inner.add(item);
      },
      async has(item: Item): Promise<boolean> {
        return inner.has(item);
      },
    };
    expect(await run(wasm.dedupeStream(remote), urls)).toEqual(distinct);
    expect(order).toEqual(urls);
  });

  it("errors the stream naming the chunk when an answer is not a boolean", async () => {
    const [wasm] = twins;
    const odd = { add: (item: Item) => (item === 'b' ? Promise.resolve('yes') : true), has: () => false };
    const error = await run(wasm.dedupeStream(odd as never), ['a', 'b']).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'BloomTypeError', parameter: 'filter.add(chunks[1])', index: 1 });
    const cuckooLike = { add: () => true, addIfAbsent: () => undefined, has: () => false };
    const error2 = await run(wasm.dedupeStream(cuckooLike as never), ['a']).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error2).toMatchObject({ message: 'filter.addIfAbsent(chunks[0]) must be a boolean (whether the item was new); got undefined' });
  });
});
