// The failure families of bloomwasm/redis. Like src/errors.ts, each message
// names the filter, the field or key, the value found and the value expected.

/** The filter's configuration in Redis is missing, or differs from the one asked for or opened. */
export class RedisBloomConfigError extends Error {
  /** The filter's name. */
  readonly filter: string;
  /** The configuration field or key that differs (`missing` when there is no configuration). */
  readonly field: string;
  constructor(filter: string, field: string, message: string) {
    super(message);
    this.name = 'RedisBloomConfigError';
    this.filter = filter;
    this.field = field;
  }
}

/** Redis refused the client's credentials or permissions (NOAUTH, WRONGPASS, NOPERM). */
export class RedisBloomAuthError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RedisBloomAuthError';
  }
}

/**
 * Redis gave no answer: the client was offline (reconnecting) or closed, or
 * the connection was lost or timed out before the reply. `cause` is the
 * client's own error (node-redis's ClientOfflineError, ClientClosedError,
 * SocketClosedUnexpectedlyError, ... or the socket's ECONNREFUSED,
 * ECONNRESET, ...), and the message names it.
 */
export class RedisBloomConnectionError extends Error {
  /** The filter's name. */
  readonly filter: string;
  constructor(filter: string, message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'RedisBloomConnectionError';
    this.filter = filter;
  }
}

/** The flag of an item that a failed addMany has no answer for: it is listed in `uncertain` or `notAdded`. */
export const NO_ANSWER = 2;

/** Items that a failed add could not report on. */
export interface BatchOutcome<T> {
  /**
   * Per item: 1 (new), 0 (already seen), or NO_ANSWER (2) when unknown. A
   * plain truth test treats the unknown as new, which is the safe reading.
   */
  results: Uint8Array;
  /** Items whose add may or may not have reached Redis: treat them as new. */
  uncertain: readonly T[];
  /**
   * Items certainly not added: Redis refused their call before any bit was
   * set (auth, configuration, OOM, ...), or the client refused it before
   * sending (offline or closed), or it was never handed to the client.
   */
  notAdded: readonly T[];
}

/** The RedisBloomFilter methods that can fail with a RedisBloomBatchError. */
export type BatchCall = 'add' | 'addMany';

/**
 * An add or addMany that did not complete. Some items have results, and the
 * rest are listed as uncertain (the reply was lost, so the bits may be set)
 * or not added. Nothing is retried automatically. The message starts with
 * the name of the call that failed.
 *
 * The outcome is what was known when the call rejected, and stays so: the
 * error holds its own copies. A call the client still had queued (node-redis
 * keeps unsent calls through a reconnect unless disableOfflineQueue) may
 * run and answer later, but its answer never reaches the error, whose items
 * stay listed as uncertain.
 */
export class RedisBloomBatchError<T = string | Uint8Array> extends Error implements BatchOutcome<T> {
  /** The method that failed: `add` or `addMany`. */
  readonly call: BatchCall;
  /** A copy taken at rejection: no later reply changes it. */
  readonly results: Uint8Array;
  /** Frozen at rejection. */
  readonly uncertain: readonly T[];
  /** Frozen at rejection. */
  readonly notAdded: readonly T[];
  constructor(call: BatchCall, outcome: BatchOutcome<T>, cause: unknown) {
    const known = outcome.results.length - outcome.uncertain.length - outcome.notAdded.length;
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      `${call}: ${outcome.uncertain.length} of ${outcome.results.length} items have an uncertain outcome ` +
        `and ${outcome.notAdded.length} were not added (${why}); ${known} have results. ` +
        'Treat the uncertain items as new; nothing is retried automatically.',
      { cause },
    );
    this.name = 'RedisBloomBatchError';
    this.call = call;
    // A typed array cannot be frozen, so the error keeps a copy: replies that
    // come after the rejection still write into the stream's array, never here.
    this.results = outcome.results.slice();
    this.uncertain = Object.freeze([...outcome.uncertain]);
    this.notAdded = Object.freeze([...outcome.notAdded]);
  }
}
