// A minimal reader for the Thrift compact protocol, enough to walk a Parquet
// footer and a BloomFilterHeader. Written from the protocol's specification,
// apache/thrift doc/specs/thrift-compact-protocol.md: varints are unsigned
// LEB128, i16/i32/i64 are zigzag varints, binary is a varint length then the
// bytes, a struct is field headers and values up to a stop byte 0, and a
// union is a struct with at most one field set.
//
// Fields a caller does not ask for are skipped by their wire type, nested
// containers included, so the reader keeps working when a newer writer adds
// fields.

/** Compact-protocol type ids of a struct field (spec, "Struct encoding"). */
export const FieldType = {
  BOOLEAN_TRUE: 1,
  BOOLEAN_FALSE: 2,
  I8: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  SET: 10,
  MAP: 11,
  STRUCT: 12,
  UUID: 13,
} as const;

/** Reads field `id` of wire type `type`; must consume exactly the field's value. */
export type FieldReader = (type: number) => void;

/** A cursor over compact-protocol bytes; every read checks the bounds and names the byte offset on failure. */
export class CompactReader {
  /** The offset of the next unread byte. */
  offset: number;

  /** A reader over `bytes`, starting at `offset`. */
  constructor(readonly bytes: Uint8Array, offset = 0) {
    this.offset = offset;
  }

  /** Throws an Error naming the byte offset. */
  fail(problem: string, at = this.offset): never {
    throw new Error(`thrift compact protocol: ${problem} at byte ${at}`);
  }

  /** One byte. */
  byte(): number {
    if (this.offset >= this.bytes.length) this.fail('input ends inside a value');
    return this.bytes[this.offset++];
  }

  /** An unsigned LEB128 varint of at most 10 bytes (64 bits). */
  varint(): bigint {
    const start = this.offset;
    let value = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const b = this.byte();
      value |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return value;
    }
    return this.fail('varint longer than 10 bytes', start);
  }

  /** A zigzag varint, folded back to a signed value: (n >>> 1) ^ -(n & 1). */
  zigzag(): bigint {
    const n = this.varint();
    return (n >> 1n) ^ -(n & 1n);
  }

  /** An i16 or i32 (both are zigzag varints), as a number. */
  i32(): number {
    const at = this.offset;
    const v = this.zigzag();
    if (v < -(2n ** 31n) || v >= 2n ** 31n) this.fail(`i32 out of range: ${v}`, at);
    return Number(v);
  }

  /** An i64, as a bigint. */
  i64(): bigint {
    return BigInt.asIntN(64, this.zigzag());
  }

  /** A length-prefixed binary (or UTF-8 string); a view into the input, not a copy. */
  binary(): Uint8Array {
    const at = this.offset;
    const length = Number(this.varint());
    if (this.offset + length > this.bytes.length) {
      this.fail(`binary of ${length} bytes runs past the input's end (${this.bytes.length})`, at);
    }
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  /** A list or set header: size in the high nibble (15 means a varint follows), element type in the low. */
  listHeader(): { size: number; elementType: number } {
    const header = this.byte();
    const elementType = header & 0x0f;
    let size = header >> 4;
    if (size === 15) size = Number(this.varint());
    return { size, elementType };
  }

  /**
   * Reads a struct (or union): for each field, calls `fields[id]` when the
   * caller handles that id and skips the value otherwise. A field header is
   * `ddddtttt` with a delta dddd from the previous id, or dddd = 0 and a
   * zigzag i16 id after it; a 0 byte ends the struct.
   */
  struct(fields: Record<number, FieldReader>): void {
    let lastId = 0;
    for (;;) {
      const header = this.byte();
      if (header === 0) return;
      const type = header & 0x0f;
      const delta = header >> 4;
      const id = delta === 0 ? this.i32() : lastId + delta;
      lastId = id;
      const read = fields[id];
      if (read) read(type);
      else this.skip(type);
    }
  }

  /** Reads a list of structs or values, calling `element` once per element. */
  list(element: (elementType: number) => void): void {
    const { size, elementType } = this.listHeader();
    for (let i = 0; i < size; i++) element(elementType);
  }

  /** Skips one value of wire type `type`, descending into containers. */
  skip(type: number): void {
    switch (type) {
      case FieldType.BOOLEAN_TRUE:
      case FieldType.BOOLEAN_FALSE:
        // A bool field's value is its type id: no bytes follow (spec,
        // "Boolean encoding"). Bool elements go through skipElement.
        return;
      case FieldType.I8:
        this.byte();
        return;
      case FieldType.I16:
      case FieldType.I32:
      case FieldType.I64:
        this.varint();
        return;
      case FieldType.DOUBLE:
        this.advance(8);
        return;
      case FieldType.BINARY:
        this.binary();
        return;
      case FieldType.UUID:
        this.advance(16);
        return;
      case FieldType.LIST:
      case FieldType.SET: {
        const { size, elementType } = this.listHeader();
        for (let i = 0; i < size; i++) this.skipElement(elementType);
        return;
      }
      case FieldType.MAP: {
        const size = Number(this.varint());
        if (size === 0) return;
        const kinds = this.byte();
        for (let i = 0; i < size; i++) {
          this.skipElement(kinds >> 4);
          this.skipElement(kinds & 0x0f);
        }
        return;
      }
      case FieldType.STRUCT:
        this.struct({});
        return;
      default:
        this.fail(`unknown type id ${type}`, this.offset - 1);
    }
  }

  /** Skips one container element: as skip(), except that a bool element is a whole byte. */
  private skipElement(elementType: number): void {
    if (elementType === FieldType.BOOLEAN_TRUE || elementType === FieldType.BOOLEAN_FALSE) this.byte();
    else this.skip(elementType);
  }

  private advance(count: number): void {
    if (this.offset + count > this.bytes.length) this.fail(`a ${count}-byte value runs past the input's end`);
    this.offset += count;
  }

  /** Throws unless a field's wire type is `expected`; `name` is the field's name in the IDL. */
  expect(name: string, type: number, expected: number): void {
    if (type !== expected) this.fail(`field ${name} has wire type ${type}, expected ${expected}`, this.offset - 1);
  }
}
