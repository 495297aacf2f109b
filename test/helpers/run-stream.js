// Plain JavaScript, as run-cases.js is: the same driver runs in Node, Bun and
// Deno (test/helpers/portable.js), in Chromium's and Firefox's pages
// (test/browser.test.ts) and in a Cloudflare Worker (test/workerd.test.ts),
// each over its own copy of the built package. It exercises what runs on
// the runtime's own web streams and collections: dedupeStream over every
// kind of filter that says "was new", its backpressure, its typed errors,
// and BloomFilter.from. Its answer is JSON, compared with Node's.

/** A short fingerprint of bytes (FNV-1a), so the answer stays small. */
function fingerprint(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return `${bytes.length}:${h.toString(16)}`;
}

const encoder = new TextEncoder();

/** A fingerprint of a list of items, strings and bytes alike. */
function listPrint(items) {
  return fingerprint(encoder.encode(items.map((x) => (typeof x === 'string' ? x : `bytes:${Array.from(x).join(',')}`)).join('\n')));
}

/** Writes `items` into `stream` and reads all it passes on; an error becomes `{ error: 'name parameter index' }`. */
async function through(stream, items) {
  const writing = (async () => {
    const writer = stream.writable.getWriter();
    for (const item of items) await writer.write(item);
    await writer.close();
  })();
  const reading = (async () => {
    const out = [];
    const reader = stream.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return out;
      out.push(value);
    }
  })();
  try {
    const [, out] = await Promise.all([writing, reading]);
    return out;
  } catch (e) {
    return { error: `${e.name} ${e.parameter} ${e.index}` };
  }
}

/** Lets every pending stream step run: a timer fires only once the microtasks before it are done. */
async function settle() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** The name and parameter of what `fn` throws, or 'none'. */
function refusal(fn) {
  try {
    fn();
    return 'none';
  } catch (e) {
    return `${e.name} ${e.parameter}`;
  }
}

/** dedupeStream and BloomFilter.from, run against `lib` (bloomwasm or bloomwasm/reference). */
export async function runStream(lib) {
  // 3,000 URLs, 2,000 distinct: each of the first 1,000 comes twice.
  const urls = Array.from({ length: 3000 }, (_, i) => `https://example.com/${i % 2000}/é😀`);

  const built = lib.BloomFilter.from(urls, 0.01);
  const sized = lib.BloomFilter.forCapacity(urls.length, 0.01);
  sized.addMany(urls);
  const fromSet = lib.BloomFilter.from(new Set(urls), 0.01);
  const from = {
    bits: built.bits,
    hashes: built.hashes,
    file: fingerprint(built.toBytes()),
    sameAsForCapacity: fingerprint(built.toBytes()) === fingerprint(sized.toBytes()),
    setBits: fromSet.bits,
    held: urls.every((x) => built.has(x)) && urls.every((x) => fromSet.has(x)),
    refused: [
      refusal(() => lib.BloomFilter.from([], 0.01)),
      refusal(() => lib.BloomFilter.from(new Set(), 0.01)),
      refusal(() => lib.BloomFilter.from(urls.values(), 0.01)),
      refusal(() => lib.BloomFilter.from(['a', 1], 0.01)),
    ],
  };

  const kinds = {
    bloom: () => lib.BloomFilter.forCapacity(2000, 1e-6),
    sbbf: () => lib.BloomFilter.forCapacity(2000, 1e-6, { scheme: 'sbbf' }),
    scalable: () => new lib.ScalableBloomFilter({ capacity: 100, falsePositiveRate: 1e-6 }),
    counting: () => lib.CountingBloomFilter.forCapacity(2000, 1e-6),
    sliding: () => new lib.SlidingBloomFilter({ window: 5000, falsePositiveRate: 1e-6 }),
    cuckoo: () => lib.CuckooFilter.forCapacity(2000, 1e-6),
    // A small filter, whose false positives the stream drops as seen.
    tight: () => lib.BloomFilter.forCapacity(200, 0.1),
  };
  const dedupe = {};
  for (const [name, make] of Object.entries(kinds)) {
    const out = await through(lib.dedupeStream(make()), urls);
    dedupe[name] = { passed: out.length, items: listPrint(out) };
  }
  const bytes = urls.slice(0, 1500).map((x) => encoder.encode(x));
  const mixed = await through(lib.dedupeStream(lib.BloomFilter.forCapacity(2000, 1e-6)), [...bytes, ...urls.slice(1000, 2000)]);
  dedupe.bytes = { passed: mixed.length, items: listPrint(mixed) };

  // Nothing read: a producer that waits for writer.ready stops once both sides are full.
  const filter = lib.BloomFilter.forCapacity(2000, 1e-6);
  const stream = lib.dedupeStream(filter);
  const writer = stream.writable.getWriter();
  let accepted = 0;
  const producing = (async () => {
    for (const url of urls) {
      await writer.ready;
      void writer.write(url);
      accepted++;
    }
    await writer.close();
  })();
  await settle();
  const stalled = { accepted, added: filter.size };
  const small = lib.dedupeStream(lib.BloomFilter.forCapacity(2000, 1e-6), { highWaterMark: 3 });
  const smallWriter = small.writable.getWriter();
  let smallAccepted = 0;
  void (async () => {
    for (let i = 0; i < 100; i++) {
      await smallWriter.ready;
      void smallWriter.write(`u${i}`);
      smallAccepted++;
    }
  })();
  await settle();
  stalled.acceptedAt3 = smallAccepted;
  const drained = [];
  const reader = stream.readable.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) drained.push(r.value);
  await producing;
  const backpressure = { stalled, then: { accepted, passed: drained.length, items: listPrint(drained) } };

  const errors = {
    chunk: (await through(lib.dedupeStream(lib.BloomFilter.forCapacity(100, 0.01)), ['a', 'b', 7, 'c'])).error,
    filter: [new Set(), new lib.Bitmap(64), new lib.SeenFilter(64, 3), {}].map((f) => refusal(() => lib.dedupeStream(f))),
    highWaterMark: refusal(() => lib.dedupeStream(lib.BloomFilter.forCapacity(100, 0.01), { highWaterMark: 0 })),
  };
  return { from, dedupe, backpressure, errors };
}
