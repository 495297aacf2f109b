// The playground's picture of an sbbf filter: its bits drawn as the 256-bit
// blocks they are, each block eight rows of 32 bits (one row per 32-bit
// word), so that an item's eight positions show up as one bit in each row of
// one block (docs/SCHEMES.md, "sbbf"). Larger filters get one cell per block.

import { sbbfFalsePositiveRate, falsePositiveRate, type BloomFilter, type Scheme } from '../index.js';

/** Bits per sbbf block, and words per block. */
const BLOCK_BITS = 256;
const WORD_BITS = 32;

/** The most blocks drawn bit by bit; above this each cell is one whole block. */
const MAX_DRAWN_BLOCKS = 16;

/** The cells of a block picture, in bit order, and how many bits each cell stands for. */
export interface BlockPicture {
  cells: HTMLDivElement[];
  bitsPerCell: number;
  caption: string;
}

/**
 * Fills `grid` with the blocks of an sbbf filter of `bits` bits, or returns
 * null when the filter is too large for one cell per block within `maxCells`
 * (the caller then draws its ordinary grid).
 */
export function drawBlocks(grid: HTMLElement, bits: number, maxCells: number, format: (n: number) => string): BlockPicture | null {
  const blocks = bits / BLOCK_BITS;
  grid.classList.remove('blocks', 'block-cells');
  if (blocks <= MAX_DRAWN_BLOCKS) {
    const cells: HTMLDivElement[] = [];
    const groups: HTMLDivElement[] = [];
    for (let b = 0; b < blocks; b++) {
      const group = document.createElement('div');
      group.className = 'block';
      group.title = `block ${b}: bits ${format(b * BLOCK_BITS)}–${format((b + 1) * BLOCK_BITS - 1)}`;
      for (let i = 0; i < BLOCK_BITS; i++) {
        const cell = document.createElement('div');
        cell.className = 'cell';
        cell.dataset.index = String(b * BLOCK_BITS + i);
        group.append(cell);
        cells.push(cell);
      }
      groups.push(group);
    }
    grid.classList.add('blocks');
    grid.replaceChildren(...groups);
    return {
      cells,
      bitsPerCell: 1,
      caption: `${format(bits)} bits in ${format(blocks)} block${blocks === 1 ? '' : 's'} of 256 bits. Each block is eight 32-bit words, one per row; an item sets one bit in each row of one block.`,
    };
  }
  if (blocks > maxCells) return null;
  const cells: HTMLDivElement[] = [];
  for (let b = 0; b < blocks; b++) {
    const cell = document.createElement('div');
    cell.className = 'cell';
    cell.dataset.index = String(b);
    cells.push(cell);
  }
  grid.classList.add('block-cells');
  grid.replaceChildren(...cells);
  return {
    cells,
    bitsPerCell: BLOCK_BITS,
    caption: `${format(bits)} bits in ${format(blocks)} blocks: each cell is one 256-bit block, darker as more of its bits are 1; an item touches exactly one.`,
  };
}

/** The parameters the m/k form needs for `scheme`: sbbf takes k = 8 and whole 256-bit blocks. */
export function formShape(scheme: Scheme, bits: number, hashes: number): { bits: number; hashes: number } {
  if (scheme !== 'sbbf') return { bits, hashes };
  return { bits: Math.max(BLOCK_BITS, Math.round(bits / BLOCK_BITS) * BLOCK_BITS), hashes: 8 };
}

/** The expected false-positive rate after n items, by the filter's scheme's formula. */
export function theoryRate(filter: BloomFilter, n: number): number {
  return filter.scheme === 'sbbf' ? sbbfFalsePositiveRate(filter.bits, n) : falsePositiveRate(filter.bits, n, filter.hashes);
}

/** The bit and word a position falls in, for the cell's tooltip. */
export function describeBit(p: number): string {
  const block = Math.floor(p / BLOCK_BITS);
  const word = Math.floor((p % BLOCK_BITS) / WORD_BITS);
  return `block ${block}, word ${word}, bit ${p % WORD_BITS}`;
}
