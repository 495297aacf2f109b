// The twin of assembly/stripe.ts: exactly-once adds in the reference
// twin's shared filter. Atomic OR alone lets two threads that add the same
// item at once both see one of its bits go from 0 to 1; an add therefore
// holds one of STRIPES lock words, picked by the item's first position,
// while it sets the item's bits. assembly/stripe.ts says why a held word is
// taken over after TAKEOVER_MS of wall time, and not after a count of
// reads; docs/SHARED.md states the guarantee.

/** Stripe lock words, as in assembly/layout.ts. */
export const STRIPES = 4096;

/** How long one token may be seen holding a word, never letting go, before a waiter takes it over, as in assembly/stripe.ts. */
const TAKEOVER_MS = 1000;

/** Reads of a held word between looks at the clock, as in assembly/stripe.ts. */
const READS_PER_LOOK = 1 << 12;

/**
 * The twin of assembly/stripe.ts: an add holds the lock word its first
 * position picks while it sets the item's bits, so that of two threads
 * adding one item at once exactly one is told it is new. A word holds 0
 * when free, or the holder's token (each attached filter takes one from the
 * token counter); a holder that stops inside is taken over once the same
 * token has been seen holding the word, never letting go, for TAKEOVER_MS.
 */
export class Stripes {
  /** The STRIPES lock words. */
  private readonly words: Int32Array;
  /** This filter's token, held in a word while it adds. */
  private readonly token: number;
  /** The STRIPES lock words at byte `wordsAt` of `buffer`, and a new token from the i32 counter at byte `tokenAt`. */
  constructor(buffer: SharedArrayBuffer, wordsAt: number, tokenAt: number) {
    this.words = new Int32Array(buffer, wordsAt, STRIPES);
    // Tokens 1, 2, ... (wrapping past 2^31 - 1 long after any holder is gone).
    this.token = (Atomics.add(new Int32Array(buffer, tokenAt, 1), 0, 1) & 0x7fffffff) + 1;
  }

  /** The lock word of the item whose first position is `p`: Fibonacci hashing, the top 12 bits of p * 2^64/phi. */
  stripeOf(p: number): number {
    return Number(((BigInt(p) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn) >> 52n) & (STRIPES - 1);
  }

  /** Runs `body` holding lock word `i`. */
  holding<T>(i: number, body: () => T): T {
    /** The token watched since `since` (0: none yet, or the word was seen free since). */
    let holder = 0;
    let since = 0;
    let reads = 0;
    for (;;) {
      const seen = Atomics.load(this.words, i);
      if (seen === 0) {
        if (Atomics.compareExchange(this.words, i, 0, this.token) === 0) break;
        holder = 0;
        continue;
      }
      if (++reads < READS_PER_LOOK) continue;
      reads = 0;
      const at = performance.now();
      if (seen !== holder) {
        holder = seen;
        since = at;
      } else if (at - since >= TAKEOVER_MS) {
        if (Atomics.compareExchange(this.words, i, seen, this.token) === seen) break;
        holder = 0;
      }
    }
    try {
      return body();
    } finally {
      Atomics.compareExchange(this.words, i, this.token, 0);
    }
  }
}
