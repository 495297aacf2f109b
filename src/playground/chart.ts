// The playground's chart: the false-positive rate against the items added,
// the theory as a curve ((1 - e^(-kn/m))^k, Bloom 1970; the blocked formula
// under sbbf) and measured points from never-added probes, with the planned
// rate as a dashed line.

import type { BloomFilter } from '../index.js';
import { theoryRate } from './blocks.js';
import { fmt, fmtRate } from './format.js';

/** Never-added items checked per measured point. */
export const PROBES = 2000;

/** A measured point: after `n` items, `rate` of the probes answered MAYBE. */
export interface Point {
  n: number;
  rate: number;
}

/** What the chart shows. */
export interface ChartData {
  filter: BloomFilter;
  /** The measured points, oldest first (the first is n = 0). */
  points: readonly Point[];
  /** Distinct items added so far. */
  addedCount: number;
  /** The capacity n the user sized for, or null when m and k were given. */
  plannedCapacity: number | null;
  /** The falsePositiveRate the user sized for, or null. */
  plannedRate: number | null;
}

/** The share of PROBES never-added items (named by `probe`) that the filter answers MAYBE to. */
export function measureRate(filter: BloomFilter, probe: () => string): number {
  let maybes = 0;
  for (let i = 0; i < PROBES; i++) if (filter.has(probe())) maybes++;
  return maybes / PROBES;
}

/** Draws the chart on `canvas` and sums up the last point in `summary`. */
export function renderChart(canvas: HTMLCanvasElement, summary: HTMLElement, data: ChartData): void {
  const ctx = canvas.getContext('2d');
  if (ctx === null) return;
  const { filter, points, plannedRate } = data;
  const m = filter.bits;
  const k = filter.hashes;
  const W = canvas.width;
  const H = canvas.height;
  const left = 64, right = 16, top = 40, bottom = 40;
  // The x axis reaches past the items so far, and at least to the planned n
  // (or the n at which k is optimal for this m: n = m ln 2 / k).
  const reach = data.plannedCapacity ?? Math.max(1, Math.round((m * Math.LN2) / k));
  const xMax = Math.max(10, Math.ceil(Math.max(data.addedCount * 1.1, reach) / 10) * 10);
  const theoryAtEnd = theoryRate(filter, xMax);
  const yMax = Math.min(1, Math.max(0.01, theoryAtEnd, ...points.map((p) => p.rate)) * 1.1);
  const px = (v: number) => left + (v / xMax) * (W - left - right);
  const py = (v: number) => H - bottom - (v / yMax) * (H - top - bottom);

  // Axes, grid lines and tick labels.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, W, H);
  ctx.strokeStyle = '#6b7280';
  ctx.lineWidth = 1;
  ctx.fillStyle = '#111827';
  ctx.font = '12px system-ui, sans-serif';
  ctx.beginPath();
  ctx.moveTo(left, top);
  ctx.lineTo(left, H - bottom);
  ctx.lineTo(W - right, H - bottom);
  ctx.stroke();
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    ctx.fillText(fmtRate(v), left - 6, py(v));
    ctx.strokeStyle = '#e5e7eb';
    ctx.beginPath();
    ctx.moveTo(left + 1, py(v));
    ctx.lineTo(W - right, py(v));
    ctx.stroke();
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (let i = 0; i <= 5; i++) {
    const v = Math.round((xMax * i) / 5);
    ctx.fillText(fmt.format(v), px(v), H - bottom + 6);
  }
  ctx.fillText('items added (n)', (left + W - right) / 2, H - 16);

  if (plannedRate !== null && plannedRate <= yMax) {
    ctx.strokeStyle = '#374151';
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.moveTo(left, py(plannedRate));
    ctx.lineTo(W - right, py(plannedRate));
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    ctx.fillText(`planned p = ${fmtRate(plannedRate)}`, W - right - 4, py(plannedRate) - 3);
  }

  // The theory curve, then the measured points over it.
  ctx.strokeStyle = '#1e3a8a';
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (let i = 0; i <= 200; i++) {
    const v = (xMax * i) / 200;
    // The classic formula inline: falsePositiveRate takes whole item counts only.
    const y = filter.scheme === 'sbbf' ? theoryRate(filter, v) : Math.pow(1 - Math.exp((-k * v) / m), k);
    if (i === 0) ctx.moveTo(px(v), py(y));
    else ctx.lineTo(px(v), py(y));
  }
  ctx.stroke();
  ctx.fillStyle = '#c2410c';
  for (const p of points) {
    ctx.beginPath();
    ctx.arc(px(p.n), py(p.rate), 4, 0, 2 * Math.PI);
    ctx.fill();
  }

  // The legend sits in the top margin, clear of the curve.
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#1e3a8a';
  ctx.fillRect(left, 13, 18, 3);
  ctx.fillStyle = '#111827';
  ctx.fillText(filter.scheme === 'sbbf' ? 'theory (split-block formula)' : 'theory (1 − e^(−kn/m))^k', left + 24, 15);
  ctx.fillStyle = '#c2410c';
  ctx.beginPath();
  ctx.arc(left + 269, 15, 4, 0, 2 * Math.PI);
  ctx.fill();
  ctx.fillStyle = '#111827';
  ctx.fillText(`measured (${fmt.format(PROBES)} never-added items)`, left + 280, 15);

  const last = points[points.length - 1];
  summary.textContent =
    `After ${fmt.format(last.n)} item${last.n === 1 ? '' : 's'}: measured ${fmtRate(last.rate)}, theory ${fmtRate(theoryRate(filter, last.n))}.`;
}
