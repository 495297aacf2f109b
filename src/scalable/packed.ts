// Packed batches (bytes plus offsets, or digest pairs) as a chain's addMany
// reshapes them: views of a range without a copy, and the items a member did
// not report, packed anew, and strings packed as UTF-8. Only the chain
// (src/scalable/scalable-over.ts and its batch-add.ts) uses these.

import type { Item } from '../filter/items.js';

/** Offsets [from, to) without a copy when they are a Uint32Array. */
export function part(offsets: Uint32Array | number[], from: number, to: number): Uint32Array | number[] {
  return offsets instanceof Uint32Array ? offsets.subarray(from, to) : offsets.slice(from, to);
}

/** Buffers that dropReported and dropReportedPairs pack into, reused from call to call (they only grow). */
export interface PackBuffers {
  bytes: Uint8Array;
  offsets: Uint32Array;
  index: Uint32Array;
  pairs: Uint32Array;
}

/** Empty buffers for dropReported. */
export function packBuffers(): PackBuffers {
  return { bytes: new Uint8Array(0), offsets: new Uint32Array(1), index: new Uint32Array(0), pairs: new Uint32Array(0) };
}

/**
 * dropReported for digest pairs: the (lo, hi) pairs of `view` (n of them,
 * at batch positions from `first` of `index`) that `reported` does not
 * flag, copied into `into` (grown when too small), with their batch indices.
 */
export function dropReportedPairs(
  view: Uint32Array,
  index: Uint32Array | null,
  first: number,
  n: number,
  reported: Uint8Array,
  into: PackBuffers,
): { items: Uint32Array; index: Uint32Array } {
  let kept = 0;
  for (let i = 0; i < n; i++) if (!reported[i]) kept++;
  if (into.index.length < kept) into.index = new Uint32Array(kept * 2);
  if (into.pairs.length < 2 * kept) into.pairs = new Uint32Array(kept * 4);
  const { pairs, index: keptIndex } = into;
  for (let i = 0, j = 0; i < n; i++) {
    if (reported[i]) continue;
    pairs[2 * j] = view[2 * i];
    pairs[2 * j + 1] = view[2 * i + 1];
    keptIndex[j++] = index === null ? first + i : index[first + i];
  }
  return { items: pairs.subarray(0, 2 * kept), index: keptIndex.subarray(0, kept) };
}

/**
 * The items of `view` (the undecided ones, n of them, starting at batch
 * position `first` of `index`) that `reported` does not flag, packed anew
 * into `into` (grown when too small), with their batch indices. Runs of
 * kept items are copied at once. Reusing `into` matters: a chunk-sized
 * ArrayBuffer per call is memory that V8 frees only when its external
 * allocations have grown by tens of MB.
 */
export function dropReported(
  view: { bytes: Uint8Array; offsets: Uint32Array | number[] },
  index: Uint32Array | null,
  first: number,
  n: number,
  reported: Uint8Array,
  into: PackBuffers,
): { items: { bytes: Uint8Array; offsets: Uint32Array }; index: Uint32Array } {
  const { bytes, offsets } = view;
  let kept = 0;
  let size = 0;
  for (let i = 0; i < n; i++) {
    if (!reported[i]) {
      kept++;
      size += offsets[i + 1] - offsets[i];
    }
  }
  if (into.index.length < kept) {
    into.index = new Uint32Array(kept * 2);
    into.offsets = new Uint32Array(kept * 2 + 1);
  }
  if (into.bytes.length < size) into.bytes = new Uint8Array(size * 2);
  const keptIndex = into.index;
  const keptOffsets = into.offsets;
  const keptBytes = into.bytes;
  keptOffsets[0] = 0;
  let at = 0;
  let j = 0;
  for (let i = 0; i < n; ) {
    if (reported[i]) {
      i++;
      continue;
    }
    const runStart = i;
    while (i < n && !reported[i]) {
      keptIndex[j] = index === null ? first + i : index[first + i];
      keptOffsets[j + 1] = keptOffsets[j] + offsets[i + 1] - offsets[i];
      j++;
      i++;
    }
    const length = offsets[i] - offsets[runStart];
    keptBytes.set(bytes.subarray(offsets[runStart], offsets[i]), at);
    at += length;
  }
  return { items: { bytes: keptBytes.subarray(0, size), offsets: keptOffsets.subarray(0, kept + 1) }, index: keptIndex.subarray(0, kept) };
}

const encoder = new TextEncoder();

/** Items as one packed UTF-8 buffer and n + 1 offsets: the form every member's hasMany reads fastest. */
export function packUtf8(list: readonly Item[]): { bytes: Uint8Array; offsets: Uint32Array } {
  let room = 0;
  for (const item of list) room += typeof item === 'string' ? item.length * 3 : item.length;
  const bytes = new Uint8Array(room);
  const offsets = new Uint32Array(list.length + 1);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item === 'string') at += encoder.encodeInto(item, bytes.subarray(at)).written;
    else {
      bytes.set(item, at);
      at += item.length;
    }
    offsets[i + 1] = at;
  }
  return { bytes, offsets };
}
