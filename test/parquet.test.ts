// Parquet interoperability with a real writer: DuckDB (@duckdb/node-api)
// writes a Parquet file with split-block Bloom filters; we read each column
// chunk's bitset out of the footer (test/helpers/parquet.ts), load it with
// fromParquet, find every written value, and build the same bytes ourselves.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import * as reference from '../src/reference/index.js';
import { readBloomFilterHeader, readBloomFilters, type ColumnBloomFilter } from './helpers/parquet.js';
import { twins } from './helpers/twins.js';

/** 12,000 rows: distinct URLs (with a non-ASCII character), and INT32, INT64 and DOUBLE spanning negative and positive. */
const ROWS = `
  SELECT 'https://example.org/página/' || i || '?q=' || (i * 7919 % 10007) AS url,
         ((i * 2654435761) % 4294967296 - 2147483648)::INTEGER AS i32,
         (i::HUGEINT * 1000000007 * 1000003 - 4611686018427387904)::BIGINT AS i64,
         i::DOUBLE / 7 - 300 AS d
  FROM range(12000) t(i)`;

type Row = { url: string; i32: number; i64: bigint; d: number };

/** An item's bytes as a Parquet writer hashes them: a string's UTF-8, a number's little-endian PLAIN bytes. */
function plainBytes(column: string, value: string | number | bigint): Uint8Array {
  if (column === 'url') return new TextEncoder().encode(value as string);
  const out = new Uint8Array(column === 'i32' ? 4 : 8);
  const view = new DataView(out.buffer);
  if (column === 'i32') view.setInt32(0, value as number, true);
  else if (column === 'i64') view.setBigInt64(0, value as bigint, true);
  else view.setFloat64(0, value as number, true);
  return out;
}

let dir: string;
let duck: DuckDBConnection;

/** Writes the rows to a Parquet file with COPY options `options`; returns the file's bytes. */
async function writeParquet(name: string, options: string): Promise<Uint8Array> {
  const path = join(dir, name);
  await duck.run(`COPY (${ROWS}) TO '${path}' (FORMAT parquet, ${options})`);
  return new Uint8Array(readFileSync(path));
}

/** The file's rows in file order, as DuckDB reads them back. */
async function readRows(name: string): Promise<Row[]> {
  const reader = await duck.runAndReadAll(
    `SELECT url, i32, i64, d FROM read_parquet('${join(dir, name)}', file_row_number = true) ORDER BY file_row_number`,
  );
  return reader.getRowObjects() as unknown as Row[];
}

let file: Uint8Array;
let filters: ColumnBloomFilter[];
let rows: Row[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bloomwasm-parquet-'));
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  // Row groups of 4,096 rows; the dictionary limit (a count of distinct
  // values) raised above that, so that every chunk stays dictionary-encoded,
  // the only chunks DuckDB gives a filter. Not far above: DuckDB's write
  // time grows with the limit.
  file = await writeParquet(
    'rows.parquet',
    'ROW_GROUP_SIZE 4096, DICTIONARY_SIZE_LIMIT 20000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01',
  );
  filters = readBloomFilters(file);
  rows = await readRows('rows.parquet');
});

afterAll(() => {
  duck?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

/** The rows of a filter's row group. */
function rowsOf(filter: ColumnBloomFilter): Row[] {
  return rows.slice(filter.firstRow, filter.firstRow + filter.rows);
}

describe('the Parquet file DuckDB wrote', () => {
  it('has a BLOCK/XXHASH/UNCOMPRESSED filter for every column of every row group, sized to a power of two', () => {
    expect(rows.length).toBe(12000);
    expect(filters.map((f) => `${f.rowGroup} ${f.column} ${f.type} ${f.rows}`)).toEqual([
      '0 url BYTE_ARRAY 4096', '0 i32 INT32 4096', '0 i64 INT64 4096', '0 d DOUBLE 4096',
      '1 url BYTE_ARRAY 4096', '1 i32 INT32 4096', '1 i64 INT64 4096', '1 d DOUBLE 4096',
      '2 url BYTE_ARRAY 3808', '2 i32 INT32 3808', '2 i64 INT64 3808', '2 d DOUBLE 3808',
    ]);
    for (const f of filters) {
      expect(f.bitset.length).toBe(8192);
      expect(f.length).toBe(f.headerBytes + 8192);
    }
  });

  it('has the header bytes worked out by hand from parquet.thrift and the compact protocol', () => {
    // 0x15: field 1 (delta 1), i32; numBytes 8192 zigzags to 16384 = varint 80 80 01.
    // 0x1c 0x1c 0x00 0x00: field +1, a struct (the union) whose field 1 is an empty struct; three times.
    // 0x00: the header's stop byte.
    const f = filters[0];
    expect([...file.subarray(f.offset, f.offset + f.headerBytes)]).toEqual([
      0x15, 0x80, 0x80, 0x01, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00,
    ]);
  });

  it('sizes the filter from BLOOM_FILTER_FALSE_POSITIVE_RATIO', async () => {
    const one = readBloomFilters(await writeParquet('p01.parquet', 'DICTIONARY_SIZE_LIMIT 20000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01'));
    const tenth = readBloomFilters(await writeParquet('p001.parquet', 'DICTIONARY_SIZE_LIMIT 20000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.001'));
    expect(one.map((f) => f.bitset.length)).toEqual([16384, 16384, 16384, 16384]);
    expect(tenth.map((f) => f.bitset.length)).toEqual([32768, 32768, 32768, 32768]);
  });

  it('writes no filter for a chunk that fell back from dictionary encoding', async () => {
    const plain = await writeParquet('plain.parquet', 'ROW_GROUP_SIZE 4096, DICTIONARY_SIZE_LIMIT 1000');
    expect(readBloomFilters(plain)).toEqual([]);
  });
});

describe.each(twins)('fromParquet and toParquet against DuckDB ($name)', ({ BloomFilter }) => {
  it('loads each bitset as an sbbf filter that finds every written value', () => {
    for (const f of filters) {
      const filter = BloomFilter.fromParquet(f.bitset);
      expect([filter.scheme, filter.bits, filter.hashes, filter.seed]).toEqual(['sbbf', 8 * 8192, 8, 0n]);
      const values = rowsOf(f).map((row) => plainBytes(f.column, row[f.column as keyof Row]));
      expect(values.length).toBe(f.rows);
      expect(values.filter((v) => !filter.has(v))).toEqual([]);
      expect([...filter.hasMany(values)].every((flag) => flag === 1)).toBe(true);
    }
  });

  it('builds from the same values exactly the bytes DuckDB wrote', () => {
    for (const f of filters) {
      const ours = new BloomFilter(8 * f.bitset.length, 8, { scheme: 'sbbf' });
      const values = rowsOf(f).map((row) => plainBytes(f.column, row[f.column as keyof Row]));
      for (const value of values) ours.add(value);
      expect(ours.toParquet()).toEqual(new Uint8Array(f.bitset));
      const batched = new BloomFilter(8 * f.bitset.length, 8, { scheme: 'sbbf' });
      batched.addMany(values);
      expect(batched.toParquet()).toEqual(new Uint8Array(f.bitset));
    }
  });

  it('hashes a string item as its UTF-8, the same as its bytes', () => {
    const f = filters[0];
    const filter = BloomFilter.fromParquet(f.bitset);
    for (const row of rowsOf(f).slice(0, 200)) expect(filter.has(row.url)).toBe(true);
  });

  it('misses values probed with the wrong width: an INT32 column needs 4 bytes, not 8', () => {
    const f = filters.find((x) => x.column === 'i32')!;
    const filter = BloomFilter.fromParquet(f.bitset);
    const wide = rowsOf(f).map((row) => plainBytes('i64', BigInt(row.i32)));
    const found = wide.filter((v) => filter.has(v)).length;
    expect(found).toBeLessThan(0.02 * wide.length);
  });

  it('copies the bitset in, round-trips it out, and counts its bits', () => {
    const f = filters[1];
    const filter = BloomFilter.fromParquet(f.bitset);
    const ones = f.bitset.reduce((sum, byte) => sum + popcount8(byte), 0);
    expect(filter.bitsSet()).toBe(ones);
    expect(filter.size).toBe(Math.round(filter.estimatedCount()));
    expect(filter.toParquet()).toEqual(new Uint8Array(f.bitset));
    filter.add('something new');
    expect(readBloomFilters(file)[1].bitset).toEqual(f.bitset);
    const copy = BloomFilter.fromBytes(filter.toBytes());
    expect(copy.toParquet()).toEqual(filter.toParquet());
  });
});

describe.each(twins)('fromParquet and toParquet refuse bad input ($name)', ({ BloomFilter, BloomRangeError, BloomTypeError }) => {
  it.each([0, 1, 31, 33, 48, 1000])('refuses a bitset of %i bytes, naming bitset.length', (length) => {
    const call = () => BloomFilter.fromParquet(new Uint8Array(length));
    expect(call).toThrow(BloomRangeError);
    expect(call).toThrow(new RegExp(`^bitset.length must be a positive multiple of 32 bytes \\(whole 256-bit blocks\\), at most \\d+; got ${length}$`));
  });

  it.each([
    ['an ArrayBuffer', new ArrayBuffer(32)],
    ['an array of numbers', new Array(32).fill(0)],
    ['a string', 'x'.repeat(32)],
    ['undefined', undefined],
  ])('refuses %s with BloomTypeError naming bitset', (_name, value) => {
    const call = () => BloomFilter.fromParquet(value as never);
    expect(call).toThrow(BloomTypeError);
    expect(call).toThrow(/^bitset must be a Uint8Array/);
  });

  it('accepts the smallest bitset, one 32-byte block', () => {
    const filter = BloomFilter.fromParquet(new Uint8Array(32).fill(0xff));
    expect([filter.bits, filter.bitsSet(), filter.size]).toEqual([256, 256, 32]);
    expect(filter.has('anything')).toBe(true);
  });

  it.each(['xxh64', 'poly', 'bytesum'] as const)('toParquet refuses a %s filter, naming the scheme', (scheme) => {
    const filter = new BloomFilter(1024, 3, { scheme });
    expect(() => filter.toParquet()).toThrow(BloomRangeError);
    expect(() => filter.toParquet()).toThrow(`scheme must be "sbbf" for toParquet (the Parquet split-block layout); got "${scheme}"`);
  });

  it('toParquet refuses an sbbf filter with a seed other than 0', () => {
    const filter = new BloomFilter(1024, 8, { scheme: 'sbbf', seed: 7 });
    expect(() => filter.toParquet()).toThrow(BloomRangeError);
    expect(() => filter.toParquet()).toThrow('seed must be 0 for toParquet (Parquet readers hash with XXH64 seed 0); got 7n');
  });
});

describe('counts and rates of a loaded DuckDB bitset', () => {
  it('estimates the row group\'s distinct count, and its false-positive rate matches currentFalsePositiveRate()', () => {
    const absent = Array.from({ length: 200_000 }, (_, i) => `https://example.net/absent/${i}`);
    for (const f of filters.filter((x) => x.column === 'url')) {
      const filter = wasm.BloomFilter.fromParquet(f.bitset);
      expect(Math.abs(filter.estimatedCount() / f.rows - 1)).toBeLessThan(0.03);
      const hits = filter.hasMany(absent).reduce((sum, flag) => sum + flag, 0);
      const expected = filter.currentFalsePositiveRate() * absent.length;
      expect(Math.abs(hits / expected - 1)).toBeLessThan(0.2);
    }
  });
});

describe('a loaded bitset in both twins', () => {
  it('round-trips any whole-block bitset and answers has() alike in wasm and the reference', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }).chain((blocks) => fc.uint8Array({ minLength: 32 * blocks, maxLength: 32 * blocks })),
        fc.array(fc.string(), { maxLength: 20 }),
        (bitset, items) => {
          const a = wasm.BloomFilter.fromParquet(bitset);
          const b = reference.BloomFilter.fromParquet(bitset);
          expect(a.toParquet()).toEqual(bitset);
          expect(b.toParquet()).toEqual(bitset);
          expect([a.bitsSet(), a.size]).toEqual([b.bitsSet(), b.size]);
          expect(items.map((item) => a.has(item))).toEqual(items.map((item) => b.has(item)));
        },
      ),
      { seed: 20260501, numRuns: 200 },
    );
  });
});

describe('the Thrift compact reader in the test helper', () => {
  it('skips unknown fields of every wire type around the ones it reads', () => {
    const bytes = new Uint8Array([
      0x15, 0x80, 0x04, //                         1 numBytes: i32, zigzag 512 = 256
      0x1c, 0x1c, 0x00, 0x00, //                   2 algorithm: { 1 BLOCK: {} }
      0x1c, 0x1c, 0x00, 0x00, //                   3 hash: { 1 XXHASH: {} }
      0x1c, 0x1c, 0x00, 0x00, //                   4 compression: { 1 UNCOMPRESSED: {} }
      0x17, 1, 2, 3, 4, 5, 6, 7, 8, //             5 double
      0x18, 0x02, 0x61, 0x62, //                   6 binary "ab"
      0x19, 0x32, 0x01, 0x00, 0x01, //             7 list<bool> of 3: one byte each
      0x1b, 0x02, 0x56, 0x04, 0x06, 0x08, 0x0a, // 8 map<i32, i64> of 2
      0x11, //                                     9 bool true: no bytes
      0x1a, 0xf5, 0x0f, ...Array(15).fill(0x04), // 10 set<i32> of 15 (long form): varints
      0x0d, 0x28, ...Array(16).fill(0xaa), //      20 (long form id, zigzag 40) uuid: 16 bytes
      0x1c, 0x13, 0x7f, 0x00, //                   21 struct { 1 i8 } (nested)
      0x14, 0x02, //                               22 i16
      0x00, //                                     stop
      0xee, //                                     past the header: must not be read
    ]);
    expect(readBloomFilterHeader(bytes, 0)).toEqual({ numBytes: 256, headerBytes: bytes.length - 1 });
  });

  it('refuses a header whose union holds another member, and input that ends early', () => {
    const otherHash = new Uint8Array([0x15, 0x80, 0x04, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x2c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00]);
    expect(() => readBloomFilterHeader(otherHash, 0)).toThrow(/BloomFilterHeader.hash is not XXHASH/);
    expect(() => readBloomFilterHeader(new Uint8Array([0x15, 0x80]), 0)).toThrow(/input ends inside a value at byte 2/);
  });
});

function popcount8(byte: number): number {
  let n = 0;
  for (let b = byte; b !== 0; b &= b - 1) n++;
  return n;
}
