// Packed batches (bytes plus offsets) as a chain's addMany reshapes them:
// views of a range without a copy, and the items a member did not report,
// packed anew, and strings packed as UTF-8. Only src/scalable/scalable-over.ts
// uses these.

import type { Item } from '../filter/items.js';

/** Offsets [from, to) without a copy when they are a Uint32Array. */
export function part(offsets: Uint32Array | number[], from: number, to: number): Uint32Array | number[] {
  return offsets instanceof Uint32Array ? offsets.subarray(from, to) : offsets.slice(from, to);
}

/**
 * The items of `view` (the undecided ones, n of them, starting at batch
 * position `first` of `index`) that `reported` does not flag, packed anew,
 * with their batch indices. Runs of kept items are copied at once.
 */
export function dropReported(
  view: { bytes: Uint8Array; offsets: Uint32Array | number[] },
  index: Uint32Array | null,
  first: number,
  n: number,
  reported: Uint8Array,
): { items: { bytes: Uint8Array; offsets: Uint32Array }; index: Uint32Array } {
  const { bytes, offsets } = view;
  let kept = 0;
  for (let i = 0; i < n; i++) kept += reported[i] ^ 1;
  const keptIndex = new Uint32Array(kept);
  const keptOffsets = new Uint32Array(kept + 1);
  let size = 0;
  for (let i = 0; i < n; i++) if (!reported[i]) size += offsets[i + 1] - offsets[i];
  const keptBytes = new Uint8Array(size);
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
  return { items: { bytes: keptBytes, offsets: keptOffsets }, index: keptIndex };
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
