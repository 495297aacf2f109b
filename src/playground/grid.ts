// The playground's grid: one cell per bit of the filter, or, for large m,
// one cell per run of bits, shaded by how many of them are 1; an sbbf
// filter is drawn as its 256-bit blocks (blocks.ts). The positions of the
// item being typed are outlined.

import type { BloomFilter } from '../index.js';
import { describeBit, drawBlocks } from './blocks.js';
import { fmt } from './format.js';

/** The most grid cells drawn; above this, one cell stands for several bits. */
const MAX_CELLS = 4096;

/** The cells of one filter's grid. */
export interface Grid {
  /** Bits per cell: 1 up to MAX_CELLS bits. */
  readonly bitsPerCell: number;
  readonly cells: readonly HTMLDivElement[];
}

/** Builds the cells for `filter`'s bits into `container` and describes them in `caption`. */
export function buildGrid(container: HTMLElement, caption: HTMLElement, filter: BloomFilter): Grid {
  const bits = filter.bits;
  if (filter.scheme === 'sbbf') {
    const picture = drawBlocks(container, bits, MAX_CELLS, (x) => fmt.format(x));
    if (picture !== null) {
      container.style.setProperty('--cell', picture.bitsPerCell === 1 ? '9px' : '14px');
      caption.textContent = picture.caption;
      return { bitsPerCell: picture.bitsPerCell, cells: picture.cells };
    }
  }
  container.classList.remove('blocks', 'block-cells');
  const perCell = Math.ceil(bits / MAX_CELLS);
  const count = Math.ceil(bits / perCell);
  const numbered = bits <= 128;
  container.style.setProperty('--cell', numbered ? '30px' : bits <= 1024 ? '16px' : '10px');
  const cells: HTMLDivElement[] = [];
  for (let i = 0; i < count; i++) {
    const cell = document.createElement('div');
    cell.className = 'cell';
    cell.dataset.index = String(i);
    if (numbered) cell.textContent = String(i);
    cells.push(cell);
  }
  container.replaceChildren(...cells);
  caption.textContent =
    perCell === 1
      ? `${fmt.format(bits)} bits, bit 0 first.`
      : `${fmt.format(bits)} bits: each cell stands for ${fmt.format(perCell)} bits and is darker as more of them are 1.`;
  return { bitsPerCell: perCell, cells };
}

/** Paints the filter's bits into the grid and outlines the cells holding `positions`. */
export function renderGrid(container: HTMLElement, grid: Grid, filter: BloomFilter, positions: readonly number[]): void {
  const m = filter.bits;
  const bytes = filter.bitArray();
  const perCell = grid.bitsPerCell;
  const hits = new Set(positions.map((p) => Math.floor(p / perCell)));
  for (let c = 0; c < grid.cells.length; c++) {
    const cell = grid.cells[c];
    const first = c * perCell;
    const last = Math.min(m, first + perCell);
    let ones = 0;
    for (let p = first; p < last; p++) ones += (bytes[p >> 3] >> (p & 7)) & 1;
    const where = filter.scheme === 'sbbf' && perCell === 1 ? ` (${describeBit(first)})` : '';
    const title = perCell === 1 ? `bit ${first}${where}: ${ones}` : `bits ${first}–${last - 1}: ${ones} of ${last - first} are 1`;
    if (perCell === 1) {
      cell.classList.toggle('on', ones === 1);
    } else {
      const share = ones / (last - first);
      cell.classList.toggle('on', share >= 0.5);
      cell.style.background = share === 0 ? '' : `rgba(30, 58, 138, ${0.25 + 0.75 * share})`;
    }
    const hit = hits.has(c);
    cell.classList.toggle('hit', hit);
    cell.title = hit ? `${title} (a position of the current item)` : title;
  }
  container.setAttribute(
    'aria-label',
    `Bit array: ${filter.bitsSet()} of ${m} bits are 1.` + (hits.size > 0 ? ` The current item's positions: ${positions.join(', ')}.` : ''),
  );
}
