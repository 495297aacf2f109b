// The portable suites, as one script that any runtime runs (Node of any
// version, Bun, Deno): plain JavaScript over the built package (dist/), no
// test runner. It prints one JSON document: its answers, which
// test/runtimes.test.ts requires to equal Node's under each runtime, and
// the longest string the runtime reads in place, which differs by runtime.
//
// Usage: <runtime> portable.js <dist/index.js URL> <cases.json path>
// (Deno: deno run --allow-read portable.js ...).
import { readFileSync } from 'node:fs';
import { runCases, runSeeds, runStatic } from './run-cases.js';
import { checkStringParity } from './string-property.js';
import { runStream } from './run-stream.js';

const [distUrl, casesPath] = (globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2));
const lib = await import(distUrl);
const cases = JSON.parse(readFileSync(casesPath, 'utf8'));

/** A short fingerprint of bytes (FNV-1a), so the output stays small. */
function fingerprint(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return `${bytes.length}:${h.toString(16)}`;
}

const items = Array.from({ length: 2000 }, (_, i) => (i % 5 === 0 ? `https://example.com/${i}/é😀` : `key-${i}`));
const out = {};
let stringPath;

// API surface: the names the package exports.
out.surface = Object.keys(lib).sort();

// Parity: the worked examples and the vectors.
out.seeds = runSeeds(lib);
out.cases = runCases(lib, cases);

// The cuckoo and binary fuse filters: kicks, growth, removes, files, reference bytes.
out.static = runStatic(lib);

// Format: files written here, and read back.
out.format = ['xxh64', 'poly', 'bytesum', 'sbbf'].map((scheme) => {
  const f = scheme === 'sbbf' ? new lib.BloomFilter(8192, 8, { scheme }) : new lib.BloomFilter(8191, 5, { scheme, seed: scheme === 'xxh64' ? 7n : 0n });
  items.slice(0, 500).forEach((x) => f.add(x));
  const bytes = f.toBytes();
  const back = lib.BloomFilter.fromBytes(bytes);
  return { scheme, file: fingerprint(bytes), same: fingerprint(back.toBytes()) === fingerprint(bytes), has: items.slice(400, 600).map((x) => back.has(x)) };
});

// Batches: equal to single calls.
{
  const f = lib.BloomFilter.forCapacity(1000, 0.01);
  const added = Array.from(f.addMany(items.slice(0, 1000)));
  const asked = Array.from(f.hasMany(items));
  out.batches = { added: added.reduce((a, b) => a + b, 0), asked: fingerprint(Uint8Array.from(asked)), bits: fingerprint(f.bitArray()) };
}

// Counting: add, remove, count, and its file.
{
  const c = new lib.CountingBloomFilter(4001, 4);
  items.slice(0, 300).forEach((x) => c.add(x));
  items.slice(0, 100).forEach((x) => c.remove(x));
  out.counting = { has: items.slice(0, 400).map((x) => c.has(x)), count: items.slice(100, 110).map((x) => c.count(x)), file: fingerprint(c.toBytes()) };
}

// The family modules over the core's memory that the cases above leave
// out: a sliding window (its adds, the window's forgetting, its file), a
// Bitmap, and the exercise schemes' items too long for scratch, whose
// streams the Bloom filter's module and the counting module hash.
{
  const w = new lib.SlidingBloomFilter({ window: 300, falsePositiveRate: 0.01 });
  const fresh = items.slice(0, 900).map((x) => w.add(x));
  const b = new lib.Bitmap(100000);
  b.setMany(Uint32Array.from(items.slice(0, 500), (_, i) => (i * 7919) % 100000));
  const long = items.slice(0, 3).map((x) => x.repeat(40000));
  const poly = new lib.BloomFilter(8191, 5, { scheme: 'poly' });
  const bytesum = new lib.CountingBloomFilter(8191, 5, { scheme: 'bytesum' });
  long.forEach((x) => (poly.add(x), bytesum.add(x)));
  out.modules = {
    sliding: { fresh: fresh.filter(Boolean).length, has: fingerprint(Uint8Array.from(items.slice(0, 900).map((x) => (w.has(x) ? 1 : 0)))), file: fingerprint(w.toBytes()) },
    bitmap: { count: b.size, first: Array.from(b).slice(0, 10), has: Array.from(b.hasMany(Uint32Array.of(0, 7919, 1, 15838))) },
    long: { poly: fingerprint(poly.bitArray()), polyHas: long.map((x) => poly.has(x)), bytesum: fingerprint(bytesum.toBytes()), bytesumHas: long.map((x) => bytesum.has(x)) },
  };
}

// Chains: growth, has in one call, the chain file.
{
  const s = new lib.ScalableBloomFilter({ capacity: 20, falsePositiveRate: 0.01 });
  const fresh = items.map((x) => s.add(x));
  out.chain = { members: s.members.length, fresh: fresh.filter(Boolean).length, has: fingerprint(Uint8Array.from(items.map((x) => (s.has(x) ? 1 : 0)))), file: fingerprint(s.toBytes()) };
}

// Streams on the runtime's own TransformStream: dedupeStream over every
// kind of filter, its backpressure and errors, and BloomFilter.from.
out.stream = await runStream(lib);

// Many filters in one instance, and dispose.
{
  const filters = Array.from({ length: 20000 }, (_, i) => {
    const f = lib.BloomFilter.forCapacity(100, 0.01);
    f.add(`user-${i}`);
    return f;
  });
  const found = filters.filter((f, i) => f.has(`user-${i}`)).length;
  filters[0].dispose();
  let refused = '';
  try {
    filters[0].has('x');
  } catch (e) {
    refused = `${e.name} ${e.call}`;
  }
  out.many = { found, refused };
}

// Strings: read in place (where the engine has the JS String Builtins) and
// copied in, against TextEncoder and the reference twin.
{
  const at = (path) => import(new URL(path, distUrl).href);
  const [ref, refStrings, wasm, staging, filterBase] = await Promise.all([at('./reference/index.js'), at('./reference/js-string.js'), at('./wasm/module.js'), at('./wasm/staging.js'), at('./filter/filter-base.js')]);
  out.strings = checkStringParity({ lib, ref, refStrings, wasm, staging, filterBase }, { runs: 100, seed: 7 });
  stringPath = staging.inPlaceUnits();
}

// Shared memory, where the runtime has it.
if (typeof SharedArrayBuffer === 'function') {
  // Imported by path, dist/index.js loads the shared-memory build on first use.
  await lib.loadSharedMemory();
  const f = new lib.BloomFilter(8192, 5, { shared: true });
  items.slice(0, 200).forEach((x) => f.add(x));
  const g = lib.BloomFilter.attach(f.share());
  out.shared = { has: fingerprint(Uint8Array.from(items.slice(0, 400).map((x) => (g.has(x) ? 1 : 0)))), bits: fingerprint(g.bitArray()) };
}

// The path strings take differs by runtime, so it is printed beside the answers, not among them.
console.log(JSON.stringify({ answers: out, inPlaceUnits: stringPath }));
