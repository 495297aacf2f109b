// How every section of docs/BENCHMARKS.md writes its figures: numbers,
// ratios, dates and the machine, one format each, so that the sections of
// different commands (bench/report.ts, report-cli.ts, report-redis.ts and
// the rest) read alike.

import type { Machine } from './results.js';

/** A whole number with thousands separators. */
export const int = (x: number): string => Math.round(x).toLocaleString('en-US');
/** ns per operation: one decimal below 10, else a whole number with separators. */
export const formatNs = (x: number): string => (x < 10 ? x.toFixed(1) : int(x));
/** A ratio: two decimals below 10, one below 100, none above. */
export const formatRatio = (x: number): string => `${x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)}×`;
/** A rate as a percentage, three decimals. */
export const percent = (x: number): string => `${(x * 100).toFixed(3)}%`;

/** "2026-11-30 00:49 UTC" from an ISO time; a bare date ("2026-11-30") stays a date. */
export function formatDate(iso: string): string {
  return iso.length <= 10 ? iso : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** "AMD EPYC 7B13 (2 cores), 24 GiB, Node 24.22.3, linux x64, load average 0.4 at the start". */
export function formatMachine(m: Machine): string {
  const load = m.loadAverage === undefined ? '' : `, load average ${m.loadAverage.toFixed(1)} at the start`;
  return `${m.cpu} (${m.cores} cores), ${m.memoryGiB} GiB, ${m.runtime ?? `Node ${m.node}`}, ${m.platform}${load}`;
}
