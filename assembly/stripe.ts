// Exactly-once adds in the shared build (assembly/shared.ts). Atomic OR
// alone lets two threads that add the same item at the same instant both
// see one of its bits go from 0 to 1, and both report it new. So an add
// holds a lock word while it sets the item's bits: one of STRIPES words in
// the shared header, picked by the item's first probe (its first position,
// or its hash under sbbf), so two adds of one item always pick the same
// word and run one after the other, and the second finds every bit set.
// Adds of different items rarely share a word, and has takes none.
// The pure-TypeScript twin is src/reference/stripe.ts.
//
// A word holds 0 when free, or the token of the instance holding it. A
// holder that stops for good inside the few instructions it holds a word
// for (a worker terminated mid-add) must not block that stripe forever: a
// thread that has watched the same token hold the word, without once seeing
// it free, for TAKEOVER_MS of wall time takes the word over, and the item
// its holder was adding may then be reported new twice (at least once still
// holds). docs/SHARED.md states the guarantee.
//
// Why wall time and not a count of reads: a holder that the OS has only
// descheduled is alive and will let go, and a count of reads measures the
// waiter's speed, not how long the holder has been away. On 2 cores shared
// by 4 adding workers (and other processes), 2^24 reads (tens of
// milliseconds) passed while a preempted holder was off the CPU, and an
// item was reported new twice in most runs of the lockstep test
// (test/shared-workers.test.ts); with the clock none was in any run.

import { PROBES_PTR, SHARED_HEADER_PTR, STRIPES, STRIPES_OFFSET } from "./layout";

/** How long one token may be seen holding a word, never letting go, before a waiter takes it over. */
const TAKEOVER_MS: f64 = 1000;

/** Reads of a held word between looks at the clock (a look is a call out to JS). */
const READS_PER_LOOK: u32 = 1 << 12;

/** Milliseconds from a monotonic clock: performance.now() (src/wasm/module.ts passes it in). */
// @ts-ignore: decorator
@external("env", "now")
declare function now(): f64;

/** This instance's token: its work area's page number plus 1 (work areas are whole pages, one per live instance). */
// @ts-ignore: decorator
@inline function token(): u32 {
  return <u32>(PROBES_PTR >> 16) + 1;
}

/** The lock word of the item whose probe record starts with `key`. */
// @ts-ignore: decorator
@inline export function stripeOf(key: u64): usize {
  // Fibonacci hashing (Knuth, TAOCP 6.4): the top 12 bits of key * 2^64/phi.
  const index = <u32>((key * 0x9e3779b97f4a7c15) >> 52) & (STRIPES - 1);
  return SHARED_HEADER_PTR + STRIPES_OFFSET + (<usize>index << 2);
}

/** Takes the lock word at `word`, waiting for its holder (or taking it over after TAKEOVER_MS, see above). */
// @ts-ignore: decorator
@inline export function lockStripe(word: usize): void {
  if (!ASC_FEATURE_THREADS) return;
  const mine = token();
  /** The token watched since `since` (0: none yet, or the word was seen free since). */
  let holder: u32 = 0;
  let since: f64 = 0;
  let reads: u32 = 0;
  while (true) {
    const seen = atomic.load<u32>(word);
    if (seen == 0) {
      if (atomic.cmpxchg<u32>(word, 0, mine) == 0) return;
      holder = 0;
      continue;
    }
    if (++reads < READS_PER_LOOK) continue;
    reads = 0;
    const at = now();
    if (seen != holder) {
      holder = seen;
      since = at;
    } else if (at - since >= TAKEOVER_MS) {
      if (atomic.cmpxchg<u32>(word, seen, mine) == seen) return;
      holder = 0;
    }
  }
}

/** Frees the lock word at `word`, unless another thread took it over meanwhile. */
// @ts-ignore: decorator
@inline export function unlockStripe(word: usize): void {
  if (!ASC_FEATURE_THREADS) return;
  atomic.cmpxchg<u32>(word, token(), 0);
}
