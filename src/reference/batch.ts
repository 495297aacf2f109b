// The reference twin of assembly/batch.ts: a batch is the same items added
// or tested one at a time, in order. Plain loops on purpose: this is the
// oracle the chunked wasm batch is checked against.

import { batchItem, type CheckedBatch, type Item } from '../filter/items.js';

/** What a batch needs of a filter. */
export interface SingleOps {
  add(item: Item): boolean;
  has(item: Item): boolean;
}

/** Adds the items in order; flag i is 1 when item i set a bit (a later repeat gets 0). */
export function addBatch(filter: SingleOps, batch: CheckedBatch): Uint8Array {
  const flags = new Uint8Array(batch.count);
  for (let i = 0; i < batch.count; i++) flags[i] = filter.add(batchItem(batch, i)) ? 1 : 0;
  return flags;
}

/** Tests the items; flag i is 1 when item i may have been added. */
export function hasBatch(filter: SingleOps, batch: CheckedBatch): Uint8Array {
  const flags = new Uint8Array(batch.count);
  for (let i = 0; i < batch.count; i++) flags[i] = filter.has(batchItem(batch, i)) ? 1 : 0;
  return flags;
}
