// The playground page: one BloomFilter (the WebAssembly build, the same code
// the package ships), its bits as a grid (grid.ts), its false-positive rate
// as a chart (chart.ts), and the worked examples (examples.ts). esbuild
// bundles this file with the library into dist/playground/playground.js;
// `bloom serve` serves it.

import { BloomFilter, type Scheme } from '../index.js';
import { mulberry32 } from '../cli/mulberry32.js';
import { measureRate, renderChart, type Point } from './chart.js';
import { ExamplePlayer, type Example, type ExampleId, type Step } from './examples.js';
import { fmt, fmtBytes, fmtRate, quote } from './format.js';
import { formShape } from './blocks.js';
import { buildGrid, renderGrid, type Grid } from './grid.js';
import { $, mode, setVerdict, showMode, ui } from './ui.js';

/** Items per click of the bulk button, and how often the chart is measured meanwhile. */
const BULK = 1000;
const BULK_STEP = 100;
/** Largest m the page accepts: the grid and the bit copies stay quick. */
const PAGE_MAX_BITS = 10_000_000;

/** The filter on the page and what the page knows about it. */
interface State {
  filter: BloomFilter;
  /** The capacity n the user sized for (n/p mode), or null (m/k mode). */
  plannedCapacity: number | null;
  /** The falsePositiveRate the user sized for, or null. */
  plannedRate: number | null;
  /** Every distinct item added, to tell a false positive from a true MAYBE. */
  added: Set<string>;
  /** Sum of the added items' UTF-16 lengths, for the Set estimate. */
  addedUnits: number;
  points: Point[];
  grid: Grid;
}

let state: State;

// A seeded generator, so the random items of one session repeat from a reload.
const random = mulberry32(0x9e3779b9);
function randomWord(): string {
  return Math.floor(random() * 2 ** 32).toString(36).padStart(7, '0');
}
let randomCount = 0;
let probeCount = 0;

/** Builds the filter the form describes; on bad input shows the library's error and keeps the old filter. */
function newFilterFromForm(): boolean {
  const scheme = ui.scheme.value as Scheme;
  try {
    if (mode() === 'np') {
      const n = Number(ui.capacity.value);
      const p = Number(ui.rate.value);
      const filter = BloomFilter.forCapacity(n, p, { scheme });
      if (filter.bits > PAGE_MAX_BITS) throw new RangeError(`n and p need ${fmt.format(filter.bits)} bits; the page draws at most ${fmt.format(PAGE_MAX_BITS)}`);
      ui.bits.value = String(filter.bits);
      ui.hashes.value = String(filter.hashes);
      reset(filter, n, p);
    } else {
      const m = Number(ui.bits.value);
      if (m > PAGE_MAX_BITS) throw new RangeError(`bits must be at most ${fmt.format(PAGE_MAX_BITS)} on this page; got ${ui.bits.value}`);
      reset(new BloomFilter(m, Number(ui.hashes.value), { scheme }), null, null);
    }
    ui.paramsError.textContent = '';
    return true;
  } catch (e) {
    ui.paramsError.textContent = e instanceof Error ? e.message : String(e);
    return false;
  }
}

function reset(filter: BloomFilter, plannedCapacity: number | null, plannedRate: number | null): void {
  const grid = buildGrid(ui.grid, ui.gridCaption, filter);
  state = { filter, plannedCapacity, plannedRate, added: new Set(), addedUnits: 0, points: [{ n: 0, rate: 0 }], grid };
  ui.log.replaceChildren();
  ui.verdict.replaceChildren();
  ui.verdict.className = 'verdict';
  log(`new BloomFilter(${filter.bits}, ${filter.hashes}, { scheme: '${filter.scheme}' })`);
  render();
}

/** The current item's positions (the input's text), or none when it is empty. */
function currentPositions(): number[] {
  const item = ui.item.value;
  return item === '' ? [] : state.filter.positions(item);
}

function render(): void {
  const { filter } = state;
  renderGrid(ui.grid, state.grid, filter, currentPositions());
  const x = filter.bitsSet();
  ui.statSet.textContent = fmt.format(x);
  ui.statFill.textContent = (x / filter.bits).toFixed(4);
  ui.statAdded.textContent = fmt.format(state.added.size);
  // -(m/k) ln(1 - X/m) (Swamidass and Baldi, 2007) and (X/m)^k, from the library.
  const estimate = filter.estimatedCount();
  ui.statEstimate.textContent = estimate === Infinity ? '∞ (every bit is 1)' : fmt.format(Math.round(estimate));
  ui.statRate.textContent = fmtRate(filter.currentFalsePositiveRate());
  renderSize();
  renderChart(ui.chart, ui.chartSummary, {
    filter,
    points: state.points,
    addedCount: state.added.size,
    plannedCapacity: state.plannedCapacity,
    plannedRate: state.plannedRate,
  });
}

function renderSize(): void {
  const { filter, added, plannedCapacity } = state;
  const n = Math.max(plannedCapacity ?? 0, added.size);
  const avg = added.size > 0 ? state.addedUnits / added.size : 20;
  // V8 keeps a short string in about 12 bytes of header plus one byte per
  // Latin-1 character; a Set entry adds roughly 16 bytes of hash table.
  const setBytes = n * (avg + 28);
  const filterBytes = Math.ceil(filter.bits / 8);
  const what = added.size > 0 ? `${fmt.format(n)} items averaging ${avg.toFixed(1)} characters` : `${fmt.format(n)} items of 20 characters`;
  ui.sizeSummary.textContent =
    `m = ${fmt.format(filter.bits)} bits, k = ${filter.hashes}, scheme ${filter.scheme}: ${fmtBytes(filterBytes)}. ` +
    (n > 0 ? `A Set of ${what} needs about ${fmtBytes(setBytes)}.` : 'Add items to compare with a Set.');
}

/** Measures the rate at the current n and records it as the chart's newest point. */
function measure(): void {
  // The prefix keeps probes apart from anything the random adds produce.
  const rate = measureRate(state.filter, () => `probe-${probeCount++}-${randomWord()}`);
  const n = state.added.size;
  const points = state.points;
  if (points.length > 0 && points[points.length - 1].n === n) points.pop();
  points.push({ n, rate });
}

function log(text: string, item?: string): void {
  const li = document.createElement('li');
  if (item === undefined) {
    li.textContent = text;
  } else {
    // Choosing a line puts its item back in the input, so its bits light up.
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = text;
    button.addEventListener('click', () => {
      ui.item.value = item;
      render();
      ui.item.focus();
    });
    li.append(button);
  }
  ui.log.append(li);
  while (ui.log.children.length > 200) ui.log.firstElementChild?.remove();
  ui.log.scrollTop = ui.log.scrollHeight;
}

function noteAdded(item: string): void {
  if (!state.added.has(item)) {
    state.added.add(item);
    state.addedUnits += item.length;
  }
}

function addItem(item: string): void {
  const { filter } = state;
  const before = filter.bitsSet();
  const positions = filter.positions(item);
  const isNew = filter.add(item);
  noteAdded(item);
  const turned = filter.bitsSet() - before;
  if (isNew) {
    setVerdict('added', 'ADDED', `${quote(item)}: ${turned} of its bits went from 0 to 1 (positions ${positions.join(', ')}), so it was certainly new.`);
  } else {
    setVerdict('added', 'ADDED', `${quote(item)}: its bits (${positions.join(', ')}) were all 1 already, so add() returned false: the filter cannot tell it from an item it has seen.`);
  }
  log(`add ${JSON.stringify(item)} → ${isNew ? 'new' : 'not new'}, positions ${positions.join(', ')}`, item);
  measure();
}

function checkItem(item: string): void {
  const { filter } = state;
  const positions = filter.positions(item);
  const bytes = filter.bitArray();
  const zeros = [...new Set(positions.filter((p) => ((bytes[p >> 3] >> (p & 7)) & 1) === 0))];
  if (!filter.has(item)) {
    const which = zeros.length === 1 ? `bit ${zeros[0]} is 0` : `bits ${zeros.slice(0, 8).join(', ')}${zeros.length > 8 ? ', …' : ''} are 0`;
    setVerdict('no', 'NO', `${which}, so ${quote(item)} was certainly never added.`);
    log(`has ${JSON.stringify(item)} → NO (positions ${positions.join(', ')})`, item);
  } else if (state.added.has(item)) {
    setVerdict('maybe', 'MAYBE', `all ${positions.length} of its bits (${positions.join(', ')}) are 1; ${quote(item)} was added.`);
    log(`has ${JSON.stringify(item)} → MAYBE (added)`, item);
  } else {
    setVerdict('maybe', 'MAYBE', `all of its bits (${positions.join(', ')}) are 1, but ${quote(item)} was never added: other items set them.`, true);
    log(`has ${JSON.stringify(item)} → MAYBE, a false positive`, item);
  }
}

function bulkAdd(): void {
  const { filter } = state;
  let fresh = 0;
  for (let done = 0; done < BULK; done += BULK_STEP) {
    for (let i = 0; i < BULK_STEP; i++) {
      const item = `rand-${randomCount++}-${randomWord()}`;
      if (filter.add(item)) fresh++;
      noteAdded(item);
    }
    measure();
  }
  log(`added ${fmt.format(BULK)} random items (${fmt.format(fresh)} reported new)`);
  setVerdict('added', 'ADDED', `${fmt.format(BULK)} random items; ${fmt.format(BULK - fresh)} of them found all their bits already 1.`);
  render();
}

/** The worked examples, played on this page's form and filter. */
const player = new ExamplePlayer({
  load(example: Example): void {
    for (const input of ui.paramsForm.querySelectorAll<HTMLInputElement>('input[name=mode]')) input.checked = input.value === 'mk';
    showMode();
    ui.bits.value = String(example.bits);
    ui.hashes.value = String(example.hashes);
    ui.scheme.value = example.scheme;
    ui.item.value = '';
    newFilterFromForm();
    ui.ratesNote.textContent = example.ratesNote ?? '';
    ui.ratesNote.hidden = example.ratesNote === undefined;
  },
  run(step: Step): void {
    if (step.op === 'add') addItem(step.item);
    else if (step.op === 'check') checkItem(step.item);
    else {
      const n = state.filter.bitsSet();
      log(`bitsSet() → ${n}`);
      setVerdict('added', 'bitsSet()', `${n} of the ${state.filter.bits} bits are 1.`);
    }
    if (step.op !== 'bitsSet') ui.item.value = step.item;
  },
  show(button: string | null, status: string): void {
    ui.step.hidden = button === null;
    if (button !== null) ui.step.textContent = button;
    ui.stepStatus.textContent = status;
  },
});

ui.paramsForm.addEventListener('change', (e) => {
  const name = (e.target as HTMLElement).getAttribute('name');
  if (name === 'mode') showMode();
  if (name === 'scheme') {
    // sbbf takes k = 8 and whole 256-bit blocks: the m/k fields follow.
    const shape = formShape(ui.scheme.value as Scheme, Number(ui.bits.value), Number(ui.hashes.value));
    ui.bits.value = String(shape.bits);
    ui.hashes.value = String(shape.hashes);
  }
});
ui.paramsForm.addEventListener('submit', (e) => {
  e.preventDefault();
  newFilterFromForm();
  player.forget();
  ui.ratesNote.hidden = true;
});
ui.itemForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const submitter = (e as SubmitEvent).submitter;
  if (submitter === ui.check) return;
  if (ui.item.value === '') return;
  addItem(ui.item.value);
  render();
});
ui.item.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && e.shiftKey) {
    e.preventDefault();
    ui.check.click();
  }
});
ui.check.addEventListener('click', () => {
  if (ui.item.value === '') return;
  checkItem(ui.item.value);
  render();
});
ui.item.addEventListener('input', () => render());
ui.bulk.addEventListener('click', bulkAdd);
ui.clear.addEventListener('click', () => {
  const { filter, plannedCapacity, plannedRate } = state;
  filter.clear();
  reset(filter, plannedCapacity, plannedRate);
  log('clear()');
});
for (const id of ['seen-filter', 'sstable'] as ExampleId[]) {
  $<HTMLButtonElement>(`example-${id}`).addEventListener('click', () => {
    player.play(id);
    render();
  });
}
ui.step.addEventListener('click', () => {
  player.step();
  render();
});

showMode();
newFilterFromForm();
document.documentElement.dataset.ready = 'true';
