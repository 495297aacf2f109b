// Staging a checked batch into scratch, chunk by chunk, for the structures
// whose batch export takes staged items in the batch offsets region and
// answers in the batch flags region (assembly/counting.ts's countingBatch,
// assembly/sliding.ts's slidingBatch).

import { batchItem, type CheckedBatch, type Item } from '../filter/items.js';
import type { Arena } from './arena.js';

/**
 * Runs a checked batch in order: items go into scratch as bytes (strings
 * as UTF-8) with their offsets, up to batchMax per `chunk(n)` call, runs of
 * strings and runs of byte arrays in separate chunks. An item too long to
 * share the scratch region, and any string under poly (whose code units
 * may be UTF-16), goes on its own through `one`. `pending` is a reused
 * list. Returns the answers, 1 where an item answered non-zero.
 */
export function runChunked(
  a: Arena, batch: CheckedBatch, pending: string[], one: (item: Item) => number, chunk: (n: number) => void,
): Uint8Array {
  const flags = new Uint8Array(batch.count);
  const { scratch, batchOffsets: offsets, batchFlags, batchMax, scratchSize, maxUtf8Units } = a.staging;
  const units = a.staging.unitsForStrings;
  let i = 0;
  while (i < batch.count) {
    let n = 0;
    let at = 0;
    offsets[0] = 0;
    if (!batch.packed && typeof batch.list[i] === 'string' && !units) {
      // A run of strings: joined and encoded by one encodeInto call (as
      // src/wasm/batch.ts does); when every unit was ASCII the offsets are
      // the running lengths, otherwise each string is encoded on its own.
      let total = 0;
      pending.length = 0;
      while (i + n < batch.count && n < batchMax) {
        const item = batch.list[i + n];
        if (typeof item !== 'string' || total + item.length > maxUtf8Units) break;
        pending.push(item);
        total += item.length;
        n++;
      }
      if (n > 0 && a.staging.encodeAt(n === 1 ? pending[0] : pending.join(''), 0) === total) {
        for (let j = 0; j < n; j++) offsets[j + 1] = at += pending[j].length;
      } else {
        for (let j = 0; j < n; j++) offsets[j + 1] = at += a.staging.encodeAt(pending[j], at);
      }
    } else if (batch.packed) {
      // Packed bytes: one contiguous copy of the chunk and rebased offsets (as src/wasm/batch.ts does), not a view and a copy per item.
      const base = batch.offsets[i];
      while (i + n < batch.count && n < batchMax && batch.offsets[i + n + 1] - base <= scratchSize) {
        n++;
        offsets[n] = batch.offsets[i + n] - base;
      }
      if (n > 0) scratch.set(batch.bytes.subarray(base, batch.offsets[i + n]));
    } else {
      while (i + n < batch.count && n < batchMax) {
        const item = batchItem(batch, i + n);
        if (typeof item === 'string') break;
        if (at + item.length > scratchSize) break;
        scratch.set(item, at);
        at += item.length;
        offsets[++n] = at;
      }
    }
    if (n === 0) {
      flags[i] = one(batchItem(batch, i)) !== 0 ? 1 : 0;
      i++;
      continue;
    }
    chunk(n);
    flags.set(batchFlags.subarray(0, n), i);
    i += n;
  }
  return flags;
}
