// How `bloom dedupe` shapes a new growing filter (no --capacity): the first
// member's capacity from the input files' lines, its tightening, and the
// usage error for a --fpp that no first member of that shape can meet.

import { BloomRangeError } from '../errors.js';
import { MAX_BITS, type Scheme } from '../filter/options.js';
import { capacityParams } from '../filter/sizing.js';
import type { ScalableBloomFilter } from '../scalable/scalable.js';
import { UsageError } from './common.js';
import type { InputLines } from './io.js';

/**
 * The first member of a new chain (no --capacity) holds the lines the input
 * files hold: counted exactly when they are regular files of at most
 * COUNT_LIMIT bytes in all, else estimated (estimateLines, plus 2%); at
 * least CHAIN_INITIAL_CAPACITY and at most CHAIN_MAX_INITIAL_CAPACITY. A
 * file is then one member, so each line costs one probe, as with
 * --capacity, and the memory is that of one filter of the file's size,
 * where a chain grown from 1,000,000 lines by doubling holds its bits in
 * several members, the newest mostly empty (2.3 times the bits of one
 * filter for 10^7 lines), and asks every full member about every line.
 * Lines beyond the count (a file that grows while it is read, or later
 * runs on a saved --state) or from a pipe, whose size is unknown, grow the
 * chain as usual, so the --fpp bound holds whatever the input, and the
 * state file is an ordinary chain.
 */
const CHAIN_INITIAL_CAPACITY = 1_000_000;
const CHAIN_MAX_INITIAL_CAPACITY = 100_000_000;
/**
 * The tightening of a chain sized from its input. Member i's rate is
 * fpp (1 - r) r^i; when the first member is expected to hold everything,
 * it gets most of the rate: 0.75 fpp at r = 0.25, which takes 7.6% fewer
 * bits than the 0.5 fpp of the library's default r = 0.5 (10^7 lines at
 * 0.001: 21.7 against 23.5 MiB), while members added after a wrong
 * estimate or on a later run take a little more (the second 6% more). A
 * chain from a pipe takes CHAIN_GROWING_TIGHTENING: its later members are
 * the rule, not the exception.
 */
const CHAIN_SIZED_TIGHTENING = 0.25;
/**
 * The tightening of a one-shot run (no --state) over files it has counted:
 * its first member holds every line the files had, so a second member
 * only comes when a file grows while it is read, and the first takes 0.99
 * of the rate (10^7 lines at 0.001: 20.2 MiB, against 21.3 at 0.75 fpp
 * and 20.1 for --capacity 10000000). A second member, if one comes, is
 * sized for 0.0099 fpp: about 6 bits per line more than at r = 0.25.
 */
const CHAIN_COUNTED_TIGHTENING = 0.01;
/**
 * The tightening of a chain whose later members are the rule: from a pipe,
 * or from files of at most CHAIN_INITIAL_CAPACITY lines that a saved
 * --state will grow on later runs. Member i gets fpp (1 - r) r^i, so a
 * larger r costs the first member bits (0.25 fpp instead of the library's
 * 0.5) and saves them on every later one, whose rates fall by r per member
 * instead of halving. Computed with capacityParams under sbbf at --fpp
 * 0.001, for 10^6 to 3.2 x 10^8 distinct lines (11 points a quarter decade
 * apart), the chain's bits over those of one filter sized for the lines:
 * geometric mean 2.64 at r = 0.5, 2.45 at 0.6, 2.35 at 0.7, 2.33 at 0.75,
 * 2.33 at 0.8; at 10^7 lines 2.34 against 2.23 at 0.75, at 3.2 x 10^8
 * 4.80 against 3.12, at 10^6 (one member) 1.14 against 1.31. Almeida,
 * Baquero, Preguica and Hutchison ("Scalable Bloom Filters", 2007) advise
 * r between 0.8 and 0.9 for growth 2, for streams longer than these.
 */
const CHAIN_GROWING_TIGHTENING = 0.75;

/**
 * Headroom over an estimate: sampled line lengths are off by a little, and
 * a file of distinct lines that overflowed its first member by a few lines
 * would start a second member twice its size.
 */
const CHAIN_ESTIMATE_HEADROOM = 1.02;

/** A new chain's first-member capacity and its tightening. */
export interface ChainShape {
  capacity: number;
  tightening: number;
}

/**
 * The first member's capacity and the tightening of a new chain for the
 * input's `lines` (see CHAIN_INITIAL_CAPACITY): `oneShot` when no --state
 * will keep the chain for later runs.
 */
export function chainShape({ lines, exact }: InputLines, oneShot: boolean): ChainShape {
  const needed = exact ? lines : Math.ceil(lines * CHAIN_ESTIMATE_HEADROOM);
  const capacity = Math.min(CHAIN_MAX_INITIAL_CAPACITY, Math.max(CHAIN_INITIAL_CAPACITY, needed));
  if (exact && oneShot && needed <= capacity) return { capacity, tightening: CHAIN_COUNTED_TIGHTENING };
  if (needed <= CHAIN_INITIAL_CAPACITY) return { capacity, tightening: CHAIN_GROWING_TIGHTENING };
  return { capacity, tightening: CHAIN_SIZED_TIGHTENING };
}

/**
 * The growing filter used without --capacity. A --fpp so low that its first
 * member cannot be built is a usage error (exit 2) that quotes the user's
 * --fpp and the smallest one accepted, not the first member's own rate.
 */
export function chainFor(
  Chain: typeof ScalableBloomFilter,
  shape: ChainShape,
  fpp: number,
  given: string | undefined,
  scheme: Scheme,
): ScalableBloomFilter {
  try {
    return new Chain({ ...shape, falsePositiveRate: fpp, scheme });
  } catch (error) {
    if (!(error instanceof BloomRangeError)) throw error;
    throw new UsageError(
      `--fpp ${given ?? fpp} is too low without --capacity: the growing filter's first member (${shape.capacity} lines) ` +
        `would need more than ${MAX_BITS} bits; the smallest --fpp it accepts under ${scheme} is ${smallestChainFpp(scheme, shape)}`,
    );
  }
}

/** The smallest --fpp (to 3 digits, rounded up) whose chain's first member fits in MAX_BITS; found by bisection on log(fpp). */
function smallestChainFpp(scheme: Scheme, shape: ChainShape): number {
  const fits = (fpp: number): boolean => {
    try {
      capacityParams(shape.capacity, fpp * (1 - shape.tightening), MAX_BITS, scheme);
      return true;
    } catch {
      return false;
    }
  };
  let lo = -320; // log10 of a rate that does not fit
  let hi = -1; // log10 of one that does
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (fits(10 ** mid)) hi = mid;
    else lo = mid;
  }
  const exact = 10 ** hi;
  const scale = 10 ** (Math.floor(hi) - 2);
  const shown = Number((Math.ceil(exact / scale) * scale).toPrecision(3));
  return fits(shown) ? shown : exact;
}
