// The bookkeeping of a sliding filter's generations (docs/SLIDING.md): which
// plane is current, how many adds each generation took and when, which are
// live at a given time, and when the current one ends and which plane the
// next one takes. The bits themselves are elsewhere (assembly/sliding.ts,
// or the reference twin's array); this is plain state, shared by the wasm
// SlidingBloomFilter and its twin so that both rotate at the same adds.

import { BloomRangeError, BloomTypeError } from '../errors.js';
import type { SlidingShape } from './shape.js';

/** What a sliding filter remembers besides its bits; what its file holds (src/format/sliding.ts). */
export interface GenerationState {
  /** The current generation's plane. */
  current: number;
  /** Every add call so far (repeats included). */
  totalAdds: number;
  /** The largest clock value read so far (ms); 0 for a count window. */
  lastNow: number;
  /** Per plane: adds its generation took (0: empty, its bits are all 0). */
  readonly counts: Float64Array;
  /** Per plane: the clock at its generation's first add (ms; 0 for a count window). */
  readonly starts: Float64Array;
  /** Per plane: the clock at its generation's latest add (ms; 0 for a count window). */
  readonly ends: Float64Array;
}

/** A fresh state for `shape`: every plane empty, plane 0 current, the clock at `now`. */
export function emptyState(shape: SlidingShape, now: number): GenerationState {
  const g = shape.generations;
  return { current: 0, totalAdds: 0, lastNow: now, counts: new Float64Array(g), starts: new Float64Array(g), ends: new Float64Array(g) };
}

/**
 * Reads `clock` once: its value in ms, or BloomTypeError/BloomRangeError
 * naming `clock` when it is not a finite number (nothing is changed then).
 */
export function readClock(clock: () => number): number {
  const value: unknown = clock();
  if (typeof value !== 'number') throw new BloomTypeError('clock', value, 'a function returning a finite number of milliseconds');
  if (!Number.isFinite(value)) throw new BloomRangeError('clock', value, 'a function returning a finite number of milliseconds');
  return value;
}

/** The rotation and liveness rules over a shape and a state. */
export class Generations {
  readonly shape: SlidingShape;
  readonly state: GenerationState;
  private readonly clock: (() => number) | undefined;

  /** `clock` is read for a time window (and must be given for one); a count window reads none. */
  constructor(shape: SlidingShape, state: GenerationState, clock: (() => number) | undefined) {
    this.shape = shape;
    this.state = state;
    this.clock = shape.mode === 'time' ? clock : undefined;
  }

  /**
   * The time of this call: the clock, but never before a value read
   * earlier (a clock that steps back is held at its latest value, so a
   * generation never ends before it started). 0 for a count window.
   */
  now(): number {
    if (this.clock === undefined) return 0;
    const now = Math.max(readClock(this.clock), this.state.lastNow);
    this.state.lastNow = now;
    return now;
  }

  /**
   * Whether plane `p`'s generation holds adds of the window at `now`: it
   * has adds, and (time window) its latest add is within the last windowMs.
   */
  isLive(p: number, now: number): boolean {
    const s = this.state;
    if (s.counts[p] === 0) return false;
    return this.shape.mode === 'count' || now - s.ends[p] < this.shape.windowMs;
  }

  /** The live planes at `now`, as a mask: bit p set for a live plane p. */
  liveMask(now: number): number {
    let mask = 0;
    for (let p = 0; p < this.shape.generations; p++) if (this.isLive(p, now)) mask |= 1 << p;
    return mask;
  }

  /** The adds of each live generation at `now`. */
  liveCounts(now: number): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.shape.generations; p++) if (this.isLive(p, now)) out.push(this.state.counts[p]);
    return out;
  }

  /**
   * Before adds at `now`: ends the current generation when it is due and
   * a plane can take the next, and makes that plane current. Returns the
   * plane whose bits must be cleared before the adds, or -1.
   *
   * Count window: due after c adds; the next plane is the oldest, whose
   * adds are all more than 7c >= n adds old.
   * Time window: due after c adds or P ms, provided some other plane is
   * not live (empty, or its latest add is windowMs old); otherwise the
   * current one keeps taking adds (overload). A current generation whose
   * latest add is windowMs old starts again on its own plane.
   */
  beginAdds(now: number): number {
    const s = this.state;
    const { generationCapacity: c, periodMs, generations } = this.shape;
    const cur = s.current;
    if (s.counts[cur] === 0) {
      s.starts[cur] = now;
      s.ends[cur] = now;
      return -1;
    }
    if (this.shape.mode === 'count') {
      if (s.counts[cur] < c) return -1;
      return this.take((cur + 1) % generations, now);
    }
    if (!this.isLive(cur, now)) return this.take(cur, now);
    if (s.counts[cur] < c && now - s.starts[cur] < periodMs) return -1;
    for (let step = 1; step < generations; step++) {
      const p = (cur + step) % generations;
      if (!this.isLive(p, now)) return this.take(p, now);
    }
    return -1;
  }

  /** Makes plane `p` current and empty from `now`; returns it, to be cleared. */
  private take(p: number, now: number): number {
    const s = this.state;
    s.current = p;
    s.counts[p] = 0;
    s.starts[p] = now;
    s.ends[p] = now;
    return p;
  }

  /**
   * How many adds the current generation takes before beginAdds must run
   * again: its room to c, or, in overload (no plane was free), all of
   * them, since at a fixed time no plane frees itself.
   */
  room(): number {
    const left = this.shape.generationCapacity - this.state.counts[this.state.current];
    return left > 0 ? left : Infinity;
  }

  /** Counts `n` adds into the current generation at `now`. */
  endAdds(n: number, now: number): void {
    const s = this.state;
    s.counts[s.current] += n;
    s.ends[s.current] = now;
    s.totalAdds += n;
  }
}
