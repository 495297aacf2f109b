// bloomwasm/node: atomic saves and checked loads, sync and async.
import {
  chmodSync, closeSync, existsSync, lstatSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import { loadFile, loadFileSync, saveFile, saveFileSync } from '../src/node/index.js';
import * as reference from '../src/reference/index.js';
import { checksum } from '../src/reference/checksum.js';
import { decode, decodeSync, type Decoder } from '../src/node/io.js';
import { chainDecoder, countingDecoder, cuckooDecoder, filterDecoder, slidingDecoder } from '../src/node/decoders.js';
import { fuseDecoder } from '../src/node/fuse-file.js';
import { sharedArenas } from '../src/wasm/placement.js';

const dir = mkdtempSync(join(tmpdir(), 'bloomwasm-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;
const fresh = (name = 'filter.bin') => join(mkdtempSync(join(dir, `case${serial++}-`)), name);

const helpers = [
  { name: 'sync', save: async (f: any, p: string) => saveFileSync(f, p), load: async (p: string) => loadFileSync(p, wasm.BloomFilter) },
  { name: 'async', save: saveFile, load: (p: string) => loadFile(p, wasm.BloomFilter) },
] as const;

describe.each(helpers)('$name file helpers', ({ save, load }) => {
  it.each(['xxh64', 'poly', 'bytesum'] as const)('round-trip a %s filter; the file is exactly toBytes()', async (scheme) => {
    const f = new wasm.BloomFilter(10_007, 5, { scheme, seed: scheme === 'xxh64' ? 123n : 0 });
    for (let i = 0; i < 500; i++) f.add(`file-${i}`);
    const path = fresh();
    await save(f, path);
    expect(new Uint8Array(readFileSync(path))).toEqual(f.toBytes());
    const g = await load(path);
    expect(g).toBeInstanceOf(wasm.BloomFilter);
    expect(g.toBytes()).toEqual(f.toBytes());
    expect([g.bitsSet(), g.size]).toEqual([f.bitsSet(), f.size]);
    for (let i = 0; i < 500; i++) expect(g.has(`file-${i}`)).toBe(true);
  });

  it('round-trips empty and full filters', async () => {
    const empty = new wasm.BloomFilter(1, 1);
    const full = new wasm.BloomFilter(64, 64);
    full.add('fills every bit');
    for (const f of [empty, full]) {
      const path = fresh();
      await save(f, path);
      expect((await load(path)).toBytes()).toEqual(f.toBytes());
    }
  });

  it('saves the reference twin, and the wasm filter loads its file', async () => {
    const r = new reference.BloomFilter(999, 3, { scheme: 'bytesum' });
    r.add('apple');
    const path = fresh();
    await save(r, path);
    expect((await load(path)).toBytes()).toEqual(r.toBytes());
  });

  it('replaces an existing file and leaves no temporary file behind', async () => {
    const path = fresh();
    const f = new wasm.BloomFilter(100, 3);
    await save(f, path);
    f.add('second version');
    await save(f, path);
    expect((await load(path)).has('second version')).toBe(true);
    expect(readdirSync(dirname(path))).toEqual(['filter.bin']);
  });

  it('fails in a missing directory and creates nothing', async () => {
    const path = join(dir, 'no-such-dir', 'filter.bin');
    await expect(save(new wasm.BloomFilter(100, 3), path)).rejects.toThrow(/ENOENT/);
    expect(existsSync(dirname(path))).toBe(false);
  });

  it('refuses a corrupt file with BloomFormatError naming the field and offset', async () => {
    const f = new wasm.BloomFilter(100, 3);
    f.add('x');
    const good = f.toBytes();
    const cases: Array<[Uint8Array, string, number]> = [
      [good.subarray(0, 40), 'payloadLength', 40],
      [good.subarray(0, 60), 'payload', 60],
      [new Uint8Array([...good, 1, 2, 3]), 'payload', 69],
      [good.map((b, i) => (i === 62 ? b ^ 0x10 : b)), 'checksum', 48],
      [new Uint8Array(0), 'magic', 0],
    ];
    for (const [bytes, field, offset] of cases) {
      const path = fresh();
      writeFileSync(path, bytes);
      const error = await load(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(wasm.BloomFormatError);
      expect(error).toMatchObject({ field, offset });
    }
  });

  it('refuses a 100-byte file claiming 2^34 bits before allocating', async () => {
    const header = new wasm.BloomFilter(8, 1).toBytes().subarray(0, 56);
    const bytes = new Uint8Array(100);
    bytes.set(header);
    const view = new DataView(bytes.buffer);
    view.setBigUint64(16, 1n << 34n, true);
    view.setBigUint64(40, 1n << 31n, true);
    view.setBigUint64(48, checksum(bytes.subarray(0, 48), bytes.subarray(56)), true);
    const path = fresh();
    writeFileSync(path, bytes);
    const before = process.memoryUsage();
    await expect(load(path)).rejects.toMatchObject({ name: 'BloomFormatError', field: 'payload', offset: 100 });
    const after = process.memoryUsage();
    expect(after.rss - before.rss).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses bad arguments with BloomTypeError', async () => {
    await expect(save({} as any, fresh())).rejects.toThrow(/filter must be a BloomFilter/);
    await expect(save(new wasm.BloomFilter(8, 1), '' as any)).rejects.toThrow(/path must be a non-empty string/);
    await expect(load(42 as any)).rejects.toThrow(wasm.BloomTypeError);
  });
});

describe('saveFile while the filter changes', () => {
  it('abandons the save with BloomConcurrencyError and leaves the old file in place', async () => {
    const path = fresh();
    const f = new wasm.BloomFilter(2 ** 27, 3); // 16 MiB: two write chunks, so the save spans several awaits
    f.add('before');
    saveFileSync(f, path);
    const saving = saveFile(f, path);
    f.add('during the save');
    await expect(saving).rejects.toBeInstanceOf(wasm.BloomConcurrencyError);
    const kept = loadFileSync(path, wasm.BloomFilter);
    expect([kept.has('before'), kept.size]).toEqual([true, 1]);
    expect(readdirSync(dirname(path))).toEqual(['filter.bin']);
  });
});

describe('the browser-safe core', () => {
  it('imports nothing from node:* (the file helpers live in src/node/ only)', () => {
    const root = resolve(fileURLToPath(new URL('../src/', import.meta.url)));
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        expect(`${file}: ${spec}`).not.toMatch(/: (node:|fs$|path$|os$|crypto$)/);
        if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      }
    };
    visit(join(root, 'index.ts'));
    visit(join(root, 'reference/index.ts'));
    expect([...seen].some((f) => f.endsWith('format/filter.ts'))).toBe(true);
    expect([...seen].some((f) => f.includes('/node/'))).toBe(false);
  });
});

describe.each(helpers)('$name saves keep what they replace', ({ save, load }) => {
  const filter = () => {
    const f = new wasm.BloomFilter(1000, 3);
    f.add('kept');
    return f;
  };

  it('keeps the mode of the file it replaces (0600 stays 0600, 0640 stays 0640)', async () => {
    for (const mode of [0o600, 0o640, 0o604]) {
      const path = fresh();
      writeFileSync(path, 'old');
      chmodSync(path, mode);
      await save(filter(), path);
      expect(statSync(path).mode & 0o777).toBe(mode);
      expect((await load(path)).has('kept')).toBe(true);
    }
  });

  it('creates a new file with 0644 less the umask', async () => {
    const path = fresh();
    await save(filter(), path);
    const umask = process.umask();
    expect(statSync(path).mode & 0o777).toBe(0o644 & ~umask);
  });

  it('writes through a symbolic link to its target, which keeps its mode; the link stays a link', async () => {
    const linkDir = mkdtempSync(join(dir, 'links-'));
    const targetDir = mkdtempSync(join(dir, 'targets-'));
    const target = join(targetDir, 'real.bin');
    writeFileSync(target, 'old');
    chmodSync(target, 0o600);
    const link = join(linkDir, 'filter.bin');
    symlinkSync(relative(linkDir, target), link); // relative, as `ln -s ../x` makes it
    const chained = join(linkDir, 'chained.bin');
    symlinkSync(link, chained); // a link to the link
    await save(filter(), chained);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(chained).isSymbolicLink()).toBe(true);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(new Uint8Array(readFileSync(target))).toEqual(filter().toBytes());
    expect((await load(link)).has('kept')).toBe(true);
    // The temporary file went beside the target and was renamed: nothing left anywhere.
    expect(readdirSync(linkDir).sort()).toEqual(['chained.bin', 'filter.bin']);
    expect(readdirSync(targetDir)).toEqual(['real.bin']);
  });

  it('creates the target of a dangling link, and refuses a loop of links with ELOOP', async () => {
    const base = mkdtempSync(join(dir, 'dangling-'));
    symlinkSync('later.bin', join(base, 'link.bin'));
    await save(filter(), join(base, 'link.bin'));
    expect(lstatSync(join(base, 'link.bin')).isSymbolicLink()).toBe(true);
    expect((await load(join(base, 'later.bin'))).has('kept')).toBe(true);
    symlinkSync('b.bin', join(base, 'a.bin'));
    symlinkSync('a.bin', join(base, 'b.bin'));
    await expect(save(filter(), join(base, 'a.bin'))).rejects.toMatchObject({ code: 'ELOOP' });
    expect(readdirSync(base).sort()).toEqual(['a.bin', 'b.bin', 'later.bin', 'link.bin']);
  });

  it('saves to a name of 250 bytes (the temporary name is short and fixed)', async () => {
    for (const name of ['n'.repeat(250), `${'é'.repeat(124)}.b`]) {
      expect(Buffer.byteLength(name)).toBe(250);
      const path = fresh(name);
      await save(filter(), path);
      await save(filter(), path);
      expect((await load(path)).has('kept')).toBe(true);
      expect(readdirSync(dirname(path))).toEqual([name]);
    }
  });
});

describe('the wrong loader for the file', () => {
  it('loadFile(path, BloomFilter) on a chain file names both kinds', async () => {
    const chain = new wasm.ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01 });
    const path = fresh('chain.blmc');
    saveFileSync(chain, path);
    expect(() => loadFileSync(path, wasm.BloomFilter)).toThrow('magic at byte 0: this holds a ScalableBloomFilter ("BLMC"), not the BloomFilter asked for');
    await expect(loadFile(path, wasm.BloomFilter)).rejects.toMatchObject({ field: 'magic', offset: 0 });
  });
});

describe('a read that fails under a decoder', () => {
  /** A decoder that asks for more bytes than the file holds, and notes whether its finally block ran. */
  function* greedy(state: { ended: boolean }): Decoder<number> {
    try {
      yield { into: new Uint8Array(100), position: 0 };
      return 1;
    } finally {
      state.ended = true;
    }
  }

  it('ends the decoder, so that what it allocated is given back at once (sync and async)', async () => {
    const path = fresh('short.bin');
    writeFileSync(path, 'ten bytes!');
    const sync = { ended: false };
    const fd = openSync(path, 'r');
    try {
      expect(() => decodeSync(fd, greedy(sync))).toThrow(wasm.BloomFormatError);
    } finally {
      closeSync(fd);
    }
    expect(sync.ended).toBe(true);
    const async = { ended: false };
    const handle = await open(path, 'r');
    try {
      await expect(decode(handle, greedy(async))).rejects.toThrow(/truncated/);
    } finally {
      await handle.close();
    }
    expect(async.ended).toBe(true);
  });
});

describe('a load refused after its filter was allocated gives it back at once', () => {
  /** Bytes in use in every shared arena's heap: a filter that a refused load kept would still count here. */
  const used = () => sharedArenas().reduce((n, a) => n + a.x.heapUsedBytes(), 0);
  const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://example.com/${i}`);
  function filled<F extends { add(item: string): unknown }>(f: F, n: number): F {
    for (const url of urls(n)) f.add(url);
    return f;
  }
  // Each kind's file, and the decoder a load of it runs; a chain of four members, so that a refused member has others loaded before it.
  const kinds = [
    ['BloomFilter', () => filled(wasm.BloomFilter.forCapacity(2000, 0.01), 1500), filterDecoder, wasm.BloomFilter],
    ['ScalableBloomFilter', () => filled(wasm.ScalableBloomFilter.forCapacity(200, 0.01), 2000), chainDecoder, wasm.ScalableBloomFilter],
    ['CountingBloomFilter', () => filled(wasm.CountingBloomFilter.forCapacity(2000, 0.01), 1500), countingDecoder, wasm.CountingBloomFilter],
    ['SlidingBloomFilter', () => filled(wasm.SlidingBloomFilter.forCapacity(2000, 0.01), 1500), (size: number) => slidingDecoder(size, undefined), wasm.SlidingBloomFilter],
    ['CuckooFilter', () => filled(wasm.CuckooFilter.forCapacity(2000, 0.01), 1500), cuckooDecoder, wasm.CuckooFilter],
    ['BinaryFuseFilter', () => wasm.BinaryFuseFilter.from(urls(1500)), fuseDecoder, wasm.BinaryFuseFilter],
  ] as const;

  /** The kind's bytes with the last byte changed: the last member's payload, whose check fails after everything was allocated and read. */
  function refusedBytes(make: () => { toBytes(): Uint8Array; dispose(): void }): Uint8Array {
    const f = make();
    const bytes = f.toBytes();
    if (f instanceof wasm.ScalableBloomFilter) expect(f.members.length).toBe(4);
    f.dispose();
    bytes[bytes.length - 1] ^= 0x01;
    return bytes;
  }

  it.each(kinds)('%s: fromBytes and Kind.fromBytes of a payload that fails its check', (_name, make, _decoder, Kind) => {
    const bytes = refusedBytes(make);
    const before = used();
    expect(() => wasm.fromBytes(bytes)).toThrow(wasm.BloomFormatError);
    expect(() => (Kind as { fromBytes(b: Uint8Array): unknown }).fromBytes(bytes)).toThrow(wasm.BloomFormatError);
    expect(used()).toBe(before);
  });

  it.each(kinds)('%s: loadFile of a payload that fails its check (sync and async)', async (name, make) => {
    const bytes = refusedBytes(make);
    const path = fresh(`${name}.bin`);
    writeFileSync(path, bytes);
    const before = used();
    expect(() => loadFileSync(path)).toThrow(wasm.BloomFormatError);
    expect(used()).toBe(before);
    await expect(loadFile(path)).rejects.toThrow(wasm.BloomFormatError);
    // Filters that other tests dropped may be collected during the awaits, never added.
    expect(used()).toBeLessThanOrEqual(before);
  });

  it.each(kinds)('%s: a file that shrinks under the read (sync and async)', async (name, make, kindDecoder) => {
    const decoder = kindDecoder as (size: number) => Decoder<unknown>;
    const f = make();
    const bytes = f.toBytes();
    f.dispose();
    const path = fresh(`${name}.bin`);
    writeFileSync(path, bytes);
    // The headers are checked against the size the file had; its last 100 bytes are gone when the payload is read.
    writeFileSync(path, bytes.subarray(0, bytes.length - 100));
    const before = used();
    const fd = openSync(path, 'r');
    try {
      expect(() => decodeSync(fd, decoder(bytes.length))).toThrow(/truncated/);
    } finally {
      closeSync(fd);
    }
    expect(used()).toBe(before);
    const handle = await open(path, 'r');
    try {
      await expect(decode(handle, decoder(bytes.length))).rejects.toThrow(/truncated/);
    } finally {
      await handle.close();
    }
    expect(used()).toBeLessThanOrEqual(before);
  });
});
