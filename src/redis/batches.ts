// addMany and hasMany as streams of script calls: items are hashed locally,
// grouped by shard into calls of at most batchSize items, and each call is
// written as soon as it is full, so Redis runs one while the next is hashed.
//
// Order. Two calls of one shard may hold the same item, or items sharing
// bits, so they must run in the order sent, or the answers would differ
// from sequential add() calls. On one connection Redis runs commands in the
// order they arrive, with one exception: an EVALSHA refused with NOSCRIPT
// (a fresh server, SCRIPT FLUSH, a failover) did not run, and calls
// pipelined behind it may run before its retry, since anyone (another
// worker's retry, SCRIPT LOAD) may reload the script in between. So a call
// with a later call of its shard pipelined behind it is sent as EVAL, with
// the script's source, which is never refused for a missing script; only a
// shard's last call of the batch goes by EVALSHA, and its retry can
// overtake nothing of this batch. add() and batches of up to batchSize items
// per shard are thus one EVALSHA each; a larger batch sends the ~1 KB
// source with each of its other calls (a few percent of a 256-item call).

import type { Engine } from '../wasm/engine.js';
import { batchItem, checkBatch, type BatchItems, type Item } from '../filter/items.js';
import { isErrorReply, refusedBeforeRunning, runScript, scriptArgs, waitingForRoom, type Send } from './connection.js';
import { NO_ANSWER, RedisBloomBatchError, type BatchCall } from './errors.js';
import { redisOffset } from './layout.js';
import type { Script } from './scripts.js';

/** What a stream needs of its filter. */
export interface StreamContext {
  readonly name: string;
  readonly shards: number;
  readonly hashes: number;
  readonly batchSize: number;
  /** The scripts' first arguments (RedisBloomFilter: fingerprint, shard bytes, k). */
  readonly head: readonly string[];
  /** A hashing record in the shared arena (no bits): shard and positions of each item. */
  readonly engine: Engine;
  readonly send: Send;
  /** The test-and-set script and the read-only test, both replying '0'/'1' per item. */
  readonly scripts: { readonly add: Script; readonly has: Script };
  /** The keys of shard s's calls; the first one routes the call. */
  keys(shard: number): string[];
  /** The filter's typed error for a failed call (see typedError). */
  typed(err: unknown): unknown;
}

/** One script call: one shard, up to batchSize items. */
interface Batch {
  /** Indices of its items in the caller's list. */
  indices: number[];
  /** The script call's arguments (see runScript). */
  args: string[];
}

/**
 * Adds every item; flag i is 1 when item i was new, exactly as sequential
 * add() calls would answer. On failure rejects with RedisBloomBatchError,
 * which lists the uncertain items and names `call`, the public method that
 * asked; nothing is retried but a NOSCRIPT refusal and a call the client
 * refused for a full command queue (see waitingForRoom).
 */
export async function addStream(ctx: StreamContext, items: BatchItems, call: BatchCall): Promise<Uint8Array> {
  const checked = checkBatch(items);
  const count = checked.count;
  const results = new Uint8Array(count).fill(NO_ANSWER);
  if (count === 0) return results;
  const sent: Batch[] = [];
  const answered = new Set<Batch>();
  /** Each failed call's error: an error reply, a malformed reply, or the client's. */
  const failed = new Map<Batch, unknown>();
  let lost: { err: unknown } | undefined;
  let pending = 0;
  let wake: (() => void) | undefined;
  // A call the client refuses for a full queue waits for room, and the later
  // calls of its shard (its key) wait behind it: the order sent still holds.
  const send = waitingForRoom(ctx.send);
  const dispatch = (batch: Batch, last: boolean): void => {
    sent.push(batch);
    pending++;
    runScript(send, ctx.scripts.add, false, batch.args, undefined, !last).then(
      (reply) => {
        try {
          const flags = replyText(reply, batch.indices.length);
          for (let j = 0; j < batch.indices.length; j++) results[batch.indices[j]] = flags.charCodeAt(j) - 48;
          answered.add(batch);
        } catch (err) {
          failed.set(batch, err);
        }
        pending--;
        wake?.();
      },
      (err: unknown) => {
        // An error reply leaves the connection usable: the other calls still
        // answer. Anything else (a lost connection) settles at once.
        failed.set(batch, err);
        if (!isErrorReply(err)) lost ??= { err };
        pending--;
        wake?.();
      },
    );
  };
  await dispatchAll(ctx, count, (i) => batchItem(checked, i), dispatch, () => lost !== undefined);
  while (pending > 0 && lost === undefined) await new Promise<void>((resolve) => (wake = resolve));
  if (lost === undefined && failed.size === 0) return results;
  // Unanswered calls are uncertain: they may have run. Calls already handed
  // to node-redis stay in its queue unless the client has
  // disableOfflineQueue, so they are never reported "not added"; only calls
  // Redis refused before running, calls the client refused to send
  // (offline, closed), and items never handed over, are. The error copies
  // this outcome: replies that come after the rejection change nothing the
  // caller holds.
  const uncertain: Item[] = [];
  const notAdded: Item[] = [];
  const handed = new Uint8Array(count);
  for (const batch of sent) {
    for (const i of batch.indices) handed[i] = 1;
    if (answered.has(batch)) continue;
    const into = failed.has(batch) && refusedBeforeRunning(failed.get(batch)) ? notAdded : uncertain;
    for (const i of batch.indices) {
      results[i] = NO_ANSWER;
      into.push(batchItem(checked, i));
    }
  }
  for (let i = 0; i < count; i++) if (!handed[i]) notAdded.push(batchItem(checked, i));
  const cause = ctx.typed(lost !== undefined ? lost.err : failed.values().next().value);
  throw new RedisBloomBatchError(call, { results, uncertain, notAdded }, cause);
}

/** Tests every item with BITFIELD_RO in a read-only script; flag i is 1 when item i may have been added. */
export async function hasStream(ctx: StreamContext, items: BatchItems): Promise<Uint8Array> {
  const checked = checkBatch(items);
  const results = new Uint8Array(checked.count);
  if (checked.count === 0) return results;
  const calls: Promise<void>[] = [];
  let failed = false;
  // Reads change nothing, so their order does not matter: every call goes by
  // EVALSHA, and one the client refuses for a full queue waits for room.
  const send = waitingForRoom(ctx.send);
  await dispatchAll(ctx, checked.count, (i) => batchItem(checked, i), (batch) => {
    const call = runScript(send, ctx.scripts.has, true, batch.args).then((reply) => {
      const flags = replyText(reply, batch.indices.length);
      for (let j = 0; j < batch.indices.length; j++) results[batch.indices[j]] = flags.charCodeAt(j) - 48;
    }, (err: unknown) => {
      failed = true;
      throw ctx.typed(err);
    });
    // Handled below by Promise.all; marked now, since a call may fail while later ones are still being hashed.
    call.catch(() => {});
    calls.push(call);
  }, () => failed);
  await Promise.all(calls);
  return results;
}

/**
 * Groups items by shard into script calls of at most batchSize items, with
 * their Redis bit offsets, and hands each call to `send` as soon as it is
 * full, saying whether it is its shard's last call of the batch. After each,
 * it yields one macrotask so node-redis writes the call and Redis runs it
 * while the next one is hashed. Stops early when `stop` says so; the
 * leftover calls go out at the end, in shard order.
 */
async function dispatchAll(
  ctx: StreamContext, count: number, item: (i: number) => Item,
  send: (batch: Batch, last: boolean) => void, stop: () => boolean,
): Promise<void> {
  const k = ctx.hashes;
  const open = new Array<Batch | undefined>(ctx.shards);
  // The positions are copied out of wasm memory by the call that makes them:
  // this loop yields below, and code that runs meanwhile (any filter made in
  // this process) may grow the shared memory, which detaches every view.
  const probed = new Float64Array(k);
  for (let i = 0; i < count; i++) {
    const s = ctx.engine.shardPositions(item(i), ctx.shards, probed);
    let batch = open[s];
    if (batch === undefined) {
      batch = { indices: [], args: scriptArgs(ctx.keys(s), ctx.head) };
      open[s] = batch;
    }
    batch.indices.push(i);
    for (let j = 0; j < k; j++) batch.args.push(String(redisOffset(probed[j])));
    if (batch.indices.length === ctx.batchSize) {
      open[s] = undefined;
      send(batch, i + 1 === count);
      if (i + 1 < count) {
        await new Promise((resolve) => setImmediate(resolve));
        if (stop()) return;
      }
    }
  }
  for (const batch of open) if (batch !== undefined) send(batch, true);
}

/** A script's '0'/'1' reply, checked against the number of items sent. */
function replyText(reply: unknown, count: number): string {
  const text = typeof reply === 'string' ? reply : reply instanceof Uint8Array ? Buffer.from(reply).toString('latin1') : '';
  if (text.length !== count || !/^[01]*$/.test(text)) {
    throw new Error(`script replied ${JSON.stringify(String(reply)).slice(0, 60)} for ${count} items; expected ${count} characters 0/1`);
  }
  return text;
}
