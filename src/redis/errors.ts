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
  uncertain: T[];
  /** Items certainly not added: Redis refused their call before any bit was set (auth, configuration, OOM, ...). */
  notAdded: T[];
}

/** The RedisBloomFilter methods that can fail with a RedisBloomBatchError. */
export type BatchCall = 'add' | 'addMany';

/**
 * An add or addMany that did not complete. Some items have results, and the
 * rest are listed as uncertain (the reply was lost, so the bits may be set)
 * or not added. Nothing is retried automatically. The message starts with
 * the name of the call that failed.
 */
export class RedisBloomBatchError<T = string | Uint8Array> extends Error implements BatchOutcome<T> {
  /** The method that failed: `add` or `addMany`. */
  readonly call: BatchCall;
  readonly results: Uint8Array;
  readonly uncertain: T[];
  readonly notAdded: T[];
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
    this.results = outcome.results;
    this.uncertain = outcome.uncertain;
    this.notAdded = outcome.notAdded;
  }
}
