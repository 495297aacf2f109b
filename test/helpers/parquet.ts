// Reads the split-block Bloom filters out of a Parquet file, from the
// definitions in apache/parquet-format: src/main/thrift/parquet.thrift
// (FileMetaData, RowGroup, ColumnChunk, ColumnMetaData, BloomFilterHeader)
// and BloomFilter.md ("File Format"). The footer and the Bloom filter headers
// are Thrift compact-protocol structs (test/helpers/thrift.ts).
//
// File layout: "PAR1", the row groups, (Bloom filters, page indexes), the
// footer FileMetaData, its length as a little-endian u32, "PAR1".

import { CompactReader, FieldType } from './thrift.js';

/** Parquet physical types, the `Type` enum of parquet.thrift. */
export const PhysicalType = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'] as const;

/** One column chunk's Bloom filter, as the footer locates it and its header describes it. */
export interface ColumnBloomFilter {
  /** The row group's index in the footer. */
  rowGroup: number;
  /** The file row number of the row group's first row (the rows of the groups before it). */
  firstRow: number;
  /** RowGroup.num_rows. */
  rows: number;
  /** ColumnMetaData.path_in_schema joined with '.'. */
  column: string;
  /** ColumnMetaData.type, by name. */
  type: (typeof PhysicalType)[number];
  /** ColumnMetaData.bloom_filter_offset: where the BloomFilterHeader starts. */
  offset: number;
  /** ColumnMetaData.bloom_filter_length: header plus bitset, when the writer recorded it. */
  length: number | undefined;
  /** The header's size in bytes. */
  headerBytes: number;
  /** The bitset that follows the header: BloomFilterHeader.numBytes bytes, a view into the file. */
  bitset: Uint8Array;
}

const MAGIC = 'PAR1';
const ascii = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/** Every column chunk with a Bloom filter, in footer order (row group, then column). */
export function readBloomFilters(file: Uint8Array): ColumnBloomFilter[] {
  if (file.length < 12 || ascii(file.subarray(0, 4)) !== MAGIC || ascii(file.subarray(file.length - 4)) !== MAGIC) {
    throw new Error(`not a Parquet file: it must start and end with "${MAGIC}"`);
  }
  const footerLength = new DataView(file.buffer, file.byteOffset, file.length).getUint32(file.length - 8, true);
  const footerStart = file.length - 8 - footerLength;
  if (footerStart < 4) throw new Error(`footer length ${footerLength} does not fit in a ${file.length}-byte file`);
  const found: ColumnBloomFilter[] = [];
  let firstRow = 0;
  for (const [rowGroup, { rows, chunks }] of readRowGroups(new CompactReader(file.subarray(0, file.length - 8), footerStart)).entries()) {
    for (const chunk of chunks) {
      if (chunk.bloomFilterOffset === undefined) continue;
      const { headerBytes, numBytes } = readBloomFilterHeader(file, chunk.bloomFilterOffset);
      const start = chunk.bloomFilterOffset + headerBytes;
      if (start + numBytes > file.length) throw new Error(`the ${chunk.column} bitset runs past the file's end`);
      if (chunk.bloomFilterLength !== undefined && chunk.bloomFilterLength !== headerBytes + numBytes) {
        throw new Error(`${chunk.column}: bloom_filter_length ${chunk.bloomFilterLength} is not header ${headerBytes} + numBytes ${numBytes}`);
      }
      found.push({
        rowGroup,
        firstRow,
        rows,
        column: chunk.column,
        type: PhysicalType[chunk.type],
        offset: chunk.bloomFilterOffset,
        length: chunk.bloomFilterLength,
        headerBytes,
        bitset: file.subarray(start, start + numBytes),
      });
    }
    firstRow += rows;
  }
  return found;
}

/** What we keep of a ColumnMetaData. */
interface ChunkInfo {
  column: string;
  type: number;
  bloomFilterOffset?: number;
  bloomFilterLength?: number;
}

/**
 * FileMetaData field 4, row_groups: list<RowGroup>; RowGroup field 1,
 * columns: list<ColumnChunk>, and field 3, num_rows: i64.
 */
function readRowGroups(r: CompactReader): Array<{ rows: number; chunks: ChunkInfo[] }> {
  const groups: Array<{ rows: number; chunks: ChunkInfo[] }> = [];
  r.struct({
    4: (type) => {
      r.expect('FileMetaData.row_groups', type, FieldType.LIST);
      r.list(() => {
        const group = { rows: 0, chunks: [] as ChunkInfo[] };
        r.struct({
          1: (t) => {
            r.expect('RowGroup.columns', t, FieldType.LIST);
            r.list(() => group.chunks.push(readColumnChunk(r)));
          },
          3: (t) => {
            r.expect('RowGroup.num_rows', t, FieldType.I64);
            group.rows = Number(r.i64());
          },
        });
        groups.push(group);
      });
    },
  });
  return groups;
}

/** ColumnChunk field 3, meta_data: ColumnMetaData (absent only in encrypted files, which we refuse). */
function readColumnChunk(r: CompactReader): ChunkInfo {
  let info: ChunkInfo | undefined;
  r.struct({
    3: (type) => {
      r.expect('ColumnChunk.meta_data', type, FieldType.STRUCT);
      info = readColumnMetaData(r);
    },
  });
  if (!info) return r.fail('a ColumnChunk without meta_data (an encrypted column?)');
  return info;
}

/**
 * ColumnMetaData: 1 type (Type, an i32 enum), 3 path_in_schema
 * (list<string>), 14 bloom_filter_offset (i64), 15 bloom_filter_length (i32).
 */
function readColumnMetaData(r: CompactReader): ChunkInfo {
  const info: ChunkInfo = { column: '', type: -1 };
  r.struct({
    1: (type) => {
      r.expect('ColumnMetaData.type', type, FieldType.I32);
      info.type = r.i32();
    },
    3: (type) => {
      r.expect('ColumnMetaData.path_in_schema', type, FieldType.LIST);
      const parts: string[] = [];
      r.list(() => parts.push(new TextDecoder().decode(r.binary())));
      info.column = parts.join('.');
    },
    14: (type) => {
      r.expect('ColumnMetaData.bloom_filter_offset', type, FieldType.I64);
      info.bloomFilterOffset = Number(r.i64());
    },
    15: (type) => {
      r.expect('ColumnMetaData.bloom_filter_length', type, FieldType.I32);
      info.bloomFilterLength = r.i32();
    },
  });
  return info;
}

/**
 * BloomFilterHeader at `offset`: 1 numBytes (i32), and three unions that
 * must each hold their field 1: algorithm BLOCK (the split-block filter),
 * hash XXHASH (XXH64, seed 0), compression UNCOMPRESSED. Any other choice is
 * refused, since the bitset would not be an SBBF we can read.
 */
export function readBloomFilterHeader(file: Uint8Array, offset: number): { numBytes: number; headerBytes: number } {
  const r = new CompactReader(file, offset);
  let numBytes = -1;
  const seen = { algorithm: false, hash: false, compression: false };
  const union = (name: keyof typeof seen, member: string) => (type: number) => {
    r.expect(`BloomFilterHeader.${name}`, type, FieldType.STRUCT);
    r.struct({
      1: (t) => {
        r.expect(`${name}.${member}`, t, FieldType.STRUCT);
        r.struct({});
        seen[name] = true;
      },
    });
    if (!seen[name]) r.fail(`BloomFilterHeader.${name} is not ${member}`);
  };
  r.struct({
    1: (type) => {
      r.expect('BloomFilterHeader.numBytes', type, FieldType.I32);
      numBytes = r.i32();
    },
    2: union('algorithm', 'BLOCK'),
    3: union('hash', 'XXHASH'),
    4: union('compression', 'UNCOMPRESSED'),
  });
  if (numBytes < 0) r.fail('BloomFilterHeader without numBytes', offset);
  for (const [name, present] of Object.entries(seen)) if (!present) r.fail(`BloomFilterHeader without ${name}`, offset);
  return { numBytes, headerBytes: r.offset - offset };
}
