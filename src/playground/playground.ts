// The playground page: one BloomFilter (the WebAssembly build, the same code
// the package ships) and a view of its bits. esbuild bundles this file with
// the library into dist/playground/playground.js; `bloom serve` serves it.

import { BloomFilter, type Scheme } from '../index.js';
import { describeBit, drawBlocks, formShape, theoryRate } from './blocks.js';

/** The most grid cells drawn; above this, one cell stands for several bits. */
const MAX_CELLS = 4096;
/** Never-added items checked per measured point of the chart. */
const PROBES = 2000;
/** Items per click of the bulk button, and how often the chart is measured meanwhile. */
const BULK = 1000;
const BULK_STEP = 100;
/** Largest m the page accepts: the grid and the bit copies stay quick. */
const PAGE_MAX_BITS = 10_000_000;

function $<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`playground: #${id} is missing from index.html`);
  return el as T;
}

const ui = {
  paramsForm: $<HTMLFormElement>('params-form'),
  mkFields: $<HTMLDivElement>('mk-fields'),
  npFields: $<HTMLDivElement>('np-fields'),
  bits: $<HTMLInputElement>('bits'),
  hashes: $<HTMLInputElement>('hashes'),
  capacity: $<HTMLInputElement>('capacity'),
  rate: $<HTMLInputElement>('rate'),
  scheme: $<HTMLSelectElement>('scheme'),
  paramsError: $<HTMLParagraphElement>('params-error'),
  sizeSummary: $<HTMLParagraphElement>('size-summary'),
  itemForm: $<HTMLFormElement>('item-form'),
  item: $<HTMLInputElement>('item'),
  check: $<HTMLButtonElement>('check'),
  verdict: $<HTMLParagraphElement>('verdict'),
  step: $<HTMLButtonElement>('step'),
  stepStatus: $<HTMLParagraphElement>('step-status'),
  bulk: $<HTMLButtonElement>('bulk'),
  clear: $<HTMLButtonElement>('clear'),
  log: $<HTMLOListElement>('log'),
  statSet: $<HTMLElement>('stat-set'),
  statFill: $<HTMLElement>('stat-fill'),
  statAdded: $<HTMLElement>('stat-added'),
  statEstimate: $<HTMLElement>('stat-estimate'),
  statRate: $<HTMLElement>('stat-rate'),
  gridCaption: $<HTMLParagraphElement>('grid-caption'),
  grid: $<HTMLDivElement>('grid'),
  chart: $<HTMLCanvasElement>('chart'),
  chartSummary: $<HTMLParagraphElement>('chart-summary'),
};

/** A measured point of the chart: after `n` items, `rate` of the probes answered MAYBE. */
interface Point {
  n: number;
  rate: number;
}

interface State {
  filter: BloomFilter;
  /** The n the user sized for (n/p mode), or null (m/k mode). */
  plannedItems: number | null;
  plannedRate: number | null;
  /** Every distinct item added, to tell a false positive from a true MAYBE. */
  added: Set<string>;
  /** Sum of the added items' UTF-16 lengths, for the Set estimate. */
  addedUnits: number;
  points: Point[];
  bitsPerCell: number;
  cells: HTMLDivElement[];
}

let state: State;

// mulberry32 (Tommy Ettinger, public domain): a small seeded generator, so
// the random items of one session repeat from a reload.
let rngState = 0x9e3779b9;
function random(): number {
  rngState = (rngState + 0x6d2b79f5) | 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function randomWord(): string {
  return Math.floor(random() * 2 ** 32).toString(36).padStart(7, '0');
}
let randomCount = 0;
let probeCount = 0;

const fmt = new Intl.NumberFormat('en');
function fmtRate(x: number): string {
  if (x === 0) return '0';
  if (x >= 0.001) return `${(x * 100).toPrecision(3)}%`;
  return x.toExponential(2);
}
function fmtBytes(n: number): string {
  if (n < 10_000) return `${fmt.format(Math.round(n))} bytes`;
  if (n < 10_000_000) return `${fmt.format(Math.round(n / 1024))} KiB`;
  return `${fmt.format(Math.round(n / 1048576))} MiB`;
}
function quote(item: string): string {
  return `“${item.length > 60 ? item.slice(0, 60) + '…' : item}”`;
}

function mode(): 'mk' | 'np' {
  const checked = ui.paramsForm.querySelector<HTMLInputElement>('input[name=mode]:checked');
  return checked?.value === 'np' ? 'np' : 'mk';
}

function showMode(): void {
  const np = mode() === 'np';
  ui.npFields.hidden = !np;
  ui.mkFields.hidden = np;
}

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

function reset(filter: BloomFilter, plannedItems: number | null, plannedRate: number | null): void {
  state = { filter, plannedItems, plannedRate, added: new Set(), addedUnits: 0, points: [{ n: 0, rate: 0 }], bitsPerCell: 1, cells: [] };
  ui.log.replaceChildren();
  ui.verdict.replaceChildren();
  ui.verdict.className = 'verdict';
  buildGrid();
  log(`new BloomFilter(${filter.bits}, ${filter.hashes}, { scheme: '${filter.scheme}' })`);
  render();
}

function buildGrid(): void {
  const m = state.filter.bits;
  if (state.filter.scheme === 'sbbf') {
    const picture = drawBlocks(ui.grid, m, MAX_CELLS, (x) => fmt.format(x));
    if (picture !== null) {
      ui.grid.style.setProperty('--cell', picture.bitsPerCell === 1 ? '9px' : '14px');
      state.cells = picture.cells;
      state.bitsPerCell = picture.bitsPerCell;
      ui.gridCaption.textContent = picture.caption;
      return;
    }
  }
  ui.grid.classList.remove('blocks', 'block-cells');
  const perCell = Math.ceil(m / MAX_CELLS);
  const count = Math.ceil(m / perCell);
  state.bitsPerCell = perCell;
  const numbered = m <= 128;
  ui.grid.style.setProperty('--cell', numbered ? '30px' : m <= 1024 ? '16px' : '10px');
  const cells: HTMLDivElement[] = [];
  for (let i = 0; i < count; i++) {
    const cell = document.createElement('div');
    cell.className = 'cell';
    cell.dataset.index = String(i);
    if (numbered) cell.textContent = String(i);
    cells.push(cell);
  }
  ui.grid.replaceChildren(...cells);
  state.cells = cells;
  ui.gridCaption.textContent =
    perCell === 1
      ? `${fmt.format(m)} bits, bit 0 first.`
      : `${fmt.format(m)} bits: each cell stands for ${fmt.format(perCell)} bits and is darker as more of them are 1.`;
}

/** The current item's distinct positions (the input's text), or none when it is empty. */
function currentPositions(): number[] {
  const item = ui.item.value;
  return item === '' ? [] : state.filter.positions(item);
}

function render(): void {
  const { filter } = state;
  const m = filter.bits;
  const x = filter.bitsSet();
  const bytes = filter.bitArray();
  const perCell = state.bitsPerCell;
  const hits = new Set(currentPositions().map((p) => Math.floor(p / perCell)));

  for (let c = 0; c < state.cells.length; c++) {
    const cell = state.cells[c];
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
  const hitList = [...hits].sort((a, b) => a - b);
  ui.grid.setAttribute(
    'aria-label',
    `Bit array: ${x} of ${m} bits are 1.` + (hitList.length > 0 ? ` The current item's positions: ${currentPositions().join(', ')}.` : ''),
  );

  const fill = x / m;
  ui.statSet.textContent = fmt.format(x);
  ui.statFill.textContent = fill.toFixed(4);
  ui.statAdded.textContent = fmt.format(state.added.size);
  // -(m/k) ln(1 - X/m) (Swamidass and Baldi, 2007) and (X/m)^k, from the library.
  const estimate = filter.estimatedCount();
  ui.statEstimate.textContent = estimate === Infinity ? '∞ (every bit is 1)' : fmt.format(Math.round(estimate));
  ui.statRate.textContent = fmtRate(filter.currentFalsePositiveRate());
  renderSize();
  renderChart();
}

function renderSize(): void {
  const { filter, added, plannedItems } = state;
  const n = Math.max(plannedItems ?? 0, added.size);
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

function renderChart(): void {
  const canvas = ui.chart;
  const ctx = canvas.getContext('2d');
  if (ctx === null) return;
  const { filter, points } = state;
  const m = filter.bits;
  const k = filter.hashes;
  const W = canvas.width;
  const H = canvas.height;
  const left = 64, right = 16, top = 40, bottom = 40;
  const n = state.added.size;
  // The x axis reaches past the items so far, and at least to the planned n
  // (or the n at which k is optimal for this m: n = m ln 2 / k).
  const reach = state.plannedItems ?? Math.max(1, Math.round((m * Math.LN2) / k));
  const xMax = Math.max(10, Math.ceil(Math.max(n * 1.1, reach) / 10) * 10);
  const theoryAtEnd = theoryRate(filter, xMax);
  const yMax = Math.min(1, Math.max(0.01, theoryAtEnd, ...points.map((p) => p.rate)) * 1.1);
  const px = (v: number) => left + (v / xMax) * (W - left - right);
  const py = (v: number) => H - bottom - (v / yMax) * (H - top - bottom);

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

  if (state.plannedRate !== null && state.plannedRate <= yMax) {
    ctx.strokeStyle = '#374151';
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.moveTo(left, py(state.plannedRate));
    ctx.lineTo(W - right, py(state.plannedRate));
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    ctx.fillText(`planned p = ${fmtRate(state.plannedRate)}`, W - right - 4, py(state.plannedRate) - 3);
  }

  ctx.strokeStyle = '#1e3a8a';
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (let i = 0; i <= 200; i++) {
    const v = (xMax * i) / 200;
    const y = Math.pow(1 - Math.exp((-k * v) / m), k);
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

  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#1e3a8a';
  // The legend sits in the top margin, clear of the curve.
  ctx.fillRect(left, 13, 18, 3);
  ctx.fillStyle = '#111827';
  ctx.fillText('theory (1 − e^(−kn/m))^k', left + 24, 15);
  ctx.fillStyle = '#c2410c';
  ctx.beginPath();
  ctx.arc(left + 269, 15, 4, 0, 2 * Math.PI);
  ctx.fill();
  ctx.fillStyle = '#111827';
  ctx.fillText(`measured (${fmt.format(PROBES)} never-added items)`, left + 280, 15);

  const last = points[points.length - 1];
  ui.chartSummary.textContent =
    `After ${fmt.format(last.n)} item${last.n === 1 ? '' : 's'}: measured ${fmtRate(last.rate)}, theory ${fmtRate(theoryRate(filter, last.n))}.`;
}

/** Checks PROBES items that were never added and records the share answered MAYBE. */
function measure(): void {
  const { filter } = state;
  let maybes = 0;
  for (let i = 0; i < PROBES; i++) {
    // The prefix keeps probes apart from anything the random adds produce.
    if (filter.has(`probe-${probeCount++}-${randomWord()}`)) maybes++;
  }
  const n = state.added.size;
  const points = state.points;
  if (points.length > 0 && points[points.length - 1].n === n) points.pop();
  points.push({ n, rate: maybes / PROBES });
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

function setVerdict(kind: 'maybe' | 'no' | 'added', token: string, text: string, falsePositive = false): void {
  ui.verdict.className = `verdict ${kind === 'added' ? '' : kind}`;
  const tokenEl = document.createElement('span');
  tokenEl.className = 'token';
  tokenEl.textContent = token;
  const parts: Node[] = [tokenEl];
  if (falsePositive) {
    const fp = document.createElement('span');
    fp.className = 'fp';
    fp.textContent = 'false positive';
    parts.push(fp);
  }
  parts.push(document.createTextNode(` ${text}`));
  ui.verdict.replaceChildren(...parts);
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

/** One call of a worked example. */
type Step = { op: 'add' | 'check'; item: string } | { op: 'bitsSet' };

/** The worked examples of the source documents, as calls to replay. */
const EXAMPLES: Record<'000' | '001', { bits: number; hashes: number; scheme: Scheme; steps: Step[] }> = {
  // Seed 000: new SeenFilter(16, 3); add cats.io, dogs.io, owls.io;
  // bitsSet() is 9; dogs.io MAYBE, yaks.io NO, bats.io MAYBE (a false positive).
  '000': {
    bits: 16,
    hashes: 3,
    scheme: 'poly',
    steps: [
      { op: 'add', item: 'cats.io' },
      { op: 'add', item: 'dogs.io' },
      { op: 'add', item: 'owls.io' },
      { op: 'bitsSet' },
      { op: 'check', item: 'dogs.io' },
      { op: 'check', item: 'yaks.io' },
      { op: 'check', item: 'bats.io' },
    ],
  },
  // Seed 001: BLOOM-NEW with m = 100, k = 3; apple sets {30, 24, 18};
  // banana needs {9, 51, 93}, all 0, so BLOOM-CHECK banana prints NO.
  '001': {
    bits: 100,
    hashes: 3,
    scheme: 'bytesum',
    steps: [
      { op: 'add', item: 'apple' },
      { op: 'check', item: 'apple' },
      { op: 'check', item: 'banana' },
    ],
  },
};

/** The example being replayed step by step, and the index of its next step. */
let replay: { id: '000' | '001'; next: number } | null = null;
let lastExample: '000' | '001' | null = null;

function describeStep(step: Step): string {
  return step.op === 'bitsSet' ? 'bitsSet()' : `${step.op === 'add' ? 'add' : 'check'} ${quote(step.item)}`;
}

function runStep(step: Step): void {
  if (step.op === 'add') addItem(step.item);
  else if (step.op === 'check') checkItem(step.item);
  else {
    const n = state.filter.bitsSet();
    log(`bitsSet() → ${n}`);
    setVerdict('added', 'bitsSet()', `${n} of the ${state.filter.bits} bits are 1.`);
  }
  if (step.op !== 'bitsSet') ui.item.value = step.item;
}

/** Resets the form and the filter to an example's m, k and scheme. */
function loadExample(id: '000' | '001'): void {
  const ex = EXAMPLES[id];
  for (const input of ui.paramsForm.querySelectorAll<HTMLInputElement>('input[name=mode]')) input.checked = input.value === 'mk';
  showMode();
  ui.bits.value = String(ex.bits);
  ui.hashes.value = String(ex.hashes);
  ui.scheme.value = ex.scheme;
  ui.item.value = '';
  newFilterFromForm();
}

/** Loads a worked example from the source documents and plays all its calls. */
function example(id: '000' | '001'): void {
  loadExample(id);
  for (const step of EXAMPLES[id].steps) runStep(step);
  replay = null;
  lastExample = id;
  ui.step.hidden = false;
  ui.step.textContent = 'Replay it step by step';
  ui.stepStatus.textContent = `Seed ${id}: ${EXAMPLES[id].steps.length} calls played.`;
  render();
}

/** The step button: starts a replay from an empty filter, then runs one call per press. */
function step(): void {
  if (lastExample === null) return;
  if (replay === null) {
    loadExample(lastExample);
    replay = { id: lastExample, next: 0 };
  } else {
    runStep(EXAMPLES[replay.id].steps[replay.next++]);
  }
  const steps = EXAMPLES[replay.id].steps;
  if (replay.next < steps.length) {
    ui.step.textContent = `Next: ${describeStep(steps[replay.next])} (${replay.next + 1} of ${steps.length})`;
    ui.stepStatus.textContent = replay.next === 0 ? `Seed ${replay.id}: an empty filter.` : `Seed ${replay.id}: ${replay.next} of ${steps.length} calls done.`;
  } else {
    ui.step.textContent = 'Replay it step by step';
    ui.stepStatus.textContent = `Seed ${replay.id}: all ${steps.length} calls done.`;
    replay = null;
  }
  render();
}

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
  // A filter of the user's own ends any example replay.
  replay = null;
  lastExample = null;
  ui.step.hidden = true;
  ui.stepStatus.textContent = '';
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
  const { filter, plannedItems, plannedRate } = state;
  filter.clear();
  reset(filter, plannedItems, plannedRate);
  log('clear()');
});
$<HTMLButtonElement>('example-000').addEventListener('click', () => example('000'));
$<HTMLButtonElement>('example-001').addEventListener('click', () => example('001'));
ui.step.addEventListener('click', step);

showMode();
newFilterFromForm();
document.documentElement.dataset.ready = 'true';
