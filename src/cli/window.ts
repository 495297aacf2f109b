// `bloom dedupe --window`: the window option (a number of lines, or a
// duration with a unit) and the clock a time window reads: the machine's,
// or BLOOM_NOW_MS, a fixed time for tests.

import { UsageError } from './common.js';

/** A window of the last `lines` lines, or of the lines of the last `ms` milliseconds. */
export type WindowOption = { kind: 'count'; lines: number } | { kind: 'time'; ms: number };

/** Milliseconds per unit of --window. */
const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Lines a time window is sized for when --capacity is not given: 10^6 per
 * window, about 5 MB of state at the default --fpp. More lines than that
 * within one window keep every line of the window but raise the rate
 * (`bloom info` on the state file reports it).
 */
export const DEFAULT_WINDOW_CAPACITY = 1_000_000;

/** The environment variable that fixes the clock of a time window, in ms since the epoch: for tests. */
export const NOW_VARIABLE = 'BLOOM_NOW_MS';

/** Parses --window: `1000` is a window of 1000 lines; `90s`, `15m`, `12h`, `30d` are durations (a fraction allowed, as in `1.5h`). */
export function windowOption(value: string): WindowOption {
  const lines = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (Number.isSafeInteger(lines) && lines >= 1) return { kind: 'count', lines };
  const duration = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/.exec(value);
  const ms = duration === null ? NaN : Number(duration[1]) * UNITS[duration[2]];
  if (ms > 0 && Number.isFinite(ms)) return { kind: 'time', ms };
  throw new UsageError(
    `--window must be a number of lines of at least 1 (as 100000) or a duration above 0 with a unit s, m, h or d (as 30d); got '${value}'`,
  );
}

/** The clock of a time window: Date.now, or the fixed time in BLOOM_NOW_MS when it is set. */
export function windowClock(): () => number {
  const fixed = process.env[NOW_VARIABLE];
  if (fixed === undefined || fixed === '') return Date.now;
  const ms = Number(fixed);
  if (!Number.isFinite(ms) || fixed.trim() === '') throw new UsageError(`${NOW_VARIABLE} must be a number of milliseconds since the epoch; got '${fixed}'`);
  return () => ms;
}
