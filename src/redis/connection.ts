// The one place that talks to node-redis: a single client or a cluster,
// both through sendCommand, each call routed by its key. No AbortSignal is
// used: withdrawing queued commands corrupts node-redis 5.12's write queue
// (removing its head leaves a stale link, and later commands never go out).

import { RedisBloomAuthError, RedisBloomConfigError, RedisBloomConnectionError } from './errors.js';
import type { Script } from './scripts.js';

/**
 * A connected node-redis v5 client or cluster (createClient / createCluster),
 * used as given. Typed by the one method used, so that clients with any
 * modules, scripts or RESP version fit, and so that these declarations do
 * not need the optional `redis` package.
 */
export type RedisConnection = RedisClientLike | RedisClusterLike;

/** What the filter uses of a node-redis client. */
export interface RedisClientLike {
  sendCommand(args: unknown, options?: unknown): Promise<unknown>;
}

/** What the filter uses of a node-redis cluster (its `masters` tells it from a client). */
export interface RedisClusterLike {
  readonly masters: unknown;
  sendCommand(firstKey: unknown, isReadonly: unknown, args: unknown, options?: unknown): Promise<unknown>;
}

/** Per-call options passed through to node-redis. */
export interface SendOptions {
  typeMapping?: Record<number, unknown>;
}

/** RedisCluster.sendCommand: routed by the first key. */
interface ClusterSend {
  sendCommand(firstKey: string, isReadonly: boolean, args: string[], options?: SendOptions): Promise<unknown>;
}

/** RedisClient.sendCommand. */
interface ClientSend {
  sendCommand(args: string[], options?: SendOptions): Promise<unknown>;
}

/** Sends one command, routed by its key. */
export type Send = (key: string, readonly: boolean, args: string[], options?: SendOptions) => Promise<unknown>;

/** A sender routed by key: for a cluster, the key picks the node; a single client ignores it. */
export function senderOf(client: RedisConnection): Send {
  if (client === null || typeof client !== 'object' || typeof (client as { sendCommand?: unknown }).sendCommand !== 'function') {
    throw new TypeError('client must be a connected node-redis client or cluster (createClient or createCluster from "redis")');
  }
  if ('masters' in client) {
    const cluster = client as unknown as ClusterSend;
    return (key, readonly, args, options) => cluster.sendCommand(key, readonly, args, options);
  }
  const single = client as unknown as ClientSend;
  return (_key, _readonly, args, options) => single.sendCommand(args, options);
}

/**
 * `send` for one operation whose calls go out side by side, more of them
 * than a client with a small commandsQueueMaxLength takes at once (reserve
 * with its checks, info, drop, addMany, hasMany): a call that node-redis
 * refuses for a full queue (so never sent) waits until another of the
 * operation's calls already sent is answered, freeing a place, and is made
 * again. With none of them in flight, the queue is full of the caller's
 * other calls, and the refusal stands. When one of them gets no answer (a
 * lost connection), the waiting calls give up with their refusal: they were
 * not sent, and the operation fails anyway.
 *
 * Calls of one key keep the order they were made in: while a call waits
 * for room, a later call of its key waits behind it, until it is answered
 * or refused for good (and gives up with it when it gives up). Without
 * that, a place freed by the caller's other calls (which wakes no waiting
 * call) could let the later call run first, and addMany's answers for one
 * shard would no longer be those of sequential adds. Calls of other keys
 * are not held back.
 */
export function waitingForRoom(send: Send): Send {
  /** The operation's calls made and not yet settled, each settling to what became of it. */
  const inFlight = new Set<Promise<Settled>>();
  /** Per key, the last call that waits for room or behind one that does: `done` settles to true unless it gave up or got no answer. */
  const lastWaiting = new Map<string, { done: Promise<boolean>; refusal: unknown }>();
  return async (key, readonly, args, options) => {
    const before = lastWaiting.get(key);
    let mine: { done: Promise<boolean>; refusal: unknown } | undefined;
    let finish = (_goOn: boolean): void => {};
    /** The call waits: later calls of its key wait behind it. */
    const waits = (refusal: unknown): void => {
      if (mine !== undefined) return;
      mine = { done: new Promise<boolean>((resolve) => (finish = resolve)), refusal };
      lastWaiting.set(key, mine);
    };
    let goOn = false;
    try {
      if (before !== undefined) {
        waits(before.refusal);
        if (!(await before.done)) throw before.refusal;
      }
      for (;;) {
        const answer = send(key, readonly, args, options);
        const settled = answer.then((): Settled => 'answered', settledBy);
        inFlight.add(settled);
        void settled.then(() => inFlight.delete(settled));
        let refusal: unknown;
        try {
          const reply = await answer;
          goOn = true;
          return reply;
        } catch (err) {
          const what = settledBy(err);
          if (what !== 'refused') {
            goOn = what === 'answered';
            throw err;
          }
          refusal = err;
        }
        waits(refusal);
        // Until another of the operation's calls is answered. One refused
        // meanwhile was never sent: it frees no place, so look again.
        for (;;) {
          const others = [...inFlight].filter((p) => p !== settled);
          if (others.length === 0) {
            goOn = true;
            throw refusal;
          }
          const woke = await Promise.race(others);
          if (woke === 'answered') break;
          if (woke === 'lost') throw refusal;
        }
      }
    } finally {
      if (mine !== undefined) {
        finish(goOn);
        if (lastWaiting.get(key) === mine) lastWaiting.delete(key);
      }
    }
  };
}

/** What became of a call made through waitingForRoom: answered (a reply or an error reply), refused for a full queue, or lost. */
type Settled = 'answered' | 'refused' | 'lost';

/** What became of a call that failed with `err`. */
function settledBy(err: unknown): Settled {
  return queueFull(err) ? 'refused' : isErrorReply(err) ? 'answered' : 'lost';
}

/** Whether the connection is a cluster (its keys may sit on several nodes). */
export function isCluster(client: RedisConnection): boolean {
  return client !== null && typeof client === 'object' && 'masters' in client;
}

/** True for a reply the server sent as an error (node-redis's ErrorReply and subclasses). */
export function isErrorReply(err: unknown): err is Error {
  for (let p = err; p !== null && typeof p === 'object'; p = Object.getPrototypeOf(p)) {
    if ((p as { constructor?: { name?: string } }).constructor?.name === 'ErrorReply') return true;
  }
  return false;
}

// Error replies that the server gives before a script runs, or that our
// scripts give before touching any bit: the add certainly did not happen.
const REFUSED_BEFORE_RUNNING = new Set([
  'BLOOMCONFIG', 'BLOOMSHARD', 'NOAUTH', 'WRONGPASS', 'NOPERM', 'OOM', 'LOADING', 'READONLY', 'BUSY',
  'CLUSTERDOWN', 'CROSSSLOT', 'TRYAGAIN', 'MASTERDOWN', 'MOVED', 'ASK', 'WRONGTYPE', 'NOSCRIPT',
]);

/**
 * Redis answers an unauthenticated client's long command (more than 10
 * arguments, as our scripts send) with this protocol error and closes the
 * connection, before NOAUTH can be said.
 */
const UNAUTHENTICATED = /^ERR Protocol error: unauthenticated/;

/**
 * node-redis's errors for a call that got no answer, by class name (the
 * `redis` package is an optional peer, so its classes are not imported).
 * ClientOfflineError and ClientClosedError refuse a call before it is
 * queued: it was never sent (NOT_SENT).
 */
const NO_ANSWER_ERRORS = new Set([
  'ClientOfflineError', 'ClientClosedError', 'SocketClosedUnexpectedlyError', 'ConnectionTimeoutError',
  'SocketTimeoutError', 'ReconnectStrategyError', 'DisconnectsClientError', 'RootNodesUnavailableError', 'TimeoutError',
]);
const NOT_SENT = new Set(['ClientOfflineError', 'ClientClosedError']);

/** The socket's own errors (Node's system error codes) for a server that cannot be reached. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
]);

/**
 * node-redis's refusal of a call when the client's command queue holds
 * `commandsQueueMaxLength` commands already: a plain Error with this
 * message, given before the call is queued, so it was never sent.
 */
const QUEUE_FULL = 'The queue is full';

/** Whether err is node-redis's refusal of a call for a full command queue (QUEUE_FULL). */
function queueFull(err: unknown): boolean {
  return err instanceof Error && Object.getPrototypeOf(err) === Error.prototype && err.message === QUEUE_FULL;
}

/** The name of the first class in err's prototype chain that is in `names`, else undefined. */
function classIn(err: unknown, names: ReadonlySet<string>): string | undefined {
  for (let p = err; p !== null && typeof p === 'object'; p = Object.getPrototypeOf(p)) {
    const name = (p as { constructor?: { name?: string } }).constructor?.name;
    if (name !== undefined && names.has(name)) return name;
  }
  return undefined;
}

/** Why a call got no answer from Redis (the client's error class, or the socket's code), else undefined. */
function noAnswerReason(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof Error && typeof code === 'string' && SOCKET_CODES.has(code)) return code;
  if (queueFull(err)) return 'commandsQueueMaxLength';
  return classIn(err, NO_ANSWER_ERRORS);
}

/** Whether the client refused to send the call: it is reconnecting with disableOfflineQueue, closed, or its queue is full. */
function notSent(err: unknown): boolean {
  return queueFull(err) || classIn(err, NOT_SENT) !== undefined;
}

/**
 * True when the error proves the command did not change anything: Redis
 * refused it before running, or the client refused to send it.
 */
export function refusedBeforeRunning(err: unknown): boolean {
  if (notSent(err)) return true;
  return isErrorReply(err) && (REFUSED_BEFORE_RUNNING.has(err.message.split(' ', 1)[0]) || UNAUTHENTICATED.test(err.message));
}

/**
 * Turns a call that got no answer (a server down or lost, a closed client)
 * and the server's auth, configuration and key-type (WRONGTYPE) refusals
 * into this package's typed errors, with the original as `cause`; others
 * pass through.
 */
export function typedError(err: unknown, filter: string): unknown {
  const reason = noAnswerReason(err);
  if (reason !== undefined) {
    const why = queueFull(err)
      ? 'the client did not send the call (its command queue holds commandsQueueMaxLength commands already), so it did not run. Retry once the queue has room'
      : notSent(err)
        ? 'the client did not send the call (it is reconnecting with disableOfflineQueue, or closed), so it did not run. Retry once the client is connected again'
        : 'the connection was lost or timed out before the reply, so a write may or may not have run. Retry once the client is connected again';
    return new RedisBloomConnectionError(filter, `Redis did not answer for filter "${filter}": ${(err as Error).message} (${reason}); ${why}`, { cause: err });
  }
  if (!isErrorReply(err)) return err;
  const code = err.message.split(' ', 1)[0];
  if (code === 'NOAUTH' || code === 'WRONGPASS' || code === 'NOPERM' || UNAUTHENTICATED.test(err.message)) {
    return new RedisBloomAuthError(
      `Redis refused filter "${filter}": ${err.message} ` +
        '(pass username and password, or a redis[s]://user:password@host URL, to createClient; they go straight to Redis)',
      { cause: err },
    );
  }
  if (code === 'BLOOMCONFIG' || code === 'BLOOMSHARD') {
    const key = err.message.split(' ', 2)[1] ?? '';
    return new RedisBloomConfigError(
      filter,
      code === 'BLOOMCONFIG' ? 'config' : 'bits',
      `filter "${filter}" no longer matches its shard ${key}: ${err.message.slice(code.length + 1)} ` +
        '(the filter was re-reserved with other parameters, or a shard was deleted or evicted; use maxmemory-policy noeviction)',
    );
  }
  if (code === 'WRONGTYPE') return foreignTypeError(filter, err.message.split('.')[0]);
  return err;
}

/**
 * Another program's key under one of the filter's names: nothing of the
 * filter was written (the read that met it comes before any write).
 * `finding` starts with WRONGTYPE and says what was found.
 */
export function foreignTypeError(filter: string, finding: string): RedisBloomConfigError {
  return new RedisBloomConfigError(
    filter,
    'type',
    `filter "${filter}" cannot use its keys: one holds another Redis type (${finding}); ` +
      `its keys are {${filter}}:config (a hash), {${filter}:s} (a string) and {${filter}:s}:meta (a hash) for each shard s: ` +
      'rename or delete the foreign key, or pick another name',
  );
}

/**
 * Runs a script by SHA1 and, when the server has not cached it (NOSCRIPT:
 * first use on this node, a restart, a failover or SCRIPT FLUSH), once more
 * by source, which also caches it. NOSCRIPT means the script did not run, so
 * sending it again cannot apply an add twice; but calls pipelined behind
 * the refused one may run before the retry (see batches.ts). With
 * `bySource`, the call goes by source at once (EVAL), which no missing
 * script can refuse.
 */
export async function runScript(
  send: Send, script: Script, readonly: boolean, args: string[], options?: SendOptions, bySource = false,
): Promise<unknown> {
  // args: [command, script, numkeys, key1, ...]; the first two are filled here.
  const key = args[3];
  const bySha = (): Promise<unknown> => {
    args[0] = readonly ? 'EVALSHA_RO' : 'EVALSHA';
    args[1] = script.sha;
    return send(key, readonly, args, options);
  };
  const byText = (): Promise<unknown> => {
    args[0] = readonly ? 'EVAL_RO' : 'EVAL';
    args[1] = script.source;
    return send(key, readonly, args, options);
  };
  if (bySource) return await byText();
  try {
    return await bySha();
  } catch (err) {
    if (!isErrorReply(err) || !err.message.startsWith('NOSCRIPT')) throw err;
    return await byText();
  }
}

/** Builds the argument list of a script call: placeholders for runScript, then numkeys, keys and argv. */
export function scriptArgs(keys: readonly string[], argv: readonly string[]): string[] {
  return ['', '', String(keys.length), ...keys, ...argv];
}
